"""Rummikub's rule options: the :class:`RuleSet` value, the published
editions (:data:`PRESETS`) and reading/writing options by name.

What each option means, and the readings chosen, is in
``docs/rules/rummikub.md``. The options of melds that other tile games share
(the initial-meld threshold and the joker rules the solver needs) are handed
to the shared core as :attr:`RuleSet.meld_rules`, an
:class:`engine.melds.MeldRules`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from functools import cached_property, lru_cache
from typing import Any

from ..errors import RuleOptionError
from ..melds import JOKER_REUSE, JOKER_SETS, MeldRules

JOKER_FREED_FROM = ("rack", "rack-or-table")
DIRECTIONS = ("clockwise", "counterclockwise")
POOL_EMPTY_END = ("all-pass", "first-pass")


@dataclass(frozen=True)
class RuleSet:
    """Every rule option of Sabra Rummikub, by name. The defaults are the
    boxed (Lemada) rules; :data:`PRESETS` names the published editions.

    - ``initial_meld``: points the first meld must reach from the rack
      alone (30; some play 50).
    - ``joker_penalty``: points a joker left on a rack costs (30; or 25).
    - ``joker_reuse``: where a joker freed from the table must go this turn:
      ``"any"`` meld (reading 1), a ``"new-meld"`` (2), a new meld with two
      or more tiles from the rack (``"new-meld-with-rack-tiles"``, 3), a new
      meld formed first of the joker and two or more rack tiles only
      (``"joker-and-rack-tiles-only"``, 4).
    - ``joker_sets``: how melds holding a joker may change.
      ``"free"`` (the boxed rules, seed 001's fourth way to clear a joker,
      and seed 000's reading): jokers are rearranged like any tile; a joker
      that ends up standing for another tile has been retrieved.
      ``"keep-tile"`` (Lemada 1999, Goliath, "Dutch Sabra"): melds with a
      joker may be split and rearranged but each joker keeps the tile it
      stands for until a player supplies that tile.
      ``"frozen"`` (Official Book): a meld holding a joker may only be added
      to, or have its joker replaced by the tile it stands for.
    - ``joker_freed_from`` (``keep-tile`` and ``frozen``): the tile replacing
      a joker comes from the ``"rack"`` only, or from the ``"rack-or-table"``.
    - ``joker_group_both_colours`` (``keep-tile`` and ``frozen``): freeing a
      joker from a group of three needs both missing colours.
      Refused with ``joker_sets="free"``, where it would have no effect;
      ``joker_freed_from="rack"`` there is accepted with a warning
      (:meth:`RuleSet.warnings`).
    - ``manipulate_on_initial_turn``: whether the table may be rearranged
      (and jokers freed) on the turn of the initial meld.
    - ``direction``: ``"clockwise"`` (seat 0, 1, 2 ...) or
      ``"counterclockwise"`` (seat 0, n-1, n-2 ...).
    - ``turn_time_limit``: seconds per turn (0: none); the clock is the
      caller's, the engine records the option and takes ``timeout`` moves.
    - ``pool_empty_end``: with the pool empty, the game ends when every
      player in turn has passed (``"all-pass"``, the boxed "until no more
      plays can be made") or at the first pass (``"first-pass"``).
    - ``rack_size``: tiles dealt to each player (14).
    """

    initial_meld: int = 30
    joker_penalty: int = 30
    joker_reuse: str = "new-meld"
    joker_sets: str = "free"
    joker_freed_from: str = "rack-or-table"
    joker_group_both_colours: bool = False
    manipulate_on_initial_turn: bool = False
    direction: str = "clockwise"
    turn_time_limit: int = 60
    pool_empty_end: str = "all-pass"
    rack_size: int = 14

    def __post_init__(self):
        def need_int(name, lo, hi):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise RuleOptionError(f"rule option {name} must be an integer "
                                      f"{lo}..{hi}, not {v!r}")

        def need_choice(name, choices):
            v = getattr(self, name)
            if v not in choices:
                raise RuleOptionError(f"rule option {name} must be one of "
                                      f"{', '.join(choices)}, not {v!r}")

        def need_bool(name):
            v = getattr(self, name)
            if not isinstance(v, bool):
                raise RuleOptionError(f"rule option {name} must be true or false, not {v!r}")

        need_int("initial_meld", 0, 500)
        need_int("joker_penalty", 0, 500)
        need_choice("joker_reuse", JOKER_REUSE)
        need_choice("joker_sets", JOKER_SETS)
        need_choice("joker_freed_from", JOKER_FREED_FROM)
        need_bool("joker_group_both_colours")
        need_bool("manipulate_on_initial_turn")
        need_choice("direction", DIRECTIONS)
        need_int("turn_time_limit", 0, 86400)
        need_choice("pool_empty_end", POOL_EMPTY_END)
        need_int("rack_size", 1, 40)
        # options the others leave without effect (docs/rules/rummikub.md,
        # "Options without effect"): this one is refused, the rest warned of
        if self.joker_sets == "free" and self.joker_group_both_colours:
            raise RuleOptionError(
                "rule option joker_group_both_colours=true has no effect while "
                "joker_sets=free (a joker is rearranged like any tile: no tile frees it, "
                "so both missing colours would never be asked for); choose joker_sets "
                "keep-tile or frozen, or joker_group_both_colours false")

    def warnings(self) -> list[str]:
        """The options these rules accept but leave without effect, one text
        each (written into a game's record as ``Warning`` tags)."""
        out = []
        if self.joker_sets == "free" and self.joker_freed_from == "rack":
            out.append("joker_freed_from=rack has no effect while joker_sets=free: "
                       "a joker is rearranged like any tile and no tile frees it")
        return out

    @cached_property
    def meld_rules(self) -> MeldRules:
        """The options the shared meld checks and the solver read (Sabra:
        1 is always low in runs)."""
        return MeldRules(initial_meld=self.initial_meld, joker_sets=self.joker_sets,
                         joker_reuse=self.joker_reuse)


RULE_OPTIONS = tuple(f.name for f in fields(RuleSet))

PRESETS: dict[str, RuleSet] = {
    # The rules in the box (Lemada Light Industries, current): the defaults.
    "boxed": RuleSet(),
    # Hertzano's Official Rummikub Book (1978), as seed 001 reports it.
    "official-book": RuleSet(joker_sets="frozen", joker_freed_from="rack",
                             joker_reuse="new-meld", direction="counterclockwise",
                             manipulate_on_initial_turn=True, turn_time_limit=120,
                             pool_empty_end="first-pass"),
    # Dutch translation of the Book (Goliath 1985), its "Dutch Sabra" variation.
    "dutch-sabra": RuleSet(joker_sets="keep-tile", joker_freed_from="rack",
                           joker_penalty=25, direction="counterclockwise",
                           manipulate_on_initial_turn=True, turn_time_limit=120),
    # 1980 Pressman: both missing colours free a group joker; liberal reuse.
    "pressman-1980": RuleSet(joker_sets="frozen", joker_freed_from="rack",
                             joker_group_both_colours=True, joker_reuse="any",
                             manipulate_on_initial_turn=True),
    # 1987 Pressman: 50-point initial meld, joker reused with 2 rack tiles.
    "pressman-1987": RuleSet(initial_meld=50, joker_sets="frozen",
                             joker_freed_from="rack",
                             joker_reuse="new-meld-with-rack-tiles",
                             manipulate_on_initial_turn=True),
    # J W Spear & Sons 1988.
    "spears-1988": RuleSet(joker_sets="frozen", joker_freed_from="rack",
                           joker_reuse="new-meld-with-rack-tiles",
                           manipulate_on_initial_turn=True),
    # Goliath 1994: joker sets manipulable, joker used in the same go.
    "goliath-1994": RuleSet(joker_sets="keep-tile", joker_freed_from="rack",
                            joker_reuse="any", manipulate_on_initial_turn=True),
    # Lemada 1999: new set; no manipulation on the initial-meld turn.
    "lemada-1999": RuleSet(joker_sets="keep-tile", joker_freed_from="rack",
                           joker_reuse="new-meld"),
    # The strictest club reading of the joker (reading 4).
    "strict-joker": RuleSet(joker_sets="frozen", joker_freed_from="rack",
                            joker_reuse="joker-and-rack-tiles-only",
                            manipulate_on_initial_turn=True),
}


def rules_from_dict(data: dict[str, Any] | None, base: RuleSet | None = None) -> RuleSet:
    """A :class:`RuleSet` from named options over ``base`` (default: boxed).
    The key ``"preset"`` picks a base from :data:`PRESETS`. Values may be
    given as text (``"30"``, ``"true"``), as records hold them.

    :raises RuleOptionError: unknown option, preset or bad value.
    """
    if isinstance(data, RuleSet):
        return data
    data = dict(data or {})
    rules = base or RuleSet()
    if "preset" in data:
        name = data.pop("preset")
        if name not in PRESETS:
            raise RuleOptionError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})")
        rules = PRESETS[name]
    changes = {}
    for key, value in data.items():
        if key not in RULE_OPTIONS:
            raise RuleOptionError(f"unknown rule option {key!r} (known: {', '.join(RULE_OPTIONS)})")
        default = getattr(RuleSet(), key)
        if isinstance(value, str) and not isinstance(default, str):
            text = value.strip().lower()
            if isinstance(default, bool):
                if text not in ("true", "false"):
                    raise RuleOptionError(f"rule option {key} must be true or false, not {value!r}")
                value = text == "true"
            else:
                try:
                    value = int(text)
                except ValueError:
                    raise RuleOptionError(f"rule option {key} must be an integer, not {value!r}") from None
        changes[key] = value
    try:
        return RuleSet(**{**asdict(rules), **changes})
    except TypeError as exc:  # pragma: no cover - guarded above
        raise RuleOptionError(str(exc)) from None


def rules_to_dict(rules: RuleSet) -> dict[str, Any]:
    """Every option of ``rules`` by name (JSON-safe; a new dict each call)."""
    return dict(_options(rules))


@lru_cache(maxsize=64)
def _options(rules: RuleSet) -> dict[str, Any]:
    # every snapshot of a game names its rules: asdict once per rule set
    # (a rule set is frozen and its options are plain values)
    return asdict(rules)
