"""Fuzz targets: the parsers raise only their typed errors, and a refused
move leaves the game exactly as it was."""

import random

from hypothesis import given, settings, strategies as st

from engine.rummikub.ai.random_player import RandomPlayer
from engine.errors import IllegalMoveError, NotationError, RecordError
from engine.melds import parse_melds
from engine.records import read_record
from engine.rummikub import Move, PRESETS, SabraGame

ALPHABET = "KRBOJ0123456789()[]:->; \n\"play draw pass"


@given(st.text(alphabet=ALPHABET, max_size=60))
def test_move_parser_raises_only_notation_errors(text):
    try:
        move = Move.parse(text)
    except NotationError:
        return
    assert Move.parse(str(move)) == move


@given(st.text(alphabet=ALPHABET, max_size=60))
def test_meld_parser_raises_only_notation_errors(text):
    try:
        parse_melds(text)
    except NotationError:
        pass


@given(st.text(max_size=200))
def test_record_reader_raises_only_record_errors(text):
    try:
        read_record(text)
    except RecordError:
        pass


def _mutations(game, move, rng):
    """Moves near a legal one: a tile swapped, a meld dropped or doubled."""
    out = []
    if move.kind != "play":
        return out
    added = list(move.added)
    for _ in range(4):
        new = [list(m) for m in added]
        i = rng.randrange(len(new))
        j = rng.randrange(len(new[i]))
        new[i][j] = rng.randrange(0, 118) if rng.random() < 0.3 else rng.randrange(52)
        if new[i][j] == 52:
            new[i][j] = 0
        try:
            out.append(Move.play(move.removed, [tuple(m) for m in new]))
        except NotationError:
            pass
    if len(added) > 1:
        try:
            out.append(Move.play(move.removed, added[1:]))
        except NotationError:
            pass
    try:
        out.append(Move.play(move.removed, added + added[:1]))
    except NotationError:
        pass
    return out


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_refused_moves_change_nothing(seed):
    rng = random.Random(seed)
    rules = list(PRESETS.values())[seed % len(PRESETS)]
    game = SabraGame.new(2 + seed % 3, rules, seed=f"fuzz-{seed}")
    player = RandomPlayer(seed)
    refused = 0
    while not game.is_over and game.turn < 400:
        move = player.choose(game)
        for bad in _mutations(game, move, rng):
            before = game.snapshot()
            try:
                game.push(bad)
            except IllegalMoveError as exc:
                refused += 1
                assert exc.rule and str(exc)
                assert game.snapshot() == before
            else:
                break  # the mutation happened to be legal: the game moved on
        else:
            game.push(move)
