"""A contract rummy move as a value, and its text notation (parse and
format round-trip: ``str(Move.parse(text))`` is the canonical text).
The notation is described in ``docs/rules/contract.md`` ("Moves").
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import TEXT, Card
from ..errors import NotationError

_SIMPLE = ("draw", "take", "allow", "refuse", "buy", "undo")


@dataclass(frozen=True)
class Move:
    """One move. ``seat`` is ``None`` for "the player on turn" (or, for
    ``undo``, the player who may undo); the record always names the seat.

    Canonical text: ``[SEAT] draw | take | allow | refuse | buy | undo |
    discard CARD | down CARDS / CARDS ... | lay CARD MELD[+|-] |
    swap CARD MELD MELD[+|-]`` with melds numbered from 1.
    """

    action: str
    seat: int | None = None
    card: int | None = None
    melds: tuple[tuple[int, ...], ...] = ()
    target: int | None = None      # 0-based meld index (lay, swap)
    end: str = ""                  # "+" / "-" for a run end, "" if implied
    wild_target: int | None = None  # swap: where the freed wild goes

    def body(self) -> str:
        a = self.action
        if a in _SIMPLE:
            return a
        if a == "discard":
            return f"discard {TEXT[self.card]}"
        if a == "down":
            return "down " + " / ".join(" ".join(TEXT[c] for c in m) for m in self.melds)
        if a == "lay":
            return f"lay {TEXT[self.card]} {self.target + 1}{self.end}"
        return f"swap {TEXT[self.card]} {self.target + 1} {self.wild_target + 1}{self.end}"

    def __str__(self) -> str:
        return self.body() if self.seat is None else f"{self.seat} {self.body()}"

    @classmethod
    def parse(cls, text: str) -> "Move":
        """Read a move.

        :raises NotationError: not in the move notation.
        """
        if not isinstance(text, str):
            raise NotationError("a move is text", token=repr(text))
        tokens = text.split()
        if not tokens:
            raise NotationError("empty move", token=text)
        seat = None
        if tokens[0].isdigit():
            seat = int(tokens.pop(0))
            if not tokens:
                raise NotationError(f"{text!r}: a seat but no move", token=text)
        action = tokens[0].lower()
        args = tokens[1:]
        if action in _SIMPLE:
            if args:
                raise NotationError(f"{action!r} takes nothing after it", token=text)
            return cls(action, seat)
        if action == "discard":
            if len(args) != 1:
                raise NotationError("discard takes one card", token=text)
            return cls(action, seat, card=int(Card.parse(args[0])))
        if action == "down":
            melds, cur = [], []
            for t in args:
                if t == "/":
                    melds.append(tuple(cur))
                    cur = []
                else:
                    cur.append(int(Card.parse(t)))
            melds.append(tuple(cur))
            if any(not m for m in melds):
                raise NotationError("down: an empty meld (melds are separated by ' / ')",
                                    token=text)
            return cls(action, seat, melds=tuple(melds))
        if action == "lay":
            if len(args) != 2:
                raise NotationError("lay takes a card and a meld number", token=text)
            target, end = _meld_ref(args[1], text)
            return cls(action, seat, card=int(Card.parse(args[0])), target=target, end=end)
        if action == "swap":
            if len(args) != 3:
                raise NotationError("swap takes a card, the meld it goes in and the meld "
                                    "the freed wild goes to", token=text)
            target, e1 = _meld_ref(args[1], text)
            if e1:
                raise NotationError("swap: the first meld takes no end mark", token=text)
            wild_target, end = _meld_ref(args[2], text)
            return cls(action, seat, card=int(Card.parse(args[0])), target=target,
                       end=end, wild_target=wild_target)
        raise NotationError(f"unknown move {tokens[0]!r}", token=tokens[0])


def _meld_ref(token: str, text: str) -> tuple[int, str]:
    end = ""
    if token[-1:] in "+-" and token[-1:]:
        token, end = token[:-1], token[-1]
    if not token.isdigit() or int(token) < 1:
        raise NotationError(f"{token!r} is not a meld number (1, 2, ...)", token=text)
    return int(token) - 1, end
