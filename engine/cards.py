"""Playing cards for the card families (contract rummy).

A card is a small immutable value with one canonical text form that
round-trips::

    >>> from engine.cards import Card
    >>> str(Card.parse("7H")), str(Card.parse("10s")), str(Card.parse("jk"))
    ('7H', 'TS', 'JK')

Ranks are ``2``-``9``, ``T`` (ten), ``J``, ``Q``, ``K``, ``A``; suits ``C``
``D`` ``H`` ``S``; the joker is ``JK`` (``K`` is no suit, so it never clashes
with a jack). ``10`` is read as ``T`` but always written ``T``.

A :class:`Card` is an ``int`` (0-51: ``suit * 13 + rank - 2``; 52 the joker),
so hands are plain lists that sort, count and hash fast. Several decks make
identical copies; copies are equal.

:func:`seeded_shuffle` is the engine's deterministic shuffle
(:func:`engine.tiles.shuffled`) applied to cards: the same seed gives the
same order on every platform and Python version.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

from .errors import DealError, NotationError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"
JOKER_CODE = 52


class Card(int):
    """One card. Use :meth:`parse` or :data:`CARDS`; never ``Card(n)`` with
    n outside 0-52."""

    __slots__ = ()

    @property
    def is_joker(self) -> bool:
        return self == JOKER_CODE

    @property
    def rank(self) -> int | None:
        """2-14 (ace 14), ``None`` for the joker."""
        return None if self == JOKER_CODE else self % 13 + 2

    @property
    def suit(self) -> str | None:
        """``"C"``, ``"D"``, ``"H"``, ``"S"``; ``None`` for the joker."""
        return None if self == JOKER_CODE else SUIT_CHARS[self // 13]

    def __str__(self) -> str:
        return TEXT[self]

    def __repr__(self) -> str:
        return f"Card.parse({TEXT[self]!r})"

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read one card (``7H``, ``TS``, ``10S``, ``AD``, ``JK``; any case).

        :raises NotationError: not a card; the message quotes the token.
        """
        if not isinstance(text, str):
            raise NotationError(f"a card is text, not {type(text).__name__}",
                                token=repr(text))
        code = _BY_TEXT.get(text.strip().upper())
        if code is None:
            raise NotationError(
                f"{text!r} is not a card (rank 2-9 T J Q K A, suit C D H S, "
                f"or JK for a joker)", token=text)
        return CARDS[code]

    @classmethod
    def of(cls, rank: int, suit: str) -> "Card":
        """The card of ``rank`` (2-14, or 1 for a low ace) and ``suit``.

        :raises NotationError: no such rank or suit.
        """
        if rank == 1:
            rank = 14
        if not 2 <= rank <= 14 or suit not in SUIT_CHARS or len(suit) != 1:
            raise NotationError(f"no card of rank {rank!r} and suit {suit!r}",
                                token=f"{rank}{suit}")
        return CARDS[SUIT_CHARS.index(suit) * 13 + rank - 2]


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(53))
TEXT: tuple[str, ...] = tuple(
    [r + s for s in SUIT_CHARS for r in RANK_CHARS] + ["JK"])
_BY_TEXT: dict[str, int] = {t: i for i, t in enumerate(TEXT)}
_BY_TEXT.update({"10" + s: SUIT_CHARS.index(s) * 13 + 8 for s in SUIT_CHARS})
JOKER: Card = CARDS[JOKER_CODE]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by blanks (or an iterable of card tokens).

    :raises NotationError: a token is not a card.
    """
    tokens = text.split() if isinstance(text, str) else list(text)
    return [Card.parse(t) for t in tokens]


def cards_text(cards: Iterable[int]) -> str:
    """Canonical text of cards, blank-separated, in the given order."""
    return " ".join(TEXT[c] for c in cards)


def sort_key(card: int) -> tuple[int, int]:
    """Display order: by suit, then rank; jokers last."""
    return (4, 0) if card == JOKER_CODE else (card // 13, card % 13)


def make_deck(decks: int, jokers_per_deck: int = 2) -> list[Card]:
    """``decks`` 52-card decks with ``jokers_per_deck`` jokers each, in a
    fixed (unshuffled) order.

    :raises DealError: fewer than one deck or a negative joker count.
    """
    if not isinstance(decks, int) or decks < 1:
        raise DealError(f"need at least one deck, not {decks!r}")
    if not isinstance(jokers_per_deck, int) or jokers_per_deck < 0:
        raise DealError(f"jokers per deck must be 0 or more, not {jokers_per_deck!r}")
    one = list(CARDS[:52]) + [JOKER] * jokers_per_deck
    return one * decks


def deck_counter(decks: int, jokers_per_deck: int = 2) -> Counter:
    """How many of each card code a pack of ``decks`` decks holds."""
    counts = Counter({code: decks for code in range(52)})
    if jokers_per_deck:
        counts[JOKER_CODE] = decks * jokers_per_deck
    return counts


# --- deterministic shuffling ------------------------------------------------

class _Pack:
    """Adapter giving :func:`engine.tiles.shuffled` a list to shuffle."""

    def __init__(self, items: Sequence):
        self._items = items

    def tiles(self) -> list:
        return list(self._items)


def seeded_shuffle(items: Sequence, seed: str) -> list:
    """A new list with ``items`` in an order decided only by ``seed``.

    The algorithm is the engine's one seeded shuffle,
    :func:`engine.tiles.shuffled` (SHA-256 in counter mode, rejection
    sampling, Fisher-Yates), applied to ``items`` in the given order.

    :raises DealError: the seed is not a non-empty string.
    """
    from .tiles import shuffled

    return shuffled(_Pack(items), seed)
