/* The programme's layers in C: the inner loop of engine/solver/dp.py's
 * Pass (the pass without an initial-meld threshold), state for state and
 * in the same order, so that it finds the same plan as dp.py does.
 *
 * dp.py stays the source of truth: this kernel is the hot part of
 * Pass.step (the colour steps, the close of a number, the dominance filter
 * and the narrow pass's cut), Pass.result (the walk back), Pass.cap_tiles
 * and the depth-first search of dp.feasible, over the
 * same packed keys, the same insertion order (a Python dict's: a key
 * updated keeps its place) and the same stable sorts. Everything else -
 * the per-colour option lists, the run multisets, their dominance and
 * whether they can close - it asks dp.py for, through the callables it is
 * given, and remembers. engine/solver/build.py compiles it beside the
 * mypyc build; engine/solver/compiled.py uses it only while its digest
 * matches (this file and dp.py). tests/engine/test_solver_kernel.py
 * requires the same plans, work and witnesses with and without it.
 *
 * Size: one file because it is one extension module, and its parts share
 * what makes them agree with dp.py: the key layout, the option lists
 * converted once for the process, what is known of run multisets (Facts),
 * and the digest the build checks.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

typedef unsigned __int128 u128;
typedef int64_t i64;

/* the key layout of dp.py (_SHIFT, _MASK8, _CAP_SHIFT, _J_SHIFT, ...) */
#define MASK12 0xFFFu
#define CAP_SHIFT 48
#define J_SHIFT 51
#define G_SHIFT 55
#define Y_SHIFT 59
#define BIG ((i64)1 << 16)
#define NMS 4096

static const int SHIFT[4] = {0, 12, 24, 36};

static inline unsigned field(u128 k, int sh, unsigned mask) { return (unsigned)(k >> sh) & mask; }

/* ------------------------------------------------------------------ */
/* a layer: entries in insertion order, with a hash index while it grows */

typedef struct {
    u128 key;
    i64 score;
    int32_t parent; /* index in the layer before */
    int32_t g, jg;  /* the close of a number: groups and their jokers */
    PyObject *opt;  /* a colour step: the option taken (borrowed: the lists hold it) */
} Entry;

typedef struct {
    Entry *e;
    Py_ssize_t n, cap;
    int32_t *slots; /* index + 1; 0 empty */
    Py_ssize_t nslots;
} Layer;

static void layer_free(Layer *l) {
    free(l->e);
    free(l->slots);
    memset(l, 0, sizeof *l);
}

static inline uint64_t hash_key(u128 k) {
    uint64_t x = (uint64_t)k ^ ((uint64_t)(k >> 64) * 0x9E3779B97F4A7C15ull);
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 32;
    return x;
}

static int layer_grow_slots(Layer *l) {
    Py_ssize_t ns = l->nslots ? l->nslots * 2 : 64;
    int32_t *s = calloc((size_t)ns, sizeof *s);
    if (!s) return -1;
    for (Py_ssize_t i = 0; i < l->n; i++) {
        uint64_t h = hash_key(l->e[i].key) & (uint64_t)(ns - 1);
        while (s[h]) h = (h + 1) & (uint64_t)(ns - 1);
        s[h] = (int32_t)(i + 1);
    }
    free(l->slots);
    l->slots = s;
    l->nslots = ns;
    return 0;
}

static int layer_reserve(Layer *l, Py_ssize_t want) {
    if (want <= l->cap) return 0;
    Py_ssize_t c = l->cap ? l->cap * 2 : 64;
    while (c < want) c *= 2;
    Entry *e = realloc(l->e, (size_t)c * sizeof *e);
    if (!e) return -1;
    l->e = e;
    l->cap = c;
    return 0;
}

/* dict semantics of dp.py: `old = nxt.get(k); if old is None or old[0] < sc:
 * nxt[k] = (sc, parent, opt)` (an update keeps the key's place) */
static int layer_offer(Layer *l, u128 key, i64 sc, int32_t parent, PyObject *opt, int32_t g, int32_t jg) {
    if ((l->n + 1) * 2 > l->nslots && layer_grow_slots(l) < 0) return -1;
    uint64_t mask = (uint64_t)(l->nslots - 1);
    uint64_t h = hash_key(key) & mask;
    int32_t s;
    while ((s = l->slots[h]) != 0) {
        Entry *x = &l->e[s - 1];
        if (x->key == key) {
            if (x->score < sc) {
                x->score = sc;
                x->parent = parent;
                x->opt = opt;
                x->g = g;
                x->jg = jg;
            }
            return 0;
        }
        h = (h + 1) & mask;
    }
    if (layer_reserve(l, l->n + 1) < 0) return -1;
    Entry *x = &l->e[l->n];
    x->key = key;
    x->score = sc;
    x->parent = parent;
    x->opt = opt;
    x->g = g;
    x->jg = jg;
    l->n++;
    l->slots[h] = (int32_t)l->n;
    return 0;
}

/* ------------------------------------------------------------------ */
/* a map of non-zero 32-bit keys to values (open addressing) */

typedef struct {
    uint32_t key; /* 0: empty */
    intptr_t val;
} U32Slot;

typedef struct {
    U32Slot *slots; /* a key beside its value: one cache line a probe */
    Py_ssize_t n, cap;
} U32Map;

static inline uint64_t u32_slot(uint32_t key, Py_ssize_t cap) {
    return (key * 0x9E3779B1u) & (uint64_t)(cap - 1);
}

/* 1 and *out set when the key is there, else 0 */
static inline int u32_get(const U32Map *m, uint32_t key, intptr_t *out) {
    if (!m->cap) return 0;
    const U32Slot *t = m->slots;
    for (uint64_t h = u32_slot(key, m->cap); t[h].key; h = (h + 1) & (uint64_t)(m->cap - 1)) {
        if (t[h].key == key) {
            *out = t[h].val;
            return 1;
        }
    }
    return 0;
}

/* a key not there yet; -1 (MemoryError set) when the table cannot grow */
static int u32_put(U32Map *m, uint32_t key, intptr_t val) {
    if ((m->n + 1) * 2 > m->cap) {
        Py_ssize_t nc = m->cap ? m->cap * 2 : 256;
        U32Slot *nt = calloc((size_t)nc, sizeof *nt);
        if (!nt) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t j = 0; j < m->cap; j++) {
            if (!m->slots[j].key) continue;
            uint64_t h = u32_slot(m->slots[j].key, nc);
            while (nt[h].key) h = (h + 1) & (uint64_t)(nc - 1);
            nt[h] = m->slots[j];
        }
        free(m->slots);
        m->slots = nt;
        m->cap = nc;
    }
    uint64_t h = u32_slot(key, m->cap);
    while (m->slots[h].key) h = (h + 1) & (uint64_t)(m->cap - 1);
    m->slots[h].key = key;
    m->slots[h].val = val;
    m->n++;
    return 0;
}

static void u32_free(U32Map *m) {
    free(m->slots);
    memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------------ */
/* what dp.py knows of run multisets, remembered (one per dp module: the
 * ids are that module's) */

struct Conv;
static void conv_release(struct Conv *cv);

typedef struct {
    PyObject_HEAD
    PyObject *dominates; /* ms_dominates(i, j) */
    PyObject *closable;  /* closable_at_end(i) */
    PyObject *ms_list;   /* dp.MS_LIST: each multiset's run kinds (may be NULL) */
    uint8_t *dom;        /* NMS * NMS: 0 not asked, 1 no, 2 yes */
    /* per multiset, what jokers_ahead reads of its runs: 0 not read, else
     * 1 << 31 | the counts of N1, N2, NG and of strict runs of length 1, 2
     * and 3, four bits each (see ahead_profile) */
    uint32_t ahead[NMS];
    int8_t close[NMS];   /* 0 not asked, 1 no, 2 yes */
    /* colour_options(msid, a, b, jcap, mode, lim) converted (Conv *), by those packed */
    U32Map colours;
} Facts;

static void facts_clear_colours(Facts *f) {
    for (Py_ssize_t i = 0; i < f->colours.cap; i++)
        if (f->colours.slots[i].key) conv_release((struct Conv *)f->colours.slots[i].val);
    u32_free(&f->colours);
}

static void facts_dealloc(Facts *f) {
    Py_XDECREF(f->dominates);
    Py_XDECREF(f->closable);
    Py_XDECREF(f->ms_list);
    free(f->dom);
    facts_clear_colours(f);
    Py_TYPE(f)->tp_free((PyObject *)f);
}

static int facts_init(Facts *f, PyObject *args, PyObject *kw) {
    PyObject *d, *c, *ms = NULL;
    if (!PyArg_ParseTuple(args, "OO|O", &d, &c, &ms)) return -1;
    if (ms && !PyList_Check(ms)) {
        PyErr_SetString(PyExc_TypeError, "ms_list must be a list");
        return -1;
    }
    Py_INCREF(d);
    Py_INCREF(c);
    Py_XINCREF(ms);
    Py_XSETREF(f->dominates, d);
    Py_XSETREF(f->closable, c);
    Py_XSETREF(f->ms_list, ms);
    memset(f->ahead, 0, sizeof f->ahead);
    if (!f->dom) {
        f->dom = calloc((size_t)NMS * NMS, 1);
        if (!f->dom) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static int ask_bool(PyObject *fn, unsigned i, unsigned j, int two) {
    PyObject *r = two ? PyObject_CallFunction(fn, "II", i, j) : PyObject_CallFunction(fn, "I", i);
    if (!r) return -1;
    int t = PyObject_IsTrue(r);
    Py_DECREF(r);
    return t;
}

/* whether multiset i dominates j; -1 on error */
static inline int dominates(Facts *f, unsigned i, unsigned j) {
    uint8_t v = f->dom[(size_t)i * NMS + j];
    if (v) return v - 1;
    int t = ask_bool(f->dominates, i, j, 1);
    if (t < 0) return -1;
    f->dom[(size_t)i * NMS + j] = (uint8_t)(t + 1);
    return t;
}

static inline int closable(Facts *f, unsigned i) {
    int8_t v = f->close[i];
    if (v) return v - 1;
    int t = ask_bool(f->closable, i, 0, 0);
    if (t < 0) return -1;
    f->close[i] = (int8_t)(t + 1);
    return t;
}

/* dp.py's run kinds (N1 .. NG) and transition modes */
enum { K_N1 = 1, K_N2, K_N3, K_F1, K_F2, K_F3, K_P1, K_P2, K_P3, K_NG };
enum { M_GENERAL = 0, M_LAZY = 1, M_LAZY_LOW = 2 };

/* what dp.jokers_ahead reads of multiset i's runs (see Facts.ahead), read
 * off dp.MS_LIST once; 0 (an error set) where it cannot be */
static uint32_t ahead_profile(Facts *f, unsigned i) {
    uint32_t v = f->ahead[i];
    if (v) return v;
    PyObject *ms = f->ms_list && (Py_ssize_t)i < PyList_GET_SIZE(f->ms_list)
                       ? PyList_GET_ITEM(f->ms_list, i) : NULL;
    if (!ms || !PyTuple_Check(ms)) {
        PyErr_Format(PyExc_ValueError, "multiset %u is not in ms_list", i);
        return 0;
    }
    unsigned cnt[6] = {0};
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(ms); k++) {
        long kind = PyLong_AsLong(PyTuple_GET_ITEM(ms, k));
        int slot;
        switch (kind) {
            case K_N3: continue; /* closed: needs nothing */
            case K_N1: slot = 0; break;
            case K_N2: slot = 1; break;
            case K_NG: slot = 2; break;
            case K_F1: case K_P1: slot = 3; break;
            case K_F2: case K_P2: slot = 4; break;
            case K_F3: case K_P3: slot = 5; break;
            default: slot = -1;
        }
        if (slot < 0 || ++cnt[slot] > 15) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "multiset %u: a run kind the kernel cannot read", i);
            return 0;
        }
    }
    v = 1u << 31;
    for (int k = 0; k < 6; k++) v |= cnt[k] << (4 * k);
    f->ahead[i] = v;
    return v;
}

/* dp.jokers_ahead: the fewest jokers the open runs of a multiset (its
 * profile) need after number index n, avail the colour's tiles per
 * number: a run of one tile needs the next two numbers, of two the next,
 * one ending in a gap joker a numbered tile at the next, one with jokers
 * below (strict) every number up to 13; 99 where a run cannot be ended */
static int jokers_ahead(uint32_t prof, const int *avail, int n) {
    int n1 = prof & 15, n2 = prof >> 4 & 15, ng = prof >> 8 & 15;
    int s1 = prof >> 12 & 15, s2 = prof >> 16 & 15, s3 = prof >> 20 & 15;
    if (((ng || n2 || s2) && n + 1 > 12) || ((n1 || s1) && n + 2 > 12) || (s3 && n > 12))
        return 99;
    if (n < 12 && ng > avail[n + 1]) return 99;
    int strict = s1 + s2 + s3, need = 0;
    for (int t = n + 1; t <= 12; t++) {
        int d = strict - avail[t];
        if (t == n + 1) d += n1 + n2 + ng;
        else if (t == n + 2) d += n1;
        if (d > 0) need += d;
    }
    return need;
}

static PyTypeObject FactsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.solver._dpk.Facts",
    .tp_basicsize = sizeof(Facts),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)facts_init,
    .tp_dealloc = (destructor)facts_dealloc,
    .tp_doc = "ms_dominates and closable_at_end of one dp module, remembered",
};

/* ------------------------------------------------------------------ */
/* option lists, converted once per Python tuple for the whole process:
 * the pass's (nm, jy, y, u, setcap, opt, yj) lists (dp.Pass.option_list)
 * and colour_options' (new, y, j, u, recipe) lists (the search's). The
 * tuples live in dp.py's caches; a converted block holds a reference to
 * its tuple (so the address is never reused) and is counted by every
 * cache that points to it. */

typedef struct {
    int nm, y, j, u, setcap, yj;
    u128 jy;
    PyObject *opt;
} Opt;

typedef struct Conv {
    Py_ssize_t refs;
    int n, kind;
    PyObject *src;
    Opt o[]; /* (in the same block: the list follows its header) */
} Conv;

static void conv_release(Conv *cv) {
    if (--cv->refs) return;
    Py_DECREF(cv->src);
    free(cv);
}

static int as_u128(PyObject *x, u128 *out) {
    /* a non-negative int below 2 ** 128 */
    unsigned char b[16];
    if (!PyLong_Check(x)) {
        PyErr_SetString(PyExc_TypeError, "expected an int");
        return -1;
    }
    if (_PyLong_AsByteArray((PyLongObject *)x, b, 16, 1, 0) < 0) return -1;
    u128 v = 0;
    for (int i = 15; i >= 0; i--) v = v << 8 | b[i];
    *out = v;
    return 0;
}

static PyObject *from_u128(u128 v) {
    unsigned char b[16];
    for (int i = 0; i < 16; i++) {
        b[i] = (unsigned char)v;
        v >>= 8;
    }
    return _PyLong_FromByteArray(b, 16, 1, 0);
}

/* kind 7: the pass's lists; kind 5: colour_options' */
static Conv *convert_list(PyObject *tup, int kind) {
    if (!PyTuple_Check(tup)) {
        PyErr_SetString(PyExc_TypeError, "an option list must be a tuple");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(tup);
    Conv *cv = calloc(1, sizeof *cv + (size_t)(n ? n : 1) * sizeof(Opt));
    if (!cv) {
        PyErr_NoMemory();
        return NULL;
    }
    Opt *o = cv->o;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *t = PyTuple_GET_ITEM(tup, i);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != kind) {
            PyErr_Format(PyExc_TypeError, "an option must be a %d-tuple", kind);
            break;
        }
        o[i].nm = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
        o[i].y = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, kind == 7 ? 2 : 1));
        o[i].u = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 3));
        if (kind == 7) {
            if (as_u128(PyTuple_GET_ITEM(t, 1), &o[i].jy) < 0) break;
            o[i].setcap = PyObject_IsTrue(PyTuple_GET_ITEM(t, 4));
            o[i].opt = PyTuple_GET_ITEM(t, 5);
            o[i].yj = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 6));
        } else {
            o[i].j = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 2));
            o[i].opt = t;
        }
    }
    if (PyErr_Occurred()) {
        free(cv);
        return NULL;
    }
    Py_INCREF(tup);
    cv->refs = 1;
    cv->n = (int)n;
    cv->kind = kind;
    cv->src = tup;
    return cv;
}

/* the process's table of converted lists, by tuple */
static Conv **conv_tab;
static Py_ssize_t conv_n, conv_cap;
#define CONV_MAX 60000 /* more: the table is emptied (the blocks in use stay) */

static inline uint64_t ptr_hash(const void *p, int kind) {
    uint64_t x = (uint64_t)(uintptr_t)p ^ (uint64_t)kind;
    x *= 0x9E3779B97F4A7C15ull;
    return x ^ (x >> 31);
}

/* the converted block of a tuple (counted for the caller) */
static Conv *conv_get(PyObject *tup, int kind) {
    if (conv_cap) {
        uint64_t m = (uint64_t)conv_cap - 1, h = ptr_hash(tup, kind) & m;
        Conv *cv;
        while ((cv = conv_tab[h]) != NULL) {
            if (cv->src == tup && cv->kind == kind) {
                cv->refs++;
                return cv;
            }
            h = (h + 1) & m;
        }
    }
    if (conv_n >= CONV_MAX) {
        for (Py_ssize_t i = 0; i < conv_cap; i++)
            if (conv_tab[i]) conv_release(conv_tab[i]);
        memset(conv_tab, 0, (size_t)conv_cap * sizeof *conv_tab);
        conv_n = 0;
    }
    if ((conv_n + 1) * 2 > conv_cap) {
        Py_ssize_t nc = conv_cap ? conv_cap * 2 : 1024;
        Conv **t = calloc((size_t)nc, sizeof *t);
        if (!t) {
            PyErr_NoMemory();
            return NULL;
        }
        for (Py_ssize_t i = 0; i < conv_cap; i++) {
            Conv *cv = conv_tab[i];
            if (!cv) continue;
            uint64_t h = ptr_hash(cv->src, cv->kind) & (uint64_t)(nc - 1);
            while (t[h]) h = (h + 1) & (uint64_t)(nc - 1);
            t[h] = cv;
        }
        free(conv_tab);
        conv_tab = t;
        conv_cap = nc;
    }
    Conv *cv = convert_list(tup, kind);
    if (!cv) return NULL;
    uint64_t m = (uint64_t)conv_cap - 1, h = ptr_hash(tup, kind) & m;
    while (conv_tab[h]) h = (h + 1) & m;
    conv_tab[h] = cv; /* the table's count */
    conv_n++;
    cv->refs++;       /* the caller's */
    return cv;
}

/* per pass or search: (slot, lk) -> the list (Conv *, counted) */
static void optcache_free(U32Map *c) {
    for (Py_ssize_t i = 0; i < c->cap; i++)
        if (c->slots[i].key) conv_release((Conv *)c->slots[i].val);
    u32_free(c);
}

static inline Conv *optcache_get(const U32Map *c, uint32_t key) {
    intptr_t v;
    return u32_get(c, key, &v) ? (Conv *)v : NULL;
}

/* ------------------------------------------------------------------ */
/* the pass */

typedef struct {
    Layer in;       /* the states entering the number (src: index in the last number's done) */
    Layer st[4];    /* per colour (n == 0: the colour was passed over) */
    int has[4];
    Layer done;     /* the number closed */
} Number;

typedef struct {
    PyObject_HEAD
    int table[52], rack[52], lims[52];
    i64 rest[52];
    int later[13][4];
    i64 weights[53];
    int has_weights;
    int jtot, jt, beam, lazy, full, lazy_mode;
    i64 budget; /* -1: none */
    int has_budget;
    u128 full_cap;
    i64 cand_total, joker_value;
    int placed_cand;
    int prune, prune_min, prune_width, wide_prune;
    i64 *tops[52];
    int ntops[52];
    PyObject *provider; /* during a step only (borrowed): the Pass's option_list; holding
                           it longer would make a reference cycle with the Pass */
    PyObject *empty_opt, *limit_exc, *plan_cls;
    PyObject *opt_lists; /* dp.Pass.opt_lists: the position's lists, 52 dicts */
    Facts *facts;
    U32Map opts;
    Number num[13];
    int nnum;       /* numbers taken */
    Layer cur;      /* the states after the last number taken */
} Kernel;

static void number_free(Number *x) {
    layer_free(&x->in);
    for (int c = 0; c < 4; c++) layer_free(&x->st[c]);
    layer_free(&x->done);
}

static void kernel_dealloc(Kernel *k) {
    for (int i = 0; i < 13; i++) number_free(&k->num[i]);
    layer_free(&k->cur);
    for (int i = 0; i < 52; i++) free(k->tops[i]);
    optcache_free(&k->opts);
    Py_XDECREF(k->empty_opt);
    Py_XDECREF(k->limit_exc);
    Py_XDECREF(k->plan_cls);
    Py_XDECREF(k->opt_lists);
    Py_XDECREF(k->facts);
    Py_TYPE(k)->tp_free((PyObject *)k);
}

static int int_list(PyObject *seq, int n, i64 *out) {
    PyObject *f = PySequence_Fast(seq, "expected a list");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != n) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "expected %d values", n);
        return -1;
    }
    for (int i = 0; i < n; i++) out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(f, i));
    Py_DECREF(f);
    return PyErr_Occurred() ? -1 : 0;
}

/* the 52 counts of a position's lists (table, rack, lims, ...) and its
 * 13 x 4 "later" rows (dp._later), as ints */
static int read_position(PyObject **lists, int **into, int count, PyObject *later, int rows[13][4]) {
    i64 buf[52];
    for (int a = 0; a < count; a++) {
        if (int_list(lists[a], 52, buf) < 0) return -1;
        for (int i = 0; i < 52; i++) into[a][i] = (int)buf[i];
    }
    PyObject *lf = PySequence_Fast(later, "later: expected a list");
    if (!lf) return -1;
    if (PySequence_Fast_GET_SIZE(lf) != 13) {
        Py_DECREF(lf);
        PyErr_SetString(PyExc_ValueError, "later: expected 13 rows");
        return -1;
    }
    for (int n = 0; n < 13; n++) {
        if (int_list(PySequence_Fast_GET_ITEM(lf, n), 4, buf) < 0) {
            Py_DECREF(lf);
            return -1;
        }
        for (int c = 0; c < 4; c++) rows[n][c] = (int)buf[c];
    }
    Py_DECREF(lf);
    return 0;
}

static int kernel_init(Kernel *k, PyObject *args, PyObject *kw) {
    PyObject *table, *rack, *lims, *rest, *later, *weights, *budget, *full_cap, *prune;
    PyObject *empty_opt, *limit_exc, *plan_cls, *facts, *opt_lists;
    long long cand_total, joker_value;
    int jtot, jt, beam, lazy, full, lazy_mode;
    if (!PyArg_ParseTuple(args, "OOOOOOOiiiiiiOLLOOOOOO", &table, &rack, &lims, &rest, &later,
                          &weights, &budget, &jtot, &jt, &beam, &lazy, &full, &lazy_mode,
                          &full_cap, &cand_total, &joker_value, &prune, &empty_opt,
                          &limit_exc, &plan_cls, &facts, &opt_lists))
        return -1;
    if (!PyList_Check(opt_lists) || PyList_GET_SIZE(opt_lists) != 52) {
        PyErr_SetString(PyExc_TypeError, "opt_lists must be a list of 52 dicts");
        return -1;
    }
    Py_INCREF(opt_lists);
    Py_XSETREF(k->opt_lists, opt_lists);
    if (!PyObject_TypeCheck(facts, &FactsType)) {
        PyErr_SetString(PyExc_TypeError, "facts must be a Facts");
        return -1;
    }
    PyObject *lists[3] = {table, rack, lims};
    int *into[3] = {k->table, k->rack, k->lims};
    if (read_position(lists, into, 3, later, k->later) < 0) return -1;
    if (int_list(rest, 52, k->rest) < 0) return -1;
    k->has_weights = weights != Py_None;
    if (k->has_weights && int_list(weights, 53, k->weights) < 0) return -1;
    k->has_budget = budget != Py_None;
    k->budget = k->has_budget ? PyLong_AsLongLong(budget) : -1;
    if (PyErr_Occurred()) return -1;
    if (as_u128(full_cap, &k->full_cap) < 0) return -1;
    if (!PyArg_ParseTuple(prune, "iiii", &k->prune, &k->prune_min, &k->prune_width, &k->wide_prune))
        return -1;
    k->jtot = jtot;
    k->jt = jt;
    k->beam = beam;
    k->lazy = lazy;
    k->full = full;
    k->lazy_mode = lazy_mode;
    k->cand_total = cand_total;
    k->joker_value = joker_value;
    Py_INCREF(empty_opt);
    Py_XSETREF(k->empty_opt, empty_opt);
    Py_INCREF(limit_exc);
    Py_XSETREF(k->limit_exc, limit_exc);
    Py_INCREF(plan_cls);
    Py_XSETREF(k->plan_cls, plan_cls);
    Py_INCREF(facts);
    Py_XSETREF(k->facts, (Facts *)facts);
    layer_free(&k->cur);
    if (layer_offer(&k->cur, 0, 0, -1, NULL, 0, 0) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* cap_tiles(): tops[i][m], the m most valuable candidates after position i
 * (number-major, colour-minor; jokers included), as dp.Pass.cap_tiles */
static PyObject *kernel_cap_tiles(Kernel *k, PyObject *noargs) {
    int most = k->jtot - k->jt;
    for (int i = 0; i < 52; i++) most += k->rack[i];
    i64 *vals = malloc((size_t)(most + 1) * sizeof *vals); /* sorted, largest first */
    if (!vals) return PyErr_NoMemory();
    int nv = 0;
    for (int j = 0; j < k->jtot - k->jt; j++) vals[nv++] = BIG + k->joker_value;
    for (int n = 12; n >= 0; n--) {
        for (int c = 3; c >= 0; c--) {
            i64 *t = malloc((size_t)(nv + 1) * sizeof *t);
            if (!t) {
                free(vals);
                return PyErr_NoMemory();
            }
            t[0] = 0;
            for (int m = 0; m < nv; m++) t[m + 1] = t[m] + vals[m];
            free(k->tops[n * 4 + c]);
            k->tops[n * 4 + c] = t;
            k->ntops[n * 4 + c] = nv + 1;
            int i = c * 13 + n;
            i64 v = BIG + (k->has_weights ? k->weights[i] : n + 1);
            for (int r = 0; r < k->rack[i]; r++) {
                int at = nv++;
                while (at > 0 && vals[at - 1] < v) {
                    vals[at] = vals[at - 1];
                    at--;
                }
                vals[at] = v;
            }
        }
    }
    free(vals);
    Py_RETURN_NONE;
}

static inline i64 order_key(const Entry *e) {
    /* dp.py's sort key: -score << 4 | jokers used */
    return -e->score * 16 + (i64)field(e->key, J_SHIFT, 0xF);
}

/* the layer qsort is sorting (the kernel holds the GIL throughout: one sort at a time) */
static const Entry *sort_base;

static int by_order(const void *a, const void *b) {
    int32_t i = *(const int32_t *)a, j = *(const int32_t *)b;
    i64 x = order_key(&sort_base[i]), y = order_key(&sort_base[j]);
    if (x != y) return x < y ? -1 : 1;
    return i < j ? -1 : (i > j);  /* stable */
}

/* the indices of a layer in dp.py's sorted order (score down, jokers up, then as laid) */
static int32_t *sorted_order(const Layer *l) {
    int32_t *ix = malloc((size_t)(l->n ? l->n : 1) * sizeof *ix);
    if (!ix) return NULL;
    for (Py_ssize_t i = 0; i < l->n; i++) ix[i] = (int32_t)i;
    sort_base = l->e;
    qsort(ix, (size_t)l->n, sizeof *ix, by_order);
    return ix;
}

/* a new layer of the entries at ix[0..m) of src, in that order */
static int take(const Layer *src, const int32_t *ix, Py_ssize_t m, Layer *out, int as_src) {
    memset(out, 0, sizeof *out);
    if (layer_reserve(out, m ? m : 1) < 0) return -1;
    for (Py_ssize_t i = 0; i < m; i++) {
        out->e[i] = src->e[ix[i]];
        if (as_src) out->e[i].parent = ix[i];
    }
    out->n = m;
    return 0;
}

/* the narrow pass's cut of a colour step (dp._best): the beam best, sorted */
static int best_of(Layer *l, int beam) {
    int32_t *ix = sorted_order(l);
    if (!ix) return -1;
    Layer out;
    if (take(l, ix, beam, &out, 0) < 0) {
        free(ix);
        return -1;
    }
    free(ix);
    layer_free(l);
    *l = out;
    return 0;
}

/* ---- dominance (dp._prune, dp._prune_wide) over a closed number ---- */

typedef struct {
    unsigned m;
    uint64_t *bits;
    int *doms; /* the present values it dominates, once kept (-1: not yet) */
    int ndoms;
} Present;

typedef struct {
    Present *p;
    int n, cap;
    int index[NMS > 128 ? NMS : 128];  /* value -> position + 1 */
} PresentSet;

static int present_add(PresentSet *s, unsigned m, Py_ssize_t words) {
    if (s->index[m]) return 0;
    if (s->n == s->cap) {
        int c = s->cap ? s->cap * 2 : 16;
        Present *p = realloc(s->p, (size_t)c * sizeof *p);
        if (!p) return -1;
        s->p = p;
        s->cap = c;
    }
    Present *x = &s->p[s->n];
    x->m = m;
    x->bits = calloc((size_t)words, sizeof(uint64_t));
    x->doms = NULL;
    x->ndoms = -1;
    if (!x->bits) return -1;
    s->index[m] = ++s->n;
    return 0;
}

static void presentset_free(PresentSet *s) {
    for (int i = 0; i < s->n; i++) {
        free(s->p[i].bits);
        free(s->p[i].doms);
    }
    free(s->p);
}

/* wide: every state compared with every state kept, through bit sets */
static int prune_wide(Kernel *k, const Layer *l, const int32_t *ix, Py_ssize_t n,
                      int32_t *keep, Py_ssize_t *nkeep) {
    Py_ssize_t words = (n + 63) / 64;
    PresentSet *ps = calloc(5, sizeof *ps);
    if (!ps) return -1;
    int rc = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        u128 key = l->e[ix[i]].key;
        for (int c = 0; c < 4; c++)
            if (present_add(&ps[c], field(key, SHIFT[c], MASK12), words) < 0) goto out;
        if (present_add(&ps[4], field(key, CAP_SHIFT, 0x7F), words) < 0) goto out;
    }
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        u128 key = l->e[ix[i]].key;
        Present *q[5];
        for (int c = 0; c < 4; c++) q[c] = &ps[c].p[ps[c].index[field(key, SHIFT[c], MASK12)] - 1];
        q[4] = &ps[4].p[ps[4].index[field(key, CAP_SHIFT, 0x7F)] - 1];
        Py_ssize_t upto = (kept + 63) / 64;
        int dom = 0;
        for (Py_ssize_t w = 0; w < upto; w++) {
            if (q[0]->bits[w] & q[1]->bits[w] & q[2]->bits[w] & q[3]->bits[w] & q[4]->bits[w]) {
                dom = 1;
                break;
            }
        }
        if (dom) continue;
        keep[(*nkeep)++] = ix[i];
        uint64_t bit = (uint64_t)1 << (kept & 63);
        Py_ssize_t word = kept / 64;
        for (int c = 0; c < 5; c++) {
            Present *x = q[c];
            if (x->ndoms < 0) {
                x->doms = malloc((size_t)ps[c].n * sizeof(int));
                if (!x->doms) goto out;
                x->ndoms = 0;
                for (int y = 0; y < ps[c].n; y++) {
                    unsigned ym = ps[c].p[y].m;
                    int d;
                    if (c < 4) {
                        d = dominates(k->facts, x->m, ym);
                        if (d < 0) goto out;
                    } else {
                        int jn = (int)(x->m >> 3), cp = (int)(x->m & 7);
                        d = (jn == (int)(ym >> 3) && cp >= (int)(ym & 7)) ||
                            (jn <= (int)(ym >> 3) && cp == k->full);
                    }
                    if (d) x->doms[x->ndoms++] = y;
                }
            }
            for (int y = 0; y < x->ndoms; y++) ps[c].p[x->doms[y]].bits[word] |= bit;
        }
        kept++;
    }
    rc = 0;
out:
    for (int c = 0; c < 5; c++) presentset_free(&ps[c]);
    free(ps);
    if (rc < 0 && !PyErr_Occurred()) PyErr_NoMemory();
    return rc;
}

typedef struct {
    unsigned m[4];
    int cp, jn;
} Kept;

/* the states of a closed number that no other dominates (dp._prune), in
 * the order dp.py keeps them; the result's parent is the index in l */
static int prune(Kernel *k, const Layer *l, Layer *out) {
    int32_t *ix = sorted_order(l);
    int32_t *keep = malloc((size_t)(l->n ? l->n : 1) * sizeof *keep);
    Kept *kept = NULL;
    Py_ssize_t nkeep = 0;
    int rc = -1;
    if (!ix || !keep) goto out;
    if (l->n > k->wide_prune) {
        if (prune_wide(k, l, ix, l->n, keep, &nkeep) < 0) goto out;
    } else {
        kept = malloc((size_t)(k->prune_width > 0 ? k->prune_width : 1) * sizeof *kept);
        if (!kept) goto out;
        int nk = 0;
        for (Py_ssize_t i = 0; i < l->n; i++) {
            u128 key = l->e[ix[i]].key;
            unsigned m[4];
            for (int c = 0; c < 4; c++) m[c] = field(key, SHIFT[c], MASK12);
            int cp = (int)field(key, CAP_SHIFT, 7), jn = (int)field(key, J_SHIFT, 0xF);
            int dom = 0;
            for (int j = 0; j < nk && !dom; j++) {
                Kept *q = &kept[j];
                if (!((q->jn == jn && q->cp >= cp) || (q->jn <= jn && q->cp == k->full))) continue;
                int all = 1;
                for (int c = 0; c < 4 && all; c++) {
                    if (q->m[c] == m[c]) continue;
                    int d = dominates(k->facts, q->m[c], m[c]);
                    if (d < 0) goto out;
                    all = d;
                }
                dom = all;
            }
            if (dom) continue;
            if (nk < k->prune_width) {
                memcpy(kept[nk].m, m, sizeof m);
                kept[nk].cp = cp;
                kept[nk].jn = jn;
                nk++;
            }
            keep[nkeep++] = ix[i];
        }
    }
    rc = take(l, keep, nkeep, out, 1);
out:
    free(ix);
    free(keep);
    free(kept);
    if (rc < 0 && !PyErr_Occurred()) PyErr_NoMemory();
    return rc;
}

/* ---- one number ---- */

static Conv *options(Kernel *k, int n, int c, unsigned msid, int jleft) {
    uint32_t key = ((uint32_t)(n * 4 + c) << 16 | msid << 4 | (uint32_t)jleft) + 1;
    Conv *got = optcache_get(&k->opts, key);
    if (got) return got;
    /* the position's lists (dp.Pass.opt_lists), else the pass makes it */
    PyObject *t = NULL, *lk = PyLong_FromUnsignedLong(msid << 4 | (unsigned)jleft);
    if (!lk) return NULL;
    PyObject *local = PyList_GET_ITEM(k->opt_lists, n * 4 + c);
    if (PyDict_Check(local)) {
        t = PyDict_GetItemWithError(local, lk);
        Py_XINCREF(t);
    }
    Py_DECREF(lk);
    if (!t) {
        if (PyErr_Occurred()) return NULL;
        t = PyObject_CallFunction(k->provider, "iiIi", n, c, msid, jleft);
        if (!t) return NULL;
    }
    got = conv_get(t, 7);
    Py_DECREF(t);
    if (!got) return NULL;
    if (u32_put(&k->opts, key, (intptr_t)got) < 0) {
        conv_release(got);
        return NULL;
    }
    return got;
}

/* the budget as the pass holds it now (core may lower it between numbers) */
static int set_budget(Kernel *k, PyObject *budget) {
    k->has_budget = budget != Py_None;
    k->budget = k->has_budget ? PyLong_AsLongLong(budget) : -1;
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *step(Kernel *k, int mode, i64 floor_, int cap, i64 limit, i64 work);

/* step(mode, floor, cap, limit, work, budget, option_list) -> (any state left, work) */
static PyObject *kernel_step(Kernel *k, PyObject *args) {
    int mode;
    long long floor_, limit, work;
    int cap;
    PyObject *budget, *provider;
    if (!PyArg_ParseTuple(args, "iLiLLOO", &mode, &floor_, &cap, &limit, &work, &budget, &provider))
        return NULL;
    if (set_budget(k, budget) < 0) return NULL;
    k->provider = provider;
    PyObject *got = step(k, mode, floor_, cap, limit, work);
    k->provider = NULL;
    return got;
}

static PyObject *step(Kernel *k, int mode, i64 floor_, int cap, i64 limit, i64 work) {
    int n = k->nnum;
    if (n >= 13) {
        PyErr_SetString(PyExc_RuntimeError, "every number is taken");
        return NULL;
    }
    Number *num = &k->num[n];
    number_free(num);
    num->in = k->cur;
    memset(&k->cur, 0, sizeof k->cur);
    int number = n + 1, jtot = k->jtot;
    int cand_before = k->placed_cand;
    Layer *prev = &num->in;
    for (int c = 0; c < 4; c++) {
        int i = c * 13 + n;
        i64 gain_unit = BIG + (k->has_weights ? k->weights[i] : number);
        int a = k->table[i], b = k->rack[i], lim = k->lims[i];
        cand_before += b;
        int sh = SHIFT[c];
        int idle = !a && !b && (mode == k->lazy_mode || !jtot || !(lim & 2));
        num->has[c] = 0;
        if (idle) {
            int open = 0;
            for (Py_ssize_t s = 0; s < prev->n && !open; s++) open = field(prev->e[s].key, sh, MASK12) != 0;
            if (!open) continue;
        }
        u128 clear = ~((u128)MASK12 << sh);
        Layer *nxt = &num->st[c];
        num->has[c] = 1;
        i64 min_sc = k->has_budget ? ((i64)cand_before - k->budget) * 65536 : -1;
        const i64 *topl = NULL;
        int ntop = 0;
        if (floor_) {
            i64 f = floor_ - k->rest[n * 4 + c];
            if (f > min_sc) min_sc = f;
            if (cap) {
                topl = k->tops[n * 4 + c];
                ntop = k->ntops[n * 4 + c];
            }
        }
        int later = k->later[n][c];
        for (Py_ssize_t s = 0; s < prev->n; s++) {
            const Entry *st = &prev->e[s];
            u128 key = st->key;
            i64 score = st->score;
            unsigned msid = field(key, sh, MASK12);
            if (idle && !msid) {
                if (layer_offer(nxt, key, score, (int32_t)s, k->empty_opt, 0, 0) < 0) goto nomem;
                continue;
            }
            int jleft = jtot - (int)field(key, J_SHIFT, 0xF);
            int ymax = (int)field(key, G_SHIFT, 0xF);
            int room = (int)field(key, Y_SHIFT, 0x3F) + later + jleft;
            u128 base = key & clear;
            Conv *lst = options(k, n, c, msid, jleft);
            if (!lst) goto fail;
            for (int j = 0; j < lst->n; j++) {
                const Opt *o = &lst->o[j];
                i64 sc = score + (i64)o->u * gain_unit;
                if (sc < min_sc) break;
                if (cap) {
                    i64 m = (i64)cap - (sc >> 16);
                    if (m < ntop && (m < 0 || sc + topl[m] < floor_)) continue;
                }
                if (3 * (o->y > ymax ? o->y : ymax) > room + o->yj) continue;
                u128 k2 = base + ((u128)o->nm << sh) + o->jy;
                if (o->y > ymax) k2 += (u128)(o->y - ymax) << G_SHIFT;
                if (o->setcap) k2 = (k2 & ~((u128)7 << CAP_SHIFT)) | k->full_cap;
                if (layer_offer(nxt, k2, sc, (int32_t)s, o->opt, 0, 0) < 0) goto nomem;
            }
        }
        if (k->beam && nxt->n > k->beam && best_of(nxt, k->beam) < 0) goto nomem;
        work += nxt->n + prev->n;
        if (limit && work > limit) {
            PyErr_SetNone(k->limit_exc);
            goto fail;
        }
        free(nxt->slots);
        nxt->slots = NULL;
        nxt->nslots = 0;
        prev = nxt;
    }
    /* close the number: groups and their jokers */
    Layer *done = &num->done;
    for (Py_ssize_t s = 0; s < prev->n; s++) {
        const Entry *st = &prev->e[s];
        u128 key = st->key;
        i64 score = st->score;
        int jused = (int)field(key, J_SHIFT, 0xF);
        int ymax = (int)field(key, G_SHIFT, 0xF);
        int total_y = (int)field(key, Y_SHIFT, 0x3F);
        u128 base = key & (((u128)1 << J_SHIFT) - 1);
        if (total_y == 0) {
            if (layer_offer(done, base | (u128)jused << J_SHIFT, score, (int32_t)s, NULL, 0, 0) < 0) goto nomem;
            continue;
        }
        int jleft = jtot - jused;
        if (k->lazy) {
            int capj = (int)field(key, CAP_SHIFT, 7);
            int g0 = (total_y + 3) / 4;
            for (int g = ymax > g0 ? ymax : g0; g <= total_y; g++) {
                int jg = 3 * g - total_y, g3;
                if (jg > jleft) break;
                if (jg < 0) {
                    jg = 0;
                    g3 = 4 * g - total_y;
                } else {
                    g3 = g;
                }
                int cap2 = capj + g3 < jtot ? capj + g3 : jtot;
                u128 k2 = (base & ~((u128)7 << CAP_SHIFT)) | (u128)cap2 << CAP_SHIFT | (u128)(jused + jg) << J_SHIFT;
                if (layer_offer(done, k2, score, (int32_t)s, NULL, g, jg) < 0) goto nomem;
            }
            continue;
        }
        for (int jg = 0; jg <= jleft; jg++) {
            int t = total_y + jg;
            int g_lo = (t + 3) / 4;
            if (ymax > g_lo) g_lo = ymax;
            int g_hi = t / 3 < total_y ? t / 3 : total_y;
            if (g_lo > g_hi) continue;
            if (layer_offer(done, base | (u128)(jused + jg) << J_SHIFT, score, (int32_t)s, NULL, g_lo, jg) < 0)
                goto nomem;
        }
    }
    free(done->slots);
    done->slots = NULL;
    done->nslots = 0;
    /* the states kept for the next number (src: index in done) */
    Layer cur;
    if (k->prune && done->n > k->prune_min) {
        if (prune(k, done, &cur) < 0) goto fail;
    } else {
        int32_t *ix = malloc((size_t)(done->n ? done->n : 1) * sizeof *ix);
        if (!ix) goto nomem;
        for (Py_ssize_t i = 0; i < done->n; i++) ix[i] = (int32_t)i;
        int rc = take(done, ix, done->n, &cur, 1);
        free(ix);
        if (rc < 0) goto nomem;
    }
    if (k->beam && cur.n > k->beam) {
        int32_t *ix = sorted_order(&cur);
        Layer cut;
        if (!ix || take(&cur, ix, k->beam, &cut, 0) < 0) {
            free(ix);
            layer_free(&cur);
            goto nomem;
        }
        free(ix);
        layer_free(&cur);
        cur = cut;
    }
    k->cur = cur;
    k->placed_cand = cand_before;
    k->nnum = n + 1;
    return Py_BuildValue("(OL)", cur.n ? Py_True : Py_False, (long long)work);
nomem:
    PyErr_NoMemory();
fail:
    /* as dp.py: a step that fails leaves the pass where it was */
    k->cur = num->in;
    memset(&num->in, 0, sizeof num->in);
    number_free(num);
    return NULL;
}

/* result(budget) -> Plan or None (dp.Pass.result) */
static PyObject *kernel_result(Kernel *k, PyObject *budget) {
    if (set_budget(k, budget) < 0) return NULL;
    if (k->nnum != 13) {
        PyErr_SetString(PyExc_RuntimeError, "the numbers are not all taken");
        return NULL;
    }
    const Layer *cur = &k->cur;
    Py_ssize_t best_i = -1;
    i64 best = 0;
    int best_surplus = 0;
    for (Py_ssize_t i = 0; i < cur->n; i++) {
        u128 key = cur->e[i].key;
        i64 score = cur->e[i].score;
        int ok = 1;
        for (int c = 0; c < 4 && ok; c++) {
            int t = closable(k->facts, field(key, SHIFT[c], MASK12));
            if (t < 0) return NULL;
            ok = t;
        }
        if (!ok) continue;
        int jused = (int)field(key, J_SHIFT, 0xF), surplus = 0;
        if (k->lazy) {
            int room = (int)field(key, CAP_SHIFT, 7);
            surplus = k->jtot - jused < room ? k->jtot - jused : room;
        }
        if (jused + surplus < k->jt) continue;
        int placed_j = jused + surplus - k->jt;
        if (k->has_budget && k->cand_total - (score >> 16) - placed_j > k->budget) continue;
        i64 total = score + placed_j * (BIG + k->joker_value);
        if (best_i < 0 || total > best) {
            best = total;
            best_i = i;
            best_surplus = surplus;
        }
    }
    if (best_i < 0) Py_RETURN_NONE;
    u128 best_key = cur->e[best_i].key;
    PyObject *steps = PyList_New(13);
    if (!steps) return NULL;
    Py_ssize_t at = cur->e[best_i].parent; /* index in number 12's done */
    for (int n = 12; n >= 0; n--) {
        const Number *num = &k->num[n];
        const Entry *d = &num->done.e[at];
        int g = d->g, jg = d->jg;
        at = d->parent;
        PyObject *per = PyList_New(4);
        if (!per) goto fail;
        for (int c = 3; c >= 0; c--) {
            PyObject *item;
            if (!num->has[c]) {
                item = Py_BuildValue("(Oi)", k->empty_opt, 0);
            } else {
                const Entry *e = &num->st[c].e[at];
                /* the state before: in the colour before, or entering the number */
                const Layer *before = &num->in;
                for (int b = c - 1; b >= 0; b--) {
                    if (num->has[b]) {
                        before = &num->st[b];
                        break;
                    }
                }
                at = e->parent;
                item = Py_BuildValue("(OI)", e->opt, field(before->e[at].key, SHIFT[c], MASK12));
            }
            if (!item) {
                Py_DECREF(per);
                goto fail;
            }
            PyList_SET_ITEM(per, c, item);
        }
        PyObject *one = Py_BuildValue("(iiN)", g, jg, per);
        if (!one) goto fail;
        PyList_SET_ITEM(steps, n, one);
        at = num->in.e[at].parent; /* index in the number before's done */
    }
    PyObject *score = PyLong_FromLongLong(best);
    PyObject *used = PyLong_FromLong((long)field(best_key, J_SHIFT, 0xF) + best_surplus);
    PyObject *plan = NULL;
    if (score && used)
        plan = PyObject_CallFunction(k->plan_cls, "OOOiO", score, used, steps, best_surplus,
                                     k->lazy ? Py_True : Py_False);
    Py_XDECREF(score);
    Py_XDECREF(used);
    Py_DECREF(steps);
    return plan;
fail:
    Py_DECREF(steps);
    return NULL;
}

static PyMethodDef kernel_methods[] = {
    {"step", (PyCFunction)kernel_step, METH_VARARGS,
     "step(mode, floor, cap, limit, work, budget, option_list) -> (bool, work)"},
    {"result", (PyCFunction)kernel_result, METH_O, "result(budget): the best plan, or None"},
    {"cap_tiles", (PyCFunction)kernel_cap_tiles, METH_NOARGS, "the tops of dp.Pass.cap_tiles"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.solver._dpk.Kernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)kernel_init,
    .tp_dealloc = (destructor)kernel_dealloc,
    .tp_methods = kernel_methods,
    .tp_doc = "the layers of one pass of dp.Pass (no initial-meld threshold)",
};


/* ------------------------------------------------------------------ */
/* the depth-first search of dp.feasible (dp._DepthFirst.rec), step for
 * step: the same options in the same order, the same dead states and
 * failed ones, the same visits counted, the same path */

typedef struct {
    u128 key;    /* the state; 0 with tag 0: empty */
    uint16_t tag; /* n << 3 | c, + 1 */
    int slack;
} Dead;

typedef struct {
    unsigned m[4];
    int jn, cp, slack;
} Failed;

typedef struct {
    PyObject_HEAD
    int table[52], rack[52], lims[52], idle[52];
    int avail[4][13]; /* per colour and number index: table + rack */
    int later[13][4];
    int jt, jtot, lazy, fullv, dominance, want_path;
    u128 full_cap;
    long long limit, visits;
    int modes[13];
    PyObject *colour_cache, *colour_options;
    PyObject *empty_opt, *limit_exc, *path;
    Facts *facts;
    U32Map lists;
    Dead *dead;
    Py_ssize_t ndead, capdead;
    Failed *failed[14];
    int nfailed[14], capfailed[14];
} Search;

static void search_dealloc(Search *x) {
    optcache_free(&x->lists);
    free(x->dead);
    for (int i = 0; i < 14; i++) free(x->failed[i]);
    Py_XDECREF(x->empty_opt);
    Py_XDECREF(x->limit_exc);
    Py_XDECREF(x->path);
    Py_XDECREF(x->facts);
    Py_XDECREF(x->colour_cache);
    Py_XDECREF(x->colour_options);
    Py_TYPE(x)->tp_free((PyObject *)x);
}

/* what dp._DepthFirst derives from the position, derived here: the
 * limits (dp.limits), the group room after each colour (dp._later), the
 * modes (dp.mode_at), the idle codes */
static void search_derive(Search *x) {
    int jtot = x->jtot, have[52], present[13];
    for (int i = 0; i < 52; i++) {
        have[i] = x->table[i] || x->rack[i];
        x->avail[i / 13][i % 13] = x->table[i] + x->rack[i];
    }
    for (int n = 0; n < 13; n++) {
        present[n] = have[n] + have[13 + n] + have[26 + n] + have[39 + n];
        x->modes[n] = !x->lazy ? M_GENERAL : n == 10 ? M_LAZY_LOW : M_LAZY;
    }
    for (int c = 0; c < 4; c++) {
        const int *row = &have[c * 13];
        int win[15] = {0}; /* win[s + 2]: places s, s + 1, s + 2 lack no more than the jokers */
        for (int s = 0; s < 11; s++) win[s + 2] = 3 - row[s] - row[s + 1] - row[s + 2] <= jtot;
        for (int n = 0; n < 13; n++) {
            int lim = present[n] - row[n] + jtot >= 2 ? 1 : 0;
            if (win[n] || win[n + 1] || win[n + 2]) lim |= 2;
            x->lims[c * 13 + n] = lim;
        }
    }
    for (int n = 0; n < 13; n++) {
        int acc = 0;
        for (int c = 3; c >= 0; c--) {
            x->later[n][c] = acc;
            int i = c * 13 + n;
            if (x->lims[i] & 1) acc += x->table[i] + x->rack[i];
        }
    }
    for (int i = 0; i < 52; i++)
        x->idle[i] = !x->table[i] && !x->rack[i] &&
                     (x->modes[i % 13] == M_LAZY || !jtot || !(x->lims[i] & 2));
}

/* a search of table + rack (52 counts each) with jt + jr jokers; -1 with
 * an exception set */
static int search_fill(Search *x, const int *table, const int *rack, int jt, int jr, long long limit,
                       int dominance, PyObject *facts, PyObject *colour_cache,
                       PyObject *colour_options, PyObject *empty_opt, PyObject *limit_exc) {
    if (!PyDict_Check(colour_cache)) {
        PyErr_SetString(PyExc_TypeError, "the colour cache must be a dict");
        return -1;
    }
    if (!PyObject_TypeCheck(facts, &FactsType) || !((Facts *)facts)->ms_list) {
        PyErr_SetString(PyExc_TypeError, "facts must be a Facts with the ms_list");
        return -1;
    }
    if (jt < 0 || jr < 0 || jt + jr > 15) {
        PyErr_SetString(PyExc_ValueError, "jokers: 0 to 15 in all");
        return -1;
    }
    for (int i = 0; i < 52; i++) {
        if (table[i] < 0 || table[i] > 63 || rack[i] < 0 || rack[i] > 63) {
            PyErr_SetString(PyExc_ValueError, "counts: 0 to 63 a tile");
            return -1;
        }
        x->table[i] = table[i];
        x->rack[i] = rack[i];
    }
    x->jt = jt;
    x->dominance = dominance;
    x->jtot = jt + jr;
    x->lazy = x->jtot > 0;
    int full = x->jtot < 7 ? x->jtot : 7;
    x->full_cap = (u128)full << CAP_SHIFT;
    x->fullv = x->lazy ? full : -1;
    x->limit = limit;
    x->visits = 0;
    search_derive(x);
    PyObject *keep[5] = {colour_cache, colour_options, empty_opt, limit_exc, facts};
    PyObject **held[5] = {&x->colour_cache, &x->colour_options, &x->empty_opt, &x->limit_exc,
                          (PyObject **)&x->facts};
    for (int i = 0; i < 5; i++) {
        Py_INCREF(keep[i]);
        Py_XSETREF(*held[i], keep[i]);
    }
    return 0;
}

static int search_init(Search *x, PyObject *args, PyObject *kw) {
    PyObject *table, *rack, *empty_opt, *limit_exc, *facts, *colour_cache, *colour_options;
    int jt, jr, dominance;
    long long limit;
    if (!PyArg_ParseTuple(args, "OOiiLiOOOOO", &table, &rack, &jt, &jr, &limit, &dominance, &facts,
                          &colour_cache, &colour_options, &empty_opt, &limit_exc))
        return -1;
    i64 buf[52];
    int counts[2][52];
    PyObject *lists[2] = {table, rack};
    for (int a = 0; a < 2; a++) {
        if (int_list(lists[a], 52, buf) < 0) return -1;
        for (int i = 0; i < 52; i++)  /* (out of range: -1, which search_fill refuses) */
            counts[a][i] = buf[i] < 0 || buf[i] > 63 ? -1 : (int)buf[i];
    }
    return search_fill(x, counts[0], counts[1], jt, jr, limit, dominance, facts, colour_cache,
                       colour_options, empty_opt, limit_exc);
}

/* colour_options(msid, a, b, jleft, mode, lim) as rec takes them: from
 * the search's cache, else the module's (Facts), else dp._COLOUR_CACHE,
 * else colour_options itself */
static Conv *dfs_options(Search *x, int n, int c, unsigned msid, int jleft) {
    uint32_t key = ((uint32_t)(n * 4 + c) << 16 | msid << 4 | (uint32_t)jleft) + 1;
    Conv *got = optcache_get(&x->lists, key);
    if (got) return got;
    int i = c * 13 + n;
    int a = x->table[i], b = x->rack[i], mode = x->modes[n], lim = x->lims[i];
    Facts *f = x->facts;
    uint32_t ck = 0;
    if (a < 8 && b < 8 && jleft < 16 && mode < 4 && lim < 4) {
        ck = ((((msid << 3 | (uint32_t)a) << 3 | (uint32_t)b) << 4 | (uint32_t)jleft) << 2 | (uint32_t)mode) << 2
             | (uint32_t)lim;
        ck += 1;
        intptr_t v;
        if (u32_get(&f->colours, ck, &v)) {
            got = (Conv *)v;
            got->refs++;
            goto found;
        }
    }
    {
        PyObject *k = Py_BuildValue("(Iiiiii)", msid, a, b, jleft, mode, lim);
        if (!k) return NULL;
        PyObject *t = PyDict_GetItemWithError(x->colour_cache, k);
        Py_XINCREF(t);
        Py_DECREF(k);
        if (!t) {
            if (PyErr_Occurred()) return NULL;
            t = PyObject_CallFunction(x->colour_options, "Iiiiii", msid, a, b, jleft, mode, lim);
            if (!t) return NULL;
        }
        got = conv_get(t, 5);
        Py_DECREF(t);
        if (!got) return NULL;
        if (ck) {
            if (f->colours.n >= 200000) facts_clear_colours(f);
            if (u32_put(&f->colours, ck, (intptr_t)got) < 0) {
                conv_release(got);
                return NULL;
            }
            got->refs++; /* the module's count */
        }
    }
found:
    if (u32_put(&x->lists, key, (intptr_t)got) < 0) {
        conv_release(got);
        return NULL;
    }
    return got;
}

/* the jokers the open runs of multiset nm of colour c need after number
 * index n (dp.jokers_ahead); -1 on error */
static inline int need_ahead(Search *x, unsigned nm, int c, int n) {
    if (!nm) return 0;
    uint32_t prof = ahead_profile(x->facts, nm);
    return prof ? jokers_ahead(prof, x->avail[c], n) : -1;
}

static inline uint64_t dead_hash(u128 key, uint16_t tag) {
    return hash_key(key ^ ((u128)tag << 70));
}

/* the slack a state failed with before (-1: never) */
static int dead_get(Search *x, u128 key, int n, int c) {
    if (!x->capdead) return -1;
    uint16_t tag = (uint16_t)((n << 3 | c) + 1);
    uint64_t m = (uint64_t)x->capdead - 1, h = dead_hash(key, tag) & m;
    while (x->dead[h].tag) {
        if (x->dead[h].tag == tag && x->dead[h].key == key) return x->dead[h].slack;
        h = (h + 1) & m;
    }
    return -1;
}

static int dead_set(Search *x, u128 key, int n, int c, int slack) {
    uint16_t tag = (uint16_t)((n << 3 | c) + 1);
    if ((x->ndead + 1) * 2 > x->capdead) {
        Py_ssize_t nc = x->capdead ? x->capdead * 2 : 256;
        Dead *nt = calloc((size_t)nc, sizeof *nt);
        if (!nt) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t i = 0; i < x->capdead; i++) {
            if (!x->dead[i].tag) continue;
            uint64_t h = dead_hash(x->dead[i].key, x->dead[i].tag) & (uint64_t)(nc - 1);
            while (nt[h].tag) h = (h + 1) & (uint64_t)(nc - 1);
            nt[h] = x->dead[i];
        }
        free(x->dead);
        x->dead = nt;
        x->capdead = nc;
    }
    uint64_t m = (uint64_t)x->capdead - 1, h = dead_hash(key, tag) & m;
    while (x->dead[h].tag) {
        if (x->dead[h].tag == tag && x->dead[h].key == key) {
            x->dead[h].slack = slack;
            return 0;
        }
        h = (h + 1) & m;
    }
    x->dead[h].key = key;
    x->dead[h].tag = tag;
    x->dead[h].slack = slack;
    x->ndead++;
    return 0;
}

/* whether a state between numbers that failed dominates this one with
 * no less slack (dp._DepthFirst.failed_before); -1 on error */
static int failed_before(Search *x, int n, u128 key, int slack) {
    int cnt = x->nfailed[n];
    if (!cnt) return 0;
    unsigned m[4];
    for (int c = 0; c < 4; c++) m[c] = field(key, SHIFT[c], MASK12);
    int jn = (int)field(key, J_SHIFT, 0xF), cp = (int)field(key, CAP_SHIFT, 7);
    for (int i = 0; i < cnt; i++) {
        const Failed *f = &x->failed[n][i];
        if (f->slack < slack || !((f->jn == jn && f->cp >= cp) || (f->jn <= jn && f->cp == x->fullv)))
            continue;
        int all = 1;
        for (int c = 0; c < 4 && all; c++) {
            int d = dominates(x->facts, f->m[c], m[c]);
            if (d < 0) return -1;
            all = d;
        }
        if (all) return 1;
    }
    return 0;
}

static int add_failed(Search *x, int n, u128 key, int slack) {
    if (x->nfailed[n] == x->capfailed[n]) {
        int nc = x->capfailed[n] ? x->capfailed[n] * 2 : 16;
        Failed *f = realloc(x->failed[n], (size_t)nc * sizeof *f);
        if (!f) {
            PyErr_NoMemory();
            return -1;
        }
        x->failed[n] = f;
        x->capfailed[n] = nc;
    }
    Failed *f = &x->failed[n][x->nfailed[n]++];
    for (int c = 0; c < 4; c++) f->m[c] = field(key, SHIFT[c], MASK12);
    f->jn = (int)field(key, J_SHIFT, 0xF);
    f->cp = (int)field(key, CAP_SHIFT, 7);
    f->slack = slack;
    return 0;
}

/* append a step to the path (built from the last number back) */
static int path_add(Search *x, PyObject *item) {
    if (!item) return -1;
    if (!x->path) { /* (not asked for) */
        Py_DECREF(item);
        return 0;
    }
    int rc = PyList_Append(x->path, item);
    Py_DECREF(item);
    return rc;
}

/* 1: found (the path holds it), 0: not, -1: error (SearchLimit among them) */
static int rec(Search *x, int n, int c, u128 key, int slack) {
    if (dead_get(x, key, n, c) >= slack) return 0;
    if (x->limit >= 0 && ++x->visits > x->limit) {
        PyErr_SetNone(x->limit_exc);
        return -1;
    }
    int jtot = x->jtot;
    if (c == 4) {
        int jused = (int)field(key, J_SHIFT, 0xF), ymax = (int)field(key, G_SHIFT, 0xF);
        int total_y = (int)field(key, Y_SHIFT, 0x3F), jleft = jtot - jused;
        u128 base = key & (((u128)1 << J_SHIFT) - 1);
        u128 ks[64];
        int gs[64], jgs[64], nk = 0;
        if (total_y == 0) {
            ks[0] = base | (u128)jused << J_SHIFT;
            gs[0] = jgs[0] = 0;
            nk = 1;
        } else if (x->lazy) {
            int capj = (int)field(key, CAP_SHIFT, 7), g0 = (total_y + 3) / 4;
            for (int g = ymax > g0 ? ymax : g0; g <= total_y && nk < 64; g++) {
                int jg = 3 * g - total_y, g3;
                if (jg > jleft) break;
                if (jg < 0) {
                    jg = 0;
                    g3 = 4 * g - total_y;
                } else {
                    g3 = g;
                }
                int cap2 = capj + g3 < jtot ? capj + g3 : jtot;
                ks[nk] = (base & ~((u128)7 << CAP_SHIFT)) | (u128)cap2 << CAP_SHIFT | (u128)(jused + jg) << J_SHIFT;
                gs[nk] = g;
                jgs[nk++] = jg;
            }
        } else {
            for (int jg = 0; jg <= jleft && nk < 64; jg++) {
                int t = total_y + jg, g_lo = (t + 3) / 4;
                if (ymax > g_lo) g_lo = ymax;
                if (g_lo <= (t / 3 < total_y ? t / 3 : total_y)) {
                    ks[nk] = base | (u128)(jused + jg) << J_SHIFT;
                    gs[nk] = g_lo;
                    jgs[nk++] = jg;
                }
            }
        }
        for (int i = 0; i < nk; i++) {
            u128 k2 = ks[i];
            if (n == 12) {
                int ok = 1;
                for (int cc = 0; cc < 4 && ok; cc++) {
                    int t = closable(x->facts, field(k2, SHIFT[cc], MASK12));
                    if (t < 0) return -1;
                    ok = t;
                }
                if (ok) {
                    int ju = (int)field(k2, J_SHIFT, 0xF), surplus = 0;
                    if (x->lazy) {
                        int room = (int)field(k2, CAP_SHIFT, 7);
                        surplus = jtot - ju < room ? jtot - ju : room;
                    }
                    ok = ju + surplus >= x->jt && jtot - ju - surplus <= slack;
                }
                if (ok) {
                    if (!x->want_path) return 1;
                    PyObject *kk = from_u128(k2);
                    if (!kk) return -1;
                    return path_add(x, Py_BuildValue("(iiN)", gs[i], jgs[i], kk)) < 0 ? -1 : 1;
                }
                continue;
            }
            if (x->dominance) {
                int f = failed_before(x, n + 1, k2, slack);
                if (f < 0) return -1;
                if (f) continue;
            }
            int r = rec(x, n + 1, 0, k2, slack);
            if (r < 0) return -1;
            if (r) {
                if (!x->want_path) return 1;
                PyObject *kk = from_u128(k2);
                if (!kk) return -1;
                return path_add(x, Py_BuildValue("(iiN)", gs[i], jgs[i], kk)) < 0 ? -1 : 1;
            }
            if (x->dominance && add_failed(x, n + 1, k2, slack) < 0) return -1;
        }
        return dead_set(x, key, n, c, slack) < 0 ? -1 : 0;
    }
    int i = c * 13 + n, b = x->rack[i], sh = SHIFT[c];
    unsigned msid = field(key, sh, MASK12);
    int jused = (int)field(key, J_SHIFT, 0xF), ymax = (int)field(key, G_SHIFT, 0xF);
    int room = (int)field(key, Y_SHIFT, 0x3F) + x->later[n][c] + jtot - jused;
    if (x->idle[i] && !msid) {
        /* nothing of this colour here, nothing open: one way on */
        if (3 * ymax <= room) {
            int r = rec(x, n, c + 1, key, slack);
            if (r < 0) return -1;
            if (r) return !x->want_path ? 1 : path_add(x, Py_BuildValue("(Oi)", x->empty_opt, 0)) < 0 ? -1 : 1;
        }
        return dead_set(x, key, n, c, slack) < 0 ? -1 : 0;
    }
    u128 base = key & ~((u128)MASK12 << sh);
    Conv *lst = dfs_options(x, n, c, msid, jtot - jused);
    if (!lst) return -1;
    const Opt *opts = lst->o; /* (held by the search's cache while it runs) */
    int nopts = lst->n;
    for (int j = 0; j < nopts; j++) {
        const Opt *o = &opts[j];
        int s2 = slack - (b - o->u);
        if (s2 < 0) continue;
        if (3 * (o->y > ymax ? o->y : ymax) > room + o->y - o->j) continue;
        int need = need_ahead(x, (unsigned)o->nm, c, n);
        if (need < 0) return -1;
        if (need > jtot - jused - o->j) continue;
        u128 k2 = (base | (u128)o->nm << sh) + ((u128)o->j << J_SHIFT) + ((u128)o->y << Y_SHIFT);
        if (o->y > ymax) k2 += (u128)(o->y - ymax) << G_SHIFT;
        if (x->lazy && o->nm) k2 = (k2 & ~((u128)7 << CAP_SHIFT)) | x->full_cap;
        int r = rec(x, n, c + 1, k2, s2);
        if (r < 0) return -1;
        if (r) return !x->want_path ? 1 : path_add(x, Py_BuildValue("(OI)", o->opt, msid)) < 0 ? -1 : 1;
    }
    return dead_set(x, key, n, c, slack) < 0 ? -1 : 0;
}

/* run(budget, path=True) -> the path (last step first), or None; with
 * path false, True or None */
static PyObject *search_run(Search *x, PyObject *args) {
    int budget, want = 1;
    if (!PyArg_ParseTuple(args, "i|p", &budget, &want)) return NULL;
    x->want_path = want;
    Py_CLEAR(x->path);
    if (want && !(x->path = PyList_New(0))) return NULL;
    int r = rec(x, 0, 0, 0, budget);
    if (r < 0) return NULL;
    if (!r) Py_RETURN_NONE;
    if (!want) Py_RETURN_TRUE;
    Py_INCREF(x->path);
    return x->path;
}

static PyMethodDef search_methods[] = {
    {"run", (PyCFunction)search_run, METH_VARARGS,
     "run(budget, path=True): the path found (last step first), or None; without the path, "
     "True or None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.solver._dpk.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)search_init,
    .tp_dealloc = (destructor)search_dealloc,
    .tp_methods = search_methods,
    .tp_doc = "the depth-first search of dp.feasible",
};

/* ------------------------------------------------------------------ */
/* a solve's first steps on the position, at once (engine.solver.api's
 * solve with the table as a multiset, as core does them one by one): the
 * tile codes counted and checked against the set, the table's check,
 * the rack tiles no meld can use dropped (core.useful_rack) and the
 * position oriented (core.oriented: the colours renamed by their tiles,
 * fewest first, and the numbers reversed when the candidates lie high) */

/* core.useful_rack, in place on cand: repeated until nothing drops */
static void useful_rack(const int *table, int *cand, int jokers) {
    if (jokers >= 2) return; /* two jokers make a meld of any tile */
    for (;;) {
        int have[52], present[13], changed = 0;
        for (int i = 0; i < 52; i++) have[i] = table[i] || cand[i];
        for (int n = 0; n < 13; n++) present[n] = have[n] + have[13 + n] + have[26 + n] + have[39 + n];
        for (int i = 0; i < 52; i++) {
            if (!cand[i]) continue;
            int n = i % 13, lo = i - n, ok = 0;
            if (present[n] - have[i] + jokers >= 2) continue; /* a group of its number */
            for (int st = n - 2 > 0 ? n - 2 : 0; st <= (n < 10 ? n : 10) && !ok; st++)
                ok = 3 - have[lo + st] - have[lo + st + 1] - have[lo + st + 2] <= jokers;
            if (!ok) {
                cand[i] = 0;
                changed = 1;
            }
        }
        if (!changed) return;
    }
}

static PyObject *counts_list(const int *v, int n, int step, int reversed) {
    /* v's four colour blocks of 13 in the order given by step (a colour
     * order), each reversed when asked */
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        int c = i / 13, k = i % 13;
        int src = ((step >> (2 * c)) & 3) * 13 + (reversed ? 12 - k : k);
        PyObject *o = PyLong_FromLong(v[src]);
        if (!o) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, o);
    }
    return out;
}

static int read_codes(PyObject *lst, int *counts) {
    /* 1: counted; 0: not a list of codes 0..52, each an int (not a Tile, not
     * a bool: read_tiles reads those), left to the caller's checks */
    if (!PyList_Check(lst)) return 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(lst); i++) {
        PyObject *t = PyList_GET_ITEM(lst, i);
        if (!PyLong_CheckExact(t)) return 0;
        long v = PyLong_AsLong(t);
        if (v < 0 || v > 52) {
            PyErr_Clear();
            return 0;
        }
        counts[v]++;
    }
    return 1;
}

/* prelude(table, rack, copies, jokers, mirror, small_table, facts, colour_cache,
 * colour_options, empty_opt, limit_exc, dominance) -> None (codes, or copies
 * past the set's: the caller's checks name them), False (the table does not
 * divide), or (jt, jr, table, candidates, order, mirrored): the position as
 * solved (52 counts each) and the colour order (a list of 4) */
static PyObject *kernel_prelude(PyObject *self, PyObject *args) {
    PyObject *table_o, *rack_o, *facts, *colour_cache, *colour_options, *empty_opt, *limit_exc;
    int copies, jokers, mirror, small_table, dominance;
    if (!PyArg_ParseTuple(args, "OOiiiiOOOOOi", &table_o, &rack_o, &copies, &jokers, &mirror,
                          &small_table, &facts, &colour_cache, &colour_options, &empty_opt,
                          &limit_exc, &dominance))
        return NULL;
    int tall[53] = {0}, rall[53] = {0};
    if (!read_codes(table_o, tall) || !read_codes(rack_o, rall)) Py_RETURN_NONE;
    if (tall[52] + rall[52] > jokers) Py_RETURN_NONE;
    int on_table = tall[52];
    for (int i = 0; i < 52; i++) {
        if (tall[i] + rall[i] > copies) Py_RETURN_NONE;
        on_table += tall[i];
    }
    int jt = tall[52], jr = rall[52];
    if (on_table) {
        Search *x = (Search *)SearchType.tp_alloc(&SearchType, 0);
        if (!x) return NULL;
        int zero[52] = {0}, r = -1;
        if (search_fill(x, tall, zero, jt, 0, -1, dominance, facts, colour_cache, colour_options,
                        empty_opt, limit_exc) == 0) {
            x->want_path = 0;
            r = rec(x, 0, 0, 0, 0);
        }
        Py_DECREF(x);
        if (r < 0) return NULL;
        if (!r) Py_RETURN_FALSE;
    }
    int cand[52];
    memcpy(cand, rall, sizeof cand);
    useful_rack(tall, cand, jt + jr);
    /* the colours by their tiles (table and candidates), fewest first, a
     * stable sort as Python's */
    int tot[4], order[4] = {0, 1, 2, 3};
    for (int c = 0; c < 4; c++) {
        tot[c] = 0;
        for (int k = 0; k < 13; k++) tot[c] += tall[c * 13 + k] + cand[c * 13 + k];
    }
    for (int a = 1; a < 4; a++)
        for (int b = a; b > 0 && tot[order[b]] < tot[order[b - 1]]; b--) {
            int t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
        }
    int step = order[0] | order[1] << 2 | order[2] << 4 | order[3] << 6;
    int side = 0, placed = jt;
    for (int c = 0; c < 4; c++)
        for (int k = 0; k < 13; k++) {
            side += cand[order[c] * 13 + k] * (k - 6);
            placed += tall[c * 13 + k];
        }
    int mirrored = mirror && placed >= small_table && side > 0;
    PyObject *tp = counts_list(tall, 52, step, mirrored);
    PyObject *cp = tp ? counts_list(cand, 52, step, mirrored) : NULL;
    if (!cp) {
        Py_XDECREF(tp);
        return NULL;
    }
    return Py_BuildValue("(iiNN[iiii]O)", jt, jr, tp, cp, order[0], order[1], order[2], order[3],
                         mirrored ? Py_True : Py_False);
}

static PyMethodDef module_methods[] = {
    {"prelude", kernel_prelude, METH_VARARGS,
     "prelude(table, rack, copies, jokers, mirror, small_table, facts, colour_cache, "
     "colour_options, empty_opt, limit_exc, dominance): a solve's first steps on the position"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dpk", "The programme's layers in C (see engine/solver/dp.py).", -1,
    module_methods,
};

PyMODINIT_FUNC PyInit__dpk(void) {
    if (PyType_Ready(&KernelType) < 0 || PyType_Ready(&FactsType) < 0 || PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&KernelType);
    Py_INCREF(&FactsType);
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0 ||
        PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0 ||
        PyModule_AddObject(m, "Facts", (PyObject *)&FactsType) < 0 ||
        PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
