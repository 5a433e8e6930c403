"""One list of variants, found by name or alias (as python-chess does)."""

from __future__ import annotations

from .errors import RuleOptionError

#: The game families, one package each under ``engine/``; importing a
#: family's package registers its variants. A new family adds its package here.
FAMILIES: tuple[str, ...] = ("rummikub", "contract", "okey", "american")

VARIANTS: list[type] = []

#: each family's description (:class:`engine.family.Family`), by name
_DESCRIPTIONS: dict = {}

#: the family a new tournament is of when none is said
DEFAULT_FAMILY: str = FAMILIES[0]


def register(cls):
    """Class decorator adding a :class:`engine.base.Game` subclass."""
    VARIANTS.append(cls)
    return cls


_loaded: list[str] = []


def _load() -> None:
    """Import every family package listed in :data:`FAMILIES` (once)."""
    import importlib

    if _loaded == list(FAMILIES):
        return
    for family in FAMILIES:
        importlib.import_module(f"{__package__}.{family}")
        importlib.import_module(f"{__package__}.{family}.family")
    _loaded[:] = list(FAMILIES)


def register_family(description):
    """Add a family's description (an :class:`engine.family.Family`), by its
    ``name``; a family's ``family.py`` calls it on its one instance (a test
    may register a family of its own). Returns the description."""
    _DESCRIPTIONS[description.name] = description
    return description


def family_for(name: str):
    """The description of the family called ``name``.

    :raises RuleOptionError: no such family (a ``ValueError``).
    """
    if name not in _DESCRIPTIONS:
        _load()
    try:
        return _DESCRIPTIONS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_DESCRIPTIONS)) or "none"
        raise RuleOptionError(f"unknown game family {name!r} (known: {known})") from None


def families() -> list:
    """Every registered family's description, in listing order."""
    _load()
    return sorted(_DESCRIPTIONS.values(), key=lambda f: (f.order, f.title))


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
    ``engine/<family>/analysis.py``, imported when first asked for (its
    description's :meth:`~engine.family.Family.analyser`).

    :raises RuleOptionError: no such variant.
    :raises NotImplementedError: the family has no analyser.
    """
    return family_for(find_variant(variant).family).analyser()
