"""The rules of American and International Rummikub (seed 001):
:class:`AmericanRules`, every option by name, with each variant's defaults
(:data:`AMERICAN`, :data:`INTERNATIONAL`).

The readings behind each default are in ``docs/rules/american.md`` and
``docs/rules/international.md``; :mod:`.options` describes each option for
people.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from ..errors import RuleOptionError
from ..melds import MeldRules

JOKER_REUSE = ("new-meld-with-rack-tiles", "new-meld", "any")
TAKE_DISCARD = ("from-second-turn", "always")
POOL_EMPTY = ("lowest-rack", "no-winner")


@dataclass(frozen=True)
class AmericanRules:
    """The options of both variants (each variant sets its own defaults).

    - ``initial_meld``: the points the first meld must reach from the rack
      (American 21, International 50); a joker counts as the tile it stands
      for.
    - ``joker_penalty``: a joker left on a rack at the end (30; some play 25).
    - ``joker_reuse``: where a joker freed from the table must go in the same
      move: a new meld with two or more rack tiles (the reading chosen), any
      new meld, or anywhere on the table.
    - ``take_discard``: the previous player's discard may be taken from
      one's second turn on (American) or always (International).
    - ``pool_empty``: when the face-down stacks run out with no winner:
      Sabra's rule, the lowest rack wins the differences (American), or
      nobody wins (International).
    - ``announce``: a player with three or fewer tiles left must have said so
      (International's Open win).
    - ``trump_twin_bonus``: the winner holding the trump's twin scores 50
      more (International, an option some play).
    - ``international``: the International game (15 tiles to the starter,
      Open, Foot and Closed wins, its scoring); set by the variant.
    """

    initial_meld: int = 21
    joker_penalty: int = 30
    joker_reuse: str = "new-meld-with-rack-tiles"
    take_discard: str = "from-second-turn"
    pool_empty: str = "lowest-rack"
    announce: bool = False
    trump_twin_bonus: bool = False
    international: bool = False

    _RANGES = {"initial_meld": (0, 200), "joker_penalty": (0, 100)}
    _CHOICES = {"joker_reuse": JOKER_REUSE, "take_discard": TAKE_DISCARD, "pool_empty": POOL_EMPTY}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None, base: "AmericanRules | None" = None) -> "AmericanRules":
        """Named options over ``base`` (a variant's defaults).

        :raises RuleOptionError: an unknown option or a bad value, named.
        """
        base = base or cls()
        if data is None:
            return base
        if not isinstance(data, dict):
            raise RuleOptionError("rules must be a mapping of option names to values")
        known = {f.name for f in fields(cls)} - {"international"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RuleOptionError(f"unknown rule option(s): {', '.join(unknown)} "
                                  f"(known: {', '.join(sorted(known))})")
        changes: dict[str, Any] = {}
        for name, value in data.items():
            if name in cls._RANGES:
                if isinstance(value, str) and value.strip().isdigit():
                    value = int(value.strip())
                low, high = cls._RANGES[name]
                if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                    raise RuleOptionError(f"rule option {name} takes a whole number {low}-{high}, not {value!r}")
            elif name in cls._CHOICES:
                if value not in cls._CHOICES[name]:
                    raise RuleOptionError(f"rule option {name} must be one of "
                                          f"{', '.join(cls._CHOICES[name])}, not {value!r}")
            elif not isinstance(value, bool):
                raise RuleOptionError(f"rule option {name} takes true or false, not {value!r}")
            changes[name] = value
        return replace(base, **changes)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("international")
        return out

    def diff(self, base: "AmericanRules") -> dict[str, Any]:
        """The options that differ from ``base`` (a record's Rule tags)."""
        return {k: v for k, v in self.to_dict().items() if getattr(base, k) != v}

    @property
    def meld_rules(self) -> MeldRules:
        """The meld checks: groups and runs as in Sabra, a 1 low or high."""
        return MeldRules(one_in_runs="low-or-high", initial_meld=min(self.initial_meld, 500))


AMERICAN = AmericanRules()
INTERNATIONAL = AmericanRules(initial_meld=50, take_discard="always", pool_empty="no-winner",
                              announce=True, international=True)
