"""Seven-hand contract rummy (seeds 002 and 004), one module for the family.

Two named rule profiles are presets of one frozen :class:`ContractRules`:

- ``"three-decks"`` (seed 002): three decks with jokers (162 cards), twos and
  jokers wild, aces high, at least half of every meld natural, each run of a
  contract in its own suit, buying with the active player's consent (who
  otherwise takes the card himself), no going out on a turn the discard was
  taken. Variant ``contract``.
- ``"international"`` (seed 004): decks by player count, only jokers wild,
  aces low or high without wrapping, as many naturals as wilds when going
  down, exactly the contract's melds, the "players" discard rule, buying with
  priority to the next in turn, on one's own turn (+3), the first upcard only
  by buying, undo of a discard until the next player draws. Variant
  ``international``.

Every reading is written down in ``docs/rules/contract.md``.

A session at the table::

    >>> from engine.registry import find_variant
    >>> Game = find_variant("contract")
    >>> game = Game.new(3, seed="club-night-1")
    >>> game.push(game.parse_move("draw")).kind
    'drew'

Who may act: ``to_move`` is the seat on turn; players not on turn may buy
the top discard or undo their discard while the rules allow it.
:meth:`ContractGame.may_act` and :meth:`ContractGame.pending_actors` say
who may push a move now. Moves by a seat not on turn carry the seat:
``"2 buy"``, ``"0 undo"``.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, ClassVar

from .base import Game, Outcome
from .cards import (JOKER_CODE, TEXT, Card, deck_counter, make_deck,
                    seeded_shuffle, sort_key)
from .errors import (DealError, IllegalMoveError, NotationError, RecordError,
                     RuleOptionError)
from .registry import register

# (sets, runs) of each of the seven hands.
CONTRACTS: tuple[tuple[int, int], ...] = (
    (2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3))
HANDS = len(CONTRACTS)


def contract_text(hand: int) -> str:
    """``"two sets"``, ``"one set and one run"`` ... for hand 0-6."""
    words = ("no", "one", "two", "three")
    sets, runs = CONTRACTS[hand]
    parts = []
    if sets:
        parts.append(f"{words[sets]} set{'s' if sets > 1 else ''}")
    if runs:
        parts.append(f"{words[runs]} run{'s' if runs > 1 else ''}")
    return " and ".join(parts)


# --- rules --------------------------------------------------------------------

_CHOICES = {
    "profile": ("three-decks", "international"),
    "aces": ("high", "low-or-high"),
    "wild_ratio": ("always", "going-down"),
    "buy_priority": ("first-asked", "next-in-turn"),
    "next_first": ("rotate", "winner"),
}


@dataclass(frozen=True)
class ContractRules:
    """Every rule option of contract rummy, by name. Defaults: seed 002.

    Use :meth:`preset` for the named profiles.
    """

    profile: str = "three-decks"
    decks: int = 3                   # 0: by player count (3 / 4 / 5)
    jokers_per_deck: int = 2
    min_players: int = 3
    max_players: int = 8
    hand_size: int = 11
    twos_wild: bool = True
    aces: str = "high"               # "high" | "low-or-high" (never wrapping)
    wild_ratio: str = "always"       # naturals >= wilds: "always" | "going-down"
    run_suits_distinct: bool = True  # runs of one contract in different suits
    exact_melds: bool = False        # no more melds than the contract asks
    buy_priority: str = "first-asked"  # "first-asked" | "next-in-turn"
    buy_consent: bool = True         # the active player allows or takes it
    buy_limit: int = 2               # buys per player per hand
    buy_extra: int = 2               # stock cards a buyer takes with the discard
    own_turn_buy: bool = False       # the player on turn may buy instead of drawing
    own_turn_extra: int = 3          # stock cards when buying on one's own turn
    first_upcard_buy_only: bool = False
    buy_beneath: bool = False        # the card beneath a taken discard is buyable
    players_rule: bool = False       # "players" may not be discarded (seed 004)
    undo_discard: bool = False       # a discard may be taken back before the next draw
    no_out_after_take: bool = True   # no going out on a turn the discard was taken
    next_first: str = "rotate"       # who starts the next hand
    point_two: int = 20              # a natural two (only when twos are not wild)
    point_low: int = 5               # threes to nines
    point_high: int = 10             # tens to kings
    point_ace: int = 15
    point_wild: int = 20

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool",) and not isinstance(value, bool):
                raise RuleOptionError(f"rule option {f.name!r} takes true or false, not {value!r}")
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, int)):
                raise RuleOptionError(f"rule option {f.name!r} takes a whole number, not {value!r}")
            if f.type == "str" and not isinstance(value, str):
                raise RuleOptionError(f"rule option {f.name!r} takes text, not {value!r}")
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise RuleOptionError(
                    f"rule option {name!r} takes one of {', '.join(allowed)}, "
                    f"not {getattr(self, name)!r}")
        if self.decks < 0 or self.decks > 8:
            raise RuleOptionError(f"rule option 'decks' takes 0 (by player count) to 8, not {self.decks}")
        if not 0 <= self.jokers_per_deck <= 4:
            raise RuleOptionError("rule option 'jokers_per_deck' takes 0 to 4")
        if not 2 <= self.min_players <= self.max_players <= 8:
            raise RuleOptionError("player limits must satisfy 2 <= min_players <= max_players <= 8")
        if not 1 <= self.hand_size <= 15:
            raise RuleOptionError("rule option 'hand_size' takes 1 to 15")
        for name in ("buy_limit", "buy_extra", "own_turn_extra", "point_two",
                     "point_low", "point_high", "point_ace", "point_wild"):
            if getattr(self, name) < 0:
                raise RuleOptionError(f"rule option {name!r} cannot be negative")

    @classmethod
    def preset(cls, name: str) -> "ContractRules":
        """The named profile ``"three-decks"`` or ``"international"``.

        :raises RuleOptionError: unknown profile.
        """
        try:
            return PROFILES[name]
        except (KeyError, TypeError):
            raise RuleOptionError(
                f"unknown contract profile {name!r} (known: {', '.join(PROFILES)})") from None

    def decks_for(self, players: int) -> int:
        """Number of 52-card decks used for ``players`` seats."""
        if self.decks:
            return self.decks
        return 3 if players <= 3 else 4 if players <= 6 else 5

    @property
    def low_position(self) -> int:
        """The lowest position a run may start at (1 is a low ace)."""
        if self.aces == "low-or-high":
            return 1
        return 3 if self.twos_wild else 2

    def card_points(self, card: int) -> int:
        """What ``card`` counts left in a hand at the end of a hand."""
        if card == JOKER_CODE:
            return self.point_wild
        r = card % 13 + 2
        if r == 2:
            return self.point_wild if self.twos_wild else self.point_two
        if r <= 9:
            return self.point_low
        if r <= 13:
            return self.point_high
        return self.point_ace


PROFILES: dict[str, ContractRules] = {
    "three-decks": ContractRules(),
    "international": ContractRules(
        profile="international", decks=0, min_players=2, twos_wild=False,
        aces="low-or-high", wild_ratio="going-down", run_suits_distinct=False,
        exact_melds=True, buy_priority="next-in-turn", buy_consent=False,
        own_turn_buy=True, first_upcard_buy_only=True, players_rule=True,
        undo_discard=True, no_out_after_take=False, next_first="winner",
        point_two=5),
}


# --- melds --------------------------------------------------------------------

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


class _Rules:
    """Fast per-game helpers over a :class:`ContractRules`."""

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


# --- moves --------------------------------------------------------------------

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


# --- the game -------------------------------------------------------------------

@register
class ContractGame(Game):
    """Seven-hand contract rummy; the default profile is seed 002's."""

    family: ClassVar[str] = "contract"
    variant: ClassVar[str] = "contract"
    aliases: ClassVar[tuple[str, ...]] = ("contract-rummy", "three-decks", "contract-002")
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 8
    RuleSet: ClassVar[type] = ContractRules
    default_profile: ClassVar[str] = "three-decks"

    # --- construction ---------------------------------------------------------
    @classmethod
    def rules_from_dict(cls, data: dict[str, Any] | None) -> ContractRules:
        """Named options over a profile (``"profile"``, default this
        variant's) .

        :raises RuleOptionError: unknown option or bad value.
        """
        if data is not None and not isinstance(data, dict):
            raise RuleOptionError("rules must be a mapping of option names to values")
        data = dict(data or {})
        base = ContractRules.preset(data.pop("profile", cls.default_profile))
        known = {f.name for f in fields(ContractRules)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleOptionError(f"unknown rule option(s): {', '.join(unknown)}")
        return replace(base, **data)

    @classmethod
    def rules_to_dict(cls, rules: ContractRules) -> dict[str, Any]:
        """Every option by name (JSON-safe)."""
        return asdict(rules)

    @classmethod
    def new(cls, players: int, rules=None, *, seed: str | None = None,
            deal: dict[str, Any] | None = None, first: int = 0) -> "ContractGame":
        """Start a game of seven hands.

        ``deal`` (a game at a real table): ``{"hands": [{"hands": [[cards]...],
        "upcard": card, "stock": [cards, top first]}, ...]}`` with one entry
        per hand played, each the whole pack.

        :raises DealError: bad seed, deal or player count.
        :raises RuleOptionError: bad rules.
        """
        if rules is None:
            rules = ContractRules.preset(cls.default_profile)
        elif isinstance(rules, dict):
            rules = cls.rules_from_dict(rules)
        elif not isinstance(rules, ContractRules):
            raise RuleOptionError(f"rules must be ContractRules or a dict, not {type(rules).__name__}")
        if isinstance(players, bool) or not isinstance(players, int):
            raise DealError(f"players must be a whole number, not {players!r}")
        if not rules.min_players <= players <= rules.max_players:
            raise DealError(f"{rules.profile} takes {rules.min_players}-{rules.max_players} "
                            f"players, not {players}")
        if (seed is None) == (deal is None):
            raise DealError("give exactly one of seed= and deal=")
        if seed is not None and (not isinstance(seed, str) or not seed):
            raise DealError(f"a seed is a non-empty string, not {seed!r}")
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            raise DealError(f"first must be a seat 0-{players - 1}, not {first!r}")
        pack = deck_counter(rules.decks_for(players), rules.jokers_per_deck)
        if sum(pack.values()) < players * rules.hand_size + 2:
            raise DealError("not enough cards for that many players")
        game = cls.__new__(cls)
        game._init(players, rules, seed, _check_deal(deal, players, rules, pack), first)
        return game

    def _init(self, players, rules, seed, deal, first):
        self.n = players
        self.rules = rules
        self._r = _Rules(rules)
        self.seed = seed
        self.deal = deal
        self.first = first
        self.hand_no = 0
        self.hand_first = first
        self.totals = [0] * players
        self.results: list[dict[str, Any]] = []
        self.move_stack: list[str] = []
        self.over = False
        self._start_hand()

    # --- hands ------------------------------------------------------------------
    def _start_hand(self) -> None:
        n, rules = self.n, self.rules
        if self.deal is not None:
            d = self.deal["hands"][self.hand_no]
            hands = [list(h) for h in d["hands"]]
            upcard = d["upcard"]
            stock = list(reversed(d["stock"]))
        else:
            pack = seeded_shuffle(make_deck(rules.decks_for(n), rules.jokers_per_deck),
                                  f"{self.seed}/hand-{self.hand_no + 1}")
            pack = [int(c) for c in pack]
            k = rules.hand_size * n
            hands = [[] for _ in range(n)]
            for j in range(k):
                hands[(self.hand_first + j) % n].append(pack[j])
            upcard = pack[k]
            stock = list(reversed(pack[k + 1:]))
        self.hands: list[list[int]] = hands
        self.stock: list[int] = stock          # top is the last element
        self.discards: list[int] = [upcard]    # top is the last element
        self.dead: list[bool] = [False]
        self.table: list[Meld] = []
        self.down = [False] * n
        self.buys = [0] * n
        self.picked: list[list[int]] = [[] for _ in range(n)]  # discards taken (public)
        self.active = self.hand_first
        self.phase = "draw"
        self.took = False
        self.window = True
        self.window_ref = (self.hand_first - 1) % n  # the dealer turned the upcard
        self.window_discarder: int | None = None
        self.upcard = True
        self.requests: list[int] = []
        self.beneath = False
        self.beneath_used = False
        self.undo_info: dict[str, Any] | None = None
        self.reshuffles = 0
        self.turn = 1

    def _end_hand(self, winner: int | None) -> Outcome:
        pts = [sum(self.rules.card_points(c) for c in h) for h in self.hands]
        self.results.append({
            "hand": self.hand_no + 1, "contract": contract_text(self.hand_no),
            "winner": winner, "points": pts,
            "cards": [[TEXT[c] for c in sorted(h, key=sort_key)] for h in self.hands],
            "table": [m.to_dict() for m in self.table]})
        for i, p in enumerate(pts):
            self.totals[i] += p
        detail = {"hand": self.hand_no + 1, "winner": winner, "points": pts}
        if self.hand_no == HANDS - 1:
            self.over = True
            return Outcome("game-over", winner, detail, True)
        self.hand_no += 1
        if self.rules.next_first == "winner" and winner is not None:
            self.hand_first = winner
        else:
            self.hand_first = (self.hand_first + 1) % self.n
        self._start_hand()
        return Outcome("hand-over", winner, detail, False)

    def _pop_stock(self) -> int | None:
        if not self.stock:
            if len(self.discards) < 2:
                return None
            pile = self.discards[:-1]
            self.discards = self.discards[-1:]
            self.dead = self.dead[-1:]
            self.reshuffles += 1
            seed = self.seed if self.seed is not None else "typed-deal"
            self.stock = [int(c) for c in seeded_shuffle(
                pile, f"{seed}/hand-{self.hand_no + 1}/reshuffle-{self.reshuffles}")]
        return self.stock.pop()

    # --- who may act ------------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        """The seat on turn; ``None`` once the game is over."""
        return None if self.over else self.active

    @property
    def is_over(self) -> bool:
        return self.over

    def scores(self) -> list[int] | None:
        """Total points per seat after seven hands (fewer is better)."""
        return list(self.totals) if self.over else None

    @property
    def winners(self) -> list[int]:
        """The seats with the lowest total once the game is over, else ``[]``."""
        if not self.over:
            return []
        low = min(self.totals)
        return [i for i, t in enumerate(self.totals) if t == low]

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.n

    @property
    def end_reason(self) -> str | None:
        return "seven hands played" if self.over else None

    def rack(self, seat: int) -> list[Card]:
        """The cards in ``seat``'s hand (server side; views hide them)."""
        from .cards import CARDS
        return [CARDS[c] for c in sorted(self.hands[seat], key=sort_key)]

    @property
    def move_seats(self) -> list[int]:
        """The seat that pushed each move of :attr:`move_stack`."""
        return [int(m.split(" ", 1)[0]) for m in self.move_stack]

    def setup_tags(self) -> dict[str, Any]:
        """What :mod:`engine.records` writes in a record's header."""
        out: dict[str, Any] = {"players": self.n, "first": self.first,
                               "rules": _rules_diff(self.rules)}
        if self.seed is not None:
            out["seed"] = self.seed
        else:
            out["deal"] = _deal_to_json(self.deal)
        return out

    def _top_buyable(self) -> bool:
        return bool(self.discards) and not self.dead[-1]

    def can_buy(self, seat: int) -> bool:
        """Whether ``seat`` may push ``buy`` now."""
        if self.over or not self._top_buyable() or self.buys[seat] >= self.rules.buy_limit:
            return False
        if seat == self.active:
            if self.phase == "draw":
                return self.rules.own_turn_buy and not self.requests_pending_consent()
            return self._must_buy_exception()
        if self.beneath:
            return True
        if not self.window or self.phase != "draw":
            return False
        if seat == self.window_discarder or seat in self.requests:
            return False
        if self.rules.buy_consent and self.requests:
            return False
        return True

    def requests_pending_consent(self) -> bool:
        return self.rules.buy_consent and bool(self.requests)

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back its discard now."""
        return (not self.over and self.undo_info is not None
                and self.undo_info["seat"] == seat)

    def may_act(self, seat: int) -> bool:
        """Whether ``seat`` may push some move now (the player on turn, a
        buyer inside the buy window, a player who may undo a discard)."""
        if self.over:
            return False
        return seat == self.active or self.can_buy(seat) or self.can_undo(seat)

    def pending_actors(self) -> list[int]:
        """Every seat that may push a move now, the player on turn first."""
        if self.over:
            return []
        out = [self.active]
        for k in range(1, self.n):
            s = (self.active + k) % self.n
            if self.may_act(s):
                out.append(s)
        return out

    # --- moves --------------------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """:raises NotationError: text not in the move notation."""
        return Move.parse(text)

    def push(self, move: Move | str) -> Outcome:
        """Check and apply ``move`` (a :class:`Move` or its text).

        :raises IllegalMoveError: the rules forbid it; the state is unchanged.
        :raises NotationError: text that does not parse.
        """
        if isinstance(move, str):
            move = Move.parse(move)
        if self.over:
            raise IllegalMoveError("the game is over", "game-over")
        a = move.action
        seat = move.seat
        if seat is not None and not 0 <= seat < self.n:
            raise IllegalMoveError(f"no seat {seat} at a table of {self.n}", "no-such-seat")
        if a == "buy":
            actor = self.active if seat is None else seat
            out = self._buy(actor)
        elif a == "undo":
            actor = seat if seat is not None else (
                self.undo_info["seat"] if self.undo_info else self.active)
            out = self._undo(actor)
        else:
            actor = self.active if seat is None else seat
            if actor != self.active:
                raise IllegalMoveError(
                    f"seat {actor} is not on turn (seat {self.active} is)", "not-your-turn")
            handler = getattr(self, "_" + a)
            out = handler(move) if a in ("discard", "down", "lay", "swap") else handler()
        self.move_stack.append(f"{actor} {move.body()}")
        return out

    def _need_phase(self, phase: str, what: str) -> None:
        if self.phase != phase:
            if phase == "draw":
                raise IllegalMoveError(f"cannot {what}: already drew this turn", "already-drew")
            raise IllegalMoveError(f"cannot {what} before drawing", "draw-first")

    def _close_windows(self) -> None:
        self.window = False
        self.requests = []
        self.undo_info = None

    def _give(self, seat: int, extra: int) -> list[int]:
        """Top discard plus ``extra`` stock cards to ``seat``."""
        got = [self.discards.pop()]
        self.dead.pop()
        for _ in range(extra):
            c = self._pop_stock()
            if c is None:
                break
            got.append(c)
        self.hands[seat].extend(got)
        self.picked[seat].append(got[0])
        self.buys[seat] += 1
        return got

    def _draw(self) -> Outcome:
        self._need_phase("draw", "draw")
        if self.requests_pending_consent():
            raise IllegalMoveError(
                f"seat {self.requests[0]} asked to buy the discard: allow or refuse first",
                "answer-buy-request")
        detail: dict[str, Any] = {}
        if self.requests:
            # next in turn after the seat that put the card there (the
            # discarder, or the dealer who turned the first upcard), that
            # seat itself last: it cannot buy back a discard of its own, but
            # the dealer may buy the upcard, after everyone else
            ref = self.window_ref
            buyer = min(self.requests, key=lambda s: (s - ref - 1) % self.n)
            got = self._give(buyer, self.rules.buy_extra)
            detail["bought"] = {"seat": buyer, "cards": [TEXT[c] for c in got]}
        self._close_windows()
        self.upcard = False
        c = self._pop_stock()
        if c is None:
            return self._end_hand(None)
        self.hands[self.active].append(c)
        self.phase = "play"
        self.took = False
        detail["card"] = TEXT[c]
        return Outcome("drew", self.active, detail)

    def _take(self) -> Outcome:
        self._need_phase("draw", "take the discard")
        if not self.discards:
            raise IllegalMoveError("the discard pile is empty", "no-discard")
        if self.dead[-1]:
            raise IllegalMoveError("that discard is dead: nobody may take or buy it", "dead-discard")
        if self.upcard and self.rules.first_upcard_buy_only:
            raise IllegalMoveError("the hand's first upcard can only be bought", "upcard-buy-only")
        refused = self.requests[0] if self.requests_pending_consent() else None
        c = self.discards.pop()
        self.dead.pop()
        self.hands[self.active].append(c)
        self.picked[self.active].append(c)
        self._close_windows()
        self.upcard = False
        self.phase = "play"
        self.took = True
        self._open_beneath()
        detail = {"card": TEXT[c]}
        if refused is not None:
            detail["refused"] = refused
        return Outcome("took", self.active, detail)

    def _open_beneath(self) -> None:
        if self.rules.buy_beneath and not self.beneath_used and self._top_buyable():
            self.beneath = True
            self.beneath_used = True

    def _refuse(self) -> Outcome:
        if not self.requests_pending_consent() or self.phase != "draw":
            raise IllegalMoveError("no buy request to refuse", "no-buy-request")
        out = self._take()
        return Outcome("refused", self.active, out.detail)

    def _allow(self) -> Outcome:
        if not self.requests_pending_consent() or self.phase != "draw":
            raise IllegalMoveError("no buy request to allow", "no-buy-request")
        buyer = self.requests[0]
        got = self._give(buyer, self.rules.buy_extra)
        self._close_windows()
        self.upcard = False
        return Outcome("bought", buyer, {"cards": [TEXT[c] for c in got],
                                         "allowed_by": self.active})

    def _must_buy_exception(self) -> bool:
        """Seed 004 exception 2: every card in hand is a "player"."""
        if not self.rules.players_rule or self.phase != "play" or not self.table:
            return False
        plays = self._r.plays
        return all(plays(c, self.table) for c in self.hands[self.active])

    def _buy(self, actor: int) -> Outcome:
        if not 0 <= actor < self.n:
            raise IllegalMoveError(f"no seat {actor}", "no-such-seat")
        rules = self.rules
        if not self.discards:
            raise IllegalMoveError("the discard pile is empty", "no-discard")
        if self.dead[-1]:
            raise IllegalMoveError("that discard is dead: nobody may take or buy it", "dead-discard")
        if self.buys[actor] >= rules.buy_limit:
            raise IllegalMoveError(f"seat {actor} has bought {rules.buy_limit} times this hand",
                                   "buy-limit")
        if actor == self.active:
            if self.phase == "draw":
                if not rules.own_turn_buy:
                    raise IllegalMoveError("no buying on one's own turn: draw or take the discard",
                                           "own-turn-buy")
                got = self._give(actor, rules.own_turn_extra)
                self._close_windows()
                self.upcard = False
                self.phase = "play"
                self.took = True
                return Outcome("bought", actor, {"cards": [TEXT[c] for c in got], "own_turn": True})
            if not self._must_buy_exception():
                raise IllegalMoveError("already drew this turn; a player may buy after drawing "
                                       "only when every card in hand is a player", "buy-window-closed")
            self.beneath = False
            got = self._give(actor, rules.buy_extra)
            return Outcome("bought", actor, {"cards": [TEXT[c] for c in got], "forced": True})
        if self.beneath:
            self.beneath = False
            got = self._give(actor, rules.buy_extra)
            return Outcome("bought", actor, {"cards": [TEXT[c] for c in got], "beneath": True})
        if not self.window or self.phase != "draw":
            raise IllegalMoveError("the buy window is closed (the player on turn has drawn)",
                                   "buy-window-closed")
        if actor == self.window_discarder:
            raise IllegalMoveError("a player cannot buy back his own discard", "own-discard")
        if actor in self.requests:
            raise IllegalMoveError(f"seat {actor} already asked to buy this card", "buy-already-asked")
        if rules.buy_consent:
            if self.requests:
                raise IllegalMoveError(f"seat {self.requests[0]} asked first", "buy-already-asked")
            self.requests = [actor]
            return Outcome("buy-requested", actor, {})
        if rules.buy_priority == "next-in-turn":
            self.requests.append(actor)
            return Outcome("buy-requested", actor, {})
        got = self._give(actor, rules.buy_extra)
        self._close_windows()
        self.upcard = False
        return Outcome("bought", actor, {"cards": [TEXT[c] for c in got]})

    def _undo(self, actor: int) -> Outcome:
        if not self.rules.undo_discard:
            raise IllegalMoveError("these rules have no undo", "no-undo")
        u = self.undo_info
        if u is None:
            raise IllegalMoveError("nothing to undo (the next player has drawn)", "no-undo")
        if u["seat"] != actor:
            raise IllegalMoveError(f"only seat {u['seat']} may undo its discard", "no-undo")
        c = self.discards.pop()
        self.dead.pop()
        self.hands[actor].append(c)
        self.active = actor
        self.phase = "play"
        self.took = u["took"]
        self.beneath = False
        self.beneath_used = u["beneath_used"]
        self.window = False
        self.requests = []
        self.undo_info = None
        self.turn -= 1
        return Outcome("undone", actor, {"card": TEXT[c]})

    def check_discard(self, card: int) -> bool:
        """Whether the player on turn may discard ``card`` now; returns
        whether it would be dead (seed 004's exceptions to the "players"
        rule: nobody may take or buy it).

        :raises IllegalMoveError: the discard is not allowed (``.rule``).
        """
        self._need_phase("play", "discard")
        c = card
        hand = self.hands[self.active]
        if c not in hand:
            raise IllegalMoveError(f"{TEXT[c]} is not in seat {self.active}'s hand", "not-in-hand")
        if len(hand) < 2:
            raise IllegalMoveError("a player may not discard his last card: go out by playing it",
                                   "last-card-discard")
        dead = False
        if self.rules.players_rule and self._r.plays(c, self.table):
            if c != JOKER_CODE and hand.count(c) >= 2 and self._r.plays_on_run(c, self.table):
                dead = True          # exception 1: a pair, one plays on a run
            elif self._must_buy_exception():
                if self._top_buyable() and self.buys[self.active] < self.rules.buy_limit:
                    raise IllegalMoveError(
                        "every card in hand is a player: buy the top discard first",
                        "players-rule-buy-first")
                dead = True          # exception 2, no buy left
            else:
                raise IllegalMoveError(
                    f"{TEXT[c]} plays on a meld on the table (a \"player\"): it may not be "
                    f"discarded", "players-rule")
        return dead

    def _discard(self, move: Move) -> Outcome:
        c = move.card
        dead = self.check_discard(c)
        hand = self.hands[self.active]
        self.beneath = False
        hand.remove(c)
        self.discards.append(c)
        self.dead.append(dead)
        seat = self.active
        self.undo_info = ({"seat": seat, "took": self.took, "beneath_used": self.beneath_used}
                          if self.rules.undo_discard else None)
        self.active = (seat + 1) % self.n
        self.phase = "draw"
        self.took = False
        self.window = not dead
        self.window_ref = seat
        self.window_discarder = seat
        self.upcard = False
        self.requests = []
        self.beneath_used = False
        self.turn += 1
        return Outcome("discarded", seat, {"card": TEXT[c], "dead": dead})

    def _check_left(self, left: int, last: int | None, table: list[Meld]) -> None:
        """Going-out rules for a hand left with ``left`` cards after a play."""
        if left >= 2:
            return
        if self.took and self.rules.no_out_after_take:
            raise IllegalMoveError("no going out on a turn the discard was taken (keep two "
                                   "cards: one to discard)", "no-out-after-take")
        if left == 1 and not self._r.plays(last, table):
            raise IllegalMoveError(
                f"that would leave {TEXT[last]} alone in hand: it cannot be discarded "
                f"(the last card) nor played", "last-card-stranded")

    def _take_from_hand(self, cards) -> list[int]:
        hand = list(self.hands[self.active])
        for c in cards:
            try:
                hand.remove(c)
            except ValueError:
                raise IllegalMoveError(
                    f"seat {self.active} does not hold {TEXT[c]} (enough times)",
                    "not-in-hand") from None
        return hand

    def _down(self, move: Move) -> Outcome:
        self._need_phase("play", "go down")
        seat = self.active
        if self.down[seat]:
            raise IllegalMoveError("already down this hand: lay off instead", "already-down")
        hand = self._take_from_hand([c for m in move.melds for c in m])
        melds = [self._r.build(list(m), seat) for m in move.melds]
        sets = sum(1 for m in melds if m.kind == "set")
        runs = len(melds) - sets
        need_s, need_r = CONTRACTS[self.hand_no]
        want = contract_text(self.hand_no)
        if sets < need_s or runs < need_r:
            raise IllegalMoveError(f"hand {self.hand_no + 1} asks for {want}; these melds are "
                                   f"{sets} set(s) and {runs} run(s)", "contract-not-met")
        if self.rules.exact_melds and (sets, runs) != (need_s, need_r):
            raise IllegalMoveError(f"no more melds than the contract ({want})", "too-many-melds")
        if self.rules.run_suits_distinct:
            suits = [m.suit for m in melds if m.kind == "run"]
            if len(set(suits)) != len(suits):
                raise IllegalMoveError("each run of the contract must be in its own suit",
                                       "run-suits")
        table = self.table + melds
        self._check_left(len(hand), hand[0] if hand else None, table)
        self.beneath = False
        self.hands[seat] = hand
        self.table = table
        self.down[seat] = True
        if not hand:
            return self._end_hand(seat)
        return Outcome("went-down", seat, {"melds": [m.text() for m in melds]})

    def _meld(self, index: int | None) -> Meld:
        if index is None or not 0 <= index < len(self.table):
            raise IllegalMoveError(f"no meld {None if index is None else index + 1} on the "
                                   f"table ({len(self.table)} melds)", "no-such-meld")
        return self.table[index]

    def _end_for(self, card: int, m: Meld, end: str, index: int) -> str:
        ends = self._r.ends_for(card, m)
        if not ends:
            raise IllegalMoveError(f"{TEXT[card]} does not fit meld {index + 1} ({m.text()})",
                                   "does-not-fit")
        if end:
            if m.kind == "set":
                raise IllegalMoveError("a set has no ends: leave out + / -", "does-not-fit")
            if end not in ends:
                raise IllegalMoveError(f"{TEXT[card]} does not fit the {end} end of meld "
                                       f"{index + 1}", "does-not-fit")
            return end
        if len(ends) > 1:
            raise IllegalMoveError(f"{TEXT[card]} fits both ends of meld {index + 1}: "
                                   f"say which ({index + 1}+ or {index + 1}-)", "which-end")
        return ends[0]

    def _need_down(self, what: str) -> None:
        self._need_phase("play", what)
        if not self.down[self.active]:
            raise IllegalMoveError("go down with the contract before laying off", "not-down")

    def _lay(self, move: Move) -> Outcome:
        self._need_down("lay off")
        c = move.card
        hand = self._take_from_hand([c])
        m = self._meld(move.target)
        end = self._end_for(c, m, move.end, move.target)
        new = m.copy()
        lay(new, c, end, self._r.is_wild(c))
        table = list(self.table)
        table[move.target] = new
        self._check_left(len(hand), hand[0] if hand else None, table)
        self.beneath = False
        self.hands[self.active] = hand
        self.table = table
        if not hand:
            return self._end_hand(self.active)
        return Outcome("laid-off", self.active, {"card": TEXT[c], "meld": move.target + 1})

    def _swap(self, move: Move) -> Outcome:
        self._need_down("swap a wild card")
        c = move.card
        hand = self._take_from_hand([c])
        m = self._meld(move.target)
        slot = self._r.swap_slot(c, m)
        if slot is None:
            raise IllegalMoveError(f"{TEXT[c]} replaces no wild card of meld {move.target + 1} "
                                   f"({m.text()}); wild cards in sets are buried", "no-wild-to-replace")
        if move.wild_target == move.target:
            raise IllegalMoveError("the freed wild card must go to another meld", "wild-same-meld")
        t = self._meld(move.wild_target)
        new = m.copy()
        w = new.cards[slot]
        new.cards[slot] = c
        new.wilds -= 1
        end = self._end_for(w, t, move.end, move.wild_target)
        new_t = t.copy()
        lay(new_t, w, end, True)
        table = list(self.table)
        table[move.target] = new
        table[move.wild_target] = new_t
        self._check_left(len(hand), hand[0] if hand else None, table)
        self.beneath = False
        self.hands[self.active] = hand
        self.table = table
        if not hand:
            return self._end_hand(self.active)
        return Outcome("swapped", self.active, {"card": TEXT[c], "wild": TEXT[w],
                                                "meld": move.target + 1,
                                                "to": move.wild_target + 1})

    # --- views and persistence ----------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: the public view). Other hands are
        shown only as counts, the stock only as a count, until the game is
        over; finished hands' cards are public (they were shown for scoring).

        :raises IllegalMoveError: no such seat.
        """
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < self.n):
            raise IllegalMoveError(f"no seat {seat!r}", "no-such-seat")
        v: dict[str, Any] = {
            "family": self.family, "variant": self.variant, "profile": self.rules.profile,
            "players": self.n, "hand": self.hand_no + 1,
            "contract": contract_text(self.hand_no),
            "to_move": self.to_move, "phase": self.phase,
            "pending_actors": self.pending_actors(),
            "hand_counts": [len(h) for h in self.hands],
            "stock_count": len(self.stock),
            "discard_top": TEXT[self.discards[-1]] if self.discards else None,
            "discard_top_dead": bool(self.discards) and self.dead[-1],
            "discard_count": len(self.discards),
            "table": [m.to_dict() for m in self.table],
            "down": list(self.down), "buys": list(self.buys),
            "picked_up": [[TEXT[c] for c in p] for p in self.picked],
            "buy_requests": list(self.requests),
            "buy_window": self.window and self.phase == "draw",
            "beneath_window": self.beneath,
            "totals": list(self.totals), "results": [dict(r) for r in self.results],
            "turn": self.turn, "pool_count": len(self.stock),
            "is_over": self.over, "scores": self.scores(),
        }
        if seat is not None:
            v["seat"] = seat
            v["my_hand"] = [TEXT[c] for c in sorted(self.hands[seat], key=sort_key)]
            v["may_act"] = self.may_act(seat)
            v["can_buy"] = self.can_buy(seat)
            v["can_undo"] = self.can_undo(seat)
        return v

    def snapshot(self) -> dict[str, Any]:
        """The whole state, JSON-safe (server side: it holds the stock)."""
        t = lambda cs: [TEXT[c] for c in cs]  # noqa: E731
        return {
            "family": self.family, "variant": self.variant,
            "rules": self.rules_to_dict(self.rules), "players": self.n,
            "seed": self.seed, "deal": _deal_to_json(self.deal), "first": self.first,
            "hand_no": self.hand_no, "hand_first": self.hand_first,
            "totals": list(self.totals), "results": json.loads(json.dumps(self.results)),
            "move_stack": list(self.move_stack), "over": self.over,
            "hands": [t(h) for h in self.hands], "stock": t(self.stock),
            "discards": t(self.discards), "dead": list(self.dead),
            "table": [m.to_dict() for m in self.table],
            "down": list(self.down), "buys": list(self.buys), "active": self.active,
            "picked": [t(p) for p in self.picked],
            "phase": self.phase, "took": self.took, "window": self.window,
            "window_ref": self.window_ref, "window_discarder": self.window_discarder,
            "upcard": self.upcard, "requests": list(self.requests),
            "beneath": self.beneath, "beneath_used": self.beneath_used,
            "undo_info": dict(self.undo_info) if self.undo_info else None,
            "reshuffles": self.reshuffles, "turn": self.turn,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> "ContractGame":
        """Rebuild a game from :meth:`snapshot`.

        :raises RecordError: a malformed snapshot.
        """
        try:
            variant_cls = cls
            if data.get("variant") and data["variant"] != cls.variant:
                from .registry import find_variant
                variant_cls = find_variant(data["variant"])
            rules = ContractRules(**data["rules"])
            g = variant_cls.__new__(variant_cls)
            g.n, g.rules, g._r = data["players"], rules, _Rules(rules)
            g.seed, g.first = data["seed"], data["first"]
            g.deal = _deal_from_json(data["deal"])
            g.hand_no, g.hand_first = data["hand_no"], data["hand_first"]
            g.totals, g.results = list(data["totals"]), json.loads(json.dumps(data["results"]))
            g.move_stack, g.over = list(data["move_stack"]), data["over"]
            p = lambda cs: [int(Card.parse(c)) for c in cs]  # noqa: E731
            g.hands = [p(h) for h in data["hands"]]
            g.stock, g.discards = p(data["stock"]), p(data["discards"])
            g.dead = list(data["dead"])
            g.picked = [p(x) for x in data["picked"]]
            g.table = [_meld_from_dict(m, g._r) for m in data["table"]]
            for name in ("down", "buys", "requests"):
                setattr(g, name, list(data[name]))
            for name in ("active", "phase", "took", "window", "window_ref",
                         "window_discarder", "upcard", "beneath", "beneath_used",
                         "reshuffles", "turn"):
                setattr(g, name, data[name])
            g.undo_info = dict(data["undo_info"]) if data["undo_info"] else None
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"not a contract snapshot: {exc}") from exc
        return g

    def describe(self) -> str:
        """A text summary for people: finished hands, the table and hands in
        play (server side), totals and winners."""
        return describe(self)

    # --- records ------------------------------------------------------------------
    def record(self, seats: list[str] | None = None, tags: dict[str, str] | None = None) -> str:
        """The game record in the shared format (:mod:`engine.records`)."""
        from .records import write_game

        return write_game(self, seats, tags)


@register
class InternationalGame(ContractGame):
    """Seed 004's "International": the same engine with its profile."""

    variant: ClassVar[str] = "international"
    aliases: ClassVar[tuple[str, ...]] = ("contract-international", "contract-004")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    default_profile: ClassVar[str] = "international"


def _meld_from_dict(d: dict[str, Any], r: _Rules) -> Meld:
    cards = [int(Card.parse(c)) for c in d["cards"]]
    wilds = sum(1 for c in cards if r.is_wild(c))
    if d["kind"] == "set":
        return Meld("set", d["owner"], cards, rank=d["rank"], wilds=wilds)
    return Meld("run", d["owner"], cards, suit="CDHS".index(d["suit"]),
                start=d["start"], wilds=wilds)


def _deal_to_json(deal):
    if deal is None:
        return None
    out: dict[str, Any] = {}
    for i, d in enumerate(deal["hands"], 1):
        out[f"hand{i}"] = [[TEXT[c] for c in h] for h in d["hands"]]
        out[f"upcard{i}"] = [TEXT[d["upcard"]]]
        out[f"stock{i}"] = [TEXT[c] for c in d["stock"]]
    return out


def _deal_entries(deal) -> list[dict[str, Any]]:
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


def _deal_from_json(deal):
    if deal is None:
        return None
    return {"hands": _deal_entries(deal)}


def _check_deal(deal, players: int, rules: ContractRules, pack: Counter):
    """Validate a typed-in deal; return it with cards as codes.

    :raises DealError: anything wrong, named.
    """
    if deal is None:
        return None
    entries = _deal_entries(deal)
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


def _rules_diff(rules: ContractRules) -> dict[str, Any]:
    """The profile and every option that differs from it."""
    base = ContractRules.preset(rules.profile)
    out: dict[str, Any] = {"profile": rules.profile}
    for f in fields(rules):
        v = getattr(rules, f.name)
        if f.name != "profile" and v != getattr(base, f.name):
            out[f.name] = v
    return out


# --- records ---------------------------------------------------------------------

def replay_record(text: str) -> ContractGame:
    """Replay a contract record (shared format) from a fresh deal.

    :raises RecordError: unreadable record, or a result that differs.
    :raises IllegalMoveError: (``engine.records.ReplayError``) a move the
        rules refuse, naming the turn, the seat and the rule.
    """
    from .records import replay_text

    game = replay_text(text)
    if not isinstance(game, ContractGame):
        raise RecordError(f"not a contract rummy record (variant {game.variant!r})")
    return game


def describe(game: ContractGame) -> str:
    """A text summary: each finished hand, the table and hands now, totals."""
    lines = [f"{game.variant} ({game.rules.profile}), {game.n} players"]
    for r in game.results:
        who = "nobody (blocked)" if r["winner"] is None else f"seat {r['winner']}"
        lines.append(f"hand {r['hand']} ({r['contract']}): out {who}; points "
                     + " ".join(str(p) for p in r["points"]))
    if not game.over:
        lines.append(f"hand {game.hand_no + 1} ({contract_text(game.hand_no)}) in play, "
                     f"seat {game.active} to move")
        for i, m in enumerate(game.table, 1):
            lines.append(f"  meld {i} (seat {m.owner}, {m.kind}): {m.text()}")
        for s, h in enumerate(game.hands):
            lines.append(f"  seat {s}: " + " ".join(TEXT[c] for c in sorted(h, key=sort_key)))
    lines.append("totals: " + " ".join(str(t) for t in game.totals))
    if game.over:
        lines.append("winner: " + ", ".join(f"seat {s}" for s in game.winners))
    return "\n".join(lines)




# --- judging a going-out ------------------------------------------------------------

_GOING_OUT_ACTIONS = ("down", "lay", "swap", "discard")


def _cards_taken(move: Move) -> list[int]:
    """The cards ``move`` takes from its player's hand."""
    if move.action == "down":
        return [c for m in move.melds for c in m]
    if move.action in ("lay", "swap", "discard"):
        return [move.card]
    return []


def claims_going_out(game: ContractGame, move: Move | str) -> bool:
    """Whether ``move``, pushed on ``game``, would empty its player's hand:
    a ``down``, ``lay`` or ``swap`` that plays as many cards as the hand
    holds, or a ``discard`` of the last card (which the rules refuse: see
    :func:`judge_going_out`). Says nothing about whether the move is legal.

    :raises NotationError: text that does not parse.
    """
    if isinstance(move, str):
        move = Move.parse(move)
    if game.over or move.action not in _GOING_OUT_ACTIONS:
        return False
    seat = game.active if move.seat is None else move.seat
    if not (isinstance(seat, int) and 0 <= seat < game.n):
        return False
    return len(_cards_taken(move)) == len(game.hands[seat])


def _meld_evidence(m: Meld, index: int | None = None) -> dict[str, Any]:
    d = m.to_dict()
    d["wilds"] = m.wilds
    if index is not None:
        d["meld"] = index + 1
    return d


def judge_going_out(game: ContractGame, move: Move | str) -> dict[str, Any]:
    """Judge the claim that ``move`` went out of the hand in play on
    ``game`` (the state just before it) with a winning hand. Pure:
    ``game`` is not changed.

    The move is pushed on a copy, so every rule the engine enforces is
    applied as in play: the player on turn and after drawing; for a
    ``down``, each meld a valid set or run for the profile (wild cards,
    aces, the natural/wild ratio), the hand's contract met
    (``exact_melds``, ``run_suits_distinct``); for a ``lay`` or ``swap``,
    the player already down and the card fitting; the last card never
    discarded (``last-card-discard``); not on a turn the top discard was
    taken where the profile forbids it (``no-out-after-take``). The table
    the move leaves is then checked again meld by meld
    (:meth:`_Rules.check_meld`, the melds just put down at the going-down
    ratio), and the hand must have ended with this player out.

    :returns: ``{"valid", "rule", "reason", "seat", "move", "action",
        "profile", "hand", "contract", "contract_melds", "melds", "table"}``:
        ``rule`` is ``None`` when valid, else the code of the first rule
        broken (the engine's own :class:`IllegalMoveError` codes) and
        ``reason`` says it for people; ``melds`` are the melds the move
        laid or changed (each with its ``kind``), ``table`` every meld on
        the table when the hand ended (empty when the move was refused).
        Nothing in it comes from a hand but the cards the move played.
    :raises ValueError: ``move`` does not claim to go out
        (:func:`claims_going_out`); the message says how many cards it
        would leave.
    :raises NotationError: text that does not parse.
    """
    if isinstance(move, str):
        move = Move.parse(move)
    seat = game.active if move.seat is None else move.seat
    if not claims_going_out(game, move):
        if game.over:
            raise ValueError("the game is over: no move goes out")
        if move.action not in _GOING_OUT_ACTIONS:
            raise ValueError(f"{move.body()!r} plays no card: it cannot go out")
        if not (isinstance(seat, int) and 0 <= seat < game.n):
            raise ValueError(f"no seat {seat!r} at a table of {game.n}")
        left = len(game.hands[seat]) - len(_cards_taken(move))
        raise ValueError(f"{move.body()!r} would leave seat {seat} with {left} card(s): "
                         f"it does not go out")
    need_s, need_r = CONTRACTS[game.hand_no]
    out: dict[str, Any] = {
        "valid": False, "rule": None, "reason": "", "seat": seat,
        "move": f"{seat} {move.body()}", "action": move.action,
        "profile": game.rules.profile, "hand": game.hand_no + 1,
        "contract": contract_text(game.hand_no),
        "contract_melds": {"sets": need_s, "runs": need_r},
        "melds": [], "table": []}
    r = game._r
    if move.action == "down":
        # what each claimed meld is, valid or not (the cards are on the table)
        for cards in move.melds:
            try:
                out["melds"].append(_meld_evidence(r.build(list(cards), seat)))
            except IllegalMoveError as exc:
                out["melds"].append({"kind": None, "cards": [TEXT[c] for c in cards],
                                     "problem": str(exc), "rule": exc.rule})
    trial = type(game).from_snapshot(game.snapshot())
    hand_no, ended_before = trial.hand_no, len(trial.results)
    try:
        trial.push(move)
    except IllegalMoveError as exc:
        out.update(rule=exc.rule, reason=str(exc))
        return out
    if len(trial.results) == ended_before:
        out.update(rule="not-out", reason=f"the hand did not end: seat {seat} is not out")
        return out
    result = trial.results[-1]
    table = [_meld_from_dict(d, r) for d in result["table"]]
    out["table"] = [_meld_evidence(m, i) for i, m in enumerate(table)]
    if move.action == "down":
        first_new = len(table) - len(move.melds)
        new = range(first_new, len(table))
        out["melds"] = [out["table"][i] for i in new]
    elif move.action == "lay":
        new = range(0)
        out["melds"] = [{**out["table"][move.target], "laid": TEXT[move.card]}]
    else:
        new = range(0)
        out["melds"] = [{**out["table"][move.target], "laid": TEXT[move.card]},
                        {**out["table"][move.wild_target], "laid": "wild"}]
    for i, m in enumerate(table):
        try:
            r.check_meld(m, going_down=i in new)
        except IllegalMoveError as exc:
            out.update(rule=exc.rule, reason=f"meld {i + 1} ({m.text()}): {exc}")
            return out
    if result["winner"] != seat or result["cards"][seat]:
        out.update(rule="not-out", reason=f"the hand did not end with seat {seat} out")
        return out
    out.update(valid=True, reason=f"seat {seat} went out of hand {hand_no + 1} "
                                  f"({contract_text(hand_no)}) by {move.action}")
    return out


# --- score sheets -----------------------------------------------------------------

def score_hands(left, rules: ContractRules | None = None, players: int | None = None
                ) -> list[list[int]]:
    """Points of a game played at a real table, from the cards each player
    had left at the end of each hand, with the rules' card values
    (:meth:`ContractRules.card_points`, as the engine scores a hand's end).

    :param left: ``left[h][s]``: the cards seat ``s`` held when hand ``h + 1``
        ended (card codes or :class:`~engine.cards.Card`), all seven hands;
        an empty hand is the player who went out.
    :param rules: the rule set (default: the three-decks profile).
    :param players: the number of seats (default: as many as hand 1 lists).
    :returns: ``points[h][s]``; a seat's game total is the sum of its column.
    :raises RecordError: not seven hands, a hand without a line per seat,
        more than one player out in one hand, or more copies of a card than
        the pack holds (each named with its hand, and seat where it has one).
    """
    rules = rules or PROFILES["three-decks"]
    left = [list(hand) for hand in left]
    if len(left) != HANDS:
        raise RecordError(f"a game is {HANDS} hands; the sheet gives {len(left)}")
    n = len(left[0]) if players is None else players
    if not rules.min_players <= n <= rules.max_players:
        raise RecordError(f"{rules.profile} takes {rules.min_players} to {rules.max_players} "
                          f"players, not {n}")
    pack = deck_counter(rules.decks_for(n), rules.jokers_per_deck)
    out = []
    for h, seats in enumerate(left, 1):
        if len(seats) != n:
            raise RecordError(f"hand {h} ({contract_text(h - 1)}): {len(seats)} lines for "
                              f"{n} players")
        cards = [[int(c) for c in s] for s in seats]
        out_seats = [s for s, c in enumerate(cards) if not c]
        if len(out_seats) > 1:
            raise RecordError(f"hand {h}: seats {', '.join(map(str, out_seats))} have no cards "
                              "left; only one player goes out")
        extra = Counter(c for cs in cards for c in cs) - pack
        if extra:
            names = ", ".join(f"{TEXT[c]} x{pack[c] + k}" for c, k in sorted(extra.items()))
            raise RecordError(f"hand {h}: more copies than the pack of {rules.decks_for(n)} "
                              f"decks holds ({names})")
        out.append([sum(rules.card_points(c) for c in cs) for cs in cards])
    return out
