"""One list of variants, found by name or alias (as python-chess does)."""

from __future__ import annotations

from .errors import RuleOptionError

#: The game families, one package each under ``engine/``; importing a
#: family's package registers its variants. A new family adds its package here.
FAMILIES: tuple[str, ...] = ("rummikub", "contract", "okey", "american")

VARIANTS: list[type] = []


def register(cls):
    """Class decorator adding a :class:`engine.base.Game` subclass."""
    VARIANTS.append(cls)
    return cls


def _load() -> None:
    """Import every family package listed in :data:`FAMILIES`."""
    import importlib

    for family in FAMILIES:
        importlib.import_module(f"{__package__}.{family}")


def find_variant(name: str):
    """The game class whose ``variant`` or one of whose ``aliases`` is
    ``name`` (case-insensitive).

    :raises RuleOptionError: no such variant (a ``ValueError``).
    """
    if not isinstance(name, str):
        raise RuleOptionError(f"a variant name is text, not {name!r}")
    key = name.strip().lower()
    for attempt in range(2):
        if attempt or not VARIANTS:
            _load()
        for cls in VARIANTS:
            if key == cls.variant.lower() or key in (a.lower() for a in cls.aliases):
                return cls
    known = ", ".join(sorted(c.variant for c in VARIANTS)) or "none"
    raise RuleOptionError(f"unknown variant {name!r} (known: {known})")


def analyser_for(variant: str):
    """The post-game analyser of a variant's family: the module-level
    ``analyse(source) -> engine.analysis.GameAnalysis`` of
    ``engine/<family>/analysis.py``, imported when first asked for.

    :raises RuleOptionError: no such variant.
    """
    import importlib

    cls = find_variant(variant)
    return importlib.import_module(f"{__package__}.{cls.family}.analysis").analyse
