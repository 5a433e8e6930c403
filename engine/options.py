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
        out: dict[str, Any] = {"name": self.name, "label": self.name.replace("_", " "), "help": self.help,
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
