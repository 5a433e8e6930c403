"""Regenerate the contract rummy sample records (deterministic).

    .venv/bin/python docs/examples/contract-examples.py

Writes ``contract-*.txt`` here; each replays with ``python -m engine replay
FILE`` (``contract-illegal-*.txt`` is refused at the turn its ``Expect`` tag
names). ``tests/engine/test_contract_examples.py`` checks them.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from engine.contract.ai import ContractPlayer, play_game, play_turn  # noqa: E402
from engine.cards import TEXT  # noqa: E402
from engine.contract import ContractGame, InternationalGame, Move  # noqa: E402
from engine.records import record_from_game, write_record  # noqa: E402


def save(name, game, seats, tags, extra_moves=()):
    rec = record_from_game(game, seats, tags)
    for text, comment in extra_moves:
        rec.moves.append((text, comment, 0))
    (HERE / name).write_text(write_record(rec), encoding="utf-8")
    print(f"{name}: {len(rec.moves)} moves, scores {game.scores()}")


def three_decks():
    g = ContractGame.new(4, seed="club-night-1")
    play_game(g)
    save("contract-three-decks.txt", g, ["Ann", "Ben", "Cleo", "Dev"],
         {"Event": "Seed 002 rules: three decks, twos wild, buying with consent"})


def international_with_undo():
    g = InternationalGame.new(4, seed="club-night-2")
    players = [ContractPlayer(s) for s in range(4)]
    undone = False
    while not g.is_over:
        play_turn(g, players)
        seat = (g.active - 1) % g.n
        if not undone and g.hand_no == 0 and g.turn > 6 and g.can_undo(seat):
            g.push(Move("undo", seat))          # the discarder takes it back
            g.push(players[seat].discard_move(g))
            undone = True
    save("contract-international.txt", g, ["Ann", "Ben", "Cleo", "Dev"],
         {"Event": "Seed 004 International: players rule, buying by turn order, undo"})


def table_deal():
    probe = ContractGame.new(3, seed="typed-at-the-table")
    deal = {}
    for h in range(7):
        probe.hand_no = h
        probe._start_hand()
        deal[f"hand{h + 1}"] = [[TEXT[c] for c in hand] for hand in probe.hands]
        deal[f"upcard{h + 1}"] = [TEXT[probe.discards[-1]]]
        deal[f"stock{h + 1}"] = [TEXT[c] for c in reversed(probe.stock)]
    g = ContractGame.new(3, deal=deal)
    play_game(g)
    save("contract-table-deal.txt", g, ["Ann", "Ben", "Cleo"],
         {"Event": "A game dealt at a real table: every hand's cards typed in"})


def illegal_player_discard():
    """An International game stopped at the first turn where the player on
    turn holds a "player"; the record then discards it."""
    g = InternationalGame.new(3, seed="club-night-3")
    players = [ContractPlayer(s) for s in range(3)]
    while True:
        play_turn(g, players)
        if g.table and g.phase == "draw":
            me = g.active
            g.push(players[me].draw_move(g))
            bad = [c for c in g.hands[me] if g._r.plays(c, g.table)
                   and not (g.hands[me].count(c) >= 2 and g._r.plays_on_run(c, g.table))]
            if bad and len(bad) < len(g.hands[me]) and not g.down[me]:
                break
            # not the position we want: finish this turn normally
            while True:
                mv = players[me].play_moves(g)
                if mv is None:
                    break
                g.push(mv)
            g.push(players[me].discard_move(g))
    turn = len(g.move_stack) + 1
    save("contract-illegal-players-rule.txt", g, ["Ann", "Ben", "Cleo"],
         {"Event": "An illegal record: a player is discarded",
          "Expect": f"turn {turn} players-rule"},
         [(f"{g.active} discard {TEXT[bad[0]]}", "")])


if __name__ == "__main__":
    three_decks()
    international_with_undo()
    table_deal()
    illegal_player_discard()
