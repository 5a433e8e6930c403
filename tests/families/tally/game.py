"""Tally's game state behind :class:`engine.base.Game`."""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from engine.base import Game, Outcome, check_new_args
from engine.errors import DealError, IllegalMoveError, NotationError, RuleOptionError
from engine.registry import register

TILES = [n for n in range(1, 13) for _ in range(2)]


@dataclass(frozen=True)
class TallyRules:
    hand: int = 4


@dataclass(frozen=True)
class Move:
    """``draw``, ``pass`` or ``play N``; ``str()`` is the canonical text."""

    verb: str
    tile: int | None = None

    @classmethod
    def parse(cls, text: str) -> "Move":
        """:raises NotationError: not a move of Tally."""
        words = str(text).split()
        if words in (["draw"], ["pass"]):
            return cls(words[0])
        if len(words) == 2 and words[0] == "play" and words[1].isdigit() and 1 <= int(words[1]) <= 12:
            return cls("play", int(words[1]))
        raise NotationError(f"not a move: {text!r} (draw, pass, play 1-12)", token=str(text))

    def __str__(self) -> str:
        return f"play {self.tile}" if self.verb == "play" else self.verb


def score_racks(racks: list[list[int]]) -> tuple[list[int], int]:
    """``(scores, winner)``: an empty rack wins, else the lowest (lowest
    seat on ties); each loser pays the winner its rack's sum."""
    sums = [sum(r) for r in racks]
    winner = min(range(len(racks)), key=lambda i: (sums[i], i))
    scores = [-s for s in sums]
    scores[winner] = 0
    scores[winner] = -sum(scores)
    return scores, winner


@register
class TallyGame(Game):
    family: ClassVar[str] = "tally"
    variant: ClassVar[str] = "tally"
    aliases: ClassVar[tuple[str, ...]] = ("tally-test",)
    min_players = 2
    max_players = 4
    RuleSet = TallyRules

    @classmethod
    def rules_from_dict(cls, data):
        data = dict(data or {})
        if set(data) - {"hand"}:
            raise RuleOptionError(f"unknown rule option {sorted(set(data) - {'hand'})[0]!r}")
        hand = data.get("hand", 4)
        if isinstance(hand, bool) or not isinstance(hand, int) or not 1 <= hand <= 6:
            raise RuleOptionError(f"hand must be 1 to 6, not {hand!r}")
        return TallyRules(hand)

    @classmethod
    def rules_to_dict(cls, rules):
        return asdict(rules)

    @classmethod
    def rule_options(cls):
        return [{"name": "hand", "default": 4, "kind": "int", "min": 1, "max": 6,
                 "sentence": "how many tiles each seat is dealt"}]

    @classmethod
    def new(cls, players, rules=None, *, seed=None, deal=None, first=0):
        check_new_args(players, seed, deal, first, low=cls.min_players, high=cls.max_players, name="tally")
        rules = rules or TallyRules()
        if deal is not None:
            raise DealError("tally is dealt from a seed only")
        pool = list(TILES)
        random.Random(seed).shuffle(pool)
        g = cls()
        g.rules, g.n = rules, players
        g.racks = [sorted(pool[i * rules.hand:(i + 1) * rules.hand]) for i in range(players)]
        g.pool, g.table, g.active, g.passes, g.over = pool[players * rules.hand:], [], first, 0, False
        return g

    def parse_move(self, text):
        return Move.parse(text)

    def legal_moves(self) -> list[Move]:
        if self.over:
            return []
        top = self.table[-1] if self.table else 0
        plays = [Move("play", t) for t in sorted(set(self.racks[self.active])) if t > top]
        return plays + [Move("draw") if self.pool else Move("pass")]

    def push(self, move):
        if isinstance(move, str):
            move = Move.parse(move)
        if self.over:
            raise IllegalMoveError("the game is over", "game-over")
        seat, rack = self.active, self.racks[self.active]
        if move.verb == "draw":
            if not self.pool:
                raise IllegalMoveError("the pool is empty: pass", "pool-empty")
            rack.append(self.pool.pop(0))
            rack.sort()
            self.passes, kind = 0, "drew"
        elif move.verb == "pass":
            if self.pool:
                raise IllegalMoveError("pass only when the pool is empty", "pass-with-pool")
            self.passes, kind = self.passes + 1, "passed"
        else:
            if move.tile not in rack:
                raise IllegalMoveError(f"{move.tile} is not on your rack", "not-on-rack")
            if self.table and move.tile <= self.table[-1]:
                raise IllegalMoveError(f"{move.tile} is not higher than {self.table[-1]}", "not-higher")
            rack.remove(move.tile)
            self.table.append(move.tile)
            self.passes, kind = 0, "played"
        if not rack or self.passes >= self.n:
            self.over = True
            return Outcome("game-over", seat, {"last": kind}, game_over=True)
        if self.passes:
            self.table = []   # a pass clears the table
        self.active = (self.active + 1) % self.n
        return Outcome(kind, seat)

    @property
    def to_move(self):
        return None if self.over else self.active

    @property
    def is_over(self):
        return self.over

    def scores(self):
        return score_racks(self.racks)[0] if self.over else None

    def view(self, seat) -> dict[str, Any]:
        data = {"family": self.family, "variant": self.variant, "table": list(self.table),
                "rack_counts": [len(r) for r in self.racks], "pool_count": len(self.pool),
                "to_move": self.to_move, "is_over": self.over}
        if seat is not None:
            data["rack"] = list(self.racks[seat])
        if self.over:
            data["racks"] = [list(r) for r in self.racks]
            data["scores"] = self.scores()
            data["winners"] = [score_racks(self.racks)[1]]
        return data

    def snapshot(self):
        return {"rules": asdict(self.rules), "n": self.n, "racks": self.racks, "pool": self.pool,
                "table": self.table, "active": self.active, "passes": self.passes, "over": self.over}

    @classmethod
    def from_snapshot(cls, data):
        g = cls()
        g.rules, g.n = TallyRules(**data["rules"]), data["n"]
        g.racks = [list(r) for r in data["racks"]]
        g.pool, g.table = list(data["pool"]), list(data["table"])
        g.active, g.passes, g.over = data["active"], data["passes"], data["over"]
        return g
