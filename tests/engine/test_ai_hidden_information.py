"""No AI level of any family reads what its seat may not see.

For positions reached in seeded self-play, each level of each family
(:func:`engine.ai.levels_for`) chooses a move; then the hidden part of the
game (the other seats' racks or hands and the pool, stock or middle) is
scrambled consistently (the same tiles, dealt at random into racks of the
same sizes and a pool of the same size, the face-up trump kept where it is)
and the level, built with the same seed, must choose the same move.
"""

from __future__ import annotations

import copy
import random

import pytest

from engine.ai import levels_for
from engine.american import AmericanGame, InternationalGame
from engine.american.deal import STACK
from engine.contract import ContractGame
from engine.contract.ai.seat import next_seat_move
from engine.okey import OkeyGame
from engine.registry import FAMILIES
from engine.rummikub import SabraGame, SabraXPGame

# A player that hides nothing, so the positions vary: the first level above
# random in each family.
POSITIONS = 6


def _deal_out(rng: random.Random, pieces: list, sizes: list[int]) -> list[list]:
    rng.shuffle(pieces)
    out, at = [], 0
    for n in sizes:
        out.append(pieces[at:at + n])
        at += n
    assert at == len(pieces)
    return out


def scramble_rummikub(game, seat: int, rng: random.Random):
    g = copy.deepcopy(game)
    others = [s for s in range(g.players) if s != seat]
    pieces, sizes = [], []
    for s in others:
        tiles = [t for t, k in enumerate(g.racks[s]) for _ in range(k)]
        pieces += tiles
        sizes.append(len(tiles))
    pool = list(g.pool[g.pool_pos:]) if g.pool is not None else []
    pieces += pool
    sizes.append(len(pool))
    dealt = _deal_out(rng, pieces, sizes)
    for s, tiles in zip(others, dealt):
        counts = [0] * len(g.racks[s])
        for t in tiles:
            counts[t] += 1
        g.racks[s] = counts
    if g.pool is not None:
        g.pool = list(g.pool[:g.pool_pos]) + dealt[-1]
    return g


def scramble_american(game, seat: int, rng: random.Random):
    g = copy.deepcopy(game)
    others = [s for s in range(g.n) if s != seat]
    fixed = None
    pool = list(g.pool)
    if g.trump_in_pool():       # the trump lies face up where it is
        fixed = len(pool) - STACK
        trump = pool.pop(fixed)
    pieces = [t for s in others for t in g.racks[s]] + pool
    dealt = _deal_out(rng, pieces, [len(g.racks[s]) for s in others] + [len(pool)])
    for s, tiles in zip(others, dealt):
        g.racks[s] = tiles
    g.pool = dealt[-1]
    if fixed is not None:
        g.pool.insert(fixed, trump)
    return g


def scramble_okey(game, seat: int, rng: random.Random):
    g = copy.deepcopy(game)
    others = [s for s in range(g.n) if s != seat]
    pieces = [t for s in others for t in g.racks[s]] + list(g.middle)
    dealt = _deal_out(rng, pieces, [len(g.racks[s]) for s in others] + [len(g.middle)])
    for s, tiles in zip(others, dealt):
        g.racks[s] = tiles
    g.middle = dealt[-1]
    return g


def scramble_contract(game, seat: int, rng: random.Random):
    g = copy.deepcopy(game)
    others = [s for s in range(g.n) if s != seat]
    pieces = [c for s in others for c in g.hands[s]] + list(g.stock)
    dealt = _deal_out(rng, pieces, [len(g.hands[s]) for s in others] + [len(g.stock)])
    for s, cards in zip(others, dealt):
        g.hands[s] = cards
    g.stock = dealt[-1]
    return g


def _advance(game, players, moves: int, family: str):
    """Play ``moves`` moves of self-play (the same level in every seat)."""
    for _ in range(moves):
        if game.is_over or (family == "okey" and game.results):
            return False
        if family == "contract":
            move = next_seat_move(game, players)
        else:
            move = players[game.to_move].choose(game)
        game.push(move)
    return True


CASES = [
    ("rummikub", SabraGame, 2, scramble_rummikub, 9),
    ("rummikub", SabraGame, 4, scramble_rummikub, 17),
    ("rummikub", SabraXPGame, 5, scramble_rummikub, 13),
    ("american", AmericanGame, 2, scramble_american, 14),
    ("american", InternationalGame, 3, scramble_american, 14),
    ("okey", OkeyGame, 4, scramble_okey, 11),
    ("contract", ContractGame, 3, scramble_contract, 23),
]


def _levels(family):
    return sorted(levels_for(family))


def test_every_family_is_covered():
    assert {c[0] for c in CASES} == set(FAMILIES)


@pytest.mark.parametrize("family,cls,seats,scramble,step", CASES,
                         ids=[f"{c[1].__name__}-{c[2]}" for c in CASES])
def test_a_level_chooses_the_same_move_when_the_hidden_tiles_are_scrambled(family, cls, seats, scramble,
                                                                          step):
    levels = levels_for(family)
    walker_name = [n for n in levels if n != "random"][0]
    rng = random.Random(f"scramble-{cls.__name__}-{seats}")
    checked = 0
    for deal in range(2):
        game = cls.new(seats, seed=f"hidden-{cls.__name__}-{seats}-{deal}")
        walkers = [levels[walker_name](f"walk-{s}") for s in range(seats)]
        for k in range(POSITIONS):
            if not _advance(game, walkers, step if k else 1 + deal, family):
                break
            seat = game.active if family == "contract" else game.to_move
            asked = [seat]
            if family == "contract":   # seats off turn may buy: they decide too
                asked += [s for s in game.pending_actors() if s != seat]
            for name, level in levels.items():
                for s in asked:
                    seed = f"same-{name}-{s}-{k}"
                    if family == "contract":
                        want = level(seed).choose(game, s)
                    else:
                        want = level(seed).choose(game)
                    for _ in range(2):
                        other = scramble(game, s, rng)
                        got = level(seed).choose(other, s) if family == "contract" else level(seed).choose(other)
                        assert str(got) == str(want), (name, s, k, str(want), str(got))
                    checked += 1
    assert checked >= 2 * len(levels)


@pytest.mark.parametrize("scramble,cls,seats", [(scramble_rummikub, SabraGame, 3),
                                                 (scramble_american, InternationalGame, 2),
                                                 (scramble_okey, OkeyGame, 4),
                                                 (scramble_contract, ContractGame, 3)])
def test_the_scramble_keeps_what_the_seat_sees_and_changes_what_it_does_not(scramble, cls, seats):
    game = cls.new(seats, seed="scramble-check")
    seat = 0
    other = scramble(game, seat, random.Random(1))
    assert other.view(seat) == game.view(seat)
    hidden = (lambda g: (g.racks[1:], g.pool)) if cls is SabraGame else \
        (lambda g: (g.racks[1:], g.pool)) if cls is InternationalGame else \
        (lambda g: (g.racks[1:], g.middle)) if cls is OkeyGame else (lambda g: (g.hands[1:], g.stock))
    assert hidden(other) != hidden(game)
