"""Melds (sets) of Rummikub: groups and runs, with jokers that know what
they stand for.

Slots
-----
A meld on the table is a tuple of *slots*, small ints (see
:mod:`engine.tiles` for tile codes):

- ``0..51``: the numbered tile itself;
- ``53 + code`` (53..104): a joker in a run standing for tile ``code``;
  written ``J(R5)``;
- ``105 + number - 1`` (105..117): a joker in a group standing for
  ``number`` in a colour the group lacks; written ``J(5)``. In a group of
  three with one joker it may stand for either missing colour (the boxed
  rules let either one free it); in a group of four it stands for the one
  missing colour.

Writing the joker's role in every meld settles seed 001's "a combination of
three tiles of which two are jokers must clearly state whether it is a set or
a sequence": ``[R7 J(7) J(7)]`` is a group of sevens, ``[R7 J(R8) J(R9)]`` a
run.

A meld is written ``[R5 J(R6) R7]``. Its canonical order: a run ascending
by number; a group by colour (K R B O) with jokers last. :func:`canonical`
puts any slots in that order; :func:`meld_kind` says whether they form a
valid meld. Every valid meld holds at least one numbered tile (a meld of
jokers alone, possible with the XP set's four jokers, is not allowed: it
could not say what it stands for).

Rules checked by :func:`meld_kind`
----------------------------------
- group: 3 or 4 slots, one number, distinct colours (jokers fill missing
  colours);
- run: 3 to 13 slots of one colour with consecutive numbers; 1 is always
  low (``12-13-1`` is no run), unless the rules say otherwise (below).

Rules several tile games share
------------------------------
:class:`MeldRules` is a small frozen value holding the options of melds that
more than one tile game needs; a family's rule set provides one (Rummikub:
``RuleSet.meld_rules``) and the solver takes it. Its options:

- ``one_in_runs``: ``"low"`` (Sabra: ``1-2-3`` is a run, ``12-13-1`` is
  not) or ``"low-or-high"`` (American Rummikub, Okey: a 1 may follow 13 but
  not both at once, so ``12-13-1`` and ``1-2-3`` are runs and ``13-1-2`` is
  not). Pass the rules to :func:`meld_kind`, :func:`why_invalid` and
  :func:`meld_value`; without them the Sabra reading holds. A run with its 1
  high keeps the canonical order of any run (the 1 first: ``[R1 R12 R13]``
  is 12-13-1).
- ``high_one_value``: what a 1 used high (or a joker standing for it)
  counts in :func:`meld_value`: ``1``, its face, or ``14``.
- ``initial_meld``: the points the first meld must reach from the rack.
- ``joker_sets`` and ``joker_reuse``: how melds holding a joker may change
  and where a freed joker must go (the vocabularies :data:`JOKER_SETS` and
  :data:`JOKER_REUSE`; their meaning is in ``docs/rules/rummikub.md``).

The defaults are the boxed Sabra rules.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Iterable

from .errors import NotationError, RuleOptionError
from .tiles import _TEXT, JOKER

RUN_JOKER = 53      # + tile code
GROUP_JOKER = 105   # + number - 1
MAX_SLOT = 118

Meld = tuple  # a tuple of slots

# ---------------------------------------------------------------------------
# Rules shared by the tile games
# ---------------------------------------------------------------------------

ONE_IN_RUNS = ("low", "low-or-high")
HIGH_ONE_VALUES = (1, 14)
JOKER_SETS = ("free", "keep-tile", "frozen")
JOKER_REUSE = ("any", "new-meld", "new-meld-with-rack-tiles", "joker-and-rack-tiles-only")


@dataclass(frozen=True)
class MeldRules:
    """The meld options several tile games share (see the module
    docstring). Frozen: one value serves every call.

    >>> r = MeldRules(one_in_runs="low-or-high", high_one_value=14)
    >>> meld_kind(parse_meld("[R12 R13 R1]"), r), meld_kind(parse_meld("[R13 R1 R2]"), r)
    ('run', None)
    >>> meld_value(parse_meld("[R12 R13 J(R1)]"), r)
    39

    :raises RuleOptionError: an unknown choice or a bad value.
    """

    one_in_runs: str = "low"
    high_one_value: int = 1
    initial_meld: int = 30
    joker_sets: str = "free"
    joker_reuse: str = "new-meld"

    def __post_init__(self):
        for name, choices in (("one_in_runs", ONE_IN_RUNS), ("joker_sets", JOKER_SETS),
                              ("joker_reuse", JOKER_REUSE)):
            if getattr(self, name) not in choices:
                raise RuleOptionError(f"rule option {name} must be one of "
                                      f"{', '.join(choices)}, not {getattr(self, name)!r}")
        if self.high_one_value not in HIGH_ONE_VALUES or isinstance(self.high_one_value, bool):
            raise RuleOptionError(f"rule option high_one_value must be 1 or 14, "
                                  f"not {self.high_one_value!r}")
        v = self.initial_meld
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 500:
            raise RuleOptionError(f"rule option initial_meld must be an integer 0..500, not {v!r}")

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "MeldRules":
        """A value from options by name over the defaults; numbers may be
        given as text (``"50"``), as records hold them.

        :raises RuleOptionError: an unknown option or a bad value.
        """
        if isinstance(data, MeldRules):
            return data
        known = MELD_RULE_OPTIONS
        changes: dict[str, Any] = {}
        for key, value in (data or {}).items():
            if key not in known:
                raise RuleOptionError(f"unknown rule option {key!r} (known: {', '.join(known)})")
            if key in ("initial_meld", "high_one_value") and isinstance(value, str):
                try:
                    value = int(value.strip())
                except ValueError:
                    raise RuleOptionError(f"rule option {key} must be an integer, "
                                          f"not {value!r}") from None
            changes[key] = value
        return cls(**changes)

    def to_dict(self) -> dict[str, Any]:
        """Every option by name (JSON-safe)."""
        return asdict(self)


MELD_RULE_OPTIONS = tuple(f.name for f in fields(MeldRules))
SABRA_MELDS = MeldRules()


def run_joker(code: int) -> int:
    """The slot of a joker standing for tile ``code`` in a run."""
    return RUN_JOKER + code


def group_joker(number: int) -> int:
    """The slot of a joker standing for ``number`` in a group."""
    return GROUP_JOKER + number - 1


def slot_tile(s: int) -> int:
    """The physical tile of a slot: the numbered tile, or :data:`JOKER`."""
    return s if s < 52 else JOKER


def slot_number(s: int) -> int:
    """The number a slot stands for (1..13)."""
    if s < 52:
        return s % 13 + 1
    if s < GROUP_JOKER:
        return (s - RUN_JOKER) % 13 + 1
    return s - GROUP_JOKER + 1


_SLOT_TEXT: list[str] = list(_TEXT[:52]) + ["J"]
_SLOT_TEXT += [f"J({_TEXT[c]})" for c in range(52)]
_SLOT_TEXT += [f"J({n})" for n in range(1, 14)]
_SLOT_PARSE: dict[str, int] = {}
for _s, _t in enumerate(_SLOT_TEXT):
    if _s == JOKER:
        continue
    _SLOT_PARSE[_t] = _s
    _SLOT_PARSE[_t.lower()] = _s
    _SLOT_PARSE[_t.replace("J(", "j(")] = _s
del _s, _t


def slot_text(s: int) -> str:
    return _SLOT_TEXT[s]


def parse_slot(token: str) -> int:
    """Read a tile in a meld: ``R7``, ``J(R7)`` (run joker), ``J(7)`` (group
    joker).

    :raises NotationError: not a slot; a bare ``J`` is refused because a
        joker on the table must say what it stands for.
    """
    s = _SLOT_PARSE.get(token)
    if s is None:
        if token in ("J", "j"):
            raise NotationError(
                "a joker on the table must say what it stands for: J(R7) in a "
                "run, J(7) in a group", token=token)
        raise NotationError(
            f"unknown tile {token!r} in a meld: expected R7, J(R7) or J(7)",
            token=token)
    return s


def _is_group_shaped(slots) -> bool:
    has_run_joker = False
    number = None
    for s in slots:
        if s >= GROUP_JOKER:
            return True
        if s >= RUN_JOKER:
            has_run_joker = True
        elif number is None:
            number = s % 13
        elif s % 13 != number:
            return False
    return not has_run_joker and number is not None and len(slots) > 1 and \
        len({s // 13 for s in slots}) == len(slots)


def _run_key(s: int) -> tuple[int, int]:
    t = s if s < 52 else (s - RUN_JOKER if s < GROUP_JOKER else 52 + s)
    return (t % 13, t)


def canonical(slots: Iterable[int]) -> Meld:
    """``slots`` in canonical order (valid meld or not): group-shaped slots
    by colour with jokers last, anything else by the number stood for."""
    slots = tuple(slots)
    if _is_group_shaped(slots):
        return tuple(sorted(slots))
    return tuple(sorted(slots, key=_run_key))


_KIND: dict[Meld, str | None] = {}


def meld_kind(m: Meld, rules: MeldRules | None = None) -> str | None:
    """``"group"``, ``"run"`` or ``None`` (not a valid meld) for a canonical
    meld under ``rules`` (default: 1 low in runs). Results are cached."""
    if rules is not None and rules.one_in_runs != "low":
        k = meld_kind(m)
        return "run" if k is None and _high_run(m) else k
    try:
        return _KIND[m]
    except KeyError:
        pass
    k = _kind(m)
    if len(_KIND) < 200_000:
        _KIND[m] = k
    return k


def why_invalid(m: Meld, rules: MeldRules | None = None) -> str | None:
    """``None`` for a valid meld under ``rules``, else a short reason."""
    if meld_kind(m, rules):
        return None
    return _reason(m, "low" if rules is None else rules.one_in_runs)


def _high_run(m: Meld) -> bool:
    """A run of one colour whose 1 follows its 13 (``12-13-1``); a 1 is
    never low and high at once, and a run never wraps (``13-1-2``)."""
    if len(m) < 3 or any(not (0 <= s < GROUP_JOKER) or s == JOKER for s in m):
        return False
    if not any(s < 52 for s in m):
        return False
    tiles = [s if s < 52 else s - RUN_JOKER for s in m]
    colour = tiles[0] // 13
    if any(t // 13 != colour for t in tiles):
        return False
    nums = sorted(t % 13 or 13 for t in tiles)  # the 1 (0) as 14 (13)
    if nums[-1] != 13:
        return False
    return all(b == a + 1 for a, b in zip(nums, nums[1:]))


def _kind(m: Meld) -> str | None:
    n = len(m)
    if n < 3 or any(not (0 <= s < MAX_SLOT) or s == JOKER for s in m):
        return None
    reals = [s for s in m if s < 52]
    if not reals:
        return None
    has_group_joker = any(s >= GROUP_JOKER for s in m)
    has_run_joker = any(RUN_JOKER <= s < GROUP_JOKER for s in m)
    if has_group_joker or (not has_run_joker and len(reals) > 1
                           and len({s % 13 for s in reals}) == 1):
        # group
        if n > 4:
            return None
        num = reals[0] % 13
        if any(s % 13 != num for s in reals):
            return None
        if len({s // 13 for s in reals}) != len(reals):
            return None
        for s in m:
            if s >= 52 and s != GROUP_JOKER + num:
                return None
        return "group"
    # run
    tiles = [s if s < 52 else s - RUN_JOKER for s in m]
    colour = tiles[0] // 13
    if any(t // 13 != colour for t in tiles):
        return None
    nums = sorted(t % 13 for t in tiles)
    for a, b in zip(nums, nums[1:]):
        if b != a + 1:
            return None
    return "run"


def _reason(m: Meld, one_in_runs: str = "low") -> str:
    if len(m) < 3:
        return "fewer than 3 tiles"
    if not any(s < 52 for s in m):
        return "no numbered tile (jokers alone)"
    reals = [s for s in m if s < 52]
    if _is_group_shaped(m) or len({s % 13 for s in reals}) == 1 and \
            not any(RUN_JOKER <= s < GROUP_JOKER for s in m):
        if len(m) > 4:
            return "a group has at most 4 tiles"
        return "a group needs one number in distinct colours (jokers as J(n) of that number)"
    ones = "1 low" if one_in_runs == "low" else "1 low or high, never both, no wrap"
    return ("not a group (one number, distinct colours) nor a run (one colour, "
            f"consecutive numbers, {ones})")


def meld_value(m: Meld, rules: MeldRules | None = None) -> int:
    """The points of a meld for the initial meld: the numbers stood for,
    a joker counting as the tile it represents; a 1 used high (``12-13-1``
    under ``one_in_runs="low-or-high"``), or a joker standing for it, counts
    ``rules.high_one_value``."""
    value = sum(slot_number(s) for s in m)
    if rules is not None and rules.one_in_runs != "low" and rules.high_one_value != 1 \
            and meld_kind(m) is None and _high_run(m):
        ones = sum(1 for s in m if slot_number(s) == 1)
        value += ones * (rules.high_one_value - 1)
    return value


def meld_tiles(m: Meld) -> list[int]:
    """The physical tiles of a meld (jokers as :data:`JOKER`)."""
    return [s if s < 52 else JOKER for s in m]


def joker_candidates(m: Meld, index: int) -> frozenset[int]:
    """The tiles the joker at ``m[index]`` stands for: one tile in a run or
    a group of four; either missing colour in a smaller group."""
    s = m[index]
    if RUN_JOKER <= s < GROUP_JOKER:
        return frozenset((s - RUN_JOKER,))
    if s >= GROUP_JOKER:
        num = s - GROUP_JOKER
        present = {t // 13 for t in m if t < 52}
        return frozenset(c * 13 + num for c in range(4) if c not in present)
    raise ValueError("not a joker slot")


def format_meld(m: Meld) -> str:
    return "[" + " ".join(_SLOT_TEXT[s] for s in m) + "]"


_MELD_CACHE: dict[str, Meld] = {}


def parse_meld(text: str) -> Meld:
    """Read ``"[R5 J(R6) R7]"`` (brackets optional) into a canonical meld.
    The meld is not checked for validity (see :func:`meld_kind`).

    :raises NotationError: a bad token.
    """
    m = _MELD_CACHE.get(text)
    if m is not None:
        return m
    m = _parse_meld(text)
    if len(_MELD_CACHE) < 100_000:
        _MELD_CACHE[text] = m
    return m


def _parse_meld(text: str) -> Meld:
    body = text.strip()
    if body.startswith("["):
        if not body.endswith("]"):
            raise NotationError(f"unclosed meld {text!r}", token=text)
        body = body[1:-1]
    tokens = body.replace(",", " ").split()
    if not tokens:
        raise NotationError("empty meld []", token=text)
    get = _SLOT_PARSE.get
    slots = []
    for tok in tokens:
        s = get(tok)
        if s is None:
            s = parse_slot(tok)
        slots.append(s)
    return canonical(slots)


def parse_melds(text: str) -> list[Meld]:
    """Read melds written one after another: ``"[R1 R2 R3] [K7 R7 B7]"``.

    :raises NotationError: text outside brackets or a bad token.
    """
    out: list[Meld] = []
    rest = text.strip()
    while rest:
        if not rest.startswith("["):
            raise NotationError(f"expected a meld in brackets at {rest[:20]!r}",
                                token=rest.split()[0])
        end = rest.find("]")
        if end < 0:
            raise NotationError(f"unclosed meld {rest[:30]!r}", token=rest[:30])
        out.append(parse_meld(rest[:end + 1]))
        rest = rest[end + 1:].lstrip()
    return out


def interpretations(tiles: Iterable[int]) -> list[Meld]:
    """Every valid meld that the physical ``tiles`` (jokers unannotated)
    can form, in canonical order (no duplicates). Empty if none.

    >>> from engine.tiles import parse_tiles
    >>> [format_meld(m) for m in interpretations(parse_tiles("R5 R7 J"))]
    ['[R5 J(R6) R7]']
    """
    tiles = list(tiles)
    jokers = sum(1 for t in tiles if t == JOKER)
    reals = sorted(t for t in tiles if t != JOKER)
    n = len(tiles)
    out: set[Meld] = set()
    if n < 3 or not reals:
        return []
    # group
    num = reals[0] % 13
    if n <= 4 and all(t % 13 == num for t in reals) and \
            len({t // 13 for t in reals}) == len(reals):
        out.add(canonical(reals + [GROUP_JOKER + num] * jokers))
    # runs
    colour = reals[0] // 13
    if all(t // 13 == colour for t in reals) and len(set(reals)) == len(reals):
        lo, hi = reals[0] % 13, reals[-1] % 13
        span = hi - lo + 1
        if span <= n:
            extra = n - span  # jokers beyond the gaps, placed at the ends
            for left in range(extra + 1):
                start = lo - left
                end = start + n - 1
                if start < 0 or end > 12:
                    continue
                have = set(t % 13 for t in reals)
                slots = [colour * 13 + k if k in have else RUN_JOKER + colour * 13 + k
                         for k in range(start, end + 1)]
                out.add(tuple(slots))
    return sorted(out)


def is_valid_meld(tiles: Iterable[int]) -> bool:
    """Whether the physical tiles (jokers unannotated) form some valid meld."""
    return bool(interpretations(tiles))


__all__ = [
    "MeldRules", "MELD_RULE_OPTIONS", "SABRA_MELDS", "ONE_IN_RUNS", "JOKER_SETS",
    "JOKER_REUSE", "Meld", "RUN_JOKER", "GROUP_JOKER", "run_joker", "group_joker", "slot_tile",
    "slot_number", "slot_text", "parse_slot", "canonical", "meld_kind",
    "why_invalid", "meld_value", "meld_tiles", "joker_candidates",
    "format_meld", "parse_meld", "parse_melds", "interpretations",
    "is_valid_meld",
]
