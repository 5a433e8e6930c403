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
- **Loss budget**: rack tiles that cannot belong to any meld are dropped
  first; then the programme runs with a budget of at most ``d`` candidate
  rack tiles left on the rack, ``d = 0, 1, 2, 4, ...``. States over budget are
  cut. The first budget that admits a solution gives the optimum (every state
  within budget was explored), and most positions finish at a small ``d``.

Everything here is pure Python on ints; see ``docs/solver.md``.
"""

from __future__ import annotations

from itertools import product

# ---------------------------------------------------------------------------
# Run kinds
# N: has a numbered tile, may close once long enough.
# F: has a numbered tile, has jokers below it, must reach 13.
# P: jokers only so far (below the first numbered tile), must reach 13.
N1, N2, N3, F1, F2, F3, P1, P2, P3 = range(1, 10)
_LEN = {N1: 1, N2: 2, N3: 3, F1: 1, F2: 2, F3: 3, P1: 1, P2: 2, P3: 3}
_STRICT = {N1: 0, N2: 0, N3: 0, F1: 1, F2: 1, F3: 1, P1: 2, P2: 2, P3: 2}
_BASE = {0: N1, 1: F1, 2: P1}


def _kind(strict: int, length: int) -> int:
    return _BASE[strict] + min(length, 3) - 1


def _grow(kind: int, real: bool) -> int:
    s = _STRICT[kind]
    if s == 2 and real:
        s = 1
    return _kind(s, _LEN[kind] + 1)


def _ge(a: int, b: int) -> bool:
    """Run kind ``a`` can do whatever ``b`` can."""
    return _LEN[a] >= _LEN[b] and _STRICT[a] <= _STRICT[b]


# Multisets of run kinds, interned: id <-> sorted tuple.
MS_LIST: list[tuple[int, ...]] = [()]
MS_ID: dict[tuple[int, ...], int] = {(): 0}


def ms_id(ms: tuple[int, ...]) -> int:
    ms = tuple(sorted(ms))
    i = MS_ID.get(ms)
    if i is None:
        i = len(MS_LIST)
        if i > 0x3FF:  # pragma: no cover - far beyond any tile set
            raise OverflowError("too many run configurations")
        MS_LIST.append(ms)
        MS_ID[ms] = i
    return i


def _dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Multiset ``a`` is at least as good as ``b`` for every future."""
    if len(a) < len(b):
        return False
    # try to match each run of b to a distinct run of a that is >= it; the
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
_APPLY_CACHE: dict[tuple[int, int, int], tuple[tuple[int, tuple], ...]] = {}


def apply_options(msid: int, r: int, j: int) -> tuple[tuple[int, tuple], ...]:
    """All non-dominated results of putting ``r`` numbered tiles and ``j``
    jokers of one colour and number into runs, given the open runs
    ``MS_LIST[msid]``: a tuple of ``(new multiset id, recipe)``."""
    key = (msid, r, j)
    got = _APPLY_CACHE.get(key)
    if got is not None:
        return got
    old = MS_LIST[msid]
    results: dict[tuple[int, ...], tuple] = {}
    choices = []
    for k in old:
        opts = [1, 2]
        if k == N3:
            opts = [0, 1, 2]
        choices.append(opts)
    for acts in product(*choices):
        nr = acts.count(1)
        nj = acts.count(2)
        if nr > r or nj > j:
            continue
        new_r, new_j = r - nr, j - nj
        closed = acts.count(0)
        if closed and (new_r or new_j):
            continue  # a closed run would rather go on (canonical)
        out = []
        for kind, act in zip(old, acts):
            if act == 1:
                out.append(_grow(kind, True))
            elif act == 2:
                out.append(_grow(kind, False))
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


def closable_at_end(msid: int) -> bool:
    """Every open run can end after 13."""
    return all(k in (N3, F3) for k in MS_LIST[msid])


def closable(msid: int) -> bool:
    return all(k == N3 for k in MS_LIST[msid])


# Per (multiset, table count, rack count, joker cap): the options for one
# colour at one number: (new multiset id, y to groups, jokers, rack tiles
# used, recipe), best rack use first.
_COLOUR_CACHE: dict[tuple[int, int, int, int], tuple] = {}


def colour_options(msid: int, a: int, b: int, jcap: int) -> tuple:
    key = (msid, a, b, jcap)
    got = _COLOUR_CACHE.get(key)
    if got is not None:
        return got
    best: dict[tuple[int, int, int], tuple] = {}
    for u in range(b, -1, -1):
        x = a + u
        for y in range(x + 1):
            for j in range(jcap + 1):
                for new, recipe in apply_options(msid, x - y, j):
                    k = (new, y, j)
                    if k not in best:
                        best[k] = (new, y, j, u, recipe)
    got = tuple(sorted(best.values(), key=lambda o: (-o[3], o[1], o[2])))
    _COLOUR_CACHE[key] = got
    return got


BIG = 1 << 16  # score = tiles placed * BIG + value placed
JOKER_VALUE = 30

_SHIFT = (0, 10, 20, 30)
_MASK8 = 0x3FF  # ten bits per colour: an interned multiset id
_J_SHIFT = 40
_G_SHIFT = 44
_Y_SHIFT = 48
_MV_SHIFT = 54


class Plan:
    """The decisions of an optimal arrangement, number by number."""

    __slots__ = ("score", "jokers_used", "steps")

    def __init__(self, score, jokers_used, steps):
        self.score = score
        self.jokers_used = jokers_used
        self.steps = steps  # per number: (g, jg, [per colour (y, j, u, recipe, old ms)])


def run_dp(table: list[int], rack: list[int], jt: int, jr: int, *,
           threshold: int = 0, budget: int | None = None) -> Plan | None:
    """One pass of the programme.

    :param table: 52 counts of numbered tiles that must be placed.
    :param rack: 52 counts of candidate rack tiles (may be placed).
    :param jt: jokers that must be placed; ``jr``: jokers that may be.
    :param threshold: initial-meld mode when > 0 (meld value must reach it
        unless nothing is placed).
    :param budget: at most this many candidate rack tiles (jokers included)
        left unplaced; ``None`` for no limit.
    :returns: the best :class:`Plan`, or ``None`` if no arrangement within
        budget exists.
    """
    jtot = jt + jr
    cand_total = sum(rack) + jr
    # cumulative candidates up to and including number n (numbered tiles)
    init_key = 0
    cur: dict[int, int] = {init_key: 0}
    back: list[list[dict]] = []
    placed_cand = 0
    mv_cap = threshold
    for n in range(13):
        number = n + 1
        avail_n = 0
        cand_n = 0
        for c in range(4):
            avail_n += table[c * 13 + n] + rack[c * 13 + n]
            cand_n += rack[c * 13 + n]
        gmax = min(avail_n, (avail_n + jtot) // 3)
        steps: list[dict] = []
        # start: choose the number of groups g
        nxt: dict[int, tuple] = {}
        for key, score in cur.items():
            for g in range(gmax + 1):
                k2 = key | g << _G_SHIFT
                nxt[k2] = (score, key, None)
        steps.append(nxt)
        cur2 = nxt
        cand_before = placed_cand
        for c in range(4):
            a = table[c * 13 + n]
            b = rack[c * 13 + n]
            cand_before += b
            sh = _SHIFT[c]
            clear = ~(_MASK8 << sh)
            nxt = {}
            gain_unit = BIG + number
            for key, val in cur2.items():
                score = val[0]
                msid = key >> sh & _MASK8
                jused = key >> _J_SHIFT & 0xF
                g = key >> _G_SHIFT & 0xF
                sumy = key >> _Y_SHIFT & 0x3F
                base = key & clear
                opts = colour_options(msid, a, b, jtot - jused)
                for opt in opts:
                    new, y, j, u, recipe = opt
                    if y > g:
                        continue
                    sc = score + u * gain_unit
                    if budget is not None and cand_before - (sc >> 16) > budget:
                        continue
                    k2 = (base | new << sh) + (j << _J_SHIFT) + (y << _Y_SHIFT)
                    if mv_cap:
                        mv = key >> _MV_SHIFT
                        mv2 = min(mv_cap, mv + (a + u + j - y) * number)
                        k2 = (k2 & ((1 << _MV_SHIFT) - 1)) | mv2 << _MV_SHIFT
                    old = nxt.get(k2)
                    if old is None or old[0] < sc:
                        nxt[k2] = (sc, key, opt)
            steps.append(nxt)
            cur2 = nxt
        placed_cand = cand_before
        # close the number: groups and their jokers
        done: dict[int, tuple] = {}
        low_mask = (1 << _J_SHIFT) - 1
        for key, val in cur2.items():
            score = val[0]
            jused = key >> _J_SHIFT & 0xF
            g = key >> _G_SHIFT & 0xF
            sumy = key >> _Y_SHIFT & 0x3F
            mv = key >> _MV_SHIFT if mv_cap else 0
            if g == 0:
                if sumy:
                    continue
                jlo, jhi = 0, 0
            else:
                if sumy < g:
                    continue
                jlo = max(0, 3 * g - sumy)
                jhi = min(4 * g - sumy, jtot - jused)
            for jg in range(jlo, jhi + 1):
                k2 = (key & low_mask) | (jused + jg) << _J_SHIFT
                if mv_cap:
                    mv2 = min(mv_cap, mv + (sumy + jg) * number)
                    k2 |= mv2 << _MV_SHIFT
                old = done.get(k2)
                if old is None or old[0] < score:
                    done[k2] = (score, key, jg)
        steps.append(done)
        back.append(steps)
        cur = {k: v[0] for k, v in done.items()}
        if not cur:
            return None
    # final: all runs closable, table jokers used, threshold met
    best = None
    best_key = None
    for key, score in cur.items():
        ok = True
        for c in range(4):
            if not closable_at_end(key >> _SHIFT[c] & _MASK8):
                ok = False
                break
        if not ok:
            continue
        jused = key >> _J_SHIFT & 0xF
        if jused < jt:
            continue
        placed_j = jused - jt
        if budget is not None and cand_total - (score >> 16) - placed_j > budget:
            continue
        if mv_cap and (key >> _MV_SHIFT) < mv_cap:
            continue
        total = score + placed_j * (BIG + JOKER_VALUE)
        if best is None or total > best:
            best, best_key = total, key
    if best_key is None:
        return None
    # walk back
    steps_out = []
    key = best_key
    for n in range(12, -1, -1):
        stages = back[n]
        score, prev, jg = stages[5][key]
        key = prev
        per_colour = [None] * 4
        for c in range(3, -1, -1):
            score, prev, opt = stages[1 + c][key]
            old_ms = prev >> _SHIFT[c] & _MASK8
            per_colour[c] = (opt, old_ms)
            key = prev
        score, prev, _ = stages[0][key]
        g = key >> _G_SHIFT & 0xF
        key = prev
        steps_out.append((g, jg, per_colour))
    steps_out.reverse()
    return Plan(best, (best_key >> _J_SHIFT & 0xF), steps_out)
