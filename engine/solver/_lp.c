/* The linear relaxation of the meld cover, solved by a dual simplex in C.
 *
 * The programme is engine/solver/bound.py's (its docstring says what it
 * bounds), with each tile that has no copy on the table or the rack
 * substituted out (see lp_solve): a row per numbered tile there is and one
 * for the jokers, a column per
 * meld shape (runs of 3-5 of one colour, groups of 3 and 4 colours, in
 * bound.SHAPES's order), then the rack copies played y_t, the jokers
 * standing in z_t and the rack jokers played. Every column is boxed, so
 * every basis with its nonbasic columns at the bound their reduced cost
 * points to is dual feasible: the dual simplex starts from the rows'
 * logical columns (fixed at 0) and needs no first phase. Dense and small:
 * the basis inverse is kept explicitly (at most 53 rows), updated by the
 * pivot and refactored every REFACTOR pivots; the leaving row is chosen by
 * dual steepest edge (exact weights, the rows' norms); the entering column
 * by a bound-flipping ratio test (a boxed column whose breakpoint is passed
 * while the dual objective still improves flips to its other bound instead
 * of entering). Columns fixed at 0 (a shape whose tiles are not there, a
 * tile not on the rack) never take part, nor rows no free column touches.
 * A last row, when asked for, caps the tiles played (jokers included):
 * sum y_t + jokers played + slack = cap, the slack in [0, cap].
 * The costs are perturbed slightly (deterministically) against dual
 * degeneracy; the bound returned is the Lagrangian value of the row prices
 * of the final basis under the true costs, valid for any prices, so
 * neither the perturbation nor rounding can make it too low.
 *
 * branch() runs a branch and bound on the same programme (see its part
 * below): the best plan above a floor, or the proof that none is.
 *
 * Everything here is deterministic: the same inputs give the same
 * pivots, bound and point on every machine with IEEE doubles.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

#define M 54          /* rows: 52 numbered tiles, the jokers, then the cap on tiles played */
#define CAPROW 53
#define NSHAPE 185    /* 120 runs, 65 groups */
#define NSTRUCT (NSHAPE + 105)
#define NTOT (NSTRUCT + M)  /* then a logical column per row */
#define BIG 65536.0
#define REFACTOR 100
#ifndef HOLD
#define HOLD 1        /* the last uncapped optimum kept for the call starting from its basis */
#endif
#define MAX_ITER 3000
#define PTOL 1e-9     /* primal feasibility */
#define PIVTOL 1e-9   /* smallest |alpha| that may pivot */
#define DTOL 1e-7     /* a reduced cost's wrong sign tolerated */

enum { BASIC = 0, LOW = 1, UP = 2, FIXED = 3 };

static int col_n[NTOT];
static int col_r[NTOT][5];
static double col_v[NTOT][5];
static double perturb[NTOT];

static void init_columns(void) {
    int j = 0;
    for (int c = 0; c < 4; c++)
        for (int len = 3; len <= 5; len++)
            for (int s = 0; s < 14 - len; s++) {
                col_n[j] = len;
                for (int p = 0; p < len; p++) {
                    col_r[j][p] = c * 13 + s + p;
                    col_v[j][p] = 1.0;
                }
                j++;
            }
    /* groups, number by number: the four of three colours in
     * itertools.combinations's order, then the one of four */
    static const int comb3[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
    for (int n = 0; n < 13; n++) {
        for (int i = 0; i < 4; i++) {
            col_n[j] = 3;
            for (int p = 0; p < 3; p++) {
                col_r[j][p] = comb3[i][p] * 13 + n;
                col_v[j][p] = 1.0;
            }
            j++;
        }
        col_n[j] = 4;
        for (int p = 0; p < 4; p++) {
            col_r[j][p] = p * 13 + n;
            col_v[j][p] = 1.0;
        }
        j++;
    }
    for (int t = 0; t < 52; t++) {  /* y_t */
        col_n[j] = 2; col_r[j][0] = t; col_v[j][0] = -1.0;
        col_r[j][1] = CAPROW; col_v[j][1] = 1.0; j++;
    }
    for (int t = 0; t < 52; t++) {  /* z_t */
        col_n[j] = 2; col_r[j][0] = t; col_v[j][0] = -1.0;
        col_r[j][1] = 52; col_v[j][1] = 1.0; j++;
    }
    col_n[j] = 2; col_r[j][0] = 52; col_v[j][0] = -1.0;  /* jokers played */
    col_r[j][1] = CAPROW; col_v[j][1] = 1.0; j++;
    for (int i = 0; i < M; i++) {  /* logicals */
        col_n[j] = 1; col_r[j][0] = i; col_v[j][0] = 1.0; j++;
    }
    /* a small deterministic perturbation per column, 1e-5 .. 2e-5 */
    unsigned int h = 2463534242u;
    for (j = 0; j < NTOT; j++) {
        h ^= h << 13; h ^= h >> 17; h ^= h << 5;
        perturb[j] = 1e-5 * (1.0 + (double)(h % 10007) / 10007.0);
    }
}

typedef struct { double ratio; int j; } Cand;

typedef struct {
    int m;                 /* rows taken part */
    int row_of[M];         /* a tile row's index among them, or -1 */
    int nact;              /* columns taken part (free structurals, then the logicals) */
    int act[NTOT];
    double lo[NTOT], up[NTOT];
    double c[NTOT];        /* minimised: -(costs), perturbed */
    double ctrue[NTOT];
    double x[NTOT], d[NTOT];
    int state[NTOT];
    int head[M];
    double Binv[M][M];
    double b[M];
    double w[M];
    double alpha[NTOT];
    Cand cand[NTOT];
    int cn[NTOT];       /* a column's entries in the rows taken part: */
    int crow[NTOT][5];  /* their rows (among those taken part) */
    double cv[NTOT][5]; /* and values */
    int rc_beg[M + 1];  /* a row's free columns (and its logical), by row: */
    int rc_j[NTOT * 5]; /* rc_j[rc_beg[t] .. rc_beg[t + 1]) */
    double rc_v[NTOT * 5];
    int stamp[NTOT];    /* the clock of the pivot row that last computed a column's alpha */
    int touched[NTOT];
    int iters;
    int since;          /* pivots since B^-1 was last refactored */
    int iter_cap;       /* the pivots this solve may reach */
    int clock;          /* the pivot rows computed: a column's stamp is the last that touched it */
    int bad_row;        /* the row that proved no point fits (status 1) */
    int empty[52];      /* tiles with no copy there (substituted out) */
    /* the inputs it was set up from, and the digest of its programme */
    int in_table[52], in_rack[52], in_jt, in_jr;
    double in_value[53];
    unsigned long long digest;
} LP;

/* An optimal basis of the programme without the cap, for the capped call
 * on the same programme to start from (see lp_solve's start): the
 * programme's digest, the rows, the basis's columns in row order, every
 * column's state and B^-1 (m x m, row by row). */
typedef struct {
    unsigned long long digest;
    int m;
    int head[M];
    signed char state[NTOT];
} Basis;

/* A digest of the programme a basis belongs to: the rows' right-hand
 * sides and the columns' bounds and (perturbed) costs, the cap left out
 * (FNV-1a's step over 64-bit words, each mixed as splitmix64 does) */
static inline unsigned long long mix64(unsigned long long h, double v) {
    unsigned long long z;
    memcpy(&z, &v, sizeof(z));
    z ^= z >> 30; z *= 0xbf58476d1ce4e5b9ull;
    z ^= z >> 27; z *= 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (h ^ z) * 1099511628211ull;
}

static unsigned long long programme_digest(const LP *lp, const double *up) {
    unsigned long long h = 1469598103934665603ull;
    for (int j = 0; j < NSTRUCT; j++) h = mix64(mix64(h, up[j]), lp->c[j]);
    for (int i = 0; i < 53; i++) h = mix64(h, lp->row_of[i] >= 0 ? lp->b[lp->row_of[i]] : -1.0);
    return h;
}

/* B^-1 from the basis's columns, by Gauss-Jordan with partial pivoting;
 * 0 when singular */
static int refactor(LP *lp) {
    int m = lp->m;
    double B[M][2 * M];
    for (int i = 0; i < m; i++) {
        memset(B[i], 0, sizeof(double) * 2 * m);
        B[i][m + i] = 1.0;
    }
    for (int k = 0; k < m; k++) {
        int j = lp->head[k];
        for (int e = 0; e < lp->cn[j]; e++) B[lp->crow[j][e]][k] = lp->cv[j][e];
    }
    for (int k = 0; k < m; k++) {
        int p = k;
        for (int i = k + 1; i < m; i++)
            if (fabs(B[i][k]) > fabs(B[p][k])) p = i;
        if (fabs(B[p][k]) < 1e-11) return 0;
        if (p != k)
            for (int q = 0; q < 2 * m; q++) {
                double t = B[p][q]; B[p][q] = B[k][q]; B[k][q] = t;
            }
        double inv = 1.0 / B[k][k];
        for (int q = 0; q < 2 * m; q++) B[k][q] *= inv;
        for (int i = 0; i < m; i++) {
            if (i == k || B[i][k] == 0.0) continue;
            double f = B[i][k];
            for (int q = 0; q < 2 * m; q++) B[i][q] -= f * B[k][q];
        }
    }
    /* the rows of B^-1 follow the basis's order (head[k] is row k's variable) */
    for (int i = 0; i < m; i++) memcpy(lp->Binv[i], B[i] + m, sizeof(double) * m);
    return 1;
}

static inline double col_dot(const double *v, const LP *lp, int j) {
    double s = 0.0;
    const int *rows = lp->crow[j];
    const double *vals = lp->cv[j];
    for (int e = 0; e < lp->cn[j]; e++) s += v[rows[e]] * vals[e];
    return s;
}

/* x_B, the prices and the reduced costs afresh from B^-1; a nonbasic free
 * column whose reduced cost has the wrong sign moves to its other bound */
static void recompute(LP *lp) {
    int m = lp->m;
    double rhs[M], pi[M];
    memcpy(rhs, lp->b, sizeof(double) * m);
    for (int k = 0; k < lp->nact; k++) {
        int j = lp->act[k];
        if (lp->state[j] == BASIC || lp->x[j] == 0.0) continue;
        for (int e = 0; e < lp->cn[j]; e++) rhs[lp->crow[j][e]] -= lp->cv[j][e] * lp->x[j];
    }
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int k = 0; k < m; k++) s += lp->Binv[i][k] * rhs[k];
        lp->x[lp->head[i]] = s;
    }
    for (int k = 0; k < m; k++) {
        double s = 0.0;
        for (int i = 0; i < m; i++) s += lp->c[lp->head[i]] * lp->Binv[i][k];
        pi[k] = s;
    }
    int moved = 0;
    double delta[M];
    memset(delta, 0, sizeof(double) * m);
    for (int k = 0; k < lp->nact; k++) {
        int j = lp->act[k];
        if (lp->state[j] == BASIC) { lp->d[j] = 0.0; continue; }
        double dj = lp->c[j] - col_dot(pi, lp, j);
        lp->d[j] = dj;
        if (lp->state[j] == FIXED) continue;
        int want = lp->state[j];
        if (lp->state[j] == LOW && dj < -DTOL) want = UP;
        else if (lp->state[j] == UP && dj > DTOL) want = LOW;
        if (want != lp->state[j]) {
            double nx = want == UP ? lp->up[j] : lp->lo[j];
            double dx = nx - lp->x[j];
            for (int e = 0; e < lp->cn[j]; e++) delta[lp->crow[j][e]] += lp->cv[j][e] * dx;
            lp->x[j] = nx;
            lp->state[j] = want;
            moved = 1;
        }
    }
    if (moved)
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            for (int k = 0; k < m; k++) s += lp->Binv[i][k] * delta[k];
            lp->x[lp->head[i]] -= s;
        }
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int k = 0; k < m; k++) s += lp->Binv[i][k] * lp->Binv[i][k];
        lp->w[i] = s;
    }
}

static int cand_cmp(const void *a, const void *b) {
    const Cand *x = a, *y = b;
    if (x->ratio < y->ratio) return -1;
    if (x->ratio > y->ratio) return 1;
    return x->j - y->j;
}

/* 0: optimal; 1: infeasible; 2: iteration limit or a singular basis */
static int dual_simplex(LP *lp) {
    int m = lp->m;
    Cand *cand = lp->cand;
    for (;;) {
        /* the leaving row: the largest infeasibility squared over its weight */
        int r = -1;
        double best = 0.0, delta = 0.0;
        for (int i = 0; i < m; i++) {
            int j = lp->head[i];
            double v = lp->x[j], inf;
            if (v < lp->lo[j] - PTOL) inf = v - lp->lo[j];
            else if (v > lp->up[j] + PTOL) inf = v - lp->up[j];
            else continue;
            double score = inf * inf / lp->w[i];
            if (score > best) { best = score; r = i; delta = inf; }
        }
        if (r < 0) return 0;  /* optimal (the bound is valid for any prices) */
        if (lp->iters >= lp->iter_cap) return 2;
        double sgn = delta > 0 ? 1.0 : -1.0;
        const double *rho = lp->Binv[r];
        /* the row of B^-1 A, row-wise over rho's nonzeros: the columns it
         * does not touch have alpha 0 and take no part in this pivot */
        int nt = 0, nz = 0, rz[M];
        int stamp = ++lp->clock;  /* (each pivot row its own, in every solve of this programme) */
        for (int t = 0; t < m; t++) {
            double v = rho[t];
            if (v == 0.0) continue;
            rz[nz++] = t;
            for (int e = lp->rc_beg[t]; e < lp->rc_beg[t + 1]; e++) {
                int j = lp->rc_j[e];
                if (lp->stamp[j] != stamp) {
                    lp->stamp[j] = stamp;
                    lp->alpha[j] = 0.0;
                    lp->touched[nt++] = j;
                }
                lp->alpha[j] += lp->rc_v[e] * v;
            }
        }
        int nc = 0, nn = 0;
        int *nb = lp->touched;  /* (rewritten in place: the nonbasic free columns it touched) */
        for (int k = 0; k < nt; k++) {
            int j = lp->touched[k];
            int st = lp->state[j];
            if (st == BASIC || st == FIXED) continue;
            nb[nn++] = j;
            double a = lp->alpha[j];
            double at = sgn * a;
            if ((st == LOW && at > PIVTOL) || (st == UP && at < -PIVTOL)) {
                double dj = lp->d[j];
                double ratio = dj / at;  /* >= 0 up to the tolerance */
                if (ratio < 0) ratio = 0;
                cand[nc].ratio = ratio;
                cand[nc].j = j;
                nc++;
            }
        }
        if (nc == 0) { lp->bad_row = r; return 1; }  /* the dual is unbounded: no point fits */
        /* bound flipping: pass breakpoints, smallest first (the candidates
         * put in order as they are passed), while the slope stays positive */
        double slope = fabs(delta);
        int q = -1, k;
        for (k = 0; k < nc; k++) {
            int mi = k;
            for (int k2 = k + 1; k2 < nc; k2++)
                if (cand_cmp(&cand[k2], &cand[mi]) < 0) mi = k2;
            if (mi != k) { Cand t = cand[k]; cand[k] = cand[mi]; cand[mi] = t; }
            int j = cand[k].j;
            slope -= fabs(lp->alpha[j]) * (lp->up[j] - lp->lo[j]);
            if (slope <= PTOL) { q = j; break; }
        }
        if (q < 0) { lp->bad_row = r; return 1; }
        /* among the candidates at the same breakpoint, the largest pivot */
        double s = cand[k].ratio;
        for (int k2 = k + 1; k2 < nc; k2++)
            if (cand[k2].ratio <= s + 1e-12 && fabs(lp->alpha[cand[k2].j]) > fabs(lp->alpha[q]))
                q = cand[k2].j;
        /* the columns passed before it flip to their other bound (those at
         * its breakpoint keep theirs: their reduced cost becomes 0) */
        double f[M];
        int nflip = 0, fnz[M], nf = 0;
        char in_f[M];  /* whether a row is in fnz already */
        memset(f, 0, sizeof(double) * m);
        memset(in_f, 0, (size_t)m);
        for (int k2 = 0; k2 < k; k2++) {
            int j = cand[k2].j;
            double nx = lp->state[j] == LOW ? lp->up[j] : lp->lo[j];
            double dx = nx - lp->x[j];
            for (int e = 0; e < lp->cn[j]; e++) {
                int rr = lp->crow[j][e];
                if (!in_f[rr]) { in_f[rr] = 1; fnz[nf++] = rr; }
                f[rr] += lp->cv[j][e] * dx;
            }
            lp->x[j] = nx;
            lp->state[j] = lp->state[j] == LOW ? UP : LOW;
            nflip++;
        }
        /* the prices move: reduced costs along the row (the columns that
         * flipped above were nonbasic free ones still) */
        for (int k2 = 0; k2 < nn; k2++) {
            int j = nb[k2];
            lp->d[j] -= s * sgn * lp->alpha[j];
        }
        int p = lp->head[r];
        lp->d[p] = -sgn * s;
        lp->d[q] = 0.0;
        if (nflip)
            for (int i = 0; i < m; i++) {
                double t = 0.0;
                for (int kk = 0; kk < nf; kk++) t += lp->Binv[i][fnz[kk]] * f[fnz[kk]];
                lp->x[lp->head[i]] -= t;
            }
        /* the entering column in the basis's terms */
        double aq[M];
        for (int i = 0; i < m; i++) aq[i] = col_dot(lp->Binv[i], lp, q);
        double piv = aq[r];
        if (fabs(piv) < PIVTOL) {
            if (!refactor(lp)) return 2;
            recompute(lp);
            lp->since = 0;
            lp->iters++;
            continue;
        }
        double target = sgn > 0 ? lp->up[p] : lp->lo[p];
        double theta = (lp->x[p] - target) / piv;
        for (int i = 0; i < m; i++) lp->x[lp->head[i]] -= theta * aq[i];
        lp->x[q] += theta;
        lp->x[p] = target;
        lp->state[p] = sgn > 0 ? UP : LOW;
        if (lp->up[p] == lp->lo[p]) lp->state[p] = FIXED;
        lp->state[q] = BASIC;
        lp->head[r] = q;
        /* B^-1 updated over the pivot row's nonzeros only (rho's, as
         * computed above: the row did not change since), and the weights
         * by ||b_i - f b_r||^2 = w_i - 2 f (b_i . b_r) + f^2 w_r (a row
         * the column does not touch keeps its entries and weight) */
        double *br = lp->Binv[r];
        double inv = 1.0 / piv;
        double wr = 0.0;
        for (int kk = 0; kk < nz; kk++) {
            double v = br[rz[kk]] * inv;
            br[rz[kk]] = v;
            wr += v * v;
        }
        lp->w[r] = wr;
        for (int i = 0; i < m; i++) {
            if (i == r || aq[i] == 0.0) continue;
            double fct = aq[i];
            double *bi = lp->Binv[i];
            double dot = 0.0;
            for (int kk = 0; kk < nz; kk++) {
                int c = rz[kk];
                dot += bi[c] * br[c];
                bi[c] -= fct * br[c];
            }
            double w = lp->w[i] - 2.0 * fct * dot + fct * fct * wr;
            lp->w[i] = w > 1e-12 ? w : 1e-12;
        }
        lp->iters++;
        if (++lp->since >= REFACTOR) {
            if (!refactor(lp)) return 2;
            recompute(lp);
            lp->since = 0;
        }
    }
}

static int read_counts(PyObject *seq, int *out, int n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return 0;
    if (PySequence_Fast_GET_SIZE(fast) < n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected at least %d counts", what, n);
        return 0;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(items[i]);
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return 0; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 1;
}

/* the n ints of v as a list, or as a tuple */
static PyObject *ints_as(int tuple, const long *v, Py_ssize_t n) {
    PyObject *l = tuple ? PyTuple_New(n) : PyList_New(n);
    if (!l) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PyLong_FromLong(v[i]);
        if (!o) { Py_DECREF(l); return NULL; }
        if (tuple) PyTuple_SET_ITEM(l, i, o);
        else PyList_SET_ITEM(l, i, o);
    }
    return l;
}

static PyObject *list_of_ints(const long *v, int n) {
    return ints_as(0, v, n);
}

#define NRUNS 120          /* the shapes before this are runs, the rest groups */
#define RUN_JOKER 53       /* engine.melds's slots: + the code a joker stands for in a run */
#define GROUP_JOKER 105    /* + the number's index in a group */

/* The melds of an integral point x (NSTRUCT counts), as
 * engine.solver.bound.integral_layout lays them out, step for step: the
 * point checked in integers row by row (every slot of a tile filled by its
 * table copies, the rack copies played and the jokers standing in; every
 * joker laid), each shape laid as often as counted, in the shapes' order,
 * and for each tile short (in code order) a joker put in the melds holding
 * it that keep the most real tiles (the first such, on ties). Py_None when
 * x is not such a layout or a meld would hold jokers only; NULL on an
 * error. */
static PyObject *layout_of(const long *x, const int *table, const int *rack, int jt, int jr) {
    const long *played = x + NSHAPE, *stand = x + NSHAPE + 52;
    long jp = x[NSHAPE + 104];
    if (jp < 0 || jp > jr) Py_RETURN_NONE;
    long slots[52], placed[52], nstand = 0;
    int nmeld = 0;
    for (int j = 0; j < NSTRUCT; j++)
        if (x[j] < 0) Py_RETURN_NONE;
    for (int t = 0; t < 52; t++) {
        if (played[t] > rack[t]) Py_RETURN_NONE;
        slots[t] = 0;
        placed[t] = table[t] + played[t];
        nstand += stand[t];
    }
    for (int j = 0; j < NSHAPE; j++)
        if (x[j]) {
            nmeld += (int)x[j];
            for (int e = 0; e < col_n[j]; e++) slots[col_r[j][e]] += x[j];
        }
    if (nstand != jt + jp) Py_RETURN_NONE;
    for (int t = 0; t < 52; t++)
        if (placed[t] + stand[t] != slots[t]) Py_RETURN_NONE;
    int (*tiles)[5] = PyMem_Malloc(sizeof(int[5]) * (nmeld ? nmeld : 1));
    int *len = PyMem_Malloc(sizeof(int) * (nmeld ? nmeld : 1) * 3);
    if (!tiles || !len) {
        PyMem_Free(tiles);
        PyMem_Free(len);
        return PyErr_NoMemory();
    }
    int *have = len + nmeld, *group = len + 2 * nmeld;
    int k = 0;
    for (int j = 0; j < NSHAPE; j++)
        for (long c = 0; c < x[j]; c++, k++) {
            len[k] = have[k] = col_n[j];
            group[k] = j >= NRUNS;
            for (int e = 0; e < col_n[j]; e++) tiles[k][e] = col_r[j][e];
        }
    long jokers = jt + jp;
    PyObject *result = Py_None;
    for (int t = 0; t < 52 && result == Py_None; t++) {
        long short_ = slots[t] - placed[t];
        if (short_ <= 0) continue;
        jokers -= short_;
        if (jokers < 0) goto done;
        /* the holders, by the real tiles they keep (most first; stable) */
        for (; short_ > 0; short_--) {
            int best = -1, at = -1;
            for (int i = 0; i < nmeld; i++)
                for (int e = 0; e < len[i]; e++)
                    if (tiles[i][e] == t) {
                        if (best < 0 || have[i] > have[best]) { best = i; at = e; }
                        break;
                    }
            if (best < 0) goto done;  /* (cannot be: the slots count them) */
            have[best]--;
            tiles[best][at] = group[best] ? GROUP_JOKER + t % 13 : RUN_JOKER + t;
        }
    }
    for (int i = 0; i < nmeld; i++)
        if (have[i] < 1) goto done;  /* a meld of jokers only */
    result = PyList_New(nmeld);
    if (!result) goto done;
    for (int i = 0; i < nmeld; i++) {
        PyObject *m = PyTuple_New(len[i]);
        if (!m) { Py_CLEAR(result); goto done; }
        for (int e = 0; e < len[i]; e++) {
            PyObject *v = PyLong_FromLong(tiles[i][e]);
            if (!v) { Py_DECREF(m); Py_CLEAR(result); goto done; }
            PyTuple_SET_ITEM(m, e, v);
        }
        PyList_SET_ITEM(result, i, m);
    }
done:
    PyMem_Free(tiles);
    PyMem_Free(len);
    if (result == Py_None) Py_INCREF(result);
    return result;
}

PyDoc_STRVAR(solve_doc,
"solve(table, rack, jt, jr, weights=None, cap=-1, start=None) -> (bound, played, jokers_played, shapes, point, pivots, layout, basis) or None\n\n"
"The linear relaxation of engine.solver.bound for 52 counts of table and rack\n"
"and the jokers (with cap >= 0: at most cap tiles played, jokers included):\n"
"the Lagrangian bound of the optimum's prices (valid for any prices), the rack\n"
"tiles and jokers its point plays and the shapes it lays (each rounded down),\n"
"the point itself in integers when it is integral (else None), the pivots\n"
"taken and, when the point is integral, its melds as bound.integral_layout\n"
"lays them out (else None), and without a cap the optimal basis (bytes; with a\n"
"cap, None): a capped solve of the same programme given it as start starts\n"
"from it, the cap's row added. None when no point fits or the simplex gave up.");

/* The inputs of solve() and branch(), checked: 52 counts each, the jokers,
 * the values (face values, or 53 weights); 0 with an exception set */
static int read_inputs(PyObject *table_o, PyObject *rack_o, int jt, int jr, PyObject *weights_o,
                       int cap, PyObject *start_o, int *table, int *rack, double *value) {
    if (start_o != Py_None && !PyBytes_Check(start_o)) {
        PyErr_SetString(PyExc_TypeError, "start: expected the basis an uncapped solve returned, or None");
        return 0;
    }
    if (!read_counts(table_o, table, 52, "table") || !read_counts(rack_o, rack, 52, "rack")) return 0;
    if (weights_o == Py_None) {
        for (int t = 0; t < 52; t++) value[t] = t % 13 + 1;
        value[52] = 30;
    } else {
        int wv[53];
        if (!read_counts(weights_o, wv, 53, "weights")) return 0;
        for (int t = 0; t < 53; t++) value[t] = wv[t];
    }
    if (jt < 0 || jr < 0) {
        PyErr_SetString(PyExc_ValueError, "jokers: expected counts of 0 or more");
        return 0;
    }
    if (cap < -1) {
        PyErr_SetString(PyExc_ValueError, "cap: expected a count of tiles, or -1 for none");
        return 0;
    }
    for (int t = 0; t < 52; t++)
        if (table[t] < 0 || rack[t] < 0) {
            PyErr_SetString(PyExc_ValueError, "tiles: expected counts of 0 or more");
            return 0;
        }
    return 1;
}

/* The programme for these inputs, at the rows' logical basis: 0, or 1
 * when a row holds tiles no free column can cover (no point fits) */
static int setup(LP *lp, const int *table, const int *rack, int jt, int jr, const double *value, int cap) {
    int jokers = jt + jr;
    double up[NTOT], cost[NTOT];
    for (int j = 0; j < NSHAPE; j++) {
        /* as often as each of its tiles is there (jokers standing in),
         * and as the numbered tiles it holds: every meld holds one */
        int u = 1 << 30, real = 0;
        for (int e = 0; e < col_n[j]; e++) {
            int t = col_r[j][e];
            int a = table[t] + rack[t] + jokers;
            if (a < u) u = a;
            real += table[t] + rack[t];
        }
        up[j] = u < real ? u : real;
        cost[j] = 0.0;
    }
    for (int t = 0; t < 52; t++) {
        up[NSHAPE + t] = rack[t];
        cost[NSHAPE + t] = BIG + value[t];
        up[NSHAPE + 52 + t] = jokers;
        cost[NSHAPE + 52 + t] = 0.0;
    }
    up[NSHAPE + 104] = jr;
    cost[NSHAPE + 104] = BIG + value[52];
    /* a tile with no copy on the table or the rack is a joker's wherever a
     * shape holds it: its row (sum of the shapes holding it = z_t) is
     * substituted into the jokers' row, where each shape then counts the
     * jokers its missing tiles need, and z_t leaves (its bound, at most
     * the jokers, is implied by the jokers' row). The programme is the
     * same; its basis is the tiles there are, not all 52 */
    int *empty = lp->empty;
    for (int t = 0; t < 52; t++) {
        empty[t] = table[t] + rack[t] == 0;
        if (empty[t]) up[NSHAPE + 52 + t] = 0;
    }
    int gn[NSTRUCT], gr[NSTRUCT][5];
    double gv[NSTRUCT][5];
    for (int j = 0; j < NSTRUCT; j++) {
        int n = 0, need = 0;
        for (int e = 0; e < col_n[j]; e++) {
            int t = col_r[j][e];
            if (j < NSHAPE && empty[t]) { need++; continue; }
            gr[j][n] = t;
            gv[j][n++] = col_v[j][e];
        }
        if (need) { gr[j][n] = 52; gv[j][n++] = need; }
        gn[j] = n;
    }
    /* the rows taken part: a free column touches them, or they hold tiles */
    int used[M];
    memset(used, 0, sizeof(used));
    for (int j = 0; j < NSTRUCT; j++)
        if (up[j] > 0)
            for (int e = 0; e < gn[j]; e++) used[gr[j][e]] = 1;
    /* the cap on the tiles played (jokers included) takes part when given */
    used[CAPROW] = cap >= 0;
    double brow[M];
    for (int t = 0; t < 52; t++) brow[t] = table[t];
    brow[52] = jt;
    brow[CAPROW] = cap >= 0 ? cap : 0;
    int m = 0;
    int infeasible = 0;
    for (int i = 0; i < M; i++) {
        if (used[i] || brow[i] != 0) {
            lp->row_of[i] = m;
            lp->b[m] = brow[i];
            if (!used[i]) infeasible = 1;
            m++;
        } else {
            lp->row_of[i] = -1;
        }
    }
    lp->m = m;
    lp->iters = 0;
    lp->since = 0;
    lp->iter_cap = MAX_ITER;
    lp->clock = 0;
    if (infeasible) return 1;
    for (int j = 0; j < NTOT; j++) {
        int n = 0;
        int nn = j < NSTRUCT ? gn[j] : col_n[j];
        for (int e = 0; e < nn; e++) {
            int r = lp->row_of[j < NSTRUCT ? gr[j][e] : col_r[j][e]];
            if (r < 0) continue;  /* (a row left out: only fixed columns touch it) */
            lp->crow[j][n] = r;
            lp->cv[j][n++] = j < NSTRUCT ? gv[j][e] : col_v[j][e];
        }
        lp->cn[j] = n;
    }
    int na = 0;
    for (int j = 0; j < NSTRUCT; j++) {
        lp->lo[j] = 0.0;
        lp->up[j] = up[j];
        lp->ctrue[j] = -cost[j];
        lp->x[j] = 0.0;
        if (up[j] > 0) {
            lp->act[na++] = j;
            /* at the bound the reduced cost points to (the prices start at 0) */
            double c = -cost[j];
            if (c < 0) {
                lp->c[j] = c - perturb[j];
                lp->state[j] = UP;
                lp->x[j] = up[j];
            } else {
                lp->c[j] = c + perturb[j];
                lp->state[j] = LOW;
            }
        } else {
            lp->state[j] = FIXED;
            lp->c[j] = -cost[j];
        }
    }
    for (int i = 0; i < M; i++) {
        int j = NSTRUCT + i;
        lp->lo[j] = 0.0;
        lp->up[j] = i == CAPROW && cap >= 0 ? cap : 0.0;
        up[j] = lp->up[j];
        lp->c[j] = lp->ctrue[j] = 0.0;
        lp->x[j] = 0.0;
        if (lp->row_of[i] >= 0) {
            lp->act[na++] = j;
            lp->state[j] = BASIC;
            lp->head[lp->row_of[i]] = j;
        } else {
            lp->state[j] = FIXED;
        }
    }
    lp->nact = na;
    int fill[M + 1];
    memset(fill, 0, sizeof(fill));
    for (int k = 0; k < na; k++) {
        int j = lp->act[k];
        for (int e = 0; e < lp->cn[j]; e++) fill[lp->crow[j][e] + 1]++;
    }
    for (int i = 0; i < m; i++) fill[i + 1] += fill[i];
    memcpy(lp->rc_beg, fill, sizeof(int) * (m + 1));
    for (int k = 0; k < na; k++) {
        int j = lp->act[k];
        lp->stamp[j] = -1;
        for (int e = 0; e < lp->cn[j]; e++) {
            int r = lp->crow[j][e];
            lp->rc_j[fill[r]] = j;
            lp->rc_v[fill[r]++] = lp->cv[j][e];
        }
    }
    /* the logical basis: B^-1 = I, the prices 0, so x_B = b - N x_N and
     * the reduced costs are the costs */
    for (int i = 0; i < m; i++) {
        memset(lp->Binv[i], 0, sizeof(double) * m);
        lp->Binv[i][i] = 1.0;
        lp->w[i] = 1.0;
        lp->x[lp->head[i]] = lp->b[i];
    }
    for (int k = 0; k < na; k++) {
        int j = lp->act[k];
        lp->d[j] = lp->state[j] == BASIC ? 0.0 : lp->c[j];
        if (lp->state[j] == UP)
            for (int e = 0; e < lp->cn[j]; e++) lp->x[lp->head[lp->crow[j][e]]] -= lp->cv[j][e] * lp->x[j];
    }
    return 0;
}

/* The programme of the inputs (read into table, rack and value, checked)
 * at its logical basis, in memory of its own; NULL with an exception set,
 * or with *none set when no point fits */
static LP *prepare(PyObject *table_o, PyObject *rack_o, int jt, int jr, PyObject *weights_o, int cap,
                   PyObject *start_o, int *table, int *rack, double *value, int *none) {
    *none = 0;
    if (!read_inputs(table_o, rack_o, jt, jr, weights_o, cap, start_o, table, rack, value)) return NULL;
    LP *lp = PyMem_Malloc(sizeof(LP));
    if (!lp) {
        PyErr_NoMemory();
        return NULL;
    }
    if (setup(lp, table, rack, jt, jr, value, cap)) {
        PyMem_Free(lp);
        *none = 1;
        return NULL;
    }
    memcpy(lp->in_table, table, sizeof lp->in_table);
    memcpy(lp->in_rack, rack, sizeof lp->in_rack);
    memcpy(lp->in_value, value, sizeof lp->in_value);
    lp->in_jt = jt;
    lp->in_jr = jr;
    lp->digest = programme_digest(lp, lp->up);
    return lp;
}

/* The last uncapped optimum solve() reached, kept as it stands (its
 * basis, point, reduced costs and weights) for the call that next starts
 * from its basis (the bytes it returned, by their digest) on the same
 * inputs: a capped solve or a branch and bound takes it over, the cap's
 * row added in place, with no setup and no basis to install. Any other
 * call sets up its programme and installs the basis from the bytes, as
 * before: the same numbers either way. (One slot for the process, read
 * and written only with the GIL held: a call of another thread in
 * between leaves its own optimum there, which the digest and the inputs
 * tell apart.) */
static LP *held;

static void hold(LP *lp) {
    if (held) PyMem_Free(held);
    held = lp;
}

/* the cap's row (at most cap tiles played, jokers included) added to an
 * optimal basis in place, as warm() adds it: its logical basic,
 * B^-1 = [[B0^-1, 0], [-r B0^-1, 1]] */
static void add_cap(LP *lp, int cap) {
    int m = lp->m, e = lp->rc_beg[m];
    lp->row_of[CAPROW] = m;
    lp->b[m] = cap;
    for (int k = 0; k < lp->nact; k++) {
        int j = lp->act[k];
        if (!((j >= NSHAPE && j < NSHAPE + 52) || j == NSHAPE + 104)) continue;
        lp->crow[j][lp->cn[j]] = m;
        lp->cv[j][lp->cn[j]++] = 1.0;
        lp->rc_j[e] = j;
        lp->rc_v[e++] = 1.0;
    }
    int sl = NSTRUCT + CAPROW;
    lp->lo[sl] = 0.0;
    lp->up[sl] = cap;
    lp->c[sl] = lp->ctrue[sl] = 0.0;
    lp->x[sl] = 0.0;
    lp->cn[sl] = 1;
    lp->crow[sl][0] = m;
    lp->cv[sl][0] = 1.0;
    lp->rc_j[e] = sl;
    lp->rc_v[e++] = 1.0;
    lp->rc_beg[m + 1] = e;
    lp->act[lp->nact++] = sl;
    lp->state[sl] = BASIC;
    lp->stamp[sl] = -1;
    double r[M];
    for (int i = 0; i < m; i++) {
        int j = lp->head[i];
        r[i] = (j >= NSHAPE && j < NSHAPE + 52) || j == NSHAPE + 104 ? 1.0 : 0.0;
        lp->Binv[i][m] = 0.0;
    }
    for (int c = 0; c < m; c++) {
        double v = 0.0;
        for (int i = 0; i < m; i++) v -= r[i] * lp->Binv[i][c];
        lp->Binv[m][c] = v;
    }
    lp->Binv[m][m] = 1.0;
    lp->head[m] = sl;
    lp->m = m + 1;
}

/* the held optimum when start is its basis and the inputs are its own
 * (taken: held is emptied), the cap's row added when cap >= 0; else NULL */
static LP *take_held(PyObject *start_o, const int *table, const int *rack, int jt, int jr,
                     const double *value, int cap) {
    if (!held || !PyBytes_Check(start_o) || PyBytes_GET_SIZE(start_o) < (Py_ssize_t)sizeof(Basis))
        return NULL;
    const Basis *bs = (const Basis *)PyBytes_AS_STRING(start_o);
    LP *lp = held;
    if (bs->digest != lp->digest || bs->m != lp->m || jt != lp->in_jt || jr != lp->in_jr ||
            memcmp(table, lp->in_table, sizeof lp->in_table) ||
            memcmp(rack, lp->in_rack, sizeof lp->in_rack) ||
            memcmp(value, lp->in_value, sizeof lp->in_value))
        return NULL;
    held = NULL;
    if (cap >= 0) add_cap(lp, cap);
    recompute(lp);
    lp->since = 0;
    lp->iters = 0;  /* (the pivots counted are this call's, as set up afresh) */
    lp->iter_cap = MAX_ITER;
    return lp;
}

static int warm(LP *lp, PyObject *start_o, unsigned long long digest, int cap);

/* the programme of the inputs, from the held optimum when start is its
 * basis, else set up afresh and started from start's basis when given
 * (with_start: always; else only with a cap); NULL as prepare() */
static LP *programme(PyObject *table_o, PyObject *rack_o, int jt, int jr, PyObject *weights_o, int cap,
                     PyObject *start_o, int with_start, int *table, int *rack, double *value,
                     int *none) {
    *none = 0;
    int use = start_o != Py_None && (with_start || cap >= 0);
    if (use && HOLD) {
        if (!read_inputs(table_o, rack_o, jt, jr, weights_o, cap, start_o, table, rack, value))
            return NULL;
        LP *lp = take_held(start_o, table, rack, jt, jr, value, cap);
        if (lp) return lp;
    }
    LP *lp = prepare(table_o, rack_o, jt, jr, weights_o, cap, start_o, table, rack, value, none);
    if (lp && use) warm(lp, start_o, lp->digest, cap);
    return lp;
}

/* The uncapped optimum's basis ``start`` (bytes from solve()) of the same
 * programme (its digest), installed: as it was, or, with a cap, the cap's
 * row added with its logical basic: B^-1 = [[B0^-1, 0], [-r B0^-1, 1]]
 * (r: the cap's coefficients of the basic columns); the prices, so the
 * reduced costs, do not change, so the basis stays dual feasible, and the
 * cap, where the optimum plays more, is what the simplex repairs. A basis
 * of another programme is not used (0). */
static int warm(LP *lp, PyObject *start_o, unsigned long long digest, int cap) {
    int m = lp->m, na = lp->nact;
    Py_ssize_t size = PyBytes_GET_SIZE(start_o);
    const Basis *bs = (const Basis *)PyBytes_AS_STRING(start_o);
    int m0 = cap >= 0 ? m - 1 : m;
    if (size != (Py_ssize_t)(sizeof(Basis) + sizeof(double) * m0 * m0) || bs->digest != digest ||
            bs->m != m0 || (cap >= 0 && lp->row_of[CAPROW] != m0))
        return 0;
    const double *b0 = (const double *)(PyBytes_AS_STRING(start_o) + sizeof(Basis));
    for (int k = 0; k < na; k++) {
        int j = lp->act[k];
        if (j == NSTRUCT + CAPROW) continue;
        lp->state[j] = bs->state[j];
        lp->x[j] = bs->state[j] == UP ? lp->up[j] : 0.0;
    }
    double r[M];
    for (int i = 0; i < m0; i++) {
        int j = lp->head[i] = bs->head[i];
        r[i] = 0.0;
        for (int e = 0; e < lp->cn[j]; e++)
            if (lp->crow[j][e] == m0) r[i] = lp->cv[j][e];
        memcpy(lp->Binv[i], b0 + (size_t)i * m0, sizeof(double) * m0);
        if (m0 < m) lp->Binv[i][m0] = 0.0;
    }
    if (m0 < m) {
        lp->head[m0] = NSTRUCT + CAPROW;
        for (int c = 0; c < m0; c++) {
            double v = 0.0;
            for (int i = 0; i < m0; i++) v -= r[i] * lp->Binv[i][c];
            lp->Binv[m0][c] = v;
        }
        lp->Binv[m0][m0] = 1.0;
    }
    recompute(lp);
    return 1;
}

/* The Lagrangian bound of the current basis's prices under the true costs
 * (maximised) and the columns' present bounds: valid for any prices */
/* the prices under the true costs: pi = -c_B B^-1, row by row of B^-1 over
 * the basic columns that cost (most hold a shape or a joker standing in,
 * at cost 0: their rows add nothing), each price summed in row order */
static void true_prices(const LP *lp, double *pi) {
    int m = lp->m;
    memset(pi, 0, sizeof(double) * m);
    for (int i = 0; i < m; i++) {
        double c = lp->ctrue[lp->head[i]];
        if (c == 0.0) continue;
        const double *bi = lp->Binv[i];
        for (int k = 0; k < m; k++) pi[k] -= c * bi[k];
    }
}

static double lagrangian(const LP *lp) {
    int m = lp->m;
    double pi[M];
    true_prices(lp, pi);
    double bound = 0.0;
    for (int i = 0; i < m; i++) bound += lp->b[i] * pi[i];
    for (int k = 0; k < lp->nact; k++) {
        int j = lp->act[k];
        /* (a logical: cost 0; only the cap's has room) */
        double red = -lp->ctrue[j] - col_dot(pi, lp, j);
        bound += red > 0 ? lp->up[j] * red : lp->lo[j] * red;
    }
    return bound;
}

/* The point in integers (each value rounded to the nearest), the jokers
 * standing in for the tiles substituted out read back from the shapes:
 * whether every value was integral */
static int point_of(const LP *lp, long *point) {
    int integral = 1;
    for (int j = 0; j < NSTRUCT; j++) {
        double v = lp->state[j] == FIXED ? lp->lo[j] : lp->x[j];
        double rv = nearbyint(v);
        if (fabs(v - rv) >= 1e-6) integral = 0;
        point[j] = (long)rv;
    }
    for (int j = 0; j < NSHAPE; j++)
        if (point[j])
            for (int e = 0; e < col_n[j]; e++)
                if (lp->empty[col_r[j][e]]) point[NSHAPE + 52 + col_r[j][e]] += point[j];
    return integral;
}

static PyObject *lp_solve(PyObject *self, PyObject *args) {
    PyObject *table_o, *rack_o, *weights_o = Py_None, *start_o = Py_None;
    int jt, jr, cap = -1;
    if (!PyArg_ParseTuple(args, "OOii|OiO", &table_o, &rack_o, &jt, &jr, &weights_o, &cap, &start_o))
        return NULL;
    int table[52], rack[52], none;
    double value[53];
    LP *lp = programme(table_o, rack_o, jt, jr, weights_o, cap, start_o, 0, table, rack, value, &none);
    if (!lp) return none ? Py_NewRef(Py_None) : NULL;
    PyObject *result = NULL;
    unsigned long long digest = lp->digest;
    int status = dual_simplex(lp);
    int m = lp->m;
    if (status != 0) {
        PyMem_Free(lp);
        Py_RETURN_NONE;
    }
    double bound = lagrangian(lp);
    long played[52], shapes[NSHAPE], point[NSTRUCT];
    int integral = point_of(lp, point);
    for (int j = 0; j < NSHAPE + 52; j++) {
        double v = lp->state[j] == FIXED ? 0.0 : lp->x[j];
        long fl = (long)floor(v + 1e-6);
        if (j < NSHAPE) shapes[j] = fl;
        else {
            int t = j - NSHAPE;
            played[t] = fl < rack[t] ? fl : rack[t];
        }
    }
    long jp = (long)floor(lp->x[NSHAPE + 104] + 1e-6);
    if (lp->state[NSHAPE + 104] == FIXED) jp = 0;
    if (jp > jr) jp = jr;
    PyObject *pl = list_of_ints(played, 52);
    PyObject *sh = pl ? list_of_ints(shapes, NSHAPE) : NULL;
    PyObject *pt = NULL, *lay = NULL;
    if (sh) {
        if (integral) {
            pt = list_of_ints(point, NSTRUCT);
            lay = pt ? layout_of(point, table, rack, jt, jr) : NULL;
        } else {
            pt = Py_None; Py_INCREF(pt);
            lay = Py_None; Py_INCREF(lay);
        }
    }
    PyObject *basis = NULL;
    if (pt && lay) {
        if (cap < 0) {
            /* the optimal basis, for a capped solve of the same programme */
            basis = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(sizeof(Basis) + sizeof(double) * m * m));
            if (basis) {
                Basis *bs = (Basis *)PyBytes_AS_STRING(basis);
                memset(bs, 0, sizeof(Basis));
                bs->digest = digest;
                bs->m = m;
                memcpy(bs->head, lp->head, sizeof(int) * m);
                for (int j = 0; j < NTOT; j++) bs->state[j] = (signed char)lp->state[j];
                double *b0 = (double *)(PyBytes_AS_STRING(basis) + sizeof(Basis));
                for (int i = 0; i < m; i++) memcpy(b0 + (size_t)i * m, lp->Binv[i], sizeof(double) * m);
            }
        } else {
            basis = Py_None;
            Py_INCREF(basis);
        }
    }
    if (basis) result = Py_BuildValue("(dNlNNiNN)", bound, pl, jp, sh, pt, lp->iters, lay, basis);
    else { Py_XDECREF(pl); Py_XDECREF(sh); Py_XDECREF(pt); Py_XDECREF(lay); }
    if (result && cap < 0 && HOLD) hold(lp);  /* (for the capped solve or the branch and bound after) */
    else PyMem_Free(lp);
    return result;
}

/* ------------------------------------------------------------------ */
/* Branch and bound on the programme: its integer points are the layouts
 * of the table and a play (a shape counted k times is k melds), but for
 * the rare one that lays a meld of jokers only, which the layout's check
 * refuses. Depth first from the optimum: the most fractional of the rack
 * tiles played and the rack jokers played is branched on, then of the
 * jokers standing in, then of the shapes, the side rounded up first; a
 * node whose Lagrangian bound (valid for any prices) cannot reach the
 * floor is cut; a child the dual simplex finds no point for is cut only
 * when the row it stopped at proves it (that row's combination of the
 * rows, over the columns' bounds, cannot meet its right-hand side),
 * else the search gives up. Each child starts from its parent's basis
 * (its changed bound repaired by the dual simplex). An integer point
 * whose layout the check accepts and that reaches the floor is the new
 * best: the floor rises above it. The nodes are counted, not timed. */

#define BB_DEPTH 96
#define BB_SLACK 1e-3
#ifndef BB_FIX
#define BB_FIX 1   /* reduced-cost fixing at each node */
#endif
#ifndef BB_KEEP
#define BB_KEEP 1  /* a child starts from its parent's point and reduced costs as they are (0: recomputed) */
#endif

typedef struct {
    LP *lp;
    const int *table, *rack;
    int jt, jr;
    const double *value;
    double floor;       /* a plan must score at least this */
    long nodes, limit;
    int status;         /* 0: searched through; 1: node limit; 2: gave up; 3: error */
    PyObject *best;     /* the best layout found, or NULL */
    long played[52], jp;
    double score;
} BB;

/* whether row r's combination of the rows (r of B^-1: any combination of
 * valid equalities is one) cannot be met by any point within the columns'
 * bounds */
static int proves_empty(const LP *lp, int r) {
    const double *rho = lp->Binv[r];
    double rhs = 0.0, lo = 0.0, hi = 0.0, mag = 0.0;
    for (int i = 0; i < lp->m; i++) rhs += rho[i] * lp->b[i];
    for (int k = 0; k < lp->nact; k++) {
        int j = lp->act[k];
        double a = col_dot(rho, lp, j);
        if (a > 0) { lo += a * lp->lo[j]; hi += a * lp->up[j]; }
        else { lo += a * lp->up[j]; hi += a * lp->lo[j]; }
        mag += fabs(a) * (lp->up[j] > 1.0 ? lp->up[j] : 1.0);
    }
    double tol = 1e-7 * (1.0 + mag + fabs(rhs));
    return hi < rhs - tol || lo > rhs + tol;
}

static void nonbasic_at_bounds(LP *lp) {
    for (int k = 0; k < lp->nact; k++) {
        int j = lp->act[k];
        if (lp->state[j] != BASIC) lp->x[j] = lp->state[j] == UP ? lp->up[j] : lp->lo[j];
    }
}

/* the column to branch on, or -1 when the point is integral */
static int branch_column(const LP *lp) {
    int best = -1, tier_best = 9;
    double frac_best = 0.0;
    for (int i = 0; i < lp->m; i++) {
        int j = lp->head[i];
        if (j >= NSTRUCT) continue;
        double v = lp->x[j], f = v - floor(v);
        if (f < 1e-6 || f > 1 - 1e-6) continue;
        int tier = j >= NSHAPE + 52 && j < NSHAPE + 104 ? 1 : j < NSHAPE ? 2 : 0;
        double dist = f < 0.5 ? f : 1 - f;
        if (tier < tier_best || (tier == tier_best && (dist > frac_best + 1e-12 ||
                (fabs(dist - frac_best) <= 1e-12 && j < best)))) {
            best = j; tier_best = tier; frac_best = dist;
        }
    }
    return best;
}

/* Reduced-cost fixing: with the prices of the node's basis (true costs),
 * a nonbasic column moved one unit off its bound costs the Lagrangian
 * bound its reduced cost; where that leaves less than the floor, no plan
 * in this subtree moves it, so it is fixed where it is (its old bounds
 * kept in ``was``, the columns in ``cols``): the count fixed. */
static int fix_by_reduced_cost(LP *lp, double bound, double floor_, int *cols, double (*was)[2]) {
    int n = 0;
    double pi[M];
    true_prices(lp, pi);
    double gap = bound - floor_ + BB_SLACK;
    for (int k = 0; k < lp->nact; k++) {
        int j = lp->act[k];
        int st = lp->state[j];
        if (j >= NSTRUCT || (st != LOW && st != UP) || lp->up[j] <= lp->lo[j]) continue;
        double red = -lp->ctrue[j] - col_dot(pi, lp, j);
        if ((st == LOW && -red > gap) || (st == UP && red > gap)) {
            cols[n] = j;
            was[n][0] = lp->lo[j];
            was[n][1] = lp->up[j];
            if (st == LOW) lp->up[j] = lp->lo[j];
            else lp->lo[j] = lp->up[j];
            lp->state[j] = FIXED;
            n++;
        }
    }
    return n;
}

static void bb_node(BB *s, int depth) {
    LP *lp = s->lp;
    double bound = lagrangian(lp);
    if (bound + BB_SLACK < s->floor) return;  /* nothing here reaches the floor */
    int j = branch_column(lp);
    if (j < 0) {
        long point[NSTRUCT];
        point_of(lp, point);
        PyObject *lay = layout_of(point, s->table, s->rack, s->jt, s->jr);
        if (!lay) { s->status = 3; return; }
        if (lay == Py_None) {  /* a meld of jokers only: not a layout */
            Py_DECREF(lay);
            s->status = 2;
            return;
        }
        double score = 0.0;
        for (int t = 0; t < 52; t++) score += point[NSHAPE + t] * (BIG + s->value[t]);
        score += point[NSHAPE + 104] * (BIG + s->value[52]);
        if (score >= s->floor) {
            Py_XDECREF(s->best);
            s->best = lay;
            for (int t = 0; t < 52; t++) s->played[t] = point[NSHAPE + t];
            s->jp = point[NSHAPE + 104];
            s->score = score;
            s->floor = score + 1;
        } else {
            Py_DECREF(lay);
        }
        return;
    }
    if (depth >= BB_DEPTH) { s->status = 2; return; }
    /* the parent's basis with its point, reduced costs and weights, to
     * start its second child from */
    int m = lp->m;
    size_t bsz = sizeof(double) * ((size_t)m * m + 2 * NTOT + M);
    double *binv = PyMem_Malloc(bsz + sizeof(int) * (M + NTOT) + (sizeof(int) + sizeof(double[2])) * NSTRUCT);
    if (!binv) { PyErr_NoMemory(); s->status = 3; return; }
    double *xs = binv + (size_t)m * m, *ds = xs + NTOT, *ws = ds + NTOT;
    double (*was)[2] = (double (*)[2])((char *)binv + bsz + sizeof(int) * (M + NTOT));
    int *fixed = (int *)(was + NSTRUCT);
    int nfixed = BB_FIX ? fix_by_reduced_cost(lp, bound, s->floor, fixed, was) : 0;
    int *head = (int *)((char *)binv + bsz), *state = head + M;
    for (int i = 0; i < m; i++) memcpy(binv + (size_t)i * m, lp->Binv[i], sizeof(double) * m);
    memcpy(head, lp->head, sizeof(int) * m);
    memcpy(state, lp->state, sizeof(int) * NTOT);
    memcpy(xs, lp->x, sizeof(double) * NTOT);
    memcpy(ds, lp->d, sizeof(double) * NTOT);
    memcpy(ws, lp->w, sizeof(double) * m);
    double v = lp->x[j], lo0 = lp->lo[j], up0 = lp->up[j];
    for (int side = 0; side < 2 && !s->status; side++) {
        if (s->nodes >= s->limit) { s->status = 1; break; }
        /* j is basic: a bound of it changed leaves B^-1, the point, the
         * prices and the weights as they are, the point infeasible in j's
         * row only, which the dual simplex repairs (no recompute) */
        if (side) {
            for (int i = 0; i < m; i++) memcpy(lp->Binv[i], binv + (size_t)i * m, sizeof(double) * m);
            memcpy(lp->head, head, sizeof(int) * m);
            memcpy(lp->state, state, sizeof(int) * NTOT);
            memcpy(lp->x, xs, sizeof(double) * NTOT);
            memcpy(lp->d, ds, sizeof(double) * NTOT);
            memcpy(lp->w, ws, sizeof(double) * m);
            lp->lo[j] = lo0;
            lp->up[j] = floor(v);
        } else {
            lp->lo[j] = ceil(v);
        }
        if (!BB_KEEP) {
            nonbasic_at_bounds(lp);
            recompute(lp);
        }
        lp->iter_cap = lp->iters + MAX_ITER;
        s->nodes++;
        int st = dual_simplex(lp);
        if (st == 0) bb_node(s, depth + 1);
        else if (st != 1 || !proves_empty(lp, lp->bad_row)) s->status = 2;
        lp->lo[j] = lo0;
        lp->up[j] = up0;
    }
    for (int k = 0; k < nfixed; k++) {
        lp->lo[fixed[k]] = was[k][0];
        lp->up[fixed[k]] = was[k][1];
    }
    PyMem_Free(binv);
}

PyDoc_STRVAR(branch_doc,
"branch(table, rack, jt, jr, weights, floor, limit, start=None, cap=-1) -> (status, nodes, layout, played, jokers_played, score) or None\n\n"
"Branch and bound on the programme of solve() (with cap >= 0: at most cap\n"
"tiles played, jokers included; a cap a bound proved is a cut) for a plan\n"
"scoring at least floor, up to limit nodes (each a dual simplex from its\n"
"parent's basis; the root from start, solve()'s uncapped basis, when\n"
"given, the cap's row added). status 0: searched\n"
"through, so the plan found is the best, or no plan reaches floor; 1: the\n"
"node limit was reached; 2: gave up (an integer point that is not a layout,\n"
"or a cut it could not prove). layout (melds as bound.integral_layout lays\n"
"them out), played (52 counts), jokers_played and score are the best plan\n"
"found scoring at least floor (else None, None, 0, 0). None when no point fits.");

static PyObject *lp_branch(PyObject *self, PyObject *args) {
    PyObject *table_o, *rack_o, *weights_o, *start_o = Py_None;
    int jt, jr, cap = -1;
    double floor_;
    long limit;
    if (!PyArg_ParseTuple(args, "OOiiOdl|Oi", &table_o, &rack_o, &jt, &jr, &weights_o, &floor_, &limit,
                          &start_o, &cap))
        return NULL;
    if (limit < 1) {
        PyErr_SetString(PyExc_ValueError, "limit: expected a count of nodes, 1 or more");
        return NULL;
    }
    int table[52], rack[52], none;
    double value[53];
    LP *lp = programme(table_o, rack_o, jt, jr, weights_o, cap, start_o, 1, table, rack, value, &none);
    if (!lp) return none ? Py_NewRef(Py_None) : NULL;
    BB s;
    memset(&s, 0, sizeof(s));
    s.lp = lp; s.table = table; s.rack = rack; s.jt = jt; s.jr = jr; s.value = value;
    s.floor = floor_; s.limit = limit; s.nodes = 1;
    int st = dual_simplex(lp);
    if (st == 1 && proves_empty(lp, lp->bad_row)) {
        PyMem_Free(lp);
        Py_RETURN_NONE;
    }
    if (st != 0) s.status = 2;
    else bb_node(&s, 0);
    PyMem_Free(lp);
    if (s.status == 3) {
        Py_XDECREF(s.best);
        return NULL;
    }
    if (!s.best)
        return Py_BuildValue("(ilOOii)", s.status, s.nodes, Py_None, Py_None, 0, 0);
    PyObject *pl = list_of_ints(s.played, 52);
    if (!pl) { Py_DECREF(s.best); return NULL; }
    return Py_BuildValue("(ilNNld)", s.status, s.nodes, s.best, pl, s.jp, s.score);
}

static PyObject *lp_shapes(PyObject *self, PyObject *unused) {
    PyObject *l = PyList_New(NSHAPE);
    if (!l) return NULL;
    for (int j = 0; j < NSHAPE; j++) {
        PyObject *t = PyTuple_New(col_n[j]);
        if (!t) { Py_DECREF(l); return NULL; }
        for (int e = 0; e < col_n[j]; e++) PyTuple_SET_ITEM(t, e, PyLong_FromLong(col_r[j][e]));
        PyList_SET_ITEM(l, j, t);
    }
    return l;
}

/* ------------------------------------------------------------------ */
/* A layout of the solved position laid in the original one */

PyDoc_STRVAR(lay_back_doc,
"lay_back(melds, played, order, mirrored) -> (melds, used)\n\n"
"A layout of the solved position (melds as slot tuples, the rack tiles\n"
"played as 52 counts) in the original one, where colour k of the solved\n"
"position is colour order[k] and, when mirrored, the numbers are reversed:\n"
"each meld's slots mapped back in canonical order as laid (a group's\n"
"sorted; a run's reversed when mirrored), and the rack tiles placed (52\n"
"counts). As core.LaidPlan.lay_out in Python.");

static PyObject *lp_lay_back(PyObject *self, PyObject *args) {
    PyObject *melds_o, *played_o, *order_o;
    int mirrored;
    if (!PyArg_ParseTuple(args, "OOOp", &melds_o, &played_o, &order_o, &mirrored)) return NULL;
    int order[4], played[52], seen = 0;
    if (!read_counts(order_o, order, 4, "order") || !read_counts(played_o, played, 52, "played"))
        return NULL;
    for (int t = 0; t < 52; t++)
        if (played[t] < 0) {
            PyErr_SetString(PyExc_ValueError, "played: expected counts of 0 or more");
            return NULL;
        }
    for (int k = 0; k < 4; k++) {
        if (order[k] < 0 || order[k] > 3 || seen >> order[k] & 1) {
            PyErr_SetString(PyExc_ValueError, "order: expected the colours 0-3, each once");
            return NULL;
        }
        seen |= 1 << order[k];
    }
    /* per slot code of the solved position, the original's (52: no slot) */
    int back[GROUP_JOKER + 13];
    for (int k = 0; k < 4; k++)
        for (int n = 0; n < 13; n++) back[k * 13 + n] = order[k] * 13 + (mirrored ? 12 - n : n);
    back[52] = 52;
    for (int x = 0; x < 52; x++) back[RUN_JOKER + x] = RUN_JOKER + back[x];
    for (int n = 0; n < 13; n++) back[GROUP_JOKER + n] = GROUP_JOKER + (mirrored ? 12 - n : n);
    PyObject *fast = PySequence_Fast(melds_o, "melds: expected a list of slot tuples");
    if (!fast) return NULL;
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(fast);
    PyObject *out = PyList_New(nm);
    if (!out) { Py_DECREF(fast); return NULL; }
    for (Py_ssize_t i = 0; i < nm; i++) {
        PyObject *mf = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, i), "melds: expected slot tuples");
        if (!mf) goto fail;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(mf);
        int m[16], top = -1;
        long mapped[16];
        if (len < 2 || len > 16) {
            Py_DECREF(mf);
            PyErr_SetString(PyExc_ValueError, "melds: a meld of 2 to 16 slots expected");
            goto fail;
        }
        for (Py_ssize_t e = 0; e < len; e++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(mf, e));
            if (v == -1 && PyErr_Occurred()) { Py_DECREF(mf); goto fail; }
            if (v < 0 || v >= GROUP_JOKER + 13) {
                Py_DECREF(mf);
                PyErr_SetString(PyExc_ValueError, "melds: a slot code 0-117 expected");
                goto fail;
            }
            m[e] = (int)v;
            mapped[e] = back[v];
            if (m[e] > top) top = m[e];
        }
        Py_DECREF(mf);
        int group = top >= GROUP_JOKER || (m[0] < 52 && m[1] < 52 && m[0] % 13 == m[1] % 13);
        if (group) {  /* by colour, jokers last */
            for (Py_ssize_t a = 1; a < len; a++)
                for (Py_ssize_t b = a; b > 0 && mapped[b] < mapped[b - 1]; b--) {
                    long t = mapped[b]; mapped[b] = mapped[b - 1]; mapped[b - 1] = t;
                }
        } else if (mirrored) {  /* a run by number, which the reversal reversed */
            for (Py_ssize_t a = 0, b = len - 1; a < b; a++, b--) {
                long t = mapped[a]; mapped[a] = mapped[b]; mapped[b] = t;
            }
        }
        PyObject *t = ints_as(1, mapped, len);
        if (!t) goto fail;
        PyList_SET_ITEM(out, i, t);
    }
    Py_DECREF(fast);
    long used[52] = {0};
    for (int code = 0; code < 52; code++) used[back[code]] += played[code];
    PyObject *ul = list_of_ints(used, 52);
    if (!ul) { Py_DECREF(out); return NULL; }
    return Py_BuildValue("(NN)", out, ul);
fail:
    Py_DECREF(fast);
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"solve", lp_solve, METH_VARARGS, solve_doc},
    {"branch", lp_branch, METH_VARARGS, branch_doc},
    {"shapes", lp_shapes, METH_NOARGS, "The meld shapes, as bound.SHAPES (each a tuple of tile codes)."},
    {"lay_back", lp_lay_back, METH_VARARGS, lay_back_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_lp",
    "The meld cover's linear relaxation by a dual simplex (engine.solver.bound).", -1, methods,
};

PyMODINIT_FUNC PyInit__lp(void) {
    init_columns();
    PyObject *mod = PyModule_Create(&module);
    if (!mod) return NULL;
    if (PyModule_AddStringConstant(mod, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
