"""The exact dynamic programme behind :mod:`engine.solver`.

Problem
-------
Given counts of table tiles (all must be placed), counts of candidate rack
tiles (each may be placed or kept) and jokers of both kinds, find a division
of the placed tiles into valid melds that places the most rack tiles, then
the most value (face values, a joker 30). In initial-meld mode the table is
empty and the melds must be worth at least a threshold (a joker counting as
the tile it stands for).

Method
------
A dynamic programme over the numbers 1..13 (as van Rijn, Takes and Vis), with
these refinements:

- **State** at the boundary between numbers ``n`` and ``n+1``: for each
  colour, the multiset of open runs of that colour, each a *kind*: its length
  capped at 3, and whether it still has to reach 13 (a run with jokers below
  its lowest numbered tile) or still has no numbered tile; plus the number of
  jokers used so far (and, in initial-meld mode, the meld value capped at the
  threshold). States are packed into one int.
- **Canonical arrangements** keep the state space small without losing any
  optimum: a run of 3 or more that could go on is never closed while a new run
  of its colour starts at the next number (the two runs join); a joker at an
  end of a run sits above its numbered tiles unless the run reaches 13; groups
  are formed per number from a count of tiles per colour, which is feasible
  exactly when no colour gives more tiles than there are groups, every group
  gets a numbered tile and the total lies between 3 and 4 per group.
- **Per-colour transitions** (old run multiset, numbered tiles, jokers ->
  new run multisets) are enumerated once, pruned by dominance, and cached for
  the life of the process.
- **Numbers are processed colour by colour** (a broken profile), so the
  group count couples the four colours through two small counters rather
  than a product of options.
- **Look-ahead cuts**: a state whose groups at this number can no longer
  get three tiles or jokers each, or whose open runs need more jokers ahead
  than are left, is cut.
- **Loss budget and floor**: the programme may run with a budget of at
  most ``d`` candidate rack tiles left on the rack (states over budget are
  cut) and a floor, a score some plan is known to reach (states that cannot
  reach it are cut); :mod:`engine.solver.core` chooses them. A narrow
  ``beam`` pass gives the incumbent.

Everything here is pure Python on ints; ``bin/setup`` also compiles this
module, as it is, with mypyc (:mod:`engine.solver.compiled`); see
``docs/solver.md``.

Size: one module because mypyc compiles it as one unit (calls between its
functions and the search class's methods are direct C calls only inside a
module), and its digest is what the compiled build is checked against.
"""

from __future__ import annotations
from typing import Any, Final

from itertools import product

# ---------------------------------------------------------------------------
# Run kinds
# N: has a numbered tile, may close once long enough.
# F: has a numbered tile, has jokers below it, must reach 13.
# P: jokers only so far (below the first numbered tile), must reach 13.
# NG: three or more long, its last place a joker filling a gap: the next
#     place must be a numbered tile (used in the "necessary jokers" form).
N1: Final = 1
N2: Final = 2
N3: Final = 3
F1: Final = 4
F2: Final = 5
F3: Final = 6
P1: Final = 7
P2: Final = 8
P3: Final = 9
NG: Final = 10
_LEN = {N1: 1, N2: 2, N3: 3, F1: 1, F2: 2, F3: 3, P1: 1, P2: 2, P3: 3, NG: 3}
_STRICT = {N1: 0, N2: 0, N3: 0, F1: 1, F2: 1, F3: 1, P1: 2, P2: 2, P3: 2}
_BASE = {0: N1, 1: F1, 2: P1}

# Modes of the per-colour transition:
GENERAL: Final = 0      # a joker may go anywhere in a run (initial-meld mode)
LAZY: Final = 1         # only jokers a meld needs; surplus jokers are added at the end
LAZY_LOW: Final = 2     # LAZY at number 11, where a run may start with jokers
#                  (J R12 R13, J J R13: the only runs that need a joker below)


def _kind(strict: int, length: int) -> int:
    return _BASE[strict] + min(length, 3) - 1


def _grow(kind: int, real: bool, mode: int = GENERAL) -> int:
    """The kind of a run after one more place; 0 if not allowed."""
    if kind == NG:
        return N3 if real else 0
    s = _STRICT[kind]
    length = _LEN[kind]
    if mode != GENERAL and not real:
        if kind == N3:
            return NG
        if length >= 3 or kind == P2:
            return 0
    if s == 2 and real:
        s = 1
    return _kind(s, length + 1)


def _ge(a: int, b: int) -> bool:
    """Run kind ``a`` can do whatever ``b`` can."""
    if a == b:
        return True
    if a == NG:
        return False
    if b == NG:
        return a == N3
    return _LEN[a] >= _LEN[b] and _STRICT[a] <= _STRICT[b]


# Multisets of run kinds, interned: id <-> sorted tuple.
MS_LIST: list[tuple[int, ...]] = [()]
MS_ID: dict[tuple[int, ...], int] = {(): 0}


def ms_id(ms: tuple[int, ...]) -> int:
    ms = tuple(sorted(ms))
    i = MS_ID.get(ms)
    if i is None:
        i = len(MS_LIST)
        if i > 0xFFF:  # pragma: no cover - far beyond any tile set
            raise OverflowError("too many run configurations")
        MS_LIST.append(ms)
        MS_ID[ms] = i
    return i


def _dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Multiset ``a`` is at least as good as ``b`` for every future."""
    if len(a) < len(b):
        return False
    # match each run of b to a distinct run of a that is >= it; the
    # unmatched runs of a must be N3 (they can close at once).
    def rec(i: int, used: int) -> bool:
        if i == len(b):
            return all(a[k] == N3 for k in range(len(a)) if not used >> k & 1)
        for k in range(len(a)):
            if not used >> k & 1 and _ge(a[k], b[i]):
                if rec(i + 1, used | 1 << k):
                    return True
        return False
    return rec(0, 0)


# A recipe says what happened to each old run (in sorted order):
# 0 close, 1 continued by a numbered tile, 2 continued by a joker;
# then how many new runs start with a numbered tile and with a joker.
_APPLY_CACHE: dict[tuple[int, int, int, int], tuple[tuple[int, tuple], ...]] = {}


def apply_options(msid: int, r: int, j: int, mode: int = GENERAL
                  ) -> tuple[tuple[int, tuple], ...]:
    """All non-dominated results of putting ``r`` numbered tiles and ``j``
    jokers of one colour and number into runs, given the open runs
    ``MS_LIST[msid]``: a tuple of ``(new multiset id, recipe)``."""
    key = (msid, r, j, mode)
    got = _APPLY_CACHE.get(key)
    if got is not None:
        return got
    old = MS_LIST[msid]
    results: dict[tuple[int, ...], tuple] = {}
    choices = []
    for k in old:
        opts = [a for a in (1, 2) if _grow(k, a == 1, mode)]
        if k == N3:
            opts.append(0)
        choices.append(opts)
    for acts in product(*choices):
        nr = acts.count(1)
        nj = acts.count(2)
        if nr > r or nj > j:
            continue
        new_r, new_j = r - nr, j - nj
        if new_j and mode == LAZY:
            continue
        closed = acts.count(0)
        if closed and (new_r or new_j):
            continue  # a closed run would rather go on (canonical)
        out = []
        for kind, act in zip(old, acts):
            if act:
                out.append(_grow(kind, act == 1, mode))
        out.extend([N1] * new_r)
        out.extend([P1] * new_j)
        ms = tuple(sorted(out))
        if ms not in results:
            results[ms] = (acts, new_r, new_j)
    keys = list(results)
    keep = []
    for ms in keys:
        dominated = False
        for other in keys:
            if other != ms and _dominates(other, ms) and not (
                    _dominates(ms, other) and other > ms):
                dominated = True
                break
        if not dominated:
            keep.append((ms_id(ms), results[ms]))
    got = tuple(keep)
    _APPLY_CACHE[key] = got
    return got


_GO_ON: list[int] = []


def must_go_on(msid: int) -> int:
    """How many open runs of ``MS_LIST[msid]`` cannot close where they are
    (each needs a tile or a joker at the next number)."""
    if msid >= len(_GO_ON):
        _GO_ON.extend(sum(1 for k in MS_LIST[i] if k != N3)
                      for i in range(len(_GO_ON), len(MS_LIST)))
    return _GO_ON[msid]


def jokers_ahead(msid: int, avail: list[int], n: int) -> int:
    """The fewest jokers the open runs ``MS_LIST[msid]`` of one colour need
    after number index ``n``, given ``avail`` (the tiles of the colour that
    may be placed, per number index): each run must reach length 3 (a
    run ending in a gap joker: one more numbered tile), a run with jokers
    below must reach 13. A lower bound (tiles counted for every run)."""
    need = [0] * 13
    real = 0
    for k in MS_LIST[msid]:
        if k == N3:
            continue
        if k == NG:
            real += 1
            end = n + 1
        elif _STRICT[k]:
            end = max(12, n + 3 - _LEN[k])
        else:
            end = n + 3 - _LEN[k]
        for t in range(n + 1, min(end, 12) + 1):
            need[t] += 1
        if end > 12:
            return 99
    if n < 12 and real > avail[n + 1]:
        return 99
    return sum(max(0, need[t] - avail[t]) for t in range(n + 1, 13))


_AHEAD_G: dict[int, int] = {}  # (msid, n, the colour's tiles after n) -> jokers_ahead

_STRICT_MS: list[bool] = []


def has_strict(msid: int) -> bool:
    """Whether ``MS_LIST[msid]`` holds a run that must reach 13 (jokers
    below its tiles). Without one, what lies more than two numbers ahead
    does not matter to :func:`jokers_ahead` (each run needs at most two
    more tiles), nor to the options of a number other than 11 with jokers
    placed lazily (no run starts with a joker there): caches key on the
    next two numbers alone, shared by far more positions."""
    if msid >= len(_STRICT_MS):
        _STRICT_MS.extend(any(_STRICT.get(k) for k in MS_LIST[i])
                          for i in range(len(_STRICT_MS), len(MS_LIST)))
    return _STRICT_MS[msid]


NEAR: Final = 0o77  # the bits of a packed tail (see _tails) for the next two numbers


def _tails(table: list[int], rack: list[int]) -> Any:
    """Per colour and number index ``n``: the counts of the colour's tiles
    present after ``n``, packed three bits a number (a cache key); ``None``
    past seven copies of a tile."""
    out = []
    for c in range(4):
        row = [0] * 13
        acc = 0
        for n in range(12, -1, -1):
            row[n] = acc
            v = table[c * 13 + n] + rack[c * 13 + n]
            if v > 7:
                return None  # type: ignore
            acc = acc << 3 | v
        out.append(row)
    return out


def _ahead_table(table: list[int], rack: list[int]):
    """``f(msid, c, n)``: :func:`jokers_ahead` for colour ``c`` of this
    position, cached (per position, and across positions by the colour's
    tiles ahead)."""
    key = (tuple(table), tuple(rack))
    got = _AHEAD.get(key)
    if got is not None:
        return got
    avail = [[table[c * 13 + n] + rack[c * 13 + n] for n in range(13)] for c in range(4)]
    tails = _tails(table, rack)
    cache: dict[int, int] = {}
    glob = _AHEAD_G if tails is not None else {}
    if tails is None:
        tails = [[0] * 13] * 4

    def f(msid: int, c: int, n: int) -> int:
        k = msid << 6 | c << 4 | n
        v = cache.get(k)
        if v is None:
            if not msid:
                v = cache[k] = 0
                return 0
            if has_strict(msid):
                gk = (tails[c][n] << 5 | 16 | n) << 12 | msid
            else:
                gk = ((tails[c][n] & NEAR) << 5 | n) << 12 | msid
            v = glob.get(gk)
            if v is None:
                if len(glob) > 200_000:
                    glob.clear()
                v = glob[gk] = jokers_ahead(msid, avail[c], n)
            cache[k] = v
        return v
    f.cache = cache  # type: ignore  # callers may look up ``msid << 6 | c << 4 | n`` first
    if len(_AHEAD) > 8:
        _AHEAD.clear()
    _AHEAD[key] = f
    return f


_AHEAD: dict[tuple, object] = {}
# per position (the last few): the group room per number and colour, and
# the colours' tails (see run_dp)
_PREP: dict[tuple, tuple] = {}
# the fast path's option lists: per position (see run_dp), the last few;
# across positions by what they depend on (per step, then by msid and
# jokers left)
_OPTS: dict[tuple, Any] = {}
_OPTS_G: dict[int, Any] = {}


def closable_at_end(msid: int) -> bool:
    """Every open run can end after 13."""
    return all(k in (N3, F3) for k in MS_LIST[msid])


def mode_at(lazy: bool, n: int) -> int:
    """The transition mode at number ``n + 1``."""
    return GENERAL if not lazy else (LAZY_LOW if n == 10 else LAZY)


# Per (multiset, table count, rack count, joker cap): the options for one
# colour at one number: (new multiset id, y to groups, jokers, rack tiles
# used, recipe), best rack use first.
_COLOUR_CACHE: dict[Any, Any] = {}


def colour_options(msid: int, a: int, b: int, jcap: int, mode: int = GENERAL,
                   lim: int = 3) -> tuple:
    """The options for one colour at one number (see ``_COLOUR_CACHE``).
    ``lim`` bit 0: a group may hold this tile; bit 1: a run may pass here."""
    key = (msid, a, b, jcap, mode, lim)
    got = _COLOUR_CACHE.get(key)
    if got is not None:
        return got
    best: dict[tuple[int, int, int], tuple] = {}
    for u in range(b, -1, -1):
        x = a + u
        for y in range(x + 1):
            if y and not lim & 1:
                break
            if x - y and not lim & 2:
                continue
            for j in range(jcap + 1 if lim & 2 else 1):
                for new, recipe in apply_options(msid, x - y, j, mode):
                    k = (new, y, j)
                    if k not in best:
                        best[k] = (new, y, j, u, recipe)
    got = tuple(sorted(best.values(), key=lambda o: (-o[3], o[1], o[2])))
    _COLOUR_CACHE[key] = got
    return got


_DEBUG = False
BIG: Final = 1 << 16  # score = tiles placed * BIG + value placed
JOKER_VALUE: Final = 30

# the values of a position solved with its numbers reversed (see
# engine.solver.core.mirror): the tile at number index n is worth 13 - n
MIRRORED_VALUES = [13 - n for _ in range(4) for n in range(13)] + [JOKER_VALUE]

_SHIFT: Final = (0, 12, 24, 36)
_MASK8: Final = 0xFFF  # twelve bits per colour: an interned multiset id
_CAP_SHIFT: Final = 48  # 3 bits: how many surplus jokers the melds can still take
_J_SHIFT: Final = 51    # 4 bits: jokers used
_G_SHIFT: Final = 55    # 4 bits: most tiles one colour gave to groups at this number
_Y_SHIFT: Final = 59    # 6 bits: tiles given to groups at this number
_MV_SHIFT: Final = 65   # initial-meld mode: meld value, capped at the threshold
_NOCAP: Final = ~(7 << _CAP_SHIFT)
_EMPTY_OPT = (0, 0, 0, 0, ((), 0, 0))  # the option "nothing of this colour here"
_NONE: Final = (-1 << 80,)  # below every score


class Plan:
    """The decisions of an optimal arrangement, number by number."""

    __slots__ = ("score", "jokers_used", "steps", "surplus", "lazy", "reversed")

    def __init__(self, score, jokers_used, steps, surplus=0, lazy=False):
        self.reversed = False  # found with the numbers reversed (see core.mirror)
        self.lazy = lazy  # only needed jokers placed in the steps
        self.score = score
        self.jokers_used = jokers_used  # including the surplus
        self.steps = steps
        self.surplus = surplus  # jokers added at the end where there is room  # per number: (g, jg, [per colour (option, old ms id)])


class _Dominance(dict):
    """``i << 12 | j`` -> whether run multiset ``i`` dominates ``j``,
    compared on first use (a process meets few of the pairs)."""

    def __missing__(self, x: int) -> bool:
        i, j = x >> 12, x & _MASK8
        got = self[x] = i == j or _dominates(MS_LIST[i], MS_LIST[j])
        return got


_DOM = _Dominance()


def ms_dominates(i: int, j: int) -> bool:
    return _DOM[i << 12 | j]


PRUNE_WIDTH = 256


def _prune_order(item: tuple[int, int]) -> int:
    """Best score first; among equal scores, fewest jokers used first."""
    return -item[0] << 4 | item[1] >> _J_SHIFT & 0xF


def _prune(states: dict[int, int], full: int) -> dict[int, int]:
    """Drop states that another state dominates (a sound, partial filter).

    ``A`` dominates ``B`` (same meld value in initial-meld mode, and same
    group counters inside a number) when ``A`` has at least the score, per
    colour a run multiset that can do whatever ``B``'s can, and either the
    same jokers used and at least the room for surplus jokers, or no more
    jokers used and room for every joker (``full``): ``A`` can copy ``B``'s
    future and add its spare jokers at the end. Each state is compared with
    the best ``PRUNE_WIDTH`` states kept so far, or, in a layer of more than
    ``WIDE_PRUNE`` states, with every state kept (:func:`_prune_wide`).
    """
    shift = _MV_SHIFT
    pairs = _DOM
    if max(states) >> shift:
        buckets: Any = {}  # by meld value (initial-meld mode)
        for key, score in states.items():
            buckets.setdefault(key >> shift, []).append((score, key))
        groups: Any = buckets.values()
    else:
        groups = [[(score, key) for key, score in states.items()]]
    out: dict[int, int] = {}
    width = PRUNE_WIDTH
    for items in groups:
        if len(items) == 1:
            out[items[0][1]] = items[0][0]
            continue
        items.sort(key=_prune_order)
        if len(items) > WIDE_PRUNE:
            _prune_wide(items, full, pairs, out)
            continue
        kept: list[tuple[int, int, int, int, int, int]] = []
        bucket: list[tuple[int, int]] = items
        for score, key in bucket:
            m0 = key & _MASK8
            m1 = key >> 12 & _MASK8
            m2 = key >> 24 & _MASK8
            m3 = key >> 36 & _MASK8
            cp = key >> _CAP_SHIFT & 7
            jn = key >> _J_SHIFT & 0xF
            s0 = m0 << 12
            s1 = m1 << 12
            s2 = m2 << 12
            s3 = m3 << 12
            for k0, k1, k2, k3, kc, kj in kept:
                # the jokers first, then per colour: the same multiset, or
                # one that dominates it (looked up)
                if ((kj == jn and kc >= cp) or (kj <= jn and kc == full)) and (
                        (k0 == s0 or pairs[k0 | m0]) and (k1 == s1 or pairs[k1 | m1])
                        and (k2 == s2 or pairs[k2 | m2]) and (k3 == s3 or pairs[k3 | m3])):
                    break
            else:
                if len(kept) < width:
                    kept.append((s0, s1, s2, s3, cp, jn))
                out[key] = score
    return out


def _prune_wide(items: list[tuple[int, int]], full: int, pairs: dict,
                out: dict[int, int]) -> None:
    """The filter of :func:`_prune` for one large bucket (``items``: sorted
    ``(score, key)``), every state compared with every state kept: per
    colour, each run multiset present maps to the kept states (bits of an
    int) whose multiset dominates it, and each (jokers used, room) pair to
    those whose jokers allow it; a state is dominated when the four colours'
    and the jokers' sets meet. Kept states are added to ``out``."""
    p0: dict[int, int] = {}
    p1: dict[int, int] = {}
    p2: dict[int, int] = {}
    p3: dict[int, int] = {}
    pj: dict[int, int] = {}
    for _, key in items:
        p0[key & _MASK8] = 0
        p1[key >> 12 & _MASK8] = 0
        p2[key >> 24 & _MASK8] = 0
        p3[key >> 36 & _MASK8] = 0
        pj[key >> _CAP_SHIFT & 0x7F] = 0  # jokers used << 3 | room
    masks = (p0, p1, p2, p3)
    doms: tuple[dict, ...] = ({}, {}, {}, {})  # kept multiset -> those it dominates
    jdoms: dict[int, list] = {}
    bit = 1
    for score, key in items:
        m0 = key & _MASK8
        m1 = key >> 12 & _MASK8
        m2 = key >> 24 & _MASK8
        m3 = key >> 36 & _MASK8
        jk = key >> _CAP_SHIFT & 0x7F
        if p0[m0] & p1[m1] & p2[m2] & p3[m3] & pj[jk]:
            continue
        out[key] = score
        for c, m in ((0, m0), (1, m1), (2, m2), (3, m3)):
            pc = masks[c]
            lst = doms[c].get(m)
            if lst is None:
                mk = m << 12
                lst = doms[c][m] = [x for x in pc if pairs[mk | x]]
            for x in lst:
                pc[x] |= bit
        lst = jdoms.get(jk)
        if lst is None:
            jn, cp = jk >> 3, jk & 7
            lst = jdoms[jk] = [x for x in pj if (jn == x >> 3 and cp >= x & 7)
                               or (jn <= x >> 3 and cp == full)]
        for x in lst:
            pj[x] |= bit
        bit <<= 1


# buckets of more states than this are filtered by _prune_wide (every kept
# state compared, through bit sets); smaller ones by the plain loop
WIDE_PRUNE = 40


PRUNE = True
PRUNE_MIN = 2  # layers of fewer states are not worth comparing


def _best(layer: dict[int, tuple], beam: int) -> dict[int, tuple]:
    """The ``beam`` states of ``layer`` with the best scores."""
    return dict(sorted(layer.items(), key=lambda kv: -kv[1][0] << 4 | kv[0] >> _J_SHIFT & 0xF)[:beam])


def limits(table: list[int], rack: list[int], jokers: int) -> list[int]:
    """Per tile code, what the tiles present allow there: bit 0, a group
    (two other colours of the number, counting jokers); bit 1, a run (some
    three places in a row around it, the gaps no more than the jokers)."""
    key = (tuple(table), tuple(rack), jokers)
    got = _LIMITS.get(key)
    if got is not None:
        return got
    have = [1 if table[i] or rack[i] else 0 for i in range(52)]
    present = [have[n] + have[13 + n] + have[26 + n] + have[39 + n] for n in range(13)]
    out = []
    for c in range(4):
        row = have[c * 13:c * 13 + 13]
        # windows of three places: how many are missing; a place is in a
        # run when some window over it is complete enough
        win = [3 - row[s] - row[s + 1] - row[s + 2] <= jokers for s in range(11)]
        win = [False, False] + win + [False, False]
        for n in range(13):
            lim = 1 if present[n] - row[n] + jokers >= 2 else 0
            if win[n] or win[n + 1] or win[n + 2]:
                lim |= 2
            out.append(lim)
    if len(_LIMITS) > 256:
        _LIMITS.clear()
    _LIMITS[key] = out
    return out


_LIMITS: dict[tuple, list[int]] = {}


def _later(table: list[int], rack: list[int], lims: list[int]) -> list[list[int]]:
    """``[n][c]``: the most tiles the colours after ``c`` could still give
    to groups at number index ``n``."""
    out = []
    for n in range(13):
        row = [0, 0, 0, 0]
        acc = 0
        for c in (3, 2, 1, 0):
            row[c] = acc
            i = c * 13 + n
            if lims[i] & 1:
                acc += table[i] + rack[i]
        out.append(row)
    return out


def run_dp(table: list[int], rack: list[int], jt: int, jr: int, *,
           threshold: int = 0, budget: int | None = None,
           weights: list[int] | None = None, beam: int = 0,
           floor: int = 0) -> Plan | None:
    """One pass of the programme.

    :param table: 52 counts of numbered tiles that must be placed.
    :param rack: 52 counts of candidate rack tiles (may be placed).
    :param jt: jokers that must be placed; ``jr``: jokers that may be.
    :param threshold: initial-meld mode when > 0 (meld value must reach it).
    :param budget: at most this many candidate rack tiles (jokers included)
        left unplaced; ``None`` for no limit.
    :param weights: 53 values to maximise second instead of face values
        (each below 1000); the joker's at index 52.
    :param beam: when > 0, a heuristic pass: every layer keeps only its
        ``beam`` best states (the plan found, if any, is valid but not
        necessarily optimal; it bounds the loss for the exact pass).
    :param floor: a score some plan is known to reach (branch and bound:
        a state that cannot reach it even placing every candidate left is
        cut). The best plan is still found when its score is at least this.
    :returns: the best :class:`Plan`, or ``None`` if no arrangement within
        budget exists (with ``beam``: none was found; with ``floor``: none
        reaching it).
    """
    return Pass(table, rack, jt, jr, threshold, budget, weights, beam, floor).finish()


# the layers in C (engine.solver._dpk), set by engine.solver.compiled when
# the build has them and they are current; None (or 0, as a bench's
# variant sets it): every pass in Python
KERNEL: Any = None
_FACTS: Any = None


def _facts() -> Any:
    """What the kernel asks of run multisets (this module's ids), one
    per module and kernel."""
    global _FACTS
    if _FACTS is None or type(_FACTS) is not KERNEL.Facts:
        _FACTS = KERNEL.Facts(ms_dominates, closable_at_end, MS_LIST)
    return _FACTS


class Pass:
    """One pass of the programme (:func:`run_dp`), a number at a time:
    :meth:`step` takes the next number, :meth:`result` reads the best plan
    off once all thirteen are taken. ``work`` counts the states its layers
    have held so far, a measure of its cost (``core.exact_pass`` runs two
    directions side by side by it)."""

    def __init__(self, table: list[int], rack: list[int], jt: int, jr: int,
                 threshold: int = 0, budget: int | None = None,
                 weights: list[int] | None = None, beam: int = 0,
                 floor: int = 0) -> None:
        jtot = jt + jr
        cand_total = sum(rack) + jr
        joker_value = JOKER_VALUE if weights is None else weights[52]
        lims = limits(table, rack, jtot)
        # rest[i]: the most score the candidates after position i (number-major,
        # colour-minor) could still add, jokers included
        rest = [0] * 52
        acc = jr * (BIG + joker_value)
        for n in range(12, -1, -1):
            for c in range(3, -1, -1):
                rest[n * 4 + c] = acc
                i = c * 13 + n
                acc += rack[i] * (BIG + (n + 1 if weights is None else weights[i]))
        ahead_need = _ahead_table(table, rack)
        ahead_cache = ahead_need.cache
        # the most tiles the later colours of a number could still give to groups
        pos_key = (tuple(table), tuple(rack), jtot)
        prep = _PREP.get(pos_key)
        if prep is None:
            if len(_PREP) > 16:
                _PREP.clear()
            prep = _PREP[pos_key] = (_later(table, rack, lims), _tails(table, rack))
        later_t, tails = prep
        opt_lists = _OPTS.get(pos_key)  # (the lists hold no values: any weights)
        if opt_lists is None:
            if len(_OPTS) > 8:
                _OPTS.clear()
            opt_lists = _OPTS[pos_key] = [{} for _ in range(52)]
        # shared across positions (the lists hold no values)
        glob = _OPTS_G if tails is not None else None
        if glob is not None and len(glob) > 20_000:
            glob.clear()
        cur: dict[int, int] = {0: 0}
        back: list[Any] = []
        placed_cand = 0
        mv_cap = threshold
        lazy = not threshold and jtot > 0
        full_cap = min(jtot, 7) << _CAP_SHIFT
        full = min(jtot, 7) if lazy else -1
        mv_mask = (1 << _MV_SHIFT) - 1
        low_mask = (1 << _J_SHIFT) - 1
        self.table: list[int] = table
        self.rack: list[int] = rack
        self.jt: int = jt
        self.jr: int = jr
        self.budget: int | None = budget
        self.weights: list[int] | None = weights
        self.beam: int = beam
        self.floor: int = floor
        self.jtot: int = jtot
        self.cand_total: int = cand_total
        self.joker_value: int = joker_value
        self.lims: list[int] = lims
        self.rest: list[int] = rest
        self.ahead_need: Any = ahead_need
        self.ahead_cache: Any = ahead_cache
        self.later_t: list[list[int]] = later_t
        self.tails: Any = tails
        self.opt_lists: list[dict[int, Any]] = opt_lists
        self.glob: Any = glob
        self.cur: dict[int, int] = cur
        self.back: list[Any] = back
        self.placed_cand: int = placed_cand
        self.mv_cap: int = mv_cap
        self.lazy: bool = lazy
        self.full_cap: int = full_cap
        self.full: int = full
        self.mv_mask: int = mv_mask
        self.low_mask: int = low_mask
        self.n: int = 0  # the next number index to take
        self.work: int = 0
        # when > 0: a step raises SearchLimit as soon as a layer takes the
        # work past it (the pass is then given up)
        self.limit: int = 0
        # when > 0: no plan places more tiles than this (see cap_tiles)
        self.cap: int = 0
        self.tops: list[list[int]] = []
        # the layers in C (engine/solver/_dpk.c) when the build has them:
        # the same states in the same order, the same plan
        self.kernel: Any = None
        if KERNEL and not threshold:
            self.kernel = KERNEL.Kernel(
                table, rack, lims, rest, later_t, weights, budget, jtot, jt, beam,
                1 if lazy else 0, full, LAZY, full_cap, cand_total, joker_value,
                (1 if PRUNE else 0, PRUNE_MIN, PRUNE_WIDTH, WIDE_PRUNE),
                _EMPTY_OPT, SearchLimit, Plan, _facts(), opt_lists)

    def cap_tiles(self, tiles: int) -> None:
        """Know that no plan places more than ``tiles`` rack tiles (jokers
        included; a bound proved elsewhere): a state that has placed ``p``
        so far can then add at most the ``tiles - p`` most valuable
        candidates left, and with a floor it is cut when those cannot
        reach it (where without the cap every candidate left counts). From
        the next number on; the answer is the same, only states that cannot
        reach the floor are cut."""
        self.cap = tiles
        if self.kernel is not None:
            self.kernel.cap_tiles()  # the same sums, in C
            return
        weights = self.weights
        rack = self.rack
        vals = [BIG + self.joker_value] * self.jr
        tops: list[list[int]] = [[] for _ in range(52)]
        for n in range(12, -1, -1):
            for c in range(3, -1, -1):
                # tops[i][m]: the m most valuable candidates after position i
                acc = [0]
                for v in sorted(vals, reverse=True):
                    acc.append(acc[-1] + v)
                tops[n * 4 + c] = acc
                i = c * 13 + n
                vals += [BIG + (n + 1 if weights is None else weights[i])] * rack[i]
        self.tops = tops

    def option_list(self, n: int, c: int, msid: int, jleft: int) -> Any:
        """The options a state of run multiset ``msid`` with ``jleft``
        jokers left may take at colour ``c`` of number index ``n`` (the
        fast path's: no initial-meld threshold), with their key deltas:
        ``(new msid, jokers and group tiles to add to the key, group tiles,
        rack tiles, whether the room for surplus jokers is set, the option,
        group tiles less jokers)``, best first. Remembered per position,
        and shared by every position and colour with the same tiles here
        and the same tiles ahead (what the joker look-ahead reads): for
        states with no run bound for 13 (see has_strict) the next two
        numbers, whatever the number below 11; else the colour's whole
        tail at this number."""
        i = c * 13 + n
        a = self.table[i]
        b = self.rack[i]
        lim = self.lims[i]
        lazy = self.lazy
        mode = mode_at(lazy, n)
        lk = msid << 4 | jleft
        glob: Any = self.glob
        shared: Any = None
        lst: Any = None
        if glob is not None:
            tails: Any = self.tails
            here = (((a << 3 | b) << 2 | mode) << 2 | lim) << 1 | lazy
            if mode != LAZY_LOW and not has_strict(msid):
                gk = ((tails[c][n] & NEAR) << 11 | here) << 2 | 2
                if n >= 10:
                    gk |= n << 60  # the end of the numbers is near
            else:
                gk = ((tails[c][n] << 4 | n) << 11 | here) << 2 | 1
            shared = glob.get(gk)
            if shared is None:
                shared = glob[gk] = {}
            lst = shared.get(lk)
        if lst is None:
            # a tuple of tuples of ints: the garbage collector stops
            # tracking it (the caches grow large)
            ahead_need: Any = self.ahead_need
            ahead_cache: Any = self.ahead_cache
            cn = c << 4 | n
            out = []
            for o in colour_options(msid, a, b, jleft, mode, lim):
                nm = o[0]
                if nm:
                    need = ahead_cache.get(nm << 6 | cn)
                    if need is None:
                        need = ahead_need(nm, c, n)
                    if need > jleft - o[2]:
                        continue
                out.append((nm, (o[2] << _J_SHIFT) + (o[1] << _Y_SHIFT),
                            o[1], o[3], lazy and nm != 0, o, o[1] - o[2]))
            lst = tuple(out)
            if shared is not None:
                shared[lk] = lst
        self.opt_lists[n * 4 + c][lk] = lst
        return lst

    def step(self) -> bool:
        """Take the next number; ``False`` when no state is left (no plan).

        :raises SearchLimit: ``limit`` passed (the pass cannot go on).
        """
        if self.kernel is not None:
            got = self.kernel.step(mode_at(self.lazy, self.n), self.floor,
                                   self.cap if self.floor else 0, self.limit, self.work,
                                   self.budget, self.option_list)
            self.work = got[1]
            self.n += 1
            return bool(got[0])
        key: int  # a state (the programme's ints, typed for the compiled build)
        k2: int
        n: int = self.n
        work: int = self.work
        limit: int = self.limit
        table: list[int] = self.table
        rack: list[int] = self.rack
        weights: list[int] | None = self.weights
        budget: int | None = self.budget
        floor: int = self.floor
        beam: int = self.beam
        cap: int = self.cap if floor else 0
        tops: list[list[int]] = self.tops
        topl: list[int] = []
        ntop: int = 0
        m: int
        jtot: int = self.jtot
        lims: list[int] = self.lims
        rest: list[int] = self.rest
        ahead_need: Any = self.ahead_need
        ahead_cache: Any = self.ahead_cache
        later_t: list[list[int]] = self.later_t
        tails: Any = self.tails
        opt_lists: list[dict[int, Any]] = self.opt_lists
        glob: Any = self.glob
        cur: dict[int, int] = self.cur
        back: list[Any] = self.back
        placed_cand: int = self.placed_cand
        mv_cap: int = self.mv_cap
        lazy: bool = self.lazy
        full_cap: int = self.full_cap
        full: int = self.full
        mv_mask: int = self.mv_mask
        low_mask: int = self.low_mask
        number = n + 1
        mode = mode_at(lazy, n)
        steps: list[Any] = []
        # (keys typed Any: the compiled build boxes each key once, not at
        # every lookup and store)
        cur2: dict[Any, tuple[int, Any, Any]] = {k: (v, k, None) for k, v in cur.items()}
        cand_before = placed_cand
        for c in range(4):
            gain_unit = BIG + (number if weights is None else weights[c * 13 + n])
            a = table[c * 13 + n]
            b = rack[c * 13 + n]
            lim = lims[c * 13 + n]
            cand_before += b
            sh = _SHIFT[c]
            # no tile here and no joker may start a run: states with no open
            # run of this colour stay as they are (their scores already
            # passed this cut)
            idle = not a and not b and (mode == LAZY or not jtot or not lim & 2)
            if idle:
                for k in cur2:
                    if k >> sh & _MASK8:
                        break
                else:
                    steps.append(None)
                    continue
            clear = ~(_MASK8 << sh)
            nxt: dict[Any, tuple[int, Any, Any]] = {}
            min_sc = -1 if budget is None else (cand_before - budget) << 16
            if floor:
                min_sc = max(min_sc, floor - rest[n * 4 + c])
                if cap:
                    topl = tops[n * 4 + c]
                    ntop = len(topl)
            if not mv_cap:
                # the fast path: options with their key delta precomputed
                local: dict[int, Any] = opt_lists[n * 4 + c]
                later: int = later_t[n][c]
                for key_o, val in cur2.items():
                    key = key_o
                    score: int = val[0]
                    msid: int = key >> sh & _MASK8
                    if idle and not msid:
                        if nxt.get(key_o, _NONE)[0] < score:
                            nxt[key_o] = (score, key_o, _EMPTY_OPT)
                        continue
                    jleft = jtot - (key >> _J_SHIFT & 0xF)
                    ymax = key >> _G_SHIFT & 0xF
                    # groups: g >= ymax groups of 3+ need 3g tiles and jokers
                    room = (key >> _Y_SHIFT & 0x3F) + later + jleft
                    base = key & clear
                    lk = msid << 4 | jleft
                    lst: Any = local.get(lk)
                    if lst is None:
                        lst = self.option_list(n, c, msid, jleft)
                    lst2: tuple[tuple[int, int, int, int, bool, Any, int], ...] = lst
                    for nm, jy, y, u, setcap, opt, yj in lst2:
                        sc = score + u * gain_unit
                        if sc < min_sc:
                            break
                        if cap:
                            # at most cap - placed more tiles, the most valuable left
                            m = cap - (sc >> 16)
                            if m < ntop and (m < 0 or sc + topl[m] < floor):
                                continue
                        if 3 * (y if y > ymax else ymax) > room + yj:
                            continue  # too few tiles left for the groups
                        k2 = base + (nm << sh) + jy
                        if y > ymax:
                            k2 += (y - ymax) << _G_SHIFT
                        if setcap:
                            k2 = (k2 & _NOCAP) | full_cap
                        k2o: Any = k2
                        old = nxt.get(k2o)
                        if old is None or old[0] < sc:
                            nxt[k2o] = (sc, key_o, opt)
                if beam and len(nxt) > beam:
                    nxt = _best(nxt, beam)
                work += len(nxt) + len(cur2)
                if limit and work > limit:
                    raise SearchLimit()
                steps.append(nxt)
                cur2 = nxt
                continue
            later = later_t[n][c]
            for key, val in cur2.items():
                score = val[0]
                msid = key >> sh & _MASK8
                jused = key >> _J_SHIFT & 0xF
                ymax = key >> _G_SHIFT & 0xF
                room = (key >> _Y_SHIFT & 0x3F) + later + jtot - jused
                base = key & clear
                for opt in colour_options(msid, a, b, jtot - jused, mode, lim):
                    opt_t: tuple[int, int, int, int, Any] = opt
                    new, y, j, u, recipe = opt_t
                    sc = score + u * gain_unit
                    if sc < min_sc:
                        break
                    if 3 * (y if y > ymax else ymax) > room + y - j:
                        continue  # too few tiles left for the groups
                    if ahead_need(new, c, n) > jtot - jused - j:
                        continue  # too few tiles and jokers ahead for the runs
                    k2 = (base | new << sh) + (j << _J_SHIFT) + (y << _Y_SHIFT)
                    if y > ymax:
                        k2 += (y - ymax) << _G_SHIFT
                    mv2 = min(mv_cap, (key >> _MV_SHIFT) + (a + u + j - y) * number)
                    k2 = (k2 & mv_mask) | mv2 << _MV_SHIFT
                    old = nxt.get(k2)
                    if old is None or old[0] < sc:
                        nxt[k2] = (sc, key, opt)
            work += len(nxt) + len(cur2)
            if limit and work > limit:
                raise SearchLimit()
            steps.append(nxt)
            cur2 = nxt
        placed_cand = cand_before
        # close the number: groups and their jokers
        done: dict[Any, tuple[int, Any, int, int]] = {}
        for key_o, val in cur2.items():
            key = key_o
            score = val[0]
            jused = key >> _J_SHIFT & 0xF
            ymax = key >> _G_SHIFT & 0xF
            total_y = key >> _Y_SHIFT & 0x3F
            mv = key >> _MV_SHIFT if mv_cap else 0
            base = key & low_mask
            if total_y == 0:
                k2o = base | jused << _J_SHIFT | mv << _MV_SHIFT
                od = done.get(k2o)
                if od is None or od[0] < score:
                    done[k2o] = (score, key_o, 0, 0)
                continue
            jleft = jtot - jused
            if lazy:
                # g groups, each of 3 (jokers making up the difference) or,
                # with no joker, of 3 or 4; the groups of 3 take surplus
                cap = key >> _CAP_SHIFT & 7
                for g in range(max(ymax, (total_y + 3) // 4), total_y + 1):
                    jg = 3 * g - total_y
                    if jg > jleft:
                        break
                    if jg < 0:
                        jg = 0
                        g3 = 4 * g - total_y
                    else:
                        g3 = g
                    cap2 = min(jtot, cap + g3)
                    k2o = (base & ~(7 << _CAP_SHIFT)) | cap2 << _CAP_SHIFT \
                        | (jused + jg) << _J_SHIFT
                    od = done.get(k2o)
                    if od is None or od[0] < score:
                        done[k2o] = (score, key_o, g, jg)
                continue
            for jg in range(0, jleft + 1):
                t = total_y + jg
                g_lo = max(ymax, (t + 3) // 4)
                g_hi = min(total_y, t // 3)
                if g_lo > g_hi:
                    continue
                k2 = base | (jused + jg) << _J_SHIFT
                if mv_cap:
                    k2 |= min(mv_cap, mv + t * number) << _MV_SHIFT
                k2o = k2
                od = done.get(k2o)
                if od is None or od[0] < score:
                    done[k2o] = (score, key_o, g_lo, jg)
        steps.append(done)
        back.append(steps)
        cur = {k: v[0] for k, v in done.items()}
        if _DEBUG:
            print(n, [len(s) if s is not None else "=" for s in steps], end=" ")
        if PRUNE and len(cur) > PRUNE_MIN:
            cur = _prune(cur, full)
        if beam and len(cur) > beam:
            cur = dict(sorted(cur.items(), key=lambda kv: -kv[1] << 4 | kv[0] >> _J_SHIFT & 0xF)[:beam])
        if _DEBUG:
            print(len(cur))
        self.cur = cur
        self.placed_cand = placed_cand
        self.work = work
        self.n = n + 1
        return bool(cur)

    def finish(self) -> Plan | None:
        """Take the numbers left, then the best plan (``None``: none).

        :raises SearchLimit: ``limit`` passed.
        """
        while self.n < 13:
            if not self.step():
                return None
        return self.result()

    def result(self) -> Plan | None:
        """The best plan once every number is taken (``None``: none)."""
        if self.kernel is not None:
            return self.kernel.result(self.budget)
        key: int
        cur: dict[int, int] = self.cur
        jtot: int = self.jtot
        jt: int = self.jt
        lazy: bool = self.lazy
        budget: int | None = self.budget
        cand_total: int = self.cand_total
        mv_cap: int = self.mv_cap
        joker_value: int = self.joker_value
        back: list[Any] = self.back
        # final: all runs closable, table jokers placed, threshold met
        best = None
        best_key = None
        best_surplus = 0
        for key, score in cur.items():
            ok = True
            for c in range(4):
                if not closable_at_end(key >> _SHIFT[c] & _MASK8):
                    ok = False
                    break
            if not ok:
                continue
            jused = key >> _J_SHIFT & 0xF
            surplus = 0
            if lazy:
                surplus = min(jtot - jused, key >> _CAP_SHIFT & 7)
            if jused + surplus < jt:
                continue
            placed_j = jused + surplus - jt
            if budget is not None and cand_total - (score >> 16) - placed_j > budget:
                continue
            if mv_cap and (key >> _MV_SHIFT) < mv_cap:
                continue
            total = score + placed_j * (BIG + joker_value)
            if best is None or total > best:
                best, best_key, best_surplus = total, key, surplus
        if best_key is None:
            return None
        # walk back
        steps_out: Any = []
        key = best_key
        for n in range(12, -1, -1):
            stages = back[n]
            score, prev, g, jg = stages[4][key]
            key = prev
            per_colour: list[Any] = [None] * 4
            for c in range(3, -1, -1):
                if stages[c] is None:
                    per_colour[c] = (_EMPTY_OPT, 0)
                    continue
                score, prev, opt = stages[c][key]
                per_colour[c] = (opt, prev >> _SHIFT[c] & _MASK8)
                key = prev
            steps_out.append((g, jg, per_colour))
        steps_out.reverse()
        return Plan(best, (best_key >> _J_SHIFT & 0xF) + best_surplus, steps_out,
                    best_surplus, lazy)


DFS_DOMINANCE = True  # feasible: failed states between numbers cut those they dominate


class SearchLimit(Exception):
    """The depth-first search gave up (see ``feasible(limit=...)``)."""


def feasible(table: list[int], rack: list[int], jt: int, jr: int,
             budget: int = 0, limit: int | None = None) -> Plan | None:
    """Whether table + the rack tiles + the jokers divide into melds leaving
    at most ``budget`` rack tiles (jokers included) unplaced, by depth-first
    search: a witness plan (not necessarily of best value), or ``None``.

    The same transitions as :func:`run_dp`, searched depth first with the
    most rack tiles tried first and every dead state remembered with the
    slack it failed with; a state between two numbers that a failed one
    dominates (as in :func:`_prune`, with no more slack) is not searched:
    when a division exists it is usually found after a few dozen steps.

    :raises SearchLimit: more than ``limit`` states visited (when given).
    """
    path: Any
    if KERNEL:
        # the same search in C (engine/solver/_dpk.c), which derives what
        # _DepthFirst does from the position itself: the same path
        path = KERNEL.Search(table, rack, jt, jr, -1 if limit is None else limit,
                             1 if DFS_DOMINANCE else 0, _facts(), _COLOUR_CACHE, colour_options,
                             _EMPTY_OPT, SearchLimit).run(budget)
        if path is None:
            return None
        jtot = jt + jr
        lazy = jtot > 0
    else:
        search = _DepthFirst(table, rack, jt, jr, -1 if limit is None else limit)
        if not search.rec(0, 0, 0, budget):
            return None
        jtot = search.jtot
        lazy = search.lazy
        path = search.path
    path.reverse()
    steps = []
    i = 0
    score = 0
    last = 0
    for n in range(13):
        per_colour = []
        for c in range(4):
            opt, msid = path[i]
            i += 1
            per_colour.append((opt, msid))
            score += opt[3] * (BIG + n + 1)
        g, jg, last = path[i]
        i += 1
        steps.append((g, jg, per_colour))
    jused = last >> _J_SHIFT & 0xF
    surplus = min(jtot - jused, last >> _CAP_SHIFT & 7) if lazy else 0
    score += (jused + surplus - jt) * (BIG + JOKER_VALUE)
    return Plan(score, jused + surplus, steps, surplus, lazy)


def divides(table: list[int], jokers: int) -> bool:
    """Whether ``table`` (52 counts) and ``jokers`` divide into melds: the
    search of :func:`feasible` with no rack, in C without its path."""
    if KERNEL:
        return KERNEL.Search(table, _NO_RACK, jokers, 0, -1, 1 if DFS_DOMINANCE else 0, _facts(),
                             _COLOUR_CACHE, colour_options, _EMPTY_OPT, SearchLimit
                             ).run(0, False) is not None
    return feasible(table, [0] * 52, jokers, 0) is not None


_NO_RACK: Final = [0] * 52


def prelude(table: list[int], rack: list[int], copies: int, jokers: int, mirror: bool,
            small_table: int) -> Any:
    """A solve's first steps on a position given as tile codes, in C at
    once (``engine.solver.api.solve``; the kernel's ``prelude``): ``None``
    when the kernel is not there or leaves the position to the steps one
    by one (a code, or more copies than ``copies`` a tile and ``jokers``
    jokers: their checks name it); ``False`` when the table does not
    divide; else ``(jt, jr, table, candidates, order, mirrored)``, as
    :func:`engine.solver.core.useful_rack` and
    :func:`engine.solver.core.oriented` give them."""
    if not KERNEL:
        return None
    return KERNEL.prelude(table, rack, copies, jokers, 1 if mirror else 0, small_table, _facts(),
                          _COLOUR_CACHE, colour_options, _EMPTY_OPT, SearchLimit,
                          1 if DFS_DOMINANCE else 0)


class _DepthFirst:
    """The search of :func:`feasible` (its steps are methods, which the
    compiled build calls directly)."""

    def __init__(self, table: list[int], rack: list[int], jt: int, jr: int,
                 limit: int) -> None:
        jtot = jt + jr
        self.table = table
        self.rack = rack
        self.jt = jt
        self.jtot = jtot
        self.lazy = jtot > 0
        full = min(jtot, 7)
        self.full_cap = full << _CAP_SHIFT
        self.fullv = full if self.lazy else -1
        self.low_mask = (1 << _J_SHIFT) - 1
        # (key, n, stage) packed -> largest slack it failed with
        self.dead: dict[int, int] = {}
        lims = limits(table, rack, jtot)
        self.lims = lims
        self.path: list[Any] = []
        modes = [mode_at(self.lazy, n) for n in range(13)]
        self.modes = modes
        # codes with no tile where no joker may start a run (see run_dp)
        self.idle = [not table[i] and not rack[i]
                     and (modes[i % 13] == LAZY or not jtot or not lims[i] & 2)
                     for i in range(52)]
        self.ahead_need: Any = _ahead_table(table, rack)
        self.later = _later(table, rack, lims)
        self.limit = limit
        self.visits = 0
        # per number: the states between numbers that failed, as (run
        # multisets shifted for _DOM, jokers used, room, slack); a state
        # that one of them dominates (see _prune) with no more slack fails too
        self.failed: list[list[tuple[int, int, int, int, int, int, int]]] = [
            [] for _ in range(14)]

    def close_options(self, key: int) -> list[tuple[int, int, int]]:
        """The ways to close a number: (key after, groups, jokers in them)."""
        jtot = self.jtot
        jused = key >> _J_SHIFT & 0xF
        ymax = key >> _G_SHIFT & 0xF
        total_y = key >> _Y_SHIFT & 0x3F
        base = key & self.low_mask
        if total_y == 0:
            return [(base | jused << _J_SHIFT, 0, 0)]
        out: list[tuple[int, int, int]] = []
        jleft = jtot - jused
        if self.lazy:
            cap = key >> _CAP_SHIFT & 7
            for g in range(max(ymax, (total_y + 3) // 4), total_y + 1):
                jg = 3 * g - total_y
                if jg > jleft:
                    break
                if jg < 0:
                    jg = 0
                    g3 = 4 * g - total_y
                else:
                    g3 = g
                cap2 = min(jtot, cap + g3)
                out.append((((base & ~(7 << _CAP_SHIFT)) | cap2 << _CAP_SHIFT
                             | (jused + jg) << _J_SHIFT), g, jg))
            return out
        for jg in range(0, jleft + 1):
            t = total_y + jg
            g_lo = max(ymax, (t + 3) // 4)
            if g_lo <= min(total_y, t // 3):
                out.append((base | (jused + jg) << _J_SHIFT, g_lo, jg))
        return out

    def final_ok(self, key: int, slack: int) -> bool:
        for c in range(4):
            if not closable_at_end(key >> _SHIFT[c] & _MASK8):
                return False
        jtot = self.jtot
        jused = key >> _J_SHIFT & 0xF
        surplus = min(jtot - jused, key >> _CAP_SHIFT & 7) if self.lazy else 0
        return jused + surplus >= self.jt and jtot - jused - surplus <= slack

    def failed_before(self, n: int, key: int, slack: int) -> bool:
        lst = self.failed[n]
        if not lst:
            return False
        m0 = key & _MASK8
        m1 = key >> 12 & _MASK8
        m2 = key >> 24 & _MASK8
        m3 = key >> 36 & _MASK8
        jn = key >> _J_SHIFT & 0xF
        cp = key >> _CAP_SHIFT & 7
        fullv = self.fullv
        dom = _DOM
        for k0, k1, k2, k3, kj, kc, ks in lst:
            if ks < slack or not ((kj == jn and kc >= cp) or (kj <= jn and kc == fullv)):
                continue
            if dom[k0 | m0] and dom[k1 | m1] and dom[k2 | m2] and dom[k3 | m3]:
                return True
        return False

    def rec(self, n: int, c: int, key: int, slack: int) -> bool:
        tag = (key << 8) | (n << 3) | c
        if self.dead.get(tag, -1) >= slack:
            return False
        if self.limit >= 0:
            self.visits += 1
            if self.visits > self.limit:
                raise SearchLimit()
        path = self.path
        if c == 4:
            for k2, g, jg in self.close_options(key):
                if n == 12:
                    if self.final_ok(k2, slack):
                        path.append((g, jg, k2))
                        return True
                    continue
                if DFS_DOMINANCE and self.failed_before(n + 1, k2, slack):
                    continue
                if self.rec(n + 1, 0, k2, slack):
                    path.append((g, jg, k2))
                    return True
                if DFS_DOMINANCE:
                    self.failed[n + 1].append((
                        (k2 & _MASK8) << 12, (k2 >> 12 & _MASK8) << 12,
                        (k2 >> 24 & _MASK8) << 12, (k2 >> 36 & _MASK8) << 12,
                        k2 >> _J_SHIFT & 0xF, k2 >> _CAP_SHIFT & 7, slack))
            self.dead[tag] = slack
            return False
        i = c * 13 + n
        b = self.rack[i]
        sh = _SHIFT[c]
        msid = key >> sh & _MASK8
        jtot = self.jtot
        jused = key >> _J_SHIFT & 0xF
        ymax = key >> _G_SHIFT & 0xF
        later: int = self.later[n][c]
        room = (key >> _Y_SHIFT & 0x3F) + later + jtot - jused
        if self.idle[i] and not msid:
            # nothing of this colour here, nothing open: one way on
            if 3 * ymax <= room and self.rec(n, c + 1, key, slack):
                path.append((_EMPTY_OPT, 0))
                return True
            self.dead[tag] = slack
            return False
        base = key & ~(_MASK8 << sh)
        lazy = self.lazy
        ahead_need = self.ahead_need
        for opt in colour_options(msid, self.table[i], b, jtot - jused, self.modes[n],
                                  self.lims[i]):
            opt_t: tuple[int, int, int, int, Any] = opt
            new, y, j, u, recipe = opt_t
            s2 = slack - (b - u)
            if s2 < 0:
                continue
            if 3 * (y if y > ymax else ymax) > room + y - j:
                continue  # too few tiles left for the groups
            need: int = ahead_need(new, c, n)
            if need > jtot - jused - j:
                continue  # too few tiles and jokers ahead for the open runs
            k2 = (base | new << sh) + (j << _J_SHIFT) + (y << _Y_SHIFT)
            if y > ymax:
                k2 += (y - ymax) << _G_SHIFT
            if lazy and new:
                k2 = (k2 & ~(7 << _CAP_SHIFT)) | self.full_cap
            if self.rec(n, c + 1, k2, s2):
                path.append((opt, msid))
                return True
        self.dead[tag] = slack
        return False


# Slot codes of engine.melds (kept equal by tests/engine/test_solver_passes):
# a joker in a run, in the place of tile code t, is RUN_JOKER + t; in a group
# of number index n, GROUP_JOKER + n.
RUN_JOKER: Final = 53
GROUP_JOKER: Final = 105


def lay_out(plan: Plan, order: list[int], mirrored: bool
            ) -> tuple[list[tuple[int, ...]], list[int]]:
    """Replay ``plan`` (found with the colours renamed by ``order`` - colour
    ``order[k]`` solved as ``k`` - and, when ``mirrored``, the numbers
    reversed) into melds of the original position,
    each in the canonical order of ``engine.melds.canonical`` (runs ascending,
    groups by colour with jokers last), and the counts of rack tiles placed
    (original codes). The plan's surplus jokers are not laid (see
    ``core.add_joker``)."""
    melds: list[tuple[int, ...]] = []
    used = [0] * 52
    open_runs: list[list[tuple[int, list[int]]]] = [[], [], [], []]
    # a code of the solved position -> the original's
    back = [0] * 52
    for k in range(4):
        for n in range(13):
            back[k * 13 + n] = order[k] * 13 + (12 - n if mirrored else n)
    for n in range(13):
        step = plan.steps[n]
        g: int = step[0]
        jg: int = step[1]
        per_colour = step[2]
        mode = mode_at(plan.lazy, n)
        group_tiles: list[int] = []
        for c in range(4):
            opt = per_colour[c][0]
            old_ms: int = per_colour[c][1]
            code = c * 13 + n
            u: int = opt[3]
            used[back[code]] += u
            runs = open_runs[c]
            if not opt[0] and not opt[1] and not runs:
                continue  # nothing of this colour here
            recipe = opt[4]
            acts = recipe[0]
            new_r: int = recipe[1]
            new_j: int = recipe[2]
            y: int = opt[1]
            if len(runs) > 1:
                runs.sort(key=_first)
            kinds = tuple([r[0] for r in runs])
            if kinds != MS_LIST[old_ms]:
                raise AssertionError("plan replay out of step")
            orig = back[code]
            nxt: list[tuple[int, list[int]]] = []
            for i in range(len(runs)):
                kind, slots = runs[i]
                act: int = acts[i]
                if act == 0:
                    melds.append(_run_meld(slots, mirrored))
                elif act == 1:
                    slots.append(orig)
                    nxt.append((_grow(kind, True, mode), slots))
                else:
                    slots.append(RUN_JOKER + orig)
                    nxt.append((_grow(kind, False, mode), slots))
            for _ in range(new_r):
                nxt.append((N1, [orig]))
            for _ in range(new_j):
                nxt.append((P1, [RUN_JOKER + orig]))
            open_runs[c] = nxt
            for _ in range(y):
                group_tiles.append(orig)
        if g:
            group_tiles.sort()
            groups: list[list[int]] = [[] for _ in range(g)]
            for i in range(len(group_tiles)):
                groups[i % g].append(group_tiles[i])
            joker = GROUP_JOKER + (12 - n if mirrored else n)
            left = jg
            for grp in groups:
                while len(grp) < 3 and left:
                    grp.append(joker)
                    left -= 1
            for grp in groups:
                if left and len(grp) < 4:
                    grp.append(joker)
                    left -= 1
            if left:
                raise AssertionError("plan replay: jokers left over in groups")
            for grp in groups:
                melds.append(tuple(grp))
    for c in range(4):
        for kind, slots in open_runs[c]:
            melds.append(_run_meld(slots, mirrored))
    return melds, used


def _first(run: tuple[int, list[int]]) -> int:
    return run[0]


def _run_meld(slots: list[int], mirrored: bool) -> tuple[int, ...]:
    """A run's slots, laid in the order of the numbers solved, ascending."""
    if mirrored:
        slots.reverse()
    return tuple(slots)
