"""Deals of contract rummy typed in from a real table: reading one from
JSON, checking it is the whole pack for every hand, writing it back.

A deal is ``{"hand1": [[cards of seat 0], ...], "upcard1": [card],
"stock1": [cards, top first], "hand2": ...}`` with card texts; inside a
game it is ``{"hands": [{"hands": [[codes]...], "upcard": code, "stock":
[codes, top first]}, ...]}``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..cards import TEXT, Card
from ..errors import DealError, NotationError
from .rules import HANDS, ContractRules

def deal_to_json(deal):
    """A game's deal as JSON (card texts), ``None`` for a seeded game."""
    if deal is None:
        return None
    out: dict[str, Any] = {}
    for i, d in enumerate(deal["hands"], 1):
        out[f"hand{i}"] = [[TEXT[c] for c in h] for h in d["hands"]]
        out[f"upcard{i}"] = [TEXT[d["upcard"]]]
        out[f"stock{i}"] = [TEXT[c] for c in d["stock"]]
    return out


def deal_entries(deal) -> list[dict[str, Any]]:
    """The per-hand entries of a deal ``{"hand1": [[seat 0 cards], ...],
    "upcard1": [card], "stock1": [cards, top first], "hand2": ...}``, with
    cards as codes.

    :raises DealError: a malformed deal, named.
    """
    if not isinstance(deal, dict):
        raise DealError('a deal is {"hand1": [[cards of seat 0], ...], "upcard1": [card], '
                        '"stock1": [cards, top first], ...}')
    known = {f"{k}{i}" for k in ("hand", "upcard", "stock") for i in range(1, HANDS + 1)}
    unknown = sorted(set(deal) - known)
    if unknown:
        raise DealError(f"unknown deal key(s): {', '.join(unknown)}")
    out = []
    for i in range(1, HANDS + 1):
        if f"hand{i}" not in deal:
            break
        try:
            hands = [[int(Card.parse(c)) for c in h] for h in deal[f"hand{i}"]]
            up = deal[f"upcard{i}"]
            if isinstance(up, (list, tuple)):
                if len(up) != 1:
                    raise DealError(f"hand {i}: one upcard, not {len(up)}")
                up = up[0]
            upcard = int(Card.parse(up))
            stock = [int(Card.parse(c)) for c in deal[f"stock{i}"]]
        except KeyError as exc:
            raise DealError(f"hand {i}: the deal has no {exc.args[0]!r}") from None
        except TypeError as exc:
            raise DealError(f"hand {i}: cards are lists of card texts ({exc})") from None
        except NotationError as exc:
            raise DealError(f"hand {i}: {exc}") from None
        out.append({"hands": hands, "upcard": upcard, "stock": stock})
    return out


def deal_from_json(deal):
    """:func:`deal_to_json` read back (cards as codes); ``None`` stays.

    :raises DealError: a malformed deal, named.
    """
    if deal is None:
        return None
    return {"hands": deal_entries(deal)}


def check_deal(deal, players: int, rules: ContractRules, pack: Counter):
    """Validate a typed-in deal; return it with cards as codes.

    :raises DealError: anything wrong, named.
    """
    if deal is None:
        return None
    entries = deal_entries(deal)
    if len(entries) != HANDS or len(deal) != 3 * HANDS:
        raise DealError(f"a deal gives all {HANDS} hands: hand1, upcard1, stock1 ... "
                        f"hand{HANDS}, upcard{HANDS}, stock{HANDS}")
    for i, d in enumerate(entries, 1):
        hands, upcard, stock = d["hands"], d["upcard"], d["stock"]
        if len(hands) != players:
            raise DealError(f"hand {i}: {len(hands)} hands for {players} players")
        for s, h in enumerate(hands):
            if len(h) != rules.hand_size:
                raise DealError(f"hand {i}: seat {s} has {len(h)} cards, not {rules.hand_size}")
        got = Counter(c for h in hands for c in h)
        got[upcard] += 1
        got.update(stock)
        if got != pack:
            diff = (got - pack) + (pack - got)
            names = " ".join(sorted({TEXT[c] for c in diff}))
            raise DealError(f"hand {i}: the cards are not the pack (wrong counts of {names})")
    return {"hands": entries}
