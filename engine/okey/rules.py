"""Okey's room settings: :class:`OkeyRules`, every option by name.

The readings of seed 003 behind each default are in ``docs/rules/okey.md``;
:mod:`.options` describes each option for people.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from ..errors import RuleOptionError


@dataclass(frozen=True)
class OkeyRules:
    """The settings of an Okey room.

    - ``seven_pairs``: seven pairs win too (off: seed 003's room does not
      mention them; on in the common Turkish rules).
    - ``start_points``: the points each player starts a match with; the
      match ends after the game in which someone reaches 0 or less.
    - ``win_points``: what a normal win costs every other player (2).
    - ``okey_finish_double``: finishing by discarding an okey doubles it.
    - ``pairs_double``: a seven-pairs win doubles it.
    - ``compare_stone``: showing the indicator's twin before one's first
      draw costs every other player 1 (seed 003's "Compare Stone").
    - ``with_color``: when the indicator is red or black, wins count double
      (seed 003's "With Color"; never the Compare Stone).
    """

    seven_pairs: bool = False
    start_points: int = 20
    win_points: int = 2
    okey_finish_double: bool = True
    pairs_double: bool = True
    compare_stone: bool = True
    with_color: bool = False

    _RANGES = {"start_points": (1, 1000), "win_points": (1, 100)}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "OkeyRules":
        """Named options over the defaults.

        :raises RuleOptionError: an unknown option or a value of the wrong
            kind or out of range, named.
        """
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise RuleOptionError("rules must be a mapping of option names to values")
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise RuleOptionError(f"unknown rule option(s): {', '.join(unknown)} "
                                  f"(known: {', '.join(sorted(known))})")
        for name, value in data.items():
            if isinstance(getattr(cls, name), bool):
                if not isinstance(value, bool):
                    raise RuleOptionError(f"rule option {name} takes true or false, not {value!r}")
            else:
                low, high = cls._RANGES[name]
                if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                    raise RuleOptionError(f"rule option {name} takes a whole number "
                                          f"{low}-{high}, not {value!r}")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def diff(self) -> dict[str, Any]:
        """The options that differ from the defaults (a record's Rule tags)."""
        base = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(base, k) != v}
