"""What each rule option means, for people: the forms that start a game or
a tournament show each option as a real field (a tick box, a number in its
range, a list of its values) with one sentence saying what it does.

A family describes its options as a tuple of :class:`Option` next to its
rule set (``engine/rummikub/options.py``, ``engine/contract/options.py``);
:meth:`engine.base.Game.rule_options` pairs them with a variant's defaults.
The rule set itself stays the judge of values: an option's range here is
what a form offers, the rule set's checks are what a game accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


#: each option's name for people (the forms' labels); an option missing
#: here is shown as its name with spaces
LABELS = {
    "aces": "Aces", "announce": "Announce three or fewer", "buy_beneath": "A bought card comes with the stock's top",
    "buy_consent": "The player on turn allows a buy", "buy_extra": "Extra cards with a buy",
    "buy_limit": "Buys per hand", "buy_priority": "Who buys first", "compare_stone": "Compare Stone",
    "decks": "Decks", "direction": "Direction of play", "exact_melds": "Only the contract's melds when going down",
    "first_upcard_buy_only": "The first upcard can only be bought", "hand_size": "Cards dealt",
    "initial_meld": "Initial meld (points)", "joker_freed_from": "Where a joker can be freed from",
    "joker_group_both_colours": "A joker in a group may stand for either missing colour",
    "joker_penalty": "A joker left on the rack costs", "joker_reuse": "A freed joker may be used again",
    "joker_sets": "Jokers in sets", "jokers_per_deck": "Jokers per deck",
    "manipulate_on_initial_turn": "Rearrange the table on the initial meld's turn",
    "max_players": "Most players", "min_players": "Fewest players", "next_first": "Who starts the next hand",
    "no_out_after_take": "No going out on the turn a discard is taken",
    "okey_finish_double": "Finishing with the okey counts double", "own_turn_buy": "Buy on one's own turn",
    "own_turn_extra": "Extra cards with an own-turn buy", "pairs_double": "Seven pairs count double",
    "players_rule": "Players", "point_ace": "An ace counts", "point_high": "A ten to king counts",
    "point_low": "A three to nine counts", "point_two": "A two counts", "point_wild": "A wild card counts",
    "pool_empty": "When the pool is empty", "pool_empty_end": "When the pool runs out, the game ends",
    "profile": "Rules of", "rack_size": "Tiles dealt", "run_suits_distinct": "Runs of different suits",
    "seven_pairs": "Seven pairs", "start_points": "Points at the start", "stock_runs_out": "When the stock runs out",
    "take_discard": "Taking the discard", "trump_twin_bonus": "Bonus for the trump's twin",
    "turn_time_limit": "Seconds per turn (0: no clock)", "twos_wild": "Twos are wild", "undo_discard": "Undo a discard",
    "wild_ratio": "Wild cards in a meld", "win_points": "Points to win", "with_color": "With colours",
}


@dataclass(frozen=True)
class Option:
    """One rule option as a form shows it.

    ``kind`` is ``"bool"``, ``"int"`` (``low``..``high``) or ``"choice"``
    (``choices``: ``(value, what it means)`` pairs)."""

    name: str
    help: str
    kind: str
    choices: tuple[tuple[str, str], ...] = ()
    low: int | None = None
    high: int | None = None

    def to_dict(self, default: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "label": LABELS.get(self.name, self.name.replace("_", " ")), "help": self.help,
                               "kind": self.kind, "default": default}
        if self.kind == "choice":
            out["choices"] = [list(c) for c in self.choices]
        if self.kind == "int":
            out["low"], out["high"] = self.low, self.high
        return out


def boolean(name: str, help: str) -> Option:
    return Option(name, help, "bool")


def number(name: str, help: str, low: int, high: int) -> Option:
    return Option(name, help, "int", low=low, high=high)


def choice(name: str, help: str, *choices: tuple[str, str]) -> Option:
    return Option(name, help, "choice", choices=tuple(choices))


def describe(options: tuple[Option, ...], defaults: dict[str, Any]) -> list[dict[str, Any]]:
    """Every option of ``defaults`` (a variant's rules by name) in the
    order of ``defaults``, described.

    :raises KeyError: an option has no description (every option has one).
    """
    by_name = {o.name: o for o in options}
    return [by_name[name].to_dict(value) for name, value in defaults.items()]
