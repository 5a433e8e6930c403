"""Melds of contract rummy: a :class:`Meld` on the table, the checks that
build and re-check sets and runs under a rule set (:class:`MeldRules`:
wild cards, aces, the natural/wild ratio, laying off, swapping a wild), and
:func:`lay`, which adds a card to a meld.
"""

from __future__ import annotations

from typing import Any

from ..cards import JOKER_CODE, TEXT, Card
from ..errors import IllegalMoveError
from .rules import ContractRules

class Meld:
    """A meld on the table. A set has ``rank``; a run has ``suit`` (0-3) and
    ``start`` (the position of ``cards[0]``: 1 a low ace ... 14 a high ace).
    Wild cards in a run stand for the card of their position; wild cards in a
    set are buried there for good."""

    __slots__ = ("kind", "owner", "cards", "rank", "suit", "start", "wilds")

    def __init__(self, kind: str, owner: int, cards: list[int], rank: int = 0,
                 suit: int = 0, start: int = 0, wilds: int = 0):
        self.kind = kind
        self.owner = owner
        self.cards = cards
        self.rank = rank
        self.suit = suit
        self.start = start
        self.wilds = wilds

    @property
    def end(self) -> int:
        """Position of the last card of a run."""
        return self.start + len(self.cards) - 1

    def copy(self) -> "Meld":
        return Meld(self.kind, self.owner, list(self.cards), self.rank,
                    self.suit, self.start, self.wilds)

    def text(self) -> str:
        return " ".join(TEXT[c] for c in self.cards)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "owner": self.owner,
                             "cards": [TEXT[c] for c in self.cards]}
        if self.kind == "set":
            d["rank"] = self.rank
        else:
            d["suit"] = "CDHS"[self.suit]
            d["start"] = self.start
        return d


def _positions(card: int, aces_low: bool) -> tuple[int, ...]:
    r = card % 13 + 2
    if r == 14:
        return (1, 14) if aces_low else (14,)
    return (r,)


class MeldRules:
    """Fast per-game helpers over a :class:`ContractRules`: building and
    re-checking melds, where a card lays off, which wild a card replaces.
    A game keeps one as ``game._r``."""

    def __init__(self, rules: ContractRules):
        self.r = rules
        self.twos_wild = rules.twos_wild
        self.aces_low = rules.aces == "low-or-high"
        self.low = rules.low_position
        self.ratio_always = rules.wild_ratio == "always"

    def is_wild(self, c: int) -> bool:
        return c == JOKER_CODE or (self.twos_wild and c % 13 == 0)

    # building melds when going down ----------------------------------------
    def build(self, cards: list[int], owner: int) -> Meld:
        """A meld from listed cards (runs listed lowest first).

        :raises IllegalMoveError: not a valid set or run.
        """
        wild = self.is_wild
        naturals = [c for c in cards if not wild(c)]
        text = " ".join(TEXT[c] for c in cards)
        if not naturals:
            raise IllegalMoveError(f"meld {text!r} has no natural card", "meld-invalid")
        nw = len(cards) - len(naturals)
        if len(naturals) < nw:
            raise IllegalMoveError(
                f"meld {text!r} has more wild cards than natural ones", "wild-ratio")
        ranks = {c % 13 for c in naturals}
        if len(ranks) == 1:
            if len(cards) < 3:
                raise IllegalMoveError(f"set {text!r} has fewer than three cards", "meld-invalid")
            return Meld("set", owner, list(cards), rank=naturals[0] % 13 + 2, wilds=nw)
        if len(cards) < 4:
            raise IllegalMoveError(
                f"{text!r} is neither a set (one rank) nor a run (four or more)", "meld-invalid")
        suits = {c // 13 for c in naturals}
        if len(suits) != 1:
            raise IllegalMoveError(
                f"{text!r} is neither a set (one rank) nor a run (one suit)", "meld-invalid")
        start = self._run_start(cards)
        if start is None:
            raise IllegalMoveError(
                f"run {text!r} is not in sequence (list runs lowest card first; "
                f"aces {self.r.aces}, no wrapping)", "meld-invalid")
        return Meld("run", owner, list(cards), suit=naturals[0] // 13, start=start, wilds=nw)

    def _run_start(self, cards: list[int]) -> int | None:
        wild = self.is_wild
        candidates: set[int] | None = None
        for i, c in enumerate(cards):
            if wild(c):
                continue
            here = {p - i for p in _positions(c, self.aces_low)}
            candidates = here if candidates is None else candidates & here
            if not candidates:
                return None
        n = len(cards)
        good = sorted(s for s in candidates if s >= self.low and s + n - 1 <= 14)
        return good[0] if good else None

    def check_meld(self, m: Meld, going_down: bool = False) -> None:
        """Re-check a meld on the table (invariants).

        :raises IllegalMoveError: the meld breaks a rule.
        """
        wild = self.is_wild
        nw = sum(1 for c in m.cards if wild(c))
        if nw != m.wilds:
            raise IllegalMoveError("wild count out of date", "meld-invalid")
        if (self.ratio_always or going_down) and len(m.cards) - nw < nw:
            raise IllegalMoveError(f"meld {m.text()!r} is more than half wild", "wild-ratio")
        if nw == len(m.cards):
            raise IllegalMoveError(f"meld {m.text()!r} has no natural card", "meld-invalid")
        if m.kind == "set":
            if len(m.cards) < 3 or any(not wild(c) and c % 13 + 2 != m.rank for c in m.cards):
                raise IllegalMoveError(f"set {m.text()!r} invalid", "meld-invalid")
            return
        if len(m.cards) < 4 or m.start < self.low or m.end > 14:
            raise IllegalMoveError(f"run {m.text()!r} out of bounds", "meld-invalid")
        for i, c in enumerate(m.cards):
            if wild(c):
                continue
            if c // 13 != m.suit or m.start + i not in _positions(c, self.aces_low):
                raise IllegalMoveError(f"run {m.text()!r} out of sequence", "meld-invalid")

    # laying off --------------------------------------------------------------
    def ends_for(self, card: int, m: Meld) -> tuple[str, ...]:
        """Where ``card`` may be laid off on ``m``: ``()``, ``("",)`` for a
        set, ``("-",)``, ``("+",)`` or ``("-", "+")`` for a run."""
        if self.is_wild(card):
            if self.ratio_always and len(m.cards) - m.wilds < m.wilds + 1:
                return ()
            if m.kind == "set":
                return ("",)
            out = []
            if m.start > self.low:
                out.append("-")
            if m.start + len(m.cards) <= 14:
                out.append("+")
            return tuple(out)
        if m.kind == "set":
            return ("",) if card % 13 + 2 == m.rank else ()
        if card // 13 != m.suit:
            return ()
        pos = _positions(card, self.aces_low)
        out = []
        lo = m.start - 1
        if lo >= self.low and lo in pos:
            out.append("-")
        hi = m.start + len(m.cards)
        if hi <= 14 and hi in pos:
            out.append("+")
        return tuple(out)

    def plays(self, card: int, melds: list[Meld]) -> bool:
        """Whether ``card`` may be laid off on any of ``melds`` (a "player")."""
        for m in melds:
            if self.ends_for(card, m):
                return True
        return False

    def plays_on_run(self, card: int, melds: list[Meld]) -> bool:
        for m in melds:
            if m.kind == "run" and self.ends_for(card, m):
                return True
        return False

    def swap_slot(self, card: int, m: Meld) -> int | None:
        """Index of the wild in run ``m`` that ``card`` (natural) stands in
        for, or ``None``."""
        if m.kind != "run" or self.is_wild(card) or card // 13 != m.suit or not m.wilds:
            return None
        for p in _positions(card, self.aces_low):
            i = p - m.start
            if 0 <= i < len(m.cards) and self.is_wild(m.cards[i]):
                return i
        return None


def lay(m: Meld, card: int, end: str, wild: bool) -> None:
    """Add ``card`` to ``m`` at ``end`` (``""`` for a set) in place."""
    if end == "-":
        m.cards.insert(0, card)
        m.start -= 1
    else:
        m.cards.append(card)
    if wild:
        m.wilds += 1


def meld_from_dict(d: dict[str, Any], r: MeldRules) -> Meld:
    """The meld :meth:`Meld.to_dict` wrote (a snapshot, a hand's result)."""
    cards = [int(Card.parse(c)) for c in d["cards"]]
    wilds = sum(1 for c in cards if r.is_wild(c))
    if d["kind"] == "set":
        return Meld("set", d["owner"], cards, rank=d["rank"], wilds=wilds)
    return Meld("run", d["owner"], cards, suit="CDHS".index(d["suit"]),
                start=d["start"], wilds=wilds)
