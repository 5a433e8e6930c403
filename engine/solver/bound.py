"""An upper bound on a plan's score: the linear relaxation of the meld cover.

Every division of table + play into melds is a sum of melds of three to
five tiles (a longer run splits into such runs), so it is an integer point
of this linear programme (Den Hertog and Hulshof's model with the
integrality dropped):

- a column per meld shape (runs of 3-5 of one colour, groups of 3 or 4
  distinct colours), how many times it is laid;
- per numbered tile ``t``: the melds' slots of ``t`` are filled by the
  table's copies (all of them), rack copies played ``y_t <= rack[t]`` and
  jokers standing in ``z_t``; the jokers standing in are the table's (all)
  and those played from the rack;
- maximise ``sum (BIG + value) * played``: the programme's score
  (:mod:`engine.solver.dp`: tiles placed times ``BIG`` plus value).

Dropped besides integrality: a meld's need of one numbered tile. So no
plan scores more than the linear optimum. The bound returned is not the
solver's reported optimum but the Lagrangian value of its row prices,
recomputed here (every column boxed, so any prices give a valid bound):
it holds whatever the solver's tolerances.

The linear programme is solved by the dual simplex in C of
``engine/solver/_lp.c`` when it is built (bin/setup builds it beside the
compiled programme; :mod:`engine.solver.compiled` uses it only while it is
built from the ``_lp.c`` beside it): from the rows' logical basis on every
call, so a bound and its point never depend on the calls before it.
Otherwise (or with ``SIMPLEX`` set to 0) by HiGHS: its own Python package
``highspy`` (the ``fast`` extra, as bin/setup installs it), or else the
same binding inside SciPy, when either is installed. Its plain ``_Highs``
class is used: ``highspy.Highs`` prints a banner on standard output, which
would break the engine's JSON Lines commands. The model is kept, one a
thread, and each call changes its bounds (and costs, when the weights
change); a call ``cold`` starts from HiGHS's slack basis with presolve
off (as many simplex iterations as from another position's basis, each
cheaper), else from the previous call's basis. With neither the simplex in
C nor highspy or SciPy, :func:`score_bound` answers ``None`` and the solver proves its answers by
the programme alone; the answers are the same either way.
"""

from __future__ import annotations

import threading
from itertools import combinations
from operator import add, gt

from typing import Any

# numpy and SciPy's HiGHS binding, imported on first use (importing SciPy
# costs a process a fifth of a second; most never need the bound)
np: Any = None
_hc: Any = None
_LOADED = False


# 1: the dual simplex in C when it is built (0: HiGHS, as before it)
SIMPLEX = 1
# 1: a capped bound starts from the optimal basis of the uncapped one on the
# same programme, the cap's row added (0: from the rows' logical basis)
WARM_CAP = 1
_simplex_mod: Any = None
_SIMPLEX_LOADED = False


def _c_simplex() -> Any:
    """The dual simplex in C (``engine.solver._lp``) when it is built from
    the ``_lp.c`` beside it and ``SIMPLEX`` is set, else ``None``."""
    global _simplex_mod, _SIMPLEX_LOADED
    if not SIMPLEX:
        return None
    if not _SIMPLEX_LOADED:
        _SIMPLEX_LOADED = True
        from .compiled import _simplex

        _simplex_mod = _simplex()[0]
    return _simplex_mod


def _load() -> bool:
    """Whether HiGHS (highspy or SciPy's) imports; numpy and it loaded."""
    global np, _hc, _LOADED
    if not _LOADED:
        _LOADED = True
        try:
            import numpy

            try:  # HiGHS's own Python package (the ``fast`` extra)
                import highspy as core
            except ImportError:  # the same binding as SciPy ships it
                from scipy.optimize._highspy import _core as core
        except Exception:  # noqa: BLE001 - any failure: no bound, same answers
            return False
        np, _hc = numpy, core
    return _hc is not None


BIG = 1 << 16  # as dp.BIG
JOKER_VALUE = 30

# the meld shapes: runs of 3-5 of one colour, groups of 3 and 4 colours
SHAPES: list[tuple[int, ...]] = (
    [tuple(c * 13 + p for p in range(s, s + length))
     for c in range(4) for length in (3, 4, 5) for s in range(14 - length)]
    + [tuple(c * 13 + n for c in cs) for n in range(13) for k in (3, 4)
       for cs in combinations(range(4), k)])
NS = len(SHAPES)
RUNS = 120  # the shapes before this are runs, the rest groups
# columns: shapes, then played y_t (52), jokers standing in z_t (52), jokers played
NV = NS + 105
ROWS = 53  # a row per numbered tile, then the jokers
# face values (the joker's last)
FACE_VALUES = [float(t % 13 + 1) for t in range(52)] + [float(JOKER_VALUE)]


def available() -> bool:
    """Whether the bound can be computed here (the simplex in C is built,
    or HiGHS is importable)."""
    return _c_simplex() is not None or _load()


def backend() -> str:
    """What the bound runs on: ``"dual simplex in C (sha256:...)"`` (the
    digest of ``_lp.c``), else which HiGHS with its version (``"highspy
    1.x"``, ``"scipy 1.x"``), or ``"none"``. The tiles and value of an
    answer never depend on it; the layout of a play may (the relaxation's
    rounded play is an incumbent), so the analysis names it
    (:func:`engine.analysis.solver_version`)."""
    lp = _c_simplex()
    if lp is not None:
        return f"dual simplex in C (sha256:{lp.SOURCE_DIGEST[:16]})"
    if not _load():
        return "none"
    from importlib.metadata import PackageNotFoundError, version

    name = "highspy" if getattr(_hc, "__name__", "").startswith("highspy") else "scipy"
    try:
        return f"{name} {version(name)}"
    except PackageNotFoundError:  # pragma: no cover - a build without metadata
        return name


class _Model:
    """The linear programme, kept in one HiGHS instance (a thread's own)."""

    def __init__(self) -> None:
        h = _hc._Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("threads", 1)
        lp = _hc.HighsLp()
        lp.num_col_ = NV
        lp.num_row_ = ROWS
        cols: list[list[tuple[int, float]]] = [[] for _ in range(NV)]
        for m, shape in enumerate(SHAPES):
            cols[m] = [(t, 1.0) for t in shape]
        for t in range(52):
            cols[NS + t] = [(t, -1.0)]
            cols[NS + 52 + t] = [(t, -1.0), (52, 1.0)]
        cols[NS + 104] = [(52, -1.0)]
        start, index, value = [0], [], []
        dense = np.zeros((ROWS, NV))
        for j, col in enumerate(cols):
            for r, v in col:
                index.append(r)
                value.append(v)
                dense[r, j] = v
            start.append(len(index))
        a = lp.a_matrix_
        a.format_ = _hc.MatrixFormat.kColwise
        a.start_ = start
        a.index_ = index
        a.value_ = value
        a.num_col_ = NV
        a.num_row_ = ROWS
        lp.col_cost_ = [0.0] * NV
        lp.col_lower_ = [0.0] * NV
        lp.col_upper_ = [0.0] * NV
        lp.row_lower_ = [0.0] * ROWS
        lp.row_upper_ = [0.0] * ROWS
        lp.sense_ = _hc.ObjSense.kMaximize
        h.passModel(lp)
        self.h = h
        self.at = dense.T.copy()  # columns as rows: reduced costs c - A^T pi
        self.cols = np.arange(NV, dtype=np.int32)
        self.lower = np.zeros(NV)
        self.cost = np.zeros(NV)
        self.face = np.array(FACE_VALUES)
        self.upper = np.zeros(NV)
        # each shape's tiles, padded to five with the index past the tiles
        self.shape_idx = np.array([list(sh) + [52] * (5 - len(sh)) for sh in SHAPES])
        self.played: tuple[list[int], int] | None = None
        self._melds: Any = None  # the layout, or what it is computed from
        self.shapes: list[int] | None = None
        self.cold: bool | None = None  # the mode HiGHS is set for
        self.rows = np.arange(ROWS, dtype=np.int32)
        self.b = np.zeros(ROWS)  # the row bounds HiGHS holds
        self.value_key: Any = ()  # the weights the costs hold (() : none yet)

    @property
    def melds(self) -> list[tuple[int, ...]] | None:
        """The layout of the last optimum when integral (computed when
        first asked: most calls never ask)."""
        if isinstance(self._melds, tuple):
            try:
                self._melds = integral_layout(*self._melds)
            except Exception:  # noqa: BLE001 - a hint only, as the bound
                self._melds = None
        return self._melds

    def forget(self) -> None:
        self.played = self._melds = self.shapes = None

    def bound(self, table: list[int], rack: list[int], jt: int, jr: int,
              weights: list[int] | None, cold: bool = True) -> float | None:
        h = self.h
        if cold != self.cold:
            # cold: every call from the slack basis, no presolve (on the
            # solver's positions as cheap as the previous position's basis
            # in iterations, and each iteration cheaper); else from the
            # last call's basis, presolve on (HiGHS's defaults)
            h.setOptionValue("presolve", "off" if cold else "choose")
            self.cold = cold
        if cold:
            h.clearSolver()
        jokers = jt + jr
        t_np = np.array(table[:52], dtype=float)
        r_np = np.array(rack[:52], dtype=float)
        avail = np.append(t_np + r_np + jokers, np.inf)  # the last: a shape's padding
        cost = self.cost
        key = None if weights is None else tuple(weights[:53])
        if key != self.value_key:
            # the costs change with the weights only
            value = self.face if weights is None else np.array(weights[:53], dtype=float)
            cost[NS:NS + 52] = BIG + value[:52]
            cost[NS + 104] = BIG + value[52]
            h.changeColsCost(NV, self.cols, cost)
            self.value_key = key
        upper = self.upper
        # a shape as often as each of its tiles is there (jokers standing
        # in), and as the numbered tiles it holds (every meld holds one)
        real = np.append(t_np + r_np, 0.0)
        upper[:NS] = np.minimum(avail[self.shape_idx].min(axis=1), real[self.shape_idx].sum(axis=1))
        upper[NS:NS + 52] = r_np
        upper[NS + 52:NS + 104] = jokers
        upper[NS + 104] = jr
        h.changeColsBounds(NV, self.cols, self.lower, upper)
        bvec = np.append(t_np, float(jt))
        if not np.array_equal(bvec, self.b):
            h.changeRowsBounds(ROWS, self.rows, bvec, bvec)
            self.b = bvec
        self.forget()
        h.run()
        if h.getModelStatus() != _hc.HighsModelStatus.kOptimal:
            return None
        sol = h.getSolution()
        pi = np.asarray(sol.row_dual)
        x = np.asarray(sol.col_value)
        if x.shape == (NV,):
            # the rack tiles the relaxation's optimum plays, rounded down
            # (a hint only: nothing relies on it being optimal or valid)
            y = np.floor(x[NS:NS + 52] + 1e-6).astype(int)
            self.played = (np.minimum(y, r_np.astype(int)).tolist(),
                           min(jr, int(x[NS + 104] + 1e-6)))
            self.shapes = np.floor(x[:NS] + 1e-6).astype(int).tolist()
            xr = np.rint(x)
            if float(np.abs(x - xr).max()) < 1e-6:
                # an integral optimum: its shapes are a layout of the play
                # (laid out when asked, see melds)
                self._melds = (xr.astype(int).tolist(), table[:52], rack[:52], jt, jr)
        if pi.shape != (ROWS,):
            return None
        best = None
        for p in (pi, -pi):  # the binding's sign convention for duals: either is a bound
            reduced = cost - self.at @ p
            lagrangian = float(bvec @ p) + float(upper @ np.maximum(reduced, 0.0))
            if best is None or lagrangian < best:
                best = lagrangian
        return best


# the layouts below loop over the shapes laid only (0: over every shape,
# as before; the same melds either way)
LEAN = 1

GROUP_JOKER = 105  # as engine.melds: + the number's index
RUN_JOKER = 53  # + the tile's code


def shapes_laid(counts: list[int], real: list[int], jokers: int,
                laid: list[tuple[int, int]] | None = None
                ) -> tuple[list[tuple[int, ...]], list[int], int] | None:
    """``counts[m]`` melds of each shape ``m``, their slots filled by the
    ``real`` tiles (52 counts) and ``jokers`` standing in where a tile is
    short: the melds (slots as :func:`integral_layout`), the real tiles and
    jokers left over; ``None`` when the jokers do not suffice or a meld
    would hold jokers only. ``laid``, when given, is ``counts``' shapes
    laid, as (shape, count) in order."""
    slots = [0] * 52
    melds: list[list[int]] = []
    groups: list[bool] = []
    if LEAN:
        if laid is None:
            laid = [(m, k) for m, k in enumerate(counts[:NS]) if k > 0]  # (most are not laid)
        for m, k in laid:
            shape = SHAPES[m]
            group = m >= RUNS
            for _ in range(k):
                melds.append(list(shape))
                groups.append(group)
            for t in shape:
                slots[t] += k
    else:
        for m in range(NS):
            for _ in range(counts[m]):
                melds.append(list(SHAPES[m]))
                groups.append(m >= RUNS)
                for t in SHAPES[m]:
                    slots[t] += 1
    left_real = [r - n if r > n else 0 for r, n in zip(real, slots)]
    # jokers stand in where the meld keeps most real tiles (checked below)
    have = [len(m) for m in melds]
    for t in [t for t in range(52) if slots[t] > real[t]]:  # (the tiles short)
        short = slots[t] - real[t]
        jokers -= short
        if jokers < 0:
            return None
        holders = sorted((i for i, m in enumerate(melds) if t in m), key=lambda i: -have[i])
        for i in holders[:short]:
            have[i] -= 1
            m = melds[i]
            m[m.index(t)] = (GROUP_JOKER + t % 13) if groups[i] else (RUN_JOKER + t)
    if min(have, default=1) < 1:
        return None  # a meld of jokers only
    return [tuple(m) for m in melds], left_real, jokers


def integral_layout(x: list[int], table: list[int], rack: list[int], jt: int,
                    jr: int) -> list[tuple[int, ...]] | None:
    """The melds of an integral point ``x`` of the programme (shape counts,
    then ``y``, ``z`` and the rack jokers played), each a tuple of slots as
    :mod:`engine.melds` writes them (a tile's code, ``RUN_JOKER`` + the code
    a joker stands for in a run, ``GROUP_JOKER`` + the number's index in a
    group), or ``None`` when ``x`` is not a layout of the table and its play
    (checked here in integers, row by row: every slot of a tile filled by
    its table copies, the rack copies played and jokers standing in, every
    joker laid) or a meld would hold jokers only."""
    if min(x) < 0:
        return None
    played = x[NS:NS + 52]
    stand = x[NS + 52:NS + 104]
    jokers_played = x[NS + 104]
    if jokers_played > jr or any(map(gt, played, rack[:52])):
        return None
    slots = [0] * 52
    laid_shapes = [(m, k) for m, k in enumerate(x[:NS]) if k]  # (most shapes are not laid)
    for m, k in laid_shapes:
        for t in SHAPES[m]:
            slots[t] += k
    placed = list(map(add, table[:52], played))
    if sum(stand) != jt + jokers_played or list(map(add, placed, stand)) != slots:
        return None
    laid = shapes_laid(x, placed, jt + jokers_played, laid_shapes)
    return None if laid is None else laid[0]


_LOCAL = threading.local()


class _CModel:
    """The last optimum of the simplex in C, a thread's own (as
    :class:`_Model` keeps HiGHS's): what :func:`last_played`,
    :func:`last_layout` and :func:`last_shapes` read."""

    def __init__(self) -> None:
        self.played: tuple[list[int], int] | None = None
        self.shapes: list[int] | None = None
        self._melds: Any = None
        # the last uncapped call's programme and optimal basis: a capped
        # call on the same programme starts from it (WARM_CAP)
        self.basis: tuple[tuple, bytes] | None = None

    melds = _Model.melds

    def forget(self) -> None:
        self.played = self._melds = self.shapes = None

    def start(self, table: list[int], rack: list[int], jt: int, jr: int,
              weights: list[int] | None) -> bytes | None:
        """The optimal basis of the last uncapped call when it was on this
        programme, else ``None``."""
        if self.basis is not None and self.basis[0] == (table, rack, jt, jr, weights):
            return self.basis[1]
        return None

    def bound(self, lp: Any, table: list[int], rack: list[int], jt: int, jr: int,
              weights: list[int] | None, cap: int | None = None) -> float | None:
        self.forget()
        start = self.start(table, rack, jt, jr, weights) if cap is not None and WARM_CAP else None
        got = lp.solve(table, rack, jt, jr, weights, -1 if cap is None else cap, start)
        if got is None:
            return None  # no point fits (or the simplex gave up): no bound
        ub, played, jokers, shapes, _point, _pivots, layout, basis = got
        if cap is None:
            self.basis = ((list(table), list(rack), jt, jr, None if weights is None else
                           list(weights)), basis)
        self.played = (played, jokers)
        self.shapes = shapes
        # an integral optimum: its shapes are a layout of the play, laid
        # out in C as integral_layout lays them (None: not integral)
        self._melds = layout
        return ub


def last_played() -> tuple[list[int], int] | None:
    """The rack tiles (52 counts, rack jokers) played by the optimum of
    this thread's last :func:`score_bound`, each rounded down; ``None``
    when that call gave no bound. A hint for a plan to try, nothing more:
    it need not divide with the table."""
    model = getattr(_LOCAL, "last", None)
    return None if model is None else model.played


def last_layout() -> list[tuple[int, ...]] | None:
    """The melds of the optimum of this thread's last :func:`score_bound`
    when that optimum is integral (see :func:`integral_layout`): a layout of
    the table and exactly the play :func:`last_played` gives; else
    ``None``."""
    model = getattr(_LOCAL, "last", None)
    return None if model is None else model.melds


def last_shapes() -> list[int] | None:
    """The meld shapes of the optimum of this thread's last
    :func:`score_bound` (a count per shape of :data:`SHAPES`), each rounded
    down; ``None`` when that call gave no bound. A hint, as
    :func:`last_played`."""
    model = getattr(_LOCAL, "last", None)
    return None if model is None else model.shapes


def branch(table: list[int], rack: list[int], jt: int, jr: int,
           weights: list[int] | None, floor: int, limit: int, cap: int | None = None
           ) -> tuple | None:
    """Branch and bound on the programme (the simplex in C's ``branch``):
    the best plan scoring at least ``floor`` it finds within ``limit``
    nodes, from the optimal basis of this thread's last :func:`score_bound`
    on the same programme when there is one; with ``cap``, among plans of at
    most ``cap`` tiles (where a bound proved that no plan places more, a cut
    that leaves every plan in: the value is bounded tighter). ``(status, nodes, melds,
    played, jokers_played, score)``: status 0, searched through (the plan
    found is the best; none found: no plan reaches the floor); 1, the node
    limit; 2, gave up (an integer point not a layout, or a cut it could not
    prove); the plan's melds (as :func:`integral_layout`), rack tiles (52
    counts), rack jokers and score, or ``None, None, 0, 0``. ``None`` when
    the simplex in C is not there, or no point fits."""
    lp = _c_simplex()
    if lp is None:
        return None
    cmodel = getattr(_LOCAL, "cmodel", None)
    start = None if cmodel is None else cmodel.start(table, rack, jt, jr, weights)
    return lp.branch(table, rack, jt, jr, weights, float(floor), limit, start,
                     -1 if cap is None else cap)


def forget() -> None:
    """Drop this thread's model's basis: the next :func:`score_bound`
    starts from none, as on a fresh thread (the benchmarks call it between
    solves, so that no solve starts warm from the same position's basis)."""
    model = getattr(_LOCAL, "model", None)
    if model is not None:
        model.h.clearSolver()
        model.forget()
    last = getattr(_LOCAL, "last", None)
    if last is not None:
        last.forget()
    cmodel = getattr(_LOCAL, "cmodel", None)
    if cmodel is not None:
        cmodel.basis = None


def score_bound(table: list[int], rack: list[int], jt: int, jr: int,
                weights: list[int] | None = None, cold: bool = True,
                cap: int | None = None) -> float | None:
    """An upper bound on the score (``BIG`` a tile placed plus the value,
    face values or ``weights``) of any plan placing all of ``table`` (52
    counts, ``jt`` jokers) and some of ``rack`` (52 counts, ``jr`` jokers);
    ``None`` when it cannot be computed (neither the simplex in C nor
    HiGHS, or the solver failed).
    Rounding aside (well under 1e-3 on these magnitudes), no plan scores
    more. With ``cap``, of plans placing at most ``cap`` rack tiles (jokers
    included): where no plan places more (a bound proved it), a bound on
    every plan, tighter on the value; only the simplex in C takes it
    (HiGHS answers ``None``)."""
    lp = _c_simplex()
    if lp is not None:
        cmodel = getattr(_LOCAL, "cmodel", None)
        if cmodel is None:
            cmodel = _LOCAL.cmodel = _CModel()
        _LOCAL.last = cmodel
        return cmodel.bound(lp, table, rack, jt, jr, weights, cap)
    if cap is not None or not _load():
        return None
    model = getattr(_LOCAL, "model", None)
    if model is None:
        model = _LOCAL.model = _Model()
    _LOCAL.last = model
    try:
        return model.bound(table, rack, jt, jr, weights, cold)
    except Exception:  # noqa: BLE001 - a bound is an accelerator only
        model.forget()
        return None
