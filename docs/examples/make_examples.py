"""Regenerate the sample records in docs/examples/ (deterministic).

    .venv/bin/python docs/examples/make_examples.py

Each record replays with ``python -m engine replay FILE``; the test
``tests/engine/test_rk_records.py`` replays every ``*.txt`` here and checks
that ``illegal-*.txt`` is refused at the turn its ``Expect`` tag names.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from engine.rummikub.ai.random_player import RandomPlayer  # noqa: E402
from engine.errors import IllegalMoveError  # noqa: E402
from engine.records import record_from_game, write_record  # noqa: E402
from engine.rummikub import Move, RuleSet, SabraGame, SabraXPGame  # noqa: E402
from engine.tiles import STANDARD, format_tiles, parse_tiles  # noqa: E402


def finish(game, seed, limit=10_000):
    player = RandomPlayer(seed)
    while not game.is_over and limit:
        game.push(player.choose(game))
        limit -= 1
    return game


def save(name, game, seats, tags, notes=None):
    rec = record_from_game(game, seats, tags)
    for turn, note in (notes or {}).items():
        text, comment, line = rec.moves[turn - 1]
        rec.moves[turn - 1] = (text, f"{comment}: {note}" if comment else note, line)
    (HERE / name).write_text(write_record(rec), encoding="utf-8")
    print(f"{name}: {len(rec.moves)} turns, scores {game.scores()}")


def deal_with(racks_start: list[str], players: int, seed: str):
    """A full deal whose racks begin with the given tiles (the rest of each
    rack and the pool's order filled from a seeded shuffle)."""
    rng = random.Random(seed)
    left = STANDARD.counts()
    racks = []
    for text in racks_start:
        tiles = parse_tiles(text)
        for t in tiles:
            left[t] -= 1
            assert left[t] >= 0, text
        racks.append(list(tiles))
    rest = [t for code, n in enumerate(left) for t in [code] * n]
    rng.shuffle(rest)
    for r in racks:
        while len(r) < 14:
            r.append(rest.pop())
    return {"racks": [format_tiles(r).split() for r in racks],
            "pool": format_tiles(rest, sort=False).split()}


def normal_game():
    g = SabraGame.new(4, RuleSet(), seed="example-normal-game", first=0)
    finish(g, 1)
    save("normal-game.txt", g, ["Ann", "Ben", "Cleo", "Dov"],
         {"Event": "Club night", "Site": "Tel Aviv", "Date": "2026.11.20"})


def pool_empty_game():
    for i in range(500):
        g = finish(SabraGame.new(2, RuleSet(), seed=f"example-pool-empty-{i}"), i)
        if g.end_reason == "pool-empty" and len(set(g.scores())) > 1:
            save("pool-empty.txt", g, ["Ann", "Ben"], {"Event": "Pool-empty ending"})
            return
    raise SystemExit("no pool-empty game found")


def penalty_game():
    """A game from a real table: dealt tiles typed in, every draw named; at
    one turn a manipulation fails and costs three tiles."""
    seeded = SabraGame.new(3, RuleSet(), seed="example-penalty")
    deal = {"racks": [[str(t) for t in seeded.rack(s)] for s in range(3)]}
    game = SabraGame.new(3, RuleSet(), deal=deal)
    player = RandomPlayer(7)
    notes = {}
    failed = False
    while not seeded.is_over:
        move = player.choose(seeded)
        seat = seeded.to_move
        if not failed and move.kind == "play" and move.removed and seeded.turn > 20 \
                and len(move.added[0]) >= 4:
            # the player rearranges the table but leaves two loose tiles
            m = move.added[0]
            broken = Move("play", move.tiles, move.removed, [m[:2], m[2:]] + list(move.added[1:]))
            try:
                seeded.push(broken)
            except IllegalMoveError as exc:
                assert exc.rule == "table-not-valid"
                notes[seeded.turn + 1] = f"tried {broken}; the table was not valid"
                move = exc.penalty
                failed = True
        out = seeded.push(move)
        named = Move(move.kind, [parse_tiles(t)[0] for t in out.detail["tiles"]]) \
            if move.kind in ("draw", "timeout", "penalty") else move
        game.push(named)
        assert game.to_move == seeded.to_move or game.is_over
    assert failed
    save("failed-manipulation-penalty.txt", game, ["Ann", "Ben", "Cleo"],
         {"Event": "A game from a real table", "Note": "dealt tiles typed in; draws named"}, notes)


JOKER_CASES = {
    # reading: (seat 1's extra tiles, the freeing move)
    "any": ("R8 R9 R10 R11 R12 K11",
            "play K11 : [K10 J(K11) K12] [R8 R9 R10 R11 R12] -> [K10 K11 K12] [R8 R9 R10 R11 R12 J(R13)]"),
    "new-meld": ("R8 R9 R10 R11 R12 K11",
                 "play K11 : [K10 J(K11) K12] [R8 R9 R10 R11 R12] -> [K10 K11 K12] [R8 R9 R10] [R11 R12 J(R13)]"),
    "new-meld-with-rack-tiles": ("R8 R9 R10 R11 R12 K11 B5 B6",
                                 "play K11 B5 B6 : [K7 R7 B7 O7] [K10 J(K11) K12] -> "
                                 "[K7 R7 O7] [K10 K11 K12] [B5 B6 B7 J(B8)]"),
    "joker-and-rack-tiles-only": ("R8 R9 R10 R11 R12 K11 B5 B6",
                                  "play K11 B5 B6 : [K10 J(K11) K12] -> [K10 K11 K12] [B5 B6 J(B7)]"),
}


def joker_games():
    for number, (reading, (extra, freeing)) in enumerate(JOKER_CASES.items(), 1):
        rules = RuleSet(joker_reuse=reading)
        deal = deal_with(["K7 R7 B7 O7 K10 K12 J", extra], 2, f"joker-{reading}")
        g = SabraGame.new(2, rules, deal=deal)
        g.push("play K7 R7 B7 O7 K10 K12 J -> [K7 R7 B7 O7] [K10 J(K11) K12]")
        g.push("play R8 R9 R10 R11 R12 -> [R8 R9 R10 R11 R12]")
        g.push("draw")
        g.push(freeing)
        finish(g, 3)
        short = {"new-meld-with-rack-tiles": "with-rack-tiles",
                 "joker-and-rack-tiles-only": "rack-tiles-only"}.get(reading, reading)
        save(f"joker-reuse-{number}-{short}.txt", g, ["Ann", "Ben"],
             {"Event": f"A joker freed under reading '{reading}'"},
             {4: f"frees the joker (joker_reuse={reading})"})


def xp_game():
    g = SabraXPGame.new(6, RuleSet(), seed="example-xp-six", first=2)
    finish(g, 6)
    save("xp-six-players.txt", g, ["Ann", "Ben", "Cleo", "Dov", "Eli", "Fay"],
         {"Event": "Rummikub XP, six players"})


def illegal_game():
    """Turn 3: Cleo lays 6 points as her initial meld."""
    deal = deal_with(["K10 K11 K12", "R1 R2", "B1 B2 B3"], 3, "illegal")
    g = SabraGame.new(3, RuleSet(), deal=deal)
    g.push("play K10 K11 K12 -> [K10 K11 K12]")
    g.push("draw")
    rec = record_from_game(g, ["Ann", "Ben", "Cleo"],
                           {"Event": "An illegal record", "Expect": "turn 3 initial-meld-below-threshold"})
    rec.moves.append(("2 play B1 B2 B3 -> [B1 B2 B3]", "Cleo: 6 points is no initial meld", 0))
    rec.moves.append(("0 draw", "Ann", 0))
    (HERE / "illegal-initial-meld.txt").write_text(write_record(rec), encoding="utf-8")
    print("illegal-initial-meld.txt: refused at turn 3")


def out_of_turn_game():
    """A game typed in from a real table where Ben's turn 5 was skipped:
    Cleo's move is written as turn 5. Refused there: seat 2 moved, seat 1
    was on turn."""
    g = SabraGame.new(3, RuleSet(), seed="example-out-of-turn")
    player = RandomPlayer(5)
    for _ in range(4):
        g.push(player.choose(g))
    rec = record_from_game(g, ["Ann", "Ben", "Cleo"],
                           {"Event": "A turn skipped when the game was typed in",
                            "Expect": "turn 5 not-your-turn"})
    rec.moves.append(("2 draw", "Cleo (Ben's turn was not written down)", 0))
    rec.moves.append(("0 draw", "Ann", 0))
    (HERE / "illegal-out-of-turn.txt").write_text(write_record(rec), encoding="utf-8")
    print("illegal-out-of-turn.txt: refused at turn 5")


if __name__ == "__main__":
    normal_game()
    pool_empty_game()
    penalty_game()
    joker_games()
    xp_game()
    illegal_game()
    out_of_turn_game()
