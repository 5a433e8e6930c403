"""A tiny game behind the engine interface, for testing the store alone.

"Highcard": tiles t01..t30, each seat dealt three from a seeded shuffle.
On your turn: ``draw`` the top tile, ``play tNN`` a tile higher than the
table's top tile, or ``pass`` when the pool is empty. Playing a tile that is
not higher is illegal and costs a penalty (draw two). A rack that empties
wins; with the pool empty and every seat passing in a row the game ends.
Scores are zero-sum: each loser pays the number of tiles it holds times ten,
the winner (fewest tiles, lowest seat on ties) collects.
"""

from __future__ import annotations

import random
import re
from dataclasses import asdict, dataclass

from engine.base import Game, Outcome
from engine.errors import DealError, IllegalMoveError, NotationError, RuleOptionError

TILES = [f"t{n:02d}" for n in range(1, 31)]


@dataclass(frozen=True)
class Rules:
    hand: int = 3


@dataclass(frozen=True)
class Move:
    verb: str
    tile: str | None = None

    def __str__(self) -> str:
        return f"{self.verb} {self.tile}" if self.tile else self.verb


class Highcard(Game):
    family = "test"
    variant = "highcard"
    aliases = ("hc",)
    min_players = 2
    max_players = 4
    RuleSet = Rules

    @classmethod
    def rules_from_dict(cls, data):
        data = dict(data or {})
        unknown = set(data) - {"hand"}
        if unknown:
            raise RuleOptionError(f"unknown rule option {sorted(unknown)[0]!r}")
        hand = data.get("hand", 3)
        if not isinstance(hand, int) or not 1 <= hand <= 6:
            raise RuleOptionError(f"hand must be 1 to 6, not {hand!r}")
        return Rules(hand=hand)

    @classmethod
    def rules_to_dict(cls, rules):
        return asdict(rules)

    @classmethod
    def new(cls, players, rules=None, *, seed=None, deal=None, first=0):
        rules = rules or Rules()
        if (seed is None) == (deal is None):
            raise DealError("give exactly one of seed and deal")
        if not cls.min_players <= players <= cls.max_players:
            raise DealError(f"highcard takes 2 to 4 players, not {players}")
        if seed is not None:
            pool = list(TILES)
            random.Random(seed).shuffle(pool)
            racks = [pool[i * rules.hand:(i + 1) * rules.hand] for i in range(players)]
            pool = pool[players * rules.hand:]
        else:
            racks = [list(r) for r in deal.get("racks", [])]
            pool = list(deal.get("pool", []))
            every = [t for r in racks for t in r] + pool
            bad = [t for t in every if t not in TILES]
            if bad:
                raise DealError(f"unknown tile {bad[0]!r} in the deal")
            if len(racks) != players or sorted(every) != sorted(TILES):
                raise DealError("a deal must hold one rack per seat and every tile once")
        game = cls()
        game.rules, game.racks, game.pool, game.table = rules, racks, pool, []
        game.turn, game.passes, game.over = first, 0, False
        return game

    def parse_move(self, text):
        text = " ".join(str(text).split())
        if text in ("draw", "pass", "penalty"):
            return Move(text)
        m = re.fullmatch(r"play (\S+)", text)
        if not m:
            raise NotationError(f"not a move: {text!r} (draw, pass, play tNN)", token=text)
        if m.group(1) not in TILES:
            raise NotationError(f"unknown tile {m.group(1)!r}", token=m.group(1))
        return Move("play", m.group(1))

    def push(self, move):
        if self.over:
            raise IllegalMoveError("the game is over", "game-over")
        seat, rack = self.turn, self.racks[self.turn]
        if move.verb == "draw":
            if not self.pool:
                raise IllegalMoveError("the pool is empty", "pool-empty")
            rack.append(self.pool.pop(0))
            self.passes = 0
            kind = "drew"
        elif move.verb == "pass":
            if self.pool:
                raise IllegalMoveError("pass only when the pool is empty", "pass-with-pool")
            self.passes += 1
            kind = "passed"
        elif move.verb == "penalty":
            self.passes = 0 if self.pool else self.passes + 1
            for _ in range(2):
                if self.pool:
                    rack.append(self.pool.pop(0))
            kind = "penalty"
        else:
            if move.tile not in rack:
                raise IllegalMoveError(f"{move.tile} is not on your rack", "not-on-rack")
            if self.table and move.tile <= self.table[-1]:
                raise IllegalMoveError(f"{move.tile} is not higher than {self.table[-1]}", "too-low",
                                       penalty=Move("penalty"))
            rack.remove(move.tile)
            self.table.append(move.tile)
            self.passes = 0
            kind = "played"
        if not rack or (not self.pool and self.passes >= len(self.racks)):
            self.over = True
            return Outcome("game-over", seat, {"last": kind}, game_over=True)
        self.turn = (self.turn + 1) % len(self.racks)
        return Outcome(kind, seat)

    def legal_moves(self):
        moves = [Move("draw")] if self.pool else [Move("pass")]
        top = self.table[-1] if self.table else ""
        moves += [Move("play", t) for t in self.racks[self.turn] if t > top]
        return moves

    @property
    def to_move(self):
        return None if self.over else self.turn

    @property
    def is_over(self):
        return self.over

    def scores(self):
        if not self.over:
            return None
        counts = [len(r) for r in self.racks]
        winner = min(range(len(counts)), key=lambda i: (counts[i], i))
        pay = [-10 * c for c in counts]
        pay[winner] = 0
        pay[winner] = -sum(pay)
        return pay

    def view(self, seat):
        data = {"table": list(self.table), "racks": [len(r) for r in self.racks], "pool": len(self.pool),
                "to_move": self.to_move}
        if seat is not None:
            data["rack"] = sorted(self.racks[seat])
        if self.over:
            data["all_racks"] = [sorted(r) for r in self.racks]
        return data

    def snapshot(self):
        return {"rules": asdict(self.rules), "racks": self.racks, "pool": self.pool, "table": self.table,
                "turn": self.turn, "passes": self.passes, "over": self.over}

    @classmethod
    def from_snapshot(cls, data):
        game = cls()
        game.rules = Rules(**data["rules"])
        game.racks = [list(r) for r in data["racks"]]
        game.pool, game.table = list(data["pool"]), list(data["table"])
        game.turn, game.passes, game.over = data["turn"], data["passes"], data["over"]
        return game
