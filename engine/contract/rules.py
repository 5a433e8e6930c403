"""The rules of contract rummy: the seven contracts, every rule option in
one frozen :class:`ContractRules`, and its two named profiles.

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
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from ..cards import JOKER_CODE
from ..errors import RuleOptionError

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
    stock_runs_out: int = 3          # the hand ends the Nth time the stock runs out (0: never)
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
        if not 0 <= self.stock_runs_out <= 20:
            raise RuleOptionError("rule option 'stock_runs_out' takes 0 (never) to 20, "
                                  f"not {self.stock_runs_out}")
        if not 1 <= self.hand_size <= 15:
            raise RuleOptionError("rule option 'hand_size' takes 1 to 15")
        for name in ("buy_limit", "buy_extra", "own_turn_extra", "point_two",
                     "point_low", "point_high", "point_ace", "point_wild"):
            if getattr(self, name) < 0:
                raise RuleOptionError(f"rule option {name!r} cannot be negative")

    def warnings(self) -> list[str]:
        """The options these rules accept but leave without effect, one text
        each (written into a game's record as ``Warning`` tags); the choice
        per combination is in ``docs/rules/contract.md`` ("Options without
        effect"). An option is named when it is set to something other than
        what the game does anyway (or, where any value is idle, than its
        profile's value)."""
        base = PROFILES.get(self.profile, PROFILES["three-decks"])
        out = []
        if self.buy_consent and self.buy_priority != "first-asked":
            out.append(f"buy_priority={self.buy_priority} has no effect while buy_consent=true: "
                       "the player on turn answers the first seat that asks")
        if self.buy_limit == 0:
            for name in ("own_turn_buy", "buy_beneath"):
                if getattr(self, name):
                    out.append(f"{name}=true has no effect while buy_limit=0: nobody may buy")
        elif not self.own_turn_buy and self.own_turn_extra != base.own_turn_extra:
            out.append(f"own_turn_extra={self.own_turn_extra} has no effect while "
                       "own_turn_buy=false: nobody buys on his own turn")
        if self.twos_wild and self.point_two != base.point_two:
            out.append(f"point_two={self.point_two} has no effect while twos_wild=true: "
                       f"a two is wild and counts point_wild ({self.point_wild})")
        if not self.twos_wild and self.jokers_per_deck == 0:
            for name in ("wild_ratio", "point_wild"):
                if getattr(self, name) != getattr(base, name):
                    out.append(f"{name}={getattr(self, name)} has no effect with no wild cards "
                               "(twos_wild=false, jokers_per_deck=0)")
        return out

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

    def reshuffle_allowed(self, done: int) -> bool:
        """Whether the discards may become a new stock once more when the
        stock runs out, after ``done`` reshuffles this hand: the stock runs
        out for the ``done + 1``-th time, and the hand ends (nobody out)
        when that is the ``stock_runs_out``-th."""
        return not self.stock_runs_out or done + 1 < self.stock_runs_out

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


def rules_diff(rules: ContractRules) -> dict[str, Any]:
    """The profile and every option that differs from it."""
    base = ContractRules.preset(rules.profile)
    out: dict[str, Any] = {"profile": rules.profile}
    for f in fields(rules):
        v = getattr(rules, f.name)
        if f.name != "profile" and v != getattr(base, f.name):
            out[f.name] = v
    return out
