/* The native rules core: one move generator driven by a variant's tables.
 *
 * The tables are the Python reference's own (replay.rules.movegen.MoveGenerator: shifts and masks,
 * neighbour tables, promotion rows, the variant's switches), handed over once by
 * replay.rules.native; the search below follows replay/rules/movegen.py step by step, so that the two
 * cores give the same moves in the same order. Bitboards are 64-bit words over the internal
 * square indices of pdn/squares.py (8x8 in 36 bits, 10x10 in 55, Turkish's 64 squares in 64);
 * a board of more indices (12x12) is left to Python.
 *
 * Nothing is allocated per node: moves go to fixed buffers, one per ply, allocated once per
 * call; every index read from a table or a buffer is checked against its bound, and a buffer
 * that would overflow ends the call with an exception instead of writing past it.
 *
 * This file is the module replay.rules._native. An extension of a higher layer that works on
 * the generator #includes it with RULES_EMBEDDED defined: it gets the same static functions
 * and the same RulesObject (a copy of the generator of its own; -O3 drops what it does not
 * call), no module of this file's, rules_extension() to make its own module and
 * rules_argument() to take the Rules objects this module makes. This file includes nothing
 * of those extensions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifdef RULES_EMBEDDED   /* the Python methods below go unused in an embedding extension */
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

typedef uint64_t bb;

#define MAXSQ 64
#define MAXDIR 8
#define MAXCAP 32        /* captures in one move: more than any side has pieces */
#define PLYMOVES 2048    /* moves (capture routes kept) in one position */
#define MAXDEPTH 64

enum { PROMO_CONTINUE = 0, PROMO_PASS = 1, PROMO_STOP = 2 };
enum { PREC_FREE = 0, PREC_MAJORITY, PREC_MAJORITY_KINGS, PREC_KING_FIRST, PREC_ITALIAN,
       PREC_VALUE };

typedef struct { int shift; int left, right; bb mask; } Shift;  /* left/right: one is 0 */

typedef struct {
    int size;                      /* internal indices, ghosts included */
    bb board;
    bb promo[2];                   /* far row of White, of Black */
    int n_man_moves;  Shift man_moves[2][MAXDIR];
    int n_man_caps;   Shift man_cap_shifts[2][MAXDIR];
    int8_t man_cap_steps[2][MAXDIR][MAXSQ];
    int n_king_moves; int8_t king_move_steps[MAXDIR][MAXSQ];
    int n_king_caps;  int8_t king_cap_steps[MAXDIR][MAXSQ];
    int opposite[MAXDIR];
    int forced, men_capture_kings, flying, remove_at_once, lands_behind, turns_back;
    int promotion, precedence, max_king_moves;
    int dash_captures;             /* the notation writes captures with '-' (no warning) */
    int64_t man_weight, king_weight;
    /* notation: numbers 1..n_numbers, names by (col, row) */
    int n_numbers; int8_t number_sq[MAXSQ + 1];
    int width, height; int8_t name_sq[16][16];
    int8_t row[MAXSQ], col[MAXSQ];
    int8_t cell[16][16];           /* (row, col) -> square or -1 */
} Rules;

typedef struct {
    bb mask;
    uint8_t from, to, ncap, promotes;
    uint8_t path[MAXCAP];
    uint8_t caps[MAXCAP];
} Mv;

typedef struct {
    const Rules *r;
    Mv *out; int n, cap; int overflow;
    int color, origin, king_start;
    bb promo;
    uint8_t path[MAXCAP], caps[MAXCAP];
} Search;

#if defined(__POPCNT__) || !defined(__x86_64__)
static inline int popcount(bb x) { return __builtin_popcountll(x); }
#else  /* no popcnt instruction asked for: a few shifts beat libgcc's call */
static inline int popcount(bb x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif
static inline int lowbit(bb x) { return __builtin_ctzll(x); }
static inline bb forward(bb x, const Shift *sh) { return (x << sh->left) >> sh->right; }
static inline bb backward(bb x, const Shift *sh) { return (x >> sh->left) << sh->right; }

/* ---- capture search (replay/rules/movegen.py _piece_captures) ---- */

static void emit(Search *s, int depth, int promotes, bb mask) {
    if (s->n >= s->cap) { s->overflow = 1; return; }
    Mv *m = &s->out[s->n++];
    m->mask = mask; m->from = (uint8_t)s->origin; m->to = s->path[depth - 1];
    m->ncap = (uint8_t)depth; m->promotes = (uint8_t)promotes;
    memcpy(m->path, s->path, (size_t)depth);
    memcpy(m->caps, s->caps, (size_t)depth);
}

static int king_search(Search *s, int sq, bb jumpable, bb empty, int depth, bb mask, int came);

static int step_search(Search *s, int sq, int is_king, bb jumpable, bb empty, int depth,
                       bb mask) {
    const Rules *r = s->r;
    int found = 0;
    int ndirs = is_king ? r->n_king_caps : r->n_man_caps;
    if (depth >= MAXCAP) { s->overflow = 1; return 0; }
    for (int d = 0; d < ndirs; d++) {
        const int8_t *step = is_king ? r->king_cap_steps[d] : r->man_cap_steps[s->color][d];
        int over = step[sq];
        if (over < 0 || !((jumpable >> over) & 1)) continue;
        int land = step[over];
        if (land < 0 || !((empty >> land) & 1)) continue;
        found = 1;
        bb bit = (bb)1 << over;
        bb nj = jumpable & ~bit;
        bb ne = r->remove_at_once ? (empty | bit) : empty;
        bb nm = mask | bit;
        s->path[depth] = (uint8_t)land; s->caps[depth] = (uint8_t)over;
        if (!is_king && ((s->promo >> land) & 1)) {
            if (r->promotion == PROMO_CONTINUE) {
                if (!king_search(s, land, nj, ne, depth + 1, nm, -1)) emit(s, depth + 1, 1, nm);
                continue;
            }
            if (r->promotion == PROMO_STOP) { emit(s, depth + 1, 1, nm); continue; }
        }
        if (!step_search(s, land, is_king, nj, ne, depth + 1, nm)) {
            int promotes = !is_king && r->promotion == PROMO_PASS && ((s->promo >> land) & 1);
            emit(s, depth + 1, promotes, nm);
        }
    }
    return found;
}

static int king_search(Search *s, int sq, bb jumpable, bb empty, int depth, bb mask, int came) {
    const Rules *r = s->r;
    int promotes = !s->king_start;
    int found = 0;
    if (depth >= MAXCAP) { s->overflow = 1; return 0; }
    for (int d = 0; d < r->n_king_caps; d++) {
        if (came >= 0 && !r->turns_back && r->opposite[came] == d) continue;
        const int8_t *step = r->king_cap_steps[d];
        int cur = step[sq];
        while (cur >= 0 && ((empty >> cur) & 1)) cur = step[cur];
        if (cur < 0) continue;
        int prey = cur, after = step[prey];
        if (after < 0) continue;
        if (!((jumpable >> prey) & 1) || !((empty >> after) & 1)) continue;
        found = 1;
        bb bit = (bb)1 << prey;
        bb nj = jumpable & ~bit;
        bb ne = r->remove_at_once ? (empty | bit) : empty;
        bb nm = mask | bit;
        uint8_t landings[MAXSQ]; int nl = 0;
        for (cur = after; cur >= 0 && ((ne >> cur) & 1); cur = step[cur]) {
            landings[nl++] = (uint8_t)cur;
            if (r->lands_behind) break;
        }
        int continued = 0;
        s->caps[depth] = (uint8_t)prey;
        for (int i = 0; i < nl; i++) {
            s->path[depth] = landings[i];
            s->caps[depth] = (uint8_t)prey;
            if (king_search(s, landings[i], nj, ne, depth + 1, nm, d)) continued = 1;
        }
        if (!continued) {
            for (int i = 0; i < nl; i++) {
                s->path[depth] = landings[i];
                s->caps[depth] = (uint8_t)prey;
                emit(s, depth + 1, promotes, nm);
            }
        }
    }
    return found;
}

static bb capturing_men(const Rules *r, bb own, bb opp, bb kings, int color) {
    bb empty = r->board & ~(own | opp);
    bb men = own & ~kings;
    bb prey = r->men_capture_kings ? opp : (opp & ~kings);
    bb found = 0;
    for (int i = 0; i < r->n_man_caps; i++) {
        const Shift *sh = &r->man_cap_shifts[color][i];
        found |= backward(backward(empty, sh) & prey, sh) & men & sh->mask;
    }
    return found;
}

static int has_capture(const Rules *r, bb own, bb opp, bb kings, int color) {
    bb empty = r->board & ~(own | opp);
    bb men = own & ~kings;
    if (men) {
        bb prey = r->men_capture_kings ? opp : (opp & ~kings);
        for (int i = 0; i < r->n_man_caps; i++) {
            const Shift *sh = &r->man_cap_shifts[color][i];
            if (forward(forward(men & sh->mask, sh) & prey, sh) & empty) return 1;
        }
    }
    bb ks = own & kings;
    while (ks) {
        int sq = lowbit(ks); ks &= ks - 1;
        for (int d = 0; d < r->n_king_caps; d++) {
            const int8_t *step = r->king_cap_steps[d];
            int cur = step[sq];
            if (r->flying) while (cur >= 0 && ((empty >> cur) & 1)) cur = step[cur];
            if (cur >= 0 && ((opp >> cur) & 1)) {
                int land = step[cur];
                if (land >= 0 && ((empty >> land) & 1)) return 1;
            }
        }
    }
    return 0;
}

/* Every capture route the precedence rule allows (duplicates kept), in the reference's order. */
static int captures(const Rules *r, bb own, bb opp, bb kings, int color, bb origins, Mv *out,
                    int cap, int *overflow) {
    Search s;
    s.r = r; s.out = out; s.n = 0; s.cap = cap; s.overflow = 0; s.color = color;
    s.promo = r->promo[color];
    if (r->precedence != PREC_FREE) origins = ~(bb)0;
    bb cands = (capturing_men(r, own, opp, kings, color) | (own & kings)) & origins;
    while (cands) {
        int sq = lowbit(cands); cands &= cands - 1;
        bb empty = (r->board & ~(own | opp)) | ((bb)1 << sq);
        s.origin = sq;
        s.king_start = (int)((kings >> sq) & 1);
        bb jumpable = (s.king_start || r->men_capture_kings) ? opp : (opp & ~kings);
        if (s.king_start && r->flying) king_search(&s, sq, jumpable, empty, 0, 0, -1);
        else step_search(&s, sq, s.king_start, jumpable, empty, 0, 0);
    }
    *overflow |= s.overflow;
    int n = s.n;
    if (n < 2 || r->precedence == PREC_FREE) return n;
    /* precedence: keep the routes of the best weight (replay/rules/movegen.py _PRECEDENCE) */
    int64_t best[4] = {0, 0, 0, 0}, w[4];
    int first = 1, kept = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            Mv *m = &out[i];
            int64_t tk = r->precedence == PREC_MAJORITY ? 0 : popcount(m->mask & kings);
            int64_t ok = (int64_t)((kings >> m->from) & 1);
            w[0] = w[1] = w[2] = w[3] = 0;
            switch (r->precedence) {
            case PREC_MAJORITY: w[0] = m->ncap; break;
            case PREC_MAJORITY_KINGS: w[0] = m->ncap; w[1] = tk; break;
            case PREC_KING_FIRST: w[0] = ok; break;
            case PREC_ITALIAN: {
                int64_t order = 0;
                for (int c = 0; c < m->ncap; c++)
                    order = (order << 1) | (int64_t)((kings >> m->caps[c]) & 1);
                w[0] = m->ncap; w[1] = ok; w[2] = tk; w[3] = order; break; }
            case PREC_VALUE:
                w[0] = r->man_weight * (m->ncap - tk) + r->king_weight * tk; w[1] = ok; break;
            }
            int cmp = 0;
            for (int k = 0; k < 4 && !cmp; k++) cmp = (w[k] > best[k]) - (w[k] < best[k]);
            if (pass == 0) {
                if (first || cmp > 0) { memcpy(best, w, sizeof best); first = 0; }
            } else if (cmp == 0) {
                if (kept != i) out[kept] = out[i];
                kept++;
            }
        }
    }
    n = kept;
    return n;
}

/* One move per (origin, destination, captured set), or per route with keep_duplicates. */
static int unique(Mv *m, int n, int keep_duplicates) {
    if (n < 2) return n;
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < kept && !seen; j++) {
            if (m[j].from != m[i].from || m[j].to != m[i].to) continue;
            if (keep_duplicates)
                seen = m[j].ncap == m[i].ncap && !memcmp(m[j].caps, m[i].caps, m[i].ncap);
            else
                seen = m[j].mask == m[i].mask;
        }
        if (!seen) { if (kept != i) m[kept] = m[i]; kept++; }
    }
    return kept;
}

static int quiet_moves(const Rules *r, bb own, bb opp, bb kings, int color, bb frozen, Mv *out,
                       int n, int cap, int *overflow) {
    bb empty = r->board & ~(own | opp);
    bb promo = r->promo[color];
    bb men = own & ~kings;
    for (int i = 0; i < r->n_man_moves; i++) {
        const Shift *sh = &r->man_moves[color][i];
        bb t = forward(men & sh->mask, sh) & empty;
        while (t) {
            int to = lowbit(t); t &= t - 1;
            if (n >= cap) { *overflow = 1; return n; }
            Mv *m = &out[n++];
            m->mask = 0; m->from = (uint8_t)(to - sh->shift); m->to = (uint8_t)to; m->ncap = 0;
            m->promotes = (uint8_t)((promo >> to) & 1);
        }
    }
    bb ks = own & kings & ~frozen;
    while (ks) {
        int sq = lowbit(ks); ks &= ks - 1;
        for (int d = 0; d < r->n_king_moves; d++) {
            const int8_t *step = r->king_move_steps[d];
            for (int cur = step[sq]; cur >= 0 && ((empty >> cur) & 1); cur = step[cur]) {
                if (n >= cap) { *overflow = 1; return n; }
                Mv *m = &out[n++];
                m->mask = 0; m->from = (uint8_t)sq; m->to = (uint8_t)cur; m->ncap = 0;
                m->promotes = 0;
                if (!r->flying) break;
            }
        }
    }
    return n;
}

static long count_quiet(const Rules *r, bb own, bb opp, bb kings, int color, bb frozen) {
    bb empty = r->board & ~(own | opp);
    bb men = own & ~kings;
    long total = 0;
    for (int i = 0; i < r->n_man_moves; i++) {
        const Shift *sh = &r->man_moves[color][i];
        total += popcount(forward(men & sh->mask, sh) & empty);
    }
    bb ks = own & kings & ~frozen;
    while (ks) {
        int sq = lowbit(ks); ks &= ks - 1;
        for (int d = 0; d < r->n_king_moves; d++) {
            const int8_t *step = r->king_move_steps[d];
            for (int cur = step[sq]; cur >= 0 && ((empty >> cur) & 1); cur = step[cur]) {
                total++;
                if (!r->flying) break;
            }
        }
    }
    return total;
}

/* ---- positions ---- */

typedef struct {
    bb white, black, kings; int turn;
    int streak_sq[2], streak_n[2];   /* Frisian: the king that made the last quiet moves */
} Pos;

static bb frozen_kings(const Rules *r, const Pos *p) {
    if (!r->max_king_moves) return 0;
    bb own = p->turn == 0 ? p->white : p->black;
    int sq = p->streak_sq[p->turn];
    if (p->streak_n[p->turn] < r->max_king_moves || !(own & ~p->kings) || sq < 0) return 0;
    return ((bb)1 << sq) & own & p->kings;
}

static void play(const Rules *r, const Pos *p, const Mv *m, Pos *q) {
    bb moved = ((bb)1 << m->from) ^ ((bb)1 << m->to);
    bb kings = p->kings & ~m->mask;
    int was_king = (int)((p->kings >> m->from) & 1);
    if (was_king) kings ^= moved;
    else if (m->promotes) kings |= (bb)1 << m->to;
    *q = *p;
    q->kings = kings;
    if (p->turn == 0) { q->white = p->white ^ moved; q->black = p->black & ~m->mask; }
    else { q->black = p->black ^ moved; q->white = p->white & ~m->mask; }
    q->turn = 1 - p->turn;
    if (r->max_king_moves) {
        bb own = p->turn == 0 ? p->white : p->black;
        int t = p->turn;
        if (m->ncap == 0 && was_king && (own & ~p->kings)) {
            q->streak_n[t] = p->streak_sq[t] == m->from ? p->streak_n[t] + 1 : 1;
            q->streak_sq[t] = m->to;
        } else { q->streak_sq[t] = -1; q->streak_n[t] = 0; }
    }
}

/* The legal moves of a position (perft's: unique by key, or by route). */
static int legal(const Rules *r, const Pos *p, Mv *out, int cap, int keep_duplicates,
                 int *overflow) {
    bb own = p->turn == 0 ? p->white : p->black, opp = p->turn == 0 ? p->black : p->white;
    int n = 0;
    if (!r->forced || has_capture(r, own, opp, p->kings, p->turn)) {
        n = captures(r, own, opp, p->kings, p->turn, ~(bb)0, out, cap, overflow);
        n = unique(out, n, keep_duplicates);
        if (n && r->forced) return n;
    }
    return quiet_moves(r, own, opp, p->kings, p->turn, frozen_kings(r, p), out, n, cap, overflow);
}

typedef struct { const Rules *r; Mv *buf; int keep; int overflow; } Perft;

static unsigned long long perft_rec(Perft *ctx, const Pos *p, int depth, int ply) {
    const Rules *r = ctx->r;
    Mv *out = ctx->buf + (size_t)ply * PLYMOVES;
    if (depth <= 0) return 1;
    if (depth == 1) {
        bb own = p->turn == 0 ? p->white : p->black, opp = p->turn == 0 ? p->black : p->white;
        bb frozen = frozen_kings(r, p);
        if (r->forced && !has_capture(r, own, opp, p->kings, p->turn))
            return (unsigned long long)count_quiet(r, own, opp, p->kings, p->turn, frozen);
        int n = captures(r, own, opp, p->kings, p->turn, ~(bb)0, out, PLYMOVES, &ctx->overflow);
        n = unique(out, n, ctx->keep);
        if (n && r->forced) return (unsigned long long)n;
        return (unsigned long long)n + (unsigned long long)count_quiet(r, own, opp, p->kings,
                                                                       p->turn, frozen);
    }
    int n = legal(r, p, out, PLYMOVES, ctx->keep, &ctx->overflow);
    if (ctx->overflow) return 0;
    unsigned long long total = 0;
    for (int i = 0; i < n; i++) {
        Pos q;
        play(r, p, &out[i], &q);
        total += perft_rec(ctx, &q, depth - 1, ply + 1);
        if (ctx->overflow) return 0;
    }
    return total;
}

/* ---- the Python type ---- */

typedef struct { PyObject_HEAD Rules r; } RulesObject;

static int read_u64(PyObject *o, bb *out) {
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (bb)v;
    return 0;
}

static int read_int(PyObject *o, long lo, long hi, long *out) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v < lo || v > hi) { PyErr_Format(PyExc_ValueError, "%ld is out of range", v); return -1; }
    *out = v;
    return 0;
}

static PyObject *seq(PyObject *o, Py_ssize_t max, const char *what) {
    PyObject *f = PySequence_Fast(o, what);
    if (f && PySequence_Fast_GET_SIZE(f) > max) {
        Py_DECREF(f);
        PyErr_Format(PyExc_ValueError, "%s: too many entries", what);
        return NULL;
    }
    return f;
}

/* (shift, mask) pairs */
static int read_shifts(PyObject *o, Shift *out, int *n) {
    PyObject *f = seq(o, MAXDIR, "shifts");
    if (!f) return -1;
    *n = (int)PySequence_Fast_GET_SIZE(f);
    for (int i = 0; i < *n; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(f, i);
        long shift;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2
            || read_int(PyTuple_GET_ITEM(pair, 0), -63, 63, &shift) < 0
            || read_u64(PyTuple_GET_ITEM(pair, 1), &out[i].mask) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a shift is (int, mask)");
            Py_DECREF(f); return -1;
        }
        out[i].shift = (int)shift;
        out[i].left = shift > 0 ? (int)shift : 0;
        out[i].right = shift < 0 ? (int)-shift : 0;
    }
    Py_DECREF(f);
    return 0;
}

/* a table of ``size`` squares (-1: none) */
static int read_table(PyObject *o, int size, int8_t *out) {
    PyObject *f = seq(o, MAXSQ, "step table");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != size) {
        Py_DECREF(f); PyErr_SetString(PyExc_ValueError, "a step table has one entry a square");
        return -1;
    }
    for (int i = 0; i < size; i++) {
        long v;
        if (read_int(PySequence_Fast_GET_ITEM(f, i), -1, size - 1, &v) < 0) {
            Py_DECREF(f); return -1;
        }
        out[i] = (int8_t)v;
    }
    Py_DECREF(f);
    return 0;
}

static int read_tables(PyObject *o, int size, int8_t (*out)[MAXSQ], int *n) {
    PyObject *f = seq(o, MAXDIR, "step tables");
    if (!f) return -1;
    *n = (int)PySequence_Fast_GET_SIZE(f);
    for (int i = 0; i < *n; i++)
        if (read_table(PySequence_Fast_GET_ITEM(f, i), size, out[i]) < 0) {
            Py_DECREF(f); return -1;
        }
    Py_DECREF(f);
    return 0;
}

/* Rules(spec): spec is the dict replay.rules.native builds from a MoveGenerator */
static int Rules_init(RulesObject *self, PyObject *args, PyObject *Py_UNUSED(kw)) {
    PyObject *spec;
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &spec)) return -1;
    Rules *r = &self->r;
    memset(r, 0, sizeof *r);
    memset(r->name_sq, -1, sizeof r->name_sq);
    memset(r->number_sq, -1, sizeof r->number_sq);
    memset(r->cell, -1, sizeof r->cell);
#define ITEM(name) PyObject *name = PyDict_GetItemString(spec, #name); \
    if (!name) { PyErr_SetString(PyExc_KeyError, #name); return -1; }
    ITEM(size) ITEM(board) ITEM(promo) ITEM(man_moves) ITEM(man_cap_shifts) ITEM(man_cap_steps)
    ITEM(king_move_steps) ITEM(king_cap_steps) ITEM(opposite) ITEM(flags) ITEM(numbers)
    ITEM(names) ITEM(cells) ITEM(shape)
#undef ITEM
    long v;
    if (read_int(size, 1, MAXSQ, &v) < 0) return -1;
    r->size = (int)v;
    if (read_u64(board, &r->board) < 0) return -1;
    if (!PyTuple_Check(promo) || PyTuple_GET_SIZE(promo) != 2 || !PyTuple_Check(man_moves)
        || PyTuple_GET_SIZE(man_moves) != 2 || !PyTuple_Check(man_cap_shifts)
        || PyTuple_GET_SIZE(man_cap_shifts) != 2 || !PyTuple_Check(man_cap_steps)
        || PyTuple_GET_SIZE(man_cap_steps) != 2) {
        PyErr_SetString(PyExc_ValueError, "per-colour tables are pairs"); return -1;
    }
    for (int c = 0; c < 2; c++) {
        int n1, n2, n3;
        if (read_u64(PyTuple_GET_ITEM(promo, c), &r->promo[c]) < 0) return -1;
        if (read_shifts(PyTuple_GET_ITEM(man_moves, c), r->man_moves[c], &n1) < 0) return -1;
        if (read_shifts(PyTuple_GET_ITEM(man_cap_shifts, c), r->man_cap_shifts[c], &n2) < 0)
            return -1;
        if (read_tables(PyTuple_GET_ITEM(man_cap_steps, c), r->size, r->man_cap_steps[c], &n3) < 0)
            return -1;
        if (n2 != n3) { PyErr_SetString(PyExc_ValueError, "man captures differ"); return -1; }
        r->n_man_moves = n1; r->n_man_caps = n2;
    }
    if (read_tables(king_move_steps, r->size, r->king_move_steps, &r->n_king_moves) < 0) return -1;
    if (read_tables(king_cap_steps, r->size, r->king_cap_steps, &r->n_king_caps) < 0) return -1;
    PyObject *f = seq(opposite, MAXDIR, "opposite");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != r->n_king_caps) {
        Py_DECREF(f); PyErr_SetString(PyExc_ValueError, "opposite: one a direction"); return -1;
    }
    for (int i = 0; i < r->n_king_caps; i++) {
        if (read_int(PySequence_Fast_GET_ITEM(f, i), -1, r->n_king_caps - 1, &v) < 0) {
            Py_DECREF(f); return -1;
        }
        r->opposite[i] = (int)v;
    }
    Py_DECREF(f);
    long fl[12];
    f = seq(flags, 12, "flags");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != 12) {
        Py_DECREF(f); PyErr_SetString(PyExc_ValueError, "flags: 12 values"); return -1;
    }
    for (int i = 0; i < 12; i++)
        if (read_int(PySequence_Fast_GET_ITEM(f, i), -1000000, 1000000, &fl[i]) < 0) {
            Py_DECREF(f); return -1;
        }
    Py_DECREF(f);
    r->forced = (int)fl[0]; r->men_capture_kings = (int)fl[1]; r->flying = (int)fl[2];
    r->remove_at_once = (int)fl[3]; r->lands_behind = (int)fl[4]; r->turns_back = (int)fl[5];
    r->promotion = (int)fl[6]; r->precedence = (int)fl[7]; r->max_king_moves = (int)fl[8];
    r->man_weight = fl[9]; r->king_weight = fl[10]; r->dash_captures = (int)fl[11];
    if (r->promotion < 0 || r->promotion > 2 || r->precedence < 0 || r->precedence > 5) {
        PyErr_SetString(PyExc_ValueError, "unknown promotion or precedence"); return -1;
    }
    f = seq(numbers, MAXSQ, "numbers");
    if (!f) return -1;
    r->n_numbers = (int)PySequence_Fast_GET_SIZE(f);
    for (int i = 0; i < r->n_numbers; i++) {
        if (read_int(PySequence_Fast_GET_ITEM(f, i), 0, r->size - 1, &v) < 0) {
            Py_DECREF(f); return -1;
        }
        r->number_sq[i + 1] = (int8_t)v;
    }
    Py_DECREF(f);
    long w, h;
    if (!PyTuple_Check(shape) || PyTuple_GET_SIZE(shape) != 2
        || read_int(PyTuple_GET_ITEM(shape, 0), 1, 16, &w) < 0
        || read_int(PyTuple_GET_ITEM(shape, 1), 1, 16, &h) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "shape: (width, height)");
        return -1;
    }
    r->width = (int)w; r->height = (int)h;
    /* names: (col, row, square) triples; cells: (row, col) of every square */
    f = seq(names, MAXSQ, "names");
    if (!f) return -1;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(f); i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(f, i);
        long c, rw, sq;
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3
            || read_int(PyTuple_GET_ITEM(t, 0), 0, w - 1, &c) < 0
            || read_int(PyTuple_GET_ITEM(t, 1), 0, h - 1, &rw) < 0
            || read_int(PyTuple_GET_ITEM(t, 2), 0, r->size - 1, &sq) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a name is (col, row, sq)");
            Py_DECREF(f); return -1;
        }
        r->name_sq[c][rw] = (int8_t)sq;
    }
    Py_DECREF(f);
    f = seq(cells, MAXSQ, "cells");
    if (!f) return -1;
    if (PySequence_Fast_GET_SIZE(f) != r->size) {
        Py_DECREF(f); PyErr_SetString(PyExc_ValueError, "cells: one a square"); return -1;
    }
    for (int i = 0; i < r->size; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(f, i);
        long rw, c;
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2
            || read_int(PyTuple_GET_ITEM(t, 0), -1, 15, &rw) < 0
            || read_int(PyTuple_GET_ITEM(t, 1), -1, 15, &c) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a cell is (row, col)");
            Py_DECREF(f); return -1;
        }
        r->row[i] = (int8_t)rw; r->col[i] = (int8_t)c;
        if (rw >= 0 && c >= 0) r->cell[rw][c] = (int8_t)i;
    }
    Py_DECREF(f);
    return 0;
}

/* white, black, kings, turn, streaks -> Pos, every bitboard inside the board */
/* Whether these rules are replayed here; a ValueError where Python replays them (a king's
 * moves counted, or capture not forced). */
static int replayed_here(const Rules *r) {
    if (r->max_king_moves || !r->forced) {
        PyErr_SetString(PyExc_ValueError, "these rules are replayed by Python");
        return -1;
    }
    return 0;
}

/* Whether ``values`` is a tuple of one value per square of these rules. */
static int per_square(const Rules *r, PyObject *values) {
    return PyTuple_Check(values) && PyTuple_GET_SIZE(values) == r->size;
}

static int read_pos(const Rules *r, PyObject *args, Py_ssize_t first, Pos *p) {
    if (PyTuple_GET_SIZE(args) < first + 4) {
        PyErr_SetString(PyExc_TypeError, "a position is white, black, kings, turn"); return -1;
    }
    long t;
    if (read_u64(PyTuple_GET_ITEM(args, first), &p->white) < 0
        || read_u64(PyTuple_GET_ITEM(args, first + 1), &p->black) < 0
        || read_u64(PyTuple_GET_ITEM(args, first + 2), &p->kings) < 0
        || read_int(PyTuple_GET_ITEM(args, first + 3), 0, 1, &t) < 0) return -1;
    p->turn = (int)t;
    if ((p->white | p->black) & ~r->board || p->white & p->black
        || p->kings & ~(p->white | p->black)) {
        PyErr_SetString(PyExc_ValueError, "the bitboards are no position of this board");
        return -1;
    }
    p->streak_sq[0] = p->streak_sq[1] = -1;
    p->streak_n[0] = p->streak_n[1] = 0;
    return 0;
}

/* streaks: ((square, count), (square, count)) */
static int read_streaks(const Rules *r, PyObject *o, Pos *p) {
    if (o == Py_None) return 0;
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2) goto bad;
    for (int c = 0; c < 2; c++) {
        PyObject *s = PyTuple_GET_ITEM(o, c);
        long sq, n;
        if (!PyTuple_Check(s) || PyTuple_GET_SIZE(s) != 2) goto bad;
        if (read_int(PyTuple_GET_ITEM(s, 0), -1, r->size - 1, &sq) < 0
            || read_int(PyTuple_GET_ITEM(s, 1), 0, 1000000, &n) < 0) return -1;
        p->streak_sq[c] = (int)sq; p->streak_n[c] = (int)n;
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "streaks are ((square, count), (square, count))");
    return -1;
}

static PyObject *move_tuple(const Mv *m) {
    PyObject *path, *caps;
    if (m->ncap) {
        path = PyTuple_New(m->ncap); caps = PyTuple_New(m->ncap);
        if (!path || !caps) { Py_XDECREF(path); Py_XDECREF(caps); return NULL; }
        for (int i = 0; i < m->ncap; i++) {
            PyTuple_SET_ITEM(path, i, PyLong_FromLong(m->path[i]));
            PyTuple_SET_ITEM(caps, i, PyLong_FromLong(m->caps[i]));
        }
    } else {
        path = Py_BuildValue("(i)", m->to); caps = PyTuple_New(0);
        if (!path || !caps) { Py_XDECREF(path); Py_XDECREF(caps); return NULL; }
    }
    return Py_BuildValue("iNNOK", m->from, path, caps, m->promotes ? Py_True : Py_False,
                         (unsigned long long)m->mask);
}

/* factory(origin, path, captures, promotes, captured mask, extra): the caller's own Move */
static PyObject *make_move(const Mv *m, PyObject *factory, PyObject *extra) {
    PyObject *t = move_tuple(m);
    if (!t || factory == Py_None) return t;
    PyObject *args[6] = {PyTuple_GET_ITEM(t, 0), PyTuple_GET_ITEM(t, 1), PyTuple_GET_ITEM(t, 2),
                         PyTuple_GET_ITEM(t, 3), PyTuple_GET_ITEM(t, 4), extra};
    PyObject *made = PyObject_Vectorcall(factory, args, 6, NULL);
    Py_DECREF(t);
    return made;
}

static PyObject *move_list(const Mv *m, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *t = move_tuple(&m[i]);
        if (!t) { Py_DECREF(list); return NULL; }
        PyList_SET_ITEM(list, i, t);
    }
    return list;
}

static Mv *new_buffer(size_t moves) {
    Mv *buf = PyMem_Malloc(moves * sizeof(Mv));
    if (!buf) PyErr_NoMemory();
    return buf;
}

static PyObject *overflowed(void) {
    PyErr_SetString(PyExc_OverflowError, "more moves than the native buffers hold");
    return NULL;
}

/* routes(white, black, kings, turn, origins, frozen): (capture routes, quiet moves) */
static PyObject *Rules_routes(RulesObject *self, PyObject *args) {
    Pos p; bb origins, frozen;
    if (PyTuple_GET_SIZE(args) != 6) {
        PyErr_SetString(PyExc_TypeError, "routes(white, black, kings, turn, origins, frozen)");
        return NULL;
    }
    if (read_pos(&self->r, args, 0, &p) < 0 || read_u64(PyTuple_GET_ITEM(args, 4), &origins) < 0
        || read_u64(PyTuple_GET_ITEM(args, 5), &frozen) < 0) return NULL;
    Mv *buf = new_buffer(PLYMOVES);
    if (!buf) return NULL;
    bb own = p.turn == 0 ? p.white : p.black, opp = p.turn == 0 ? p.black : p.white;
    int overflow = 0;
    int n = captures(&self->r, own, opp, p.kings, p.turn, origins, buf, PLYMOVES, &overflow);
    PyObject *caps = overflow ? NULL : move_list(buf, n);
    int q = overflow ? 0 : quiet_moves(&self->r, own, opp, p.kings, p.turn, frozen, buf, 0,
                                       PLYMOVES, &overflow);
    PyObject *quiet = overflow || !caps ? NULL : move_list(buf, q);
    PyMem_Free(buf);
    if (overflow) { Py_XDECREF(caps); return overflowed(); }
    if (!caps || !quiet) { Py_XDECREF(caps); Py_XDECREF(quiet); return NULL; }
    return Py_BuildValue("NN", caps, quiet);
}

static PyObject *Rules_has_capture(RulesObject *self, PyObject *args) {
    Pos p;
    if (read_pos(&self->r, args, 0, &p) < 0) return NULL;
    bb own = p.turn == 0 ? p.white : p.black, opp = p.turn == 0 ? p.black : p.white;
    return PyBool_FromLong(has_capture(&self->r, own, opp, p.kings, p.turn));
}

/* perft(white, black, kings, turn, streaks, depth, keep_duplicates) */
static PyObject *Rules_perft(RulesObject *self, PyObject *args) {
    Pos p; long depth; int keep;
    if (PyTuple_GET_SIZE(args) != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "perft(white, black, kings, turn, streaks, depth, keep_duplicates)");
        return NULL;
    }
    if (read_pos(&self->r, args, 0, &p) < 0 || read_streaks(&self->r, PyTuple_GET_ITEM(args, 4), &p) < 0
        || read_int(PyTuple_GET_ITEM(args, 5), 0, MAXDEPTH - 1, &depth) < 0) return NULL;
    keep = PyObject_IsTrue(PyTuple_GET_ITEM(args, 6));
    if (keep < 0) return NULL;
    Perft ctx = {&self->r, NULL, keep, 0};
    ctx.buf = new_buffer((size_t)(depth + 1) * PLYMOVES);
    if (!ctx.buf) return NULL;
    unsigned long long total;
    Py_BEGIN_ALLOW_THREADS
    total = perft_rec(&ctx, &p, (int)depth, 0);
    Py_END_ALLOW_THREADS
    PyMem_Free(ctx.buf);
    if (ctx.overflow) return overflowed();
    return PyLong_FromUnsignedLongLong(total);
}

/* ---- replaying a line of move texts ---- */

enum { STOP_END = 0, STOP_NOTATION, STOP_SQUARE, STOP_NO_MOVE, STOP_AMBIGUOUS, STOP_WARNING,
       STOP_LIMIT, STOP_NUMBER };

/* The squares of a full move text: ``11-15``, ``22x15``, ``c3:e5``, ``26x17x10x1``, ``c3d4``;
 * its separator ('-', 'x', ':', or 0 when run together). Returns the count, -1 when the text
 * is not such a move (a short record, a suffix: left to Python), -2 for an unknown square. */
static int parse_squares(const Rules *r, const char *t, Py_ssize_t len, int *sq, int max,
                         char *sep) {
    Py_ssize_t i = 0; int n = 0; *sep = 0;
    while (i < len) {
        if (n > 0) {
            char c = t[i];
            if (c == '-' || c == 'x' || c == 'X' || c == ':') {
                char s = c == 'X' ? 'x' : c;
                if (*sep == 0) *sep = s;
                i++;
                if (i >= len) return -1;
            }
        }
        if (n >= max) return -1;
        char c = t[i];
        if (c >= '0' && c <= '9') {
            long v = 0; int digits = 0;
            while (i < len && t[i] >= '0' && t[i] <= '9') {
                if (digits++ > 3) return -1;
                v = v * 10 + (t[i++] - '0');
            }
            if (v < 1 || v > r->n_numbers) return -2;
            sq[n++] = r->number_sq[v];
        } else if ((c >= 'a' && c <= 'l') || (c >= 'A' && c <= 'L')) {
            int colv = (c | 0x20) - 'a';
            i++;
            long v = 0; int digits = 0;
            if (i >= len || t[i] < '1' || t[i] > '9') return -1;
            while (i < len && t[i] >= '0' && t[i] <= '9') {
                if (digits++ > 1) return -1;
                v = v * 10 + (t[i++] - '0');
            }
            if (colv >= r->width || v < 1 || v > r->height) return -2;
            int s = r->name_sq[colv][v - 1];
            if (s < 0) return -2;
            sq[n++] = s;
        } else return -1;
    }
    return n;
}

/* Whether ``small`` is a subsequence of ``big`` with the same ends (resolve._is_subsequence). */
static int subsequence(const int *small, int ns, const int *big, int nb) {
    if (ns == 0 || nb == 0 || small[0] != big[0] || small[ns - 1] != big[nb - 1]) return 0;
    int at = 0;
    for (int i = 0; i < ns; i++) {
        while (at < nb && big[at] != small[i]) at++;
        if (at >= nb) return 0;
        at++;
    }
    return 1;
}

static void unit(const Rules *r, int a, int b, int *dr, int *dc) {
    int r0 = r->row[a], c0 = r->col[a], r1 = r->row[b], c1 = r->col[b];
    *dr = (r1 > r0) - (r1 < r0); *dc = (c1 > c0) - (c1 < c0);
}

/* resolve._follows: the written squares lie on the route in order and name every turn. */
static int follows(const Rules *r, const int *written, int nw, const Mv *m) {
    int traj[MAXSQ * 2]; int nt = 0;
    int points[MAXCAP + 1]; int np = 0;
    points[np++] = m->from;
    for (int i = 0; i < m->ncap; i++) points[np++] = m->path[i];
    traj[nt++] = m->from;
    for (int i = 1; i < np; i++) {
        int dr, dc; unit(r, points[i - 1], points[i], &dr, &dc);
        int rw = r->row[points[i - 1]], c = r->col[points[i - 1]];
        int er = r->row[points[i]], ec = r->col[points[i]];
        int guard = 0;
        while ((rw != er || c != ec) && guard++ < 32) {
            rw += dr; c += dc;
            if (rw >= 0 && rw < r->height && c >= 0 && c < r->width && rw < 16 && c < 16) {
                int s = r->cell[rw][c];
                if (s >= 0) { if (nt >= MAXSQ * 2) return 0; traj[nt++] = s; }
            }
        }
    }
    if (!subsequence(written, nw, traj, nt)) return 0;
    int turns[MAXCAP + 2]; int nturn = 0;
    turns[nturn++] = m->from;
    for (int i = 1; i + 1 < np; i++) {
        int a1, b1, a2, b2;
        unit(r, points[i - 1], points[i], &a1, &b1);
        unit(r, points[i], points[i + 1], &a2, &b2);
        if (a1 != a2 || b1 != b2) turns[nturn++] = points[i];
    }
    turns[nturn++] = m->to;
    return subsequence(turns, nturn, written, nw);
}

/* The one legal move a full text means with nothing to warn about, as the reference's
 * plain_mover / resolve would find it; else the reason to leave the text to Python. */
static int resolve_text(const Rules *r, const Pos *p, const char *t, Py_ssize_t len, Mv *buf,
                        Mv *found) {
    int sq[MAXCAP + 2]; char sep;
    int n = parse_squares(r, t, len, sq, MAXCAP + 2, &sep);
    if (n == -2) return STOP_SQUARE;
    if (n < 2) return STOP_NOTATION;
    bb own = p->turn == 0 ? p->white : p->black, opp = p->turn == 0 ? p->black : p->white;
    int any = has_capture(r, own, opp, p->kings, p->turn);
    int overflow = 0, count = 0;
    if (any) {
        if (sep == '-' && !r->dash_captures) return STOP_WARNING;  /* a capture written with '-' */
        int nc = captures(r, own, opp, p->kings, p->turn, (bb)1 << sq[0], buf, PLYMOVES,
                          &overflow);
        if (overflow) return STOP_LIMIT;
        /* of one move's routes the reference keeps the last for origin-destination texts
         * (replay.record.resolve.plain_mover), the first for the others (resolve's unique) */
        int last = n == 2 && sep != '-';
        for (int i = 0; i < nc; i++) {
            const Mv *m = &buf[i];
            if (m->from != sq[0] || m->to != sq[n - 1]) continue;
            if (n > 2 && !follows(r, sq, n, m)) continue;
            if (count && found->mask == m->mask) {   /* the same move by another route */
                if (last) *found = *m;
                continue;
            }
            if (count) return STOP_AMBIGUOUS;
            *found = *m; count = 1;
        }
        return count ? STOP_END : STOP_NO_MOVE;
    }
    if (n > 2) return STOP_NO_MOVE;
    if (sep == 'x' || sep == ':') return STOP_WARNING;       /* a quiet move written as a capture */
    int nq = quiet_moves(r, own, opp, p->kings, p->turn, 0, buf, 0, PLYMOVES, &overflow);
    if (overflow) return STOP_LIMIT;
    for (int i = 0; i < nq; i++) {
        if (buf[i].from != sq[0] || buf[i].to != sq[1]) continue;
        if (count) return STOP_AMBIGUOUS;
        *found = buf[i]; count = 1;
    }
    return count ? STOP_END : STOP_NO_MOVE;
}

/* A move token as the reader keeps it (pdn.model.Line.move_tokens: the grammar's MOVE): an
 * optional move number (``12.`` or ``12...``, then perhaps blanks), the move, an optional glued
 * strength mark or ``*``. The move's bounds in ``t``; ``*number`` the number written (0: none,
 * -1: more digits than a number a record means) and ``*black`` whether it was ``n...``. A
 * record's text (no number, no mark) is its own move. */
static void token_move(const char *t, Py_ssize_t len, Py_ssize_t *start, Py_ssize_t *end,
                       long long *number, int *black) {
    Py_ssize_t i = 0;
    *number = 0; *black = 0;
    while (i < len && t[i] >= '0' && t[i] <= '9') i++;
    if (i > 0 && i < len && t[i] == '.') {
        long long v = 0;
        for (Py_ssize_t k = 0; k < i; k++) v = k < 9 ? v * 10 + (t[k] - '0') : -1;
        *number = i > 9 ? -1 : v;
        i++;
        if (i + 1 < len && t[i] == '.' && t[i + 1] == '.') { i += 2; *black = 1; }
        while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'
                           || t[i] == '\f' || t[i] == '\v')) i++;
    } else i = 0;
    Py_ssize_t e = len;
    while (e > i && (t[e - 1] == '!' || t[e - 1] == '?' || t[e - 1] == '(' || t[e - 1] == ')'
                     || t[e - 1] == '*')) e--;
    *start = i; *end = e;
}

/* ---- a main line's move tokens: a sequence of texts, or one run's text split here ---- */

/* The move tokens of a line: a sequence of str (one per ply), or one str, a run of moves as
 * the reader keeps it (pdn.model.Line.move_run), split here as pdn.plain's _RECORDS regex
 * ``(?:[0-9]+\.+[ \t\n]*)?[^ \t\n]+`` splits it: a token is a run of characters other than
 * blank, tab and newline, a move number ``12.`` (dots, then blanks) joined to what follows
 * it. The run is read as UTF-8 (whose bytes below 128 are the ASCII characters alone, so
 * the split is the regex's on the code points); a string UTF-8 cannot encode (a lone
 * surrogate) is encoded with "surrogatepass", whose bytes are none of those the split reads,
 * and a token holding one is no text, as such a str in a sequence. No list, no str is made
 * per token. */
typedef struct {
    PyObject *seq;             /* the sequence, or NULL for a run */
    PyObject *bytes;           /* the run's encoding where UTF-8 alone could not */
    const char *text; Py_ssize_t len, at;
    Py_ssize_t count, i;       /* tokens given or read so far */
} Tokens;

static int tokens_open(Tokens *k, PyObject *o) {
    memset(k, 0, sizeof *k);
    if (PyUnicode_Check(o)) {
        k->text = PyUnicode_AsUTF8AndSize(o, &k->len);
        if (!k->text) {
            PyErr_Clear();
            k->bytes = PyUnicode_AsEncodedString(o, "utf-8", "surrogatepass");
            if (!k->bytes) return -1;
            k->text = PyBytes_AS_STRING(k->bytes);
            k->len = PyBytes_GET_SIZE(k->bytes);
        }
        return 0;
    }
    k->seq = PySequence_Fast(o, "tokens: a sequence of str, or one run of moves as str");
    if (!k->seq) return -1;
    k->count = PySequence_Fast_GET_SIZE(k->seq);
    return 0;
}

static void tokens_close(Tokens *k) {
    Py_XDECREF(k->seq);
    Py_XDECREF(k->bytes);
    k->seq = k->bytes = NULL;
}

static inline int run_blank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

/* The next token: 1 (its text and length), 0 at the end, -1 where a sequence's item is no
 * text (the caller stops there, as at a notation it does not read). */
static int tokens_next(Tokens *k, const char **t, Py_ssize_t *len) {
    if (k->seq) {
        if (k->i >= k->count) return 0;
        PyObject *o = PySequence_Fast_GET_ITEM(k->seq, k->i);
        const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8AndSize(o, len) : NULL;
        if (!s) { if (PyErr_Occurred()) PyErr_Clear(); return -1; }
        *t = s; k->i++;
        return 1;
    }
    const char *s = k->text; Py_ssize_t n = k->len, i = k->at;
    while (i < n && run_blank(s[i])) i++;
    if (i >= n) { k->at = n; return 0; }
    Py_ssize_t start = i, j = i;
    while (j < n && s[j] >= '0' && s[j] <= '9') j++;
    if (j > i && j < n && s[j] == '.') {            /* a move number: dots, blanks, a move */
        while (j < n && s[j] == '.') j++;
        Py_ssize_t b = j;
        while (b < n && run_blank(s[b])) b++;
        if (b < n) j = b;                          /* else the number stands alone */
    } else j = i;
    while (j < n && !run_blank(s[j])) j++;
    *t = s + start; *len = j - start;
    k->at = j; k->i++;
    if (k->bytes)   /* a token holding a surrogate (ED A0-BF: never UTF-8) is no text */
        for (Py_ssize_t b = start; b + 1 < j; b++)
            if ((unsigned char)s[b] == 0xED && ((unsigned char)s[b + 1] & 0xE0) == 0xA0)
                return -1;
    return 1;
}

/* The next move of a run of move tokens, resolved on ``p``: 1 and ``*m``, 0 at the run's
 * end, -1 where a token is no move of the position (its game is declined). */
static int next_move(const Rules *r, Tokens *texts, const Pos *p, Mv *buf, Mv *m) {
    Py_ssize_t len, start, end; long long number; int black;
    const char *t;
    int got = tokens_next(texts, &t, &len);
    if (got <= 0) return got;
    token_move(t, len, &start, &end, &number, &black);
    return resolve_text(r, p, t + start, end - start, buf, m) == STOP_END ? 1 : -1;
}

/* ---- the draw rules along a line (replay/rules/draws.py, DrawTracker) ---- */

enum { DRAWS_NONE = 0, DRAWS_RUSSIAN, DRAWS_INTERNATIONAL, DRAWS_ENGLISH, DRAWS_FRISIAN,
       DRAWS_LIDRAUGHTS_FRISIAN, DRAWS_HOUSE };
/* The claims, by code: replay.rules.native.DRAW_CLAIMS gives each its rule and words; ``group``
 * is the rule (two codes share 7.2.6), reported once. */
enum { CLAIM_REPETITION = 0, CLAIM_R725, CLAIM_R724, CLAIM_R728, CLAIM_R727, CLAIM_R726_SMALL,
       CLAIM_R726_LARGE, CLAIM_KINGS_25, CLAIM_LONE_16, CLAIM_LONE_5, CLAIM_KINGS_40,
       CLAIM_KINGS_3_7, CLAIM_KINGS_2_2, CLAIM_HOUSE_40, N_CLAIMS };
static const int claim_group[N_CLAIMS] = {0, 1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10, 11, 12};

typedef struct { bb white, black, kings; int turn; long count; } Seen;

typedef struct {
    int rules; bb diagonal;
    long ply, kings_only, quiet, balance_plies, diagonal_plies;
    int balance_known, wm, wk, bm, bk;
    unsigned met;
    Seen *seen; size_t cap, used;     /* positions since the last irreversible move */
    long claim_code[N_CLAIMS], claim_ply[N_CLAIMS]; int n_claims;
} Draws;

static void material(const Pos *p, Draws *d) {
    d->wm = popcount(p->white & ~p->kings); d->wk = popcount(p->white & p->kings);
    d->bm = popcount(p->black & ~p->kings); d->bk = popcount(p->black & p->kings);
    d->balance_known = 1;
}

static void seen_clear(Draws *d) {
    if (d->used) { memset(d->seen, 0, d->cap * sizeof(Seen)); d->used = 0; }
}

static size_t seen_slot(const Seen *table, size_t cap, const Pos *p) {
    uint64_t h = p->white * 0x9E3779B97F4A7C15ULL ^ p->black * 0xC2B2AE3D27D4EB4FULL
                 ^ p->kings * 0x165667B19E3779F9ULL ^ (uint64_t)p->turn;
    size_t i = (size_t)(h ^ (h >> 29)) & (cap - 1);
    while (table[i].count && (table[i].white != p->white || table[i].black != p->black
                              || table[i].kings != p->kings || table[i].turn != p->turn))
        i = (i + 1) & (cap - 1);
    return i;
}

/* How often the position has stood since the last irreversible move, this time included;
 * -1 when out of memory. */
static long seen_add(Draws *d, const Pos *p) {
    if (2 * (d->used + 1) > d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        Seen *table = PyMem_Calloc(cap, sizeof(Seen));
        if (!table) { PyErr_NoMemory(); return -1; }
        for (size_t i = 0; i < d->cap; i++)
            if (d->seen[i].count) {
                Pos q = {d->seen[i].white, d->seen[i].black, d->seen[i].kings, d->seen[i].turn,
                         {0, 0}, {0, 0}};
                table[seen_slot(table, cap, &q)] = d->seen[i];
            }
        PyMem_Free(d->seen); d->seen = table; d->cap = cap;
    }
    size_t i = seen_slot(d->seen, d->cap, p);
    if (!d->seen[i].count) {
        d->seen[i].white = p->white; d->seen[i].black = p->black;
        d->seen[i].kings = p->kings; d->seen[i].turn = p->turn; d->used++;
    }
    return ++d->seen[i].count;
}

static void meet(Draws *d, int code) {
    unsigned bit = 1u << claim_group[code];
    if (d->met & bit) return;
    d->met |= bit;
    d->claim_code[d->n_claims] = code; d->claim_ply[d->n_claims] = d->ply; d->n_claims++;
}

static int draws_start(Draws *d, int rules, bb diagonal, const Pos *start) {
    memset(d, 0, sizeof *d);
    d->rules = rules; d->diagonal = diagonal;
    material(start, d);
    return seen_add(d, start) < 0 ? -1 : 0;
}

/* DrawTracker.push: one move (``m`` from ``before`` to ``after``); -1 when out of memory. */
static int draws_push(Draws *d, const Pos *before, const Mv *m, const Pos *after) {
    d->ply++;
    int captures = m->ncap > 0;
    if (!after->kings && d->rules != DRAWS_HOUSE) {      /* _men_only */
        seen_clear(d);
        d->kings_only = d->diagonal_plies = 0;
        if (captures) { d->quiet = d->balance_plies = 0; d->balance_known = 0; }
        else { d->quiet++; d->balance_plies++; }
        return 0;
    }
    int king_move = (int)((before->kings >> m->from) & 1);
    if (captures || !king_move) seen_clear(d);
    if (!(d->met & (1u << claim_group[CLAIM_REPETITION]))) {  /* met: no longer counted */
        long count = seen_add(d, after);
        if (count < 0) return -1;
        if (count >= 3 && d->rules != DRAWS_LIDRAUGHTS_FRISIAN) meet(d, CLAIM_REPETITION);
    }
    d->kings_only = king_move && !captures ? d->kings_only + 1 : 0;
    int changed = captures || m->promotes;
    d->quiet = changed ? 0 : d->quiet + 1;
    if (changed || !d->balance_known) material(after, d);
    d->balance_plies = changed ? 0 : d->balance_plies + 1;
    if (!after->kings) {
        d->diagonal_plies = 0;
        if (d->rules != DRAWS_HOUSE) return 0;
    }
    int total = d->wm + d->wk + d->bm + d->bk;
    int lone = (d->wm == 0 && d->wk == 1) ? 0 : (d->bm == 0 && d->bk == 1) ? 1 : -1;
    int men = lone == 0 ? d->bm : d->wm, kings = lone == 0 ? d->bk : d->wk;
    switch (d->rules) {
    case DRAWS_RUSSIAN:
        if (d->kings_only >= 30) meet(d, CLAIM_R725);
        if (lone >= 0) {
            if (kings >= 3 && d->balance_plies >= 30) meet(d, CLAIM_R724);
            if (((men == 0 && kings == 2) || (men == 1 && kings == 1) || (men == 0 && kings == 1))
                && d->balance_plies >= 10) meet(d, CLAIM_R728);
            bb lone_bits = lone == 0 ? after->white : after->black;
            int on = (lone_bits & d->diagonal) != 0;
            d->diagonal_plies = on && ((men == 0 && kings == 3) || (men == 1 && kings == 2)
                                       || (men == 2 && kings == 1)) ? d->diagonal_plies + 1 : 0;
            if (d->diagonal_plies >= 10) meet(d, CLAIM_R727);
        } else d->diagonal_plies = 0;
        if (d->wk && d->bk) {
            if ((total == 4 || total == 5) && d->balance_plies >= 60) meet(d, CLAIM_R726_SMALL);
            if ((total == 6 || total == 7) && d->balance_plies >= 120) meet(d, CLAIM_R726_LARGE);
        }
        break;
    case DRAWS_INTERNATIONAL:
        if (d->kings_only >= 50) meet(d, CLAIM_KINGS_25);
        if (lone >= 0 && kings && men + kings == 3 && d->balance_plies >= 32)
            meet(d, CLAIM_LONE_16);
        if (lone >= 0 && kings && men + kings <= 2 && d->balance_plies >= 10)
            meet(d, CLAIM_LONE_5);
        break;
    case DRAWS_ENGLISH:
        if (d->kings_only >= 80) meet(d, CLAIM_KINGS_40);
        break;
    case DRAWS_FRISIAN:
        if (d->kings_only >= 50) meet(d, CLAIM_KINGS_25);
        break;
    case DRAWS_LIDRAUGHTS_FRISIAN:
        if (d->wm || d->bm) break;
        if (total == 3 && d->balance_plies >= 14) meet(d, CLAIM_KINGS_3_7);
        if (total == 2 && d->balance_plies >= 4) meet(d, CLAIM_KINGS_2_2);
        break;
    case DRAWS_HOUSE:
        if (d->quiet >= 80) meet(d, CLAIM_HOUSE_40);
        break;
    }
    return 0;
}

/* check(white, black, kings, turn, tokens, first, offset, first_mover, draws, diagonal)
 *   -> (plies, (white, black, kings, turn), stop, claims, moves left, counts)
 * A main line's move tokens replayed as ``replay`` does, nothing made per ply: the numbers
 * written are checked against the numbering (``first``: the first ply's number, ``offset``
 * 1 when the second player starts, ``first_mover`` 0 when White starts the variant's games,
 * 1 when Black does; a number the reference would warn about stops it with
 * STOP_NUMBER) and the draw rules ``draws`` (DRAWS_*; ``diagonal`` the long diagonal) are
 * counted: ``claims`` is ((claim code, ply), ...), each rule the first time it is met;
 * ``moves left``: whether the side to move in the final position has a legal move;
 * ``counts``: what ``count`` counts along the plies replayed (the moves that capture, the
 * pieces they take, the promotions, the ply of the first promotion of the side that moves
 * first and of the other, 0: none), so a replay checked here is not replayed again to
 * count them. */
static PyObject *Rules_check(RulesObject *self, PyObject *args) {
    Pos p;
    const Rules *r = &self->r;
    long long first; long offset, first_mover, rules; unsigned long long diagonal;
    if (PyTuple_GET_SIZE(args) != 10) {
        PyErr_SetString(PyExc_TypeError, "check(white, black, kings, turn, tokens, first, "
                        "offset, first_mover, draws, diagonal)");
        return NULL;
    }
    if (read_pos(r, args, 0, &p) < 0) return NULL;
    first = PyLong_AsLongLong(PyTuple_GET_ITEM(args, 5));
    if (first == -1 && PyErr_Occurred()) return NULL;
    if (read_int(PyTuple_GET_ITEM(args, 6), 0, 1, &offset) < 0
        || read_int(PyTuple_GET_ITEM(args, 7), 0, 1, &first_mover) < 0
        || read_int(PyTuple_GET_ITEM(args, 8), DRAWS_NONE, DRAWS_HOUSE, &rules) < 0
        || read_u64(PyTuple_GET_ITEM(args, 9), (bb *)&diagonal) < 0) return NULL;
    if (replayed_here(r) < 0) return NULL;
    Tokens texts;
    if (tokens_open(&texts, PyTuple_GET_ITEM(args, 4)) < 0) return NULL;
    Mv *buf = new_buffer(PLYMOVES);
    Draws d;
    d.seen = NULL;
    if (!buf || draws_start(&d, (int)rules, (bb)diagonal, &p) < 0) {
        tokens_close(&texts); PyMem_Free(buf); PyMem_Free(d.seen); return NULL;
    }
    int stop = STOP_END;
    long captures_ = 0, pieces = 0, promotions = 0, first_king[2] = {0, 0};
    Py_ssize_t i;
    for (i = 0;; i++) {
        Py_ssize_t len, start, end; long long number; int black;
        const char *t;
        int got = tokens_next(&texts, &t, &len);
        if (got == 0) break;
        if (got < 0) { stop = STOP_NOTATION; break; }
        token_move(t, len, &start, &end, &number, &black);
        if (number) {   /* replayer._check_number: a number or side it would warn about */
            long long expected = first + (i + offset) / 2;
            if (number != expected || (black && p.turn == first_mover)) {
                stop = STOP_NUMBER; break;
            }
        }
        Mv m;
        stop = resolve_text(r, &p, t + start, end - start, buf, &m);
        if (stop != STOP_END) break;
        if (m.ncap) { captures_++; pieces += m.ncap; }
        if (m.promotes) {
            promotions++;
            if (!first_king[i % 2]) first_king[i % 2] = (long)i + 1;
        }
        Pos q; play(r, &p, &m, &q);
        if (draws_push(&d, &p, &m, &q) < 0) {
            tokens_close(&texts); PyMem_Free(buf); PyMem_Free(d.seen); return NULL;
        }
        p = q;
    }
    PyMem_Free(buf);
    PyMem_Free(d.seen);
    tokens_close(&texts);
    bb own = p.turn == 0 ? p.white : p.black, opp = p.turn == 0 ? p.black : p.white;
    int moves_left = has_capture(r, own, opp, p.kings, p.turn)
                     || count_quiet(r, own, opp, p.kings, p.turn, 0) > 0;
    PyObject *claims = PyTuple_New(d.n_claims);
    if (!claims) return NULL;
    for (int c = 0; c < d.n_claims; c++) {
        PyObject *pair = Py_BuildValue("(ll)", d.claim_code[c], d.claim_ply[c]);
        if (!pair) { Py_DECREF(claims); return NULL; }
        PyTuple_SET_ITEM(claims, c, pair);
    }
    return Py_BuildValue("n(KKKi)iNO(lllll)", i, (unsigned long long)p.white,
                         (unsigned long long)p.black, (unsigned long long)p.kings, p.turn, stop,
                         claims, moves_left ? Py_True : Py_False, captures_, pieces,
                         promotions, first_king[0], first_king[1]);
}

/* replay(white, black, kings, turn, texts[, factory, extra])
 *   -> (moves, (white, black, kings, turn), stop)
 * Each move is (origin, path, captures, promotes, captured mask), or what
 * factory(origin, path, captures, promotes, captured mask, extra) makes of it; it stops at
 * the first text it cannot decide exactly (``stop`` says why; 0 when every text replayed). */
static PyObject *Rules_replay(RulesObject *self, PyObject *args) {
    Pos p;
    const Rules *r = &self->r;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs != 5 && nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "replay(white, black, kings, turn, texts[, factory, extra])");
        return NULL;
    }
    PyObject *factory = nargs == 7 ? PyTuple_GET_ITEM(args, 5) : Py_None;
    PyObject *extra = nargs == 7 ? PyTuple_GET_ITEM(args, 6) : Py_None;
    if (factory != Py_None && !PyCallable_Check(factory)) {
        PyErr_SetString(PyExc_TypeError, "factory: a callable or None");
        return NULL;
    }
    if (read_pos(r, args, 0, &p) < 0) return NULL;
    if (replayed_here(r) < 0) return NULL;
    Tokens texts;
    if (tokens_open(&texts, PyTuple_GET_ITEM(args, 4)) < 0) return NULL;
    PyObject *moves = PyList_New(0);
    Mv *buf = new_buffer(PLYMOVES);
    if (!moves || !buf) { tokens_close(&texts); Py_XDECREF(moves); PyMem_Free(buf); return NULL; }
    int stop = STOP_END;
    for (;;) {
        Py_ssize_t len;
        const char *t;
        int got = tokens_next(&texts, &t, &len);
        if (got == 0) break;
        if (got < 0) { stop = STOP_NOTATION; break; }
        Mv m;
        Py_ssize_t start, end; long long number; int black;
        token_move(t, len, &start, &end, &number, &black);
        stop = resolve_text(r, &p, t + start, end - start, buf, &m);
        if (stop != STOP_END) break;
        PyObject *mt = make_move(&m, factory, extra);
        if (!mt || PyList_Append(moves, mt) < 0) {
            Py_XDECREF(mt); Py_DECREF(moves); tokens_close(&texts); PyMem_Free(buf);
            return NULL;
        }
        Py_DECREF(mt);
        Pos q; play(r, &p, &m, &q); p = q;
    }
    PyMem_Free(buf);
    tokens_close(&texts);
    return Py_BuildValue("N(KKKi)i", moves, (unsigned long long)p.white,
                         (unsigned long long)p.black, (unsigned long long)p.kings, p.turn, stop);
}

/* ---- a main line written in another notation (replay.convert.plain) ---- */

enum { PATHS_MINIMAL = 0, PATHS_TURNS, PATHS_CANONICAL, PATHS_ALL };  /* notation.PATH_STYLES */
#define LINE_WIDTH 80    /* pdn.writer.LINE_WIDTH */
#define WORD_MAX 512     /* a move's word: at most MAXCAP + 2 names, each checked below */

/* Text built word by word as pdn.writer._wrap lays it out: a word goes on the current line
 * after a blank while the line stays within LINE_WIDTH characters, else it starts a new
 * line (a longer word stands alone). ASCII only: a character is a byte. */
typedef struct { char *data; Py_ssize_t len, cap, line; int started; } Words;

static int text_word(Words *w, const char *word, Py_ssize_t n) {
    if (w->len + n + 1 > w->cap) {
        Py_ssize_t cap = w->cap ? w->cap : 4096;
        while (cap < w->len + n + 1) cap *= 2;
        char *d = PyMem_Realloc(w->data, (size_t)cap);
        if (!d) { PyErr_NoMemory(); return -1; }
        w->data = d; w->cap = cap;
    }
    if (w->started) {
        if (w->len - w->line + 1 + n > LINE_WIDTH) { w->data[w->len++] = '\n'; w->line = w->len; }
        else w->data[w->len++] = ' ';
    }
    memcpy(w->data + w->len, word, (size_t)n);
    w->len += n; w->started = 1;
    return 0;
}

/* notation._behind: the playing square right behind ``sq`` going (dr, dc); -1 off the board */
static int behind(const Rules *r, int sq, int dr, int dc) {
    int rw = r->row[sq], c = r->col[sq];
    for (int guard = 0; guard < 32; guard++) {
        rw += dr; c += dc;
        if (rw < 0 || c < 0 || rw >= r->height || c >= r->width || rw >= 16 || c >= 16) return -1;
        if (r->cell[rw][c] >= 0) return r->cell[rw][c];
    }
    return -1;
}

/* notation.is_ambiguous: another capture of the piece on ``from`` lands where ``m`` does and
 * takes other pieces; -1 where the buffer overflowed */
static int ambiguous(const Rules *r, const Pos *p, const Mv *m, Mv *buf) {
    bb own = p->turn == 0 ? p->white : p->black, opp = p->turn == 0 ? p->black : p->white;
    int overflow = 0;
    int nc = captures(r, own, opp, p->kings, p->turn, (bb)1 << m->from, buf, PLYMOVES, &overflow);
    if (overflow) return -1;
    for (int i = 0; i < nc; i++)
        if (buf[i].from == m->from && buf[i].to == m->to && buf[i].mask != m->mask) return 1;
    return 0;
}

static int same_way(const Rules *r, int a, int b, int c) {
    int a1, b1, a2, b2;
    unit(r, a, b, &a1, &b1); unit(r, b, c, &a2, &b2);
    return a1 == a2 && b1 == b2;
}

/* notation.route_squares: the squares written for move ``m`` (played from ``p``) in a path
 * style; their count, -1 where the reference would look off the board (never in a legal
 * move) or a buffer overflowed. ``out`` holds MAXCAP + 2. */
static int route_written(const Rules *r, const Pos *p, const Mv *m, int paths, Mv *buf,
                         int *out) {
    int n = 0, ncap = m->ncap > MAXCAP ? MAXCAP : m->ncap;
    out[n++] = m->from;
    if (ncap == 0 || (ncap == 1 && paths != PATHS_ALL)) { out[n++] = m->to; return n; }
    int points[MAXCAP + 1];
    points[0] = m->from;
    for (int i = 0; i < ncap; i++) points[i + 1] = m->path[i];
    if (paths == PATHS_ALL) {
        for (int i = 0; i < ncap; i++) out[n++] = m->path[i];
        return n;
    }
    if (paths == PATHS_TURNS) {   /* notation.turning_squares */
        for (int i = 1; i < ncap; i++)
            if (!same_way(r, points[i - 1], points[i], points[i + 1])) out[n++] = points[i];
        out[n++] = m->to;
        return n;
    }
    if (paths == PATHS_MINIMAL) {
        int other = ambiguous(r, p, m, buf);
        if (other < 0) return -1;
        if (!other) { out[n++] = m->to; return n; }
    }
    for (int i = 0; i + 1 < ncap; i++) {   /* notation.canonical_squares */
        int before = points[i], here = points[i + 1], after = points[i + 2];
        if (!same_way(r, before, here, after)) { out[n++] = here; continue; }
        int dr, dc; unit(r, before, here, &dr, &dc);
        int sq = behind(r, m->caps[i], dr, dc);
        if (sq < 0) return -1;
        out[n++] = sq;
    }
    out[n++] = m->to;
    return n;
}

/* An ASCII str's bytes, or NULL (no error set) where it is not one */
static const char *ascii(PyObject *o, Py_ssize_t *len) {
    if (!PyUnicode_Check(o) || !PyUnicode_IS_ASCII(o)) return NULL;
    *len = PyUnicode_GET_LENGTH(o);
    return (const char *)PyUnicode_DATA(o);
}

/* The squares of a route named and joined into ``word`` (WORD_MAX); its length, -1 where a
 * name is missing. */
static Py_ssize_t route_word(const Rules *r, const int *squares, int n, PyObject *names,
                             const char *mark, Py_ssize_t mark_len, char *word) {
    Py_ssize_t at = 0;
    for (int k = 0; k < n; k++) {
        Py_ssize_t name_len;
        const char *name = squares[k] >= 0 && squares[k] < r->size
            ? ascii(PyTuple_GET_ITEM(names, squares[k]), &name_len) : NULL;
        if (!name || at + mark_len + name_len > WORD_MAX) return -1;
        if (k) { memcpy(word + at, mark, (size_t)mark_len); at += mark_len; }
        memcpy(word + at, name, (size_t)name_len); at += name_len;
    }
    return at;
}

/* write(white, black, kings, turn, tokens, names, separator, paths, number, second, result)
 *   -> str or None
 * A main line's move tokens (Tokens) replayed as ``replay`` does and written again as
 * pdn.writer writes the line of replay.convert's converted game: each move's squares
 * (notation.route_squares in style ``paths``, PATHS_*) named by ``names`` (one ASCII str per
 * internal square, None where none) and joined by ``separator`` for a capture, '-' for a
 * quiet move; a number before each first-player move and before the first ply where it is the
 * second player's (``number.``, ``number...``; from ``number`` and ``second``, the writer's
 * start, or the number a token was written with); then ``result``; the words laid out in
 * lines of at most LINE_WIDTH characters (pdn.writer._wrap). None where a token does not
 * replay exactly (Python's then), carries a mark after its move, or a name is missing: the
 * caller writes the game through the tree. */
static PyObject *Rules_write(RulesObject *self, PyObject *args) {
    Pos p;
    const Rules *r = &self->r;
    long paths, second_in;
    long long number;
    if (PyTuple_GET_SIZE(args) != 11) {
        PyErr_SetString(PyExc_TypeError, "write(white, black, kings, turn, tokens, names, "
                        "separator, paths, number, second, result)");
        return NULL;
    }
    if (read_pos(r, args, 0, &p) < 0) return NULL;
    PyObject *names = PyTuple_GET_ITEM(args, 5);
    Py_ssize_t sep_len = 0, result_len = 0;
    const char *sep = ascii(PyTuple_GET_ITEM(args, 6), &sep_len);
    const char *result = ascii(PyTuple_GET_ITEM(args, 10), &result_len);
    if (!per_square(r, names) || !sep || sep_len > 8 || !result) {
        PyErr_SetString(PyExc_ValueError, "write: names is a tuple of one name per square, "
                        "separator and result are ASCII str");
        return NULL;
    }
    if (read_int(PyTuple_GET_ITEM(args, 7), PATHS_MINIMAL, PATHS_ALL, &paths) < 0
        || read_int(PyTuple_GET_ITEM(args, 9), 0, 1, &second_in) < 0) return NULL;
    number = PyLong_AsLongLong(PyTuple_GET_ITEM(args, 8));
    if (number == -1 && PyErr_Occurred()) return NULL;
    if (replayed_here(r) < 0) return NULL;
    int second = (int)second_in;
    Tokens texts;
    if (tokens_open(&texts, PyTuple_GET_ITEM(args, 4)) < 0) return NULL;
    Mv *buf = new_buffer(PLYMOVES);
    if (!buf) { tokens_close(&texts); return NULL; }
    Words out = {NULL, 0, 0, 0, 0};
    int declined = 0, failed = 0;
    char word[WORD_MAX];
    for (Py_ssize_t i = 0;; i++) {
        Py_ssize_t len, start, end; long long written; int black;
        const char *t;
        int got = tokens_next(&texts, &t, &len);
        if (got == 0) break;
        if (got < 0) { declined = 1; break; }
        token_move(t, len, &start, &end, &written, &black);
        if (end != len || written < 0) { declined = 1; break; }   /* a mark: a ply's NAG */
        Mv m;
        if (resolve_text(r, &p, t + start, end - start, buf, &m) != STOP_END) {
            declined = 1; break;
        }
        if (written) { number = written; second = black; }
        int wn = 0;
        if (!second) wn = snprintf(word, sizeof word, "%lld.", number);
        else if (i == 0) wn = snprintf(word, sizeof word, "%lld...", number);
        if (wn < 0 || wn >= (int)sizeof word) { declined = 1; break; }
        if (wn && text_word(&out, word, wn) < 0) { failed = 1; break; }
        int squares[MAXCAP + 2];
        int n = route_written(r, &p, &m, (int)paths, buf, squares);
        if (n < 0) { declined = 1; break; }
        Py_ssize_t at = route_word(r, squares, n, names, m.ncap ? sep : "-",
                                   m.ncap ? sep_len : 1, word);
        if (at < 0) { declined = 1; break; }
        if (text_word(&out, word, at) < 0) { failed = 1; break; }
        Pos q; play(r, &p, &m, &q); p = q;
        if (second) { number++; second = 0; } else second = 1;
    }
    PyMem_Free(buf);
    tokens_close(&texts);
    if (!failed && !declined && text_word(&out, result, result_len) < 0) failed = 1;
    PyObject *text = NULL;
    if (!failed && !declined) text = PyUnicode_DecodeASCII(out.data, out.len, "strict");
    else if (!failed) text = Py_NewRef(Py_None);
    PyMem_Free(out.data);
    return text;
}

/* count(white, black, kings, turn, tokens, kept, names, separator, floor[, head])
 *   -> (plies, captures, pieces captured, promotions, first kings, texts, positions) or None
 * What replay.stats counts along a main line (rows._Walk), its move tokens (Tokens) replayed
 * as ``replay`` does: the moves that capture, the pieces they take, the promotions, the ply
 * (1-based) of the first promotion of the side that moves first and of the other (0: none);
 * the first ``kept`` moves as notation.full_text writes them (the minimal path, squares named
 * by ``names``, one ASCII str per internal square or None, joined by ``separator`` for a
 * capture, '-' for a quiet move); and the positions (white, black, kings, turn) after each
 * move while the board keeps at least ``floor`` pieces (none where ``floor`` is negative).
 * None where a token does not replay exactly or a name is missing (Python's then).
 * ``head`` true: only the line's head, the plies that give a text or a position, is replayed
 * (``plies`` and the counts are then of those plies alone: for a line ``check`` replayed
 * whole, whose counts it gave). */
static PyObject *Rules_count(RulesObject *self, PyObject *args) {
    Pos p;
    const Rules *r = &self->r;
    long kept, floor_, head = 0;
    Py_ssize_t given = PyTuple_GET_SIZE(args);
    if (given != 9 && given != 10) {
        PyErr_SetString(PyExc_TypeError, "count(white, black, kings, turn, tokens, kept, names, "
                        "separator, floor[, head])");
        return NULL;
    }
    if (read_pos(r, args, 0, &p) < 0) return NULL;
    PyObject *names = PyTuple_GET_ITEM(args, 6);
    Py_ssize_t sep_len = 0;
    const char *sep = ascii(PyTuple_GET_ITEM(args, 7), &sep_len);
    if (!per_square(r, names) || !sep || sep_len > 8) {
        PyErr_SetString(PyExc_ValueError, "count: names is a tuple of one name per square, "
                        "the separator an ASCII str");
        return NULL;
    }
    if (read_int(PyTuple_GET_ITEM(args, 5), 0, 1000, &kept) < 0
        || read_int(PyTuple_GET_ITEM(args, 8), -1, MAXSQ, &floor_) < 0
        || (given == 10 && read_int(PyTuple_GET_ITEM(args, 9), 0, 1, &head) < 0)) return NULL;
    if (replayed_here(r) < 0) return NULL;
    Tokens texts;
    if (tokens_open(&texts, PyTuple_GET_ITEM(args, 4)) < 0) return NULL;
    Mv *buf = new_buffer(PLYMOVES);
    PyObject *words = PyList_New(0), *after = PyList_New(0);
    if (!buf || !words || !after) {
        tokens_close(&texts); PyMem_Free(buf); Py_XDECREF(words); Py_XDECREF(after);
        return NULL;
    }
    int declined = 0, failed = 0;
    int searching = floor_ >= 0 && popcount(p.white | p.black) >= floor_;
    long captures_ = 0, pieces = 0, promotions = 0, first_king[2] = {0, 0};
    Py_ssize_t i;
    char word[WORD_MAX];
    for (i = 0;; i++) {
        Mv m;
        if (head && i >= kept && !searching) break;  /* no text, no position further on */
        int got = next_move(r, &texts, &p, buf, &m);
        if (got == 0) break;
        if (got < 0) { declined = 1; break; }
        if (m.ncap) { captures_++; pieces += m.ncap; }
        if (m.promotes) {
            promotions++;
            if (!first_king[i % 2]) first_king[i % 2] = (long)i + 1;
        }
        if (i < kept) {
            int squares[MAXCAP + 2];
            int n = route_written(r, &p, &m, PATHS_MINIMAL, buf, squares);
            Py_ssize_t at = n < 0 ? -1 : route_word(r, squares, n, names,
                                                    m.ncap ? sep : "-", m.ncap ? sep_len : 1,
                                                    word);
            if (at < 0) { declined = 1; break; }
            PyObject *text = PyUnicode_DecodeASCII(word, at, "strict");
            if (!text || PyList_Append(words, text) < 0) { Py_XDECREF(text); failed = 1; break; }
            Py_DECREF(text);
        }
        Pos q; play(r, &p, &m, &q); p = q;
        if (searching) {
            searching = popcount(p.white | p.black) >= floor_;
            if (searching) {
                PyObject *key = Py_BuildValue("(KKKi)", (unsigned long long)p.white,
                                              (unsigned long long)p.black,
                                              (unsigned long long)p.kings, p.turn);
                if (!key || PyList_Append(after, key) < 0) { Py_XDECREF(key); failed = 1; break; }
                Py_DECREF(key);
            }
        }
    }
    PyMem_Free(buf);
    tokens_close(&texts);
    if (failed || declined) {
        Py_DECREF(words); Py_DECREF(after);
        if (failed) return NULL;
        Py_RETURN_NONE;
    }
    return Py_BuildValue("nlll(ll)NN", i, captures_, pieces, promotions, first_king[0],
                         first_king[1], words, after);
}

/* notation.short_is_ambiguous (its own shortcut included): whether another legal move of a
 * piece in the moving piece's file (``column``, generator.column_masks) lands where ``m``
 * does, capturing as it does; ``letter`` gives each square's file letter. -1: overflow. */
static int short_ambiguous(const Rules *r, const Pos *p, const Mv *m, bb column,
                           int men_share_files, const char *letter, Mv *buf) {
    bb own = p->turn == 0 ? p->white : p->black, opp = p->turn == 0 ? p->black : p->white;
    bb others = own & column & ~((bb)1 << m->from);
    if (others && m->ncap)
        others &= capturing_men(r, own, opp, p->kings, p->turn) | (own & p->kings);
    else if (!men_share_files && !((p->kings >> m->from) & 1))
        others &= p->kings;
    if (!others) return 0;
    int overflow = 0, n;
    if (m->ncap) n = captures(r, own, opp, p->kings, p->turn, column, buf, PLYMOVES, &overflow);
    else n = quiet_moves(r, own, opp, p->kings, p->turn, 0, buf, 0, PLYMOVES, &overflow);
    if (overflow) return -1;
    for (int i = 0; i < n; i++) {
        const Mv *o = &buf[i];
        if (!m->ncap && !((column >> o->from) & 1)) continue;   /* quiet_moves_to(column) */
        if (o->to != m->to || letter[o->from] != letter[m->from] || !o->ncap != !m->ncap)
            continue;
        if (o->from != m->from || o->mask != m->mask) return 1;
    }
    return 0;
}

/* A growing byte buffer (PyMem): the moves table's columns of a line, made without a
 * Python object per ply. */
typedef struct { char *data; size_t len, cap; } Grow;

static int grow_put(Grow *g, const void *src, size_t n) {
    if (n > ((size_t)PY_SSIZE_T_MAX >> 1) - g->len) { PyErr_NoMemory(); return -1; }
    if (g->len + n > g->cap) {
        size_t cap = g->cap ? g->cap : 256;
        while (cap < g->len + n) cap *= 2;
        char *data = PyMem_Realloc(g->data, cap);
        if (!data) { PyErr_NoMemory(); return -1; }
        g->data = data; g->cap = cap;
    }
    if (n) memcpy(g->data + g->len, src, n);
    g->len += n;
    return 0;
}

#define ROW_COUNTS 7   /* piece, captured, promotes, white men, white kings, black men, kings */
#define ROW_TEXTS 5    /* full, short, numeric, origin's name, destination's name */

/* rows(white, black, kings, turn, tokens, names, numbers, letters, squares, columns,
 *      men_share_files, separator) -> (counts, lengths, full, short, numeric, origins,
 *      destinations) or None
 * replay.stats.rows._move_row of every move of a main line (Tokens, replayed as ``replay``
 * does), as columns in bytes: ``counts`` ROW_COUNTS unsigned bytes a ply (piece (1 king),
 * pieces captured, promotes (1), white men, white kings, black men, black kings after it),
 * ``lengths`` ROW_TEXTS native uint16 a ply, the byte length of each of its texts, and
 * each text column's texts one after the other: the full text, the short text, the
 * numeric text, the origin's and the destination's names. ``names``: the names the full
 * text writes, ``numbers`` the squares' numbers, ``letters`` their alphanumeric names,
 * ``squares`` the names of the origin and destination columns (one ASCII str per internal
 * square each, None where none); ``columns`` each square's file mask
 * (generator.column_masks); ``separator`` the capture mark. None where a token does not
 * replay exactly or a name is missing (Python's then). */
static PyObject *Rules_rows(RulesObject *self, PyObject *args) {
    Pos p;
    const Rules *r = &self->r;
    long share;
    if (PyTuple_GET_SIZE(args) != 12) {
        PyErr_SetString(PyExc_TypeError, "rows(white, black, kings, turn, tokens, names, "
                        "numbers, letters, squares, columns, men_share_files, separator)");
        return NULL;
    }
    if (read_pos(r, args, 0, &p) < 0) return NULL;
    PyObject *names = PyTuple_GET_ITEM(args, 5), *numbers = PyTuple_GET_ITEM(args, 6),
             *letters = PyTuple_GET_ITEM(args, 7), *named = PyTuple_GET_ITEM(args, 8),
             *columns = PyTuple_GET_ITEM(args, 9);
    Py_ssize_t sep_len = 0;
    const char *sep = ascii(PyTuple_GET_ITEM(args, 11), &sep_len);
    if (!per_square(r, names) || !per_square(r, numbers) || !per_square(r, letters)
        || !per_square(r, named) || !per_square(r, columns) || !sep || sep_len > 8) {
        PyErr_SetString(PyExc_ValueError, "rows: names, numbers, letters, squares, columns are "
                        "tuples of one value per square, the separator an ASCII str");
        return NULL;
    }
    if (read_int(PyTuple_GET_ITEM(args, 10), 0, 1, &share) < 0) return NULL;
    bb column[MAXSQ];
    char letter[MAXSQ];
    for (int s = 0; s < r->size; s++) {
        if (read_u64(PyTuple_GET_ITEM(columns, s), &column[s]) < 0) return NULL;
        Py_ssize_t n;
        const char *name = ascii(PyTuple_GET_ITEM(letters, s), &n);
        letter[s] = name && n > 0 ? name[0] : 0;
    }
    if (replayed_here(r) < 0) return NULL;
    Tokens texts;
    if (tokens_open(&texts, PyTuple_GET_ITEM(args, 4)) < 0) return NULL;
    Mv *buf = new_buffer(PLYMOVES);
    if (!buf) { tokens_close(&texts); return NULL; }
    Grow out[2 + ROW_TEXTS];   /* counts, lengths, then each text column */
    memset(out, 0, sizeof out);
    int declined = 0, failed = 0;
    char full[WORD_MAX], numeric[WORD_MAX], short_[WORD_MAX];
    for (;;) {
        Mv m;
        int got = next_move(r, &texts, &p, buf, &m);
        if (got == 0) break;
        if (got < 0) { declined = 1; break; }
        int squares[MAXCAP + 2];
        int n = route_written(r, &p, &m, PATHS_MINIMAL, buf, squares);
        const char *mark = m.ncap ? sep : "-";
        Py_ssize_t mark_len = m.ncap ? sep_len : 1;
        Py_ssize_t full_len = n < 0 ? -1 : route_word(r, squares, n, names, mark, mark_len, full);
        Py_ssize_t number_len = n < 0 ? -1
            : route_word(r, squares, n, numbers, mark, mark_len, numeric);
        int ambiguous = short_ambiguous(r, &p, &m, column[m.from], (int)share, letter, buf);
        Py_ssize_t short_len = -1;
        if (ambiguous > 0 && n >= 0)
            short_len = route_word(r, squares, n, letters, mark, mark_len, short_);
        else if (ambiguous == 0) {
            Py_ssize_t dest_len;
            const char *dest = ascii(PyTuple_GET_ITEM(letters, m.to), &dest_len);
            if (dest && letter[m.from] && dest_len + 2 <= WORD_MAX) {
                short_len = 0;
                short_[short_len++] = letter[m.from];
                if (m.ncap) short_[short_len++] = ':';
                memcpy(short_ + short_len, dest, (size_t)dest_len); short_len += dest_len;
            }
        }
        Py_ssize_t from_len = 0, to_len = 0;
        const char *from = ascii(PyTuple_GET_ITEM(named, m.from), &from_len);
        const char *to = ascii(PyTuple_GET_ITEM(named, m.to), &to_len);
        if (full_len < 0 || number_len < 0 || short_len < 0 || !from || !to
            || from_len > WORD_MAX || to_len > WORD_MAX) {
            declined = 1; break;
        }
        unsigned char counts[ROW_COUNTS];
        counts[0] = (unsigned char)((p.kings >> m.from) & 1);
        counts[1] = (unsigned char)m.ncap;
        counts[2] = (unsigned char)(m.promotes != 0);
        Pos q; play(r, &p, &m, &q); p = q;
        counts[3] = (unsigned char)popcount(p.white & ~p.kings);
        counts[4] = (unsigned char)popcount(p.white & p.kings);
        counts[5] = (unsigned char)popcount(p.black & ~p.kings);
        counts[6] = (unsigned char)popcount(p.black & p.kings);
        const char *text[ROW_TEXTS] = {full, short_, numeric, from, to};
        Py_ssize_t len[ROW_TEXTS] = {full_len, short_len, number_len, from_len, to_len};
        uint16_t lengths[ROW_TEXTS];   /* each at most WORD_MAX, checked above */
        for (int c = 0; c < ROW_TEXTS; c++) lengths[c] = (uint16_t)len[c];
        if (grow_put(&out[0], counts, sizeof counts) < 0
            || grow_put(&out[1], lengths, sizeof lengths) < 0) { failed = 1; break; }
        for (int c = 0; c < ROW_TEXTS && !failed; c++)
            if (grow_put(&out[2 + c], text[c], (size_t)len[c]) < 0) failed = 1;
        if (failed) break;
    }
    PyMem_Free(buf);
    tokens_close(&texts);
    PyObject *made = NULL;
    if (!failed && !declined) {
        made = PyTuple_New(2 + ROW_TEXTS);
        for (int c = 0; made && c < 2 + ROW_TEXTS; c++) {
            PyObject *bytes = PyBytes_FromStringAndSize(out[c].data ? out[c].data : "",
                                                        (Py_ssize_t)out[c].len);
            if (!bytes) Py_CLEAR(made);
            else PyTuple_SET_ITEM(made, c, bytes);
        }
    }
    for (int c = 0; c < 2 + ROW_TEXTS; c++) PyMem_Free(out[c].data);
    if (failed || (!declined && !made)) return NULL;
    if (declined) Py_RETURN_NONE;
    return made;
}

/* ---- what a plain run's first moves say of the board (replay.record.inference) ---- */

/* One record of the reader's plain shape (pdn.plain's _RECORD): a move number
 * ``[1-9][0-9]{0,2}`` with one or three dots and blanks, then ``[1-9][0-9]?`` squares joined
 * by '-' or 'x', or ``[a-h][1-8]`` squares joined by '-', 'x' or ':'; the move's bounds in
 * ``t``, the highest number, widest file (0 = a) and highest rank. 0 where it is not. */
static int plain_record(const char *t, Py_ssize_t len, Py_ssize_t *move, long *number,
                        long *file, long *rank) {
    Py_ssize_t i = 0;
    if (len > 0 && t[0] >= '1' && t[0] <= '9') {
        Py_ssize_t j = 1;
        while (j < len && j < 3 && t[j] >= '0' && t[j] <= '9') j++;
        if (j < len && t[j] == '.') {
            j++;
            if (j + 1 < len && t[j] == '.' && t[j + 1] == '.') j += 2;
            while (j < len && run_blank(t[j])) j++;
            i = j;
        }
    }
    *move = i;
    if (i >= len) return 0;
    int numeric = t[i] >= '1' && t[i] <= '9';
    int squares = 0;
    while (i < len) {
        if (squares) {
            char c = t[i];
            if (!(c == '-' || c == 'x' || (c == ':' && !numeric))) return 0;
            if (++i >= len) return 0;
        }
        if (numeric) {
            if (t[i] < '1' || t[i] > '9') return 0;
            long v = t[i++] - '0';
            if (i < len && t[i] >= '0' && t[i] <= '9') v = v * 10 + (t[i++] - '0');
            if (v > *number) *number = v;
        } else {
            if (t[i] < 'a' || t[i] > 'h' || i + 1 >= len || t[i + 1] < '1' || t[i + 1] > '8')
                return 0;
            if (t[i] - 'a' > *file) *file = t[i] - 'a';
            if (t[i + 1] - '0' > *rank) *rank = t[i + 1] - '0';
            i += 2;
        }
        squares++;
    }
    return squares >= 2;
}

/* written_squares(run, plies) -> (highest number, widest file, highest rank, first move) or
 * None: what the first ``plies`` records of a run of moves (Tokens) say of the board, as
 * replay.record.inference._written_squares reads them (0, -1, 0 where none says; the first move's
 * text without its number, None without a record); None where one of them is not of the
 * reader's plain shape (``plain_record``): then Python reads them. */
static PyObject *written_squares(PyObject *Py_UNUSED(module), PyObject *args) {
    PyObject *run; Py_ssize_t plies;
    if (!PyArg_ParseTuple(args, "Un", &run, &plies)) return NULL;
    Tokens k;
    if (tokens_open(&k, run) < 0) return NULL;
    long number = 0, file = -1, rank = 0;
    const char *first = NULL; Py_ssize_t first_len = 0;
    for (Py_ssize_t n = 0; n < plies; n++) {
        const char *t; Py_ssize_t len, move;
        int got = tokens_next(&k, &t, &len);
        if (got == 0) break;
        if (got < 0 || !plain_record(t, len, &move, &number, &file, &rank)) {
            tokens_close(&k); Py_RETURN_NONE;
        }
        if (!first) { first = t + move; first_len = len - move; }
    }
    PyObject *text = first ? PyUnicode_DecodeUTF8(first, first_len, "strict") : Py_NewRef(Py_None);
    tokens_close(&k);
    if (!text) return NULL;
    return Py_BuildValue("lllN", number, file, rank, text);
}

/* ---- a position's FEN (replay.rules.position.position_fen) ---- */

/* fen(white, black, kings, turn, order, names) -> str or None: ``W:W..:B..`` with each side's
 * squares in ``order`` (bytes: the square indices as the FEN lists them), named by ``names``
 * (a tuple of ASCII str, one per entry of ``order``), a king's with a ``K``; None where a
 * piece stands on a square ``order`` does not hold (the reference says why). */
static PyObject *fen(PyObject *Py_UNUSED(module), PyObject *args) {
    unsigned long long side[2], kings; int turn; PyObject *order, *names;
    if (!PyArg_ParseTuple(args, "KKKiSO!", &side[0], &side[1], &kings, &turn, &order,
                          &PyTuple_Type, &names)) return NULL;
    Py_ssize_t n = PyBytes_GET_SIZE(order);
    const unsigned char *sq = (const unsigned char *)PyBytes_AS_STRING(order);
    if (PyTuple_GET_SIZE(names) != n) {
        PyErr_SetString(PyExc_ValueError, "fen: one name per square of the order");
        return NULL;
    }
    bb placed = 0;
    Py_ssize_t size = 5, listed[2] = {0, 0};   /* "W:W" ":B", then each side's squares */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (!PyUnicode_Check(name) || !PyUnicode_IS_ASCII(name) || sq[i] >= 64) {
            PyErr_SetString(PyExc_ValueError, "fen: names are ASCII str, squares below 64");
            return NULL;
        }
        bb bit = (bb)1 << sq[i];
        for (int c = 0; c < 2; c++)
            if (side[c] & bit) {
                size += PyUnicode_GET_LENGTH(name) + ((kings & bit) != 0) + (listed[c] > 0);
                listed[c]++;
            }
        placed |= bit;
    }
    if ((side[0] | side[1]) & ~placed) Py_RETURN_NONE;
    PyObject *out = PyUnicode_New(size, 127);
    if (!out) return NULL;
    char *w = (char *)PyUnicode_DATA(out);
    *w++ = turn == 0 ? 'W' : 'B';
    for (int c = 0; c < 2; c++) {
        *w++ = ':'; *w++ = c == 0 ? 'W' : 'B';
        int any = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            bb bit = (bb)1 << sq[i];
            if (!(side[c] & bit)) continue;
            if (any++) *w++ = ',';
            if (kings & bit) *w++ = 'K';
            PyObject *name = PyTuple_GET_ITEM(names, i);
            Py_ssize_t len = PyUnicode_GET_LENGTH(name);
            memcpy(w, PyUnicode_DATA(name), (size_t)len);
            w += len;
        }
    }
    return out;
}

#ifdef RULES_EMBEDDED

/* The type of the Rules objects replay.rules._native makes, found by rules_extension(). */
static PyTypeObject *rules_type;

/* The module of an extension built on this core (one a translation unit), whose functions
 * take replay.rules._native's Rules objects (rules_argument); NULL with an exception where
 * that module cannot be imported or was built with another layout of RulesObject. */
static PyObject *rules_extension(const char *name, const char *doc, PyMethodDef *functions) {
    static struct PyModuleDef definition = {PyModuleDef_HEAD_INIT};
    PyObject *module = PyImport_ImportModule("replay.rules._native");
    if (!module) return NULL;
    PyObject *type = PyObject_GetAttrString(module, "Rules");
    Py_DECREF(module);
    if (!type) return NULL;
    if (!PyType_Check(type) || ((PyTypeObject *)type)->tp_basicsize != sizeof(RulesObject)) {
        Py_DECREF(type);
        PyErr_SetString(PyExc_ImportError,
                        "replay.rules._native was built from another source: rebuild");
        return NULL;
    }
    rules_type = (PyTypeObject *)type;   /* kept: the module holds it for good */
    definition.m_name = name;
    definition.m_doc = doc;
    definition.m_size = -1;
    definition.m_methods = functions;
    return PyModule_Create(&definition);
}

/* The rules of a call's first argument, a replay.rules._native.Rules, the call having
 * ``n`` arguments in all (``usage`` says which); NULL with a TypeError otherwise. */
static const Rules *rules_argument(PyObject *args, Py_ssize_t n, const char *usage) {
    if (PyTuple_GET_SIZE(args) != n) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    PyObject *o = PyTuple_GET_ITEM(args, 0);
    if (!PyObject_TypeCheck(o, rules_type)) {
        PyErr_Format(PyExc_TypeError, "%s: the rules are a replay.rules._native.Rules, not %s",
                     usage, Py_TYPE(o)->tp_name);
        return NULL;
    }
    return &((RulesObject *)o)->r;
}

#else  /* the module replay.rules._native */

static PyMethodDef module_functions[] = {
    {"written_squares", written_squares, METH_VARARGS,
     "written_squares(run, plies): (highest number, widest file, highest rank, first move) "
     "or None"},
    {"fen", fen, METH_VARARGS,
     "fen(white, black, kings, turn, order, names): the position's FEN, or None"},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef Rules_methods[] = {
    {"routes", (PyCFunction)Rules_routes, METH_VARARGS,
     "routes(white, black, kings, turn, origins, frozen): (capture routes, quiet moves)"},
    {"has_capture", (PyCFunction)Rules_has_capture, METH_VARARGS,
     "has_capture(white, black, kings, turn): whether the side to move can capture"},
    {"perft", (PyCFunction)Rules_perft, METH_VARARGS,
     "perft(white, black, kings, turn, streaks, depth, keep_duplicates): leaf nodes"},
    {"replay", (PyCFunction)Rules_replay, METH_VARARGS,
     "replay(white, black, kings, turn, texts[, factory, extra]): (moves, final position, "
     "stop)"},
    {"check", (PyCFunction)Rules_check, METH_VARARGS,
     "check(white, black, kings, turn, tokens, first, offset, first_mover, draws, diagonal): "
     "(plies, final position, stop, draw claims, moves left, counts)"},
    {"write", (PyCFunction)Rules_write, METH_VARARGS,
     "write(white, black, kings, turn, tokens, names, separator, paths, number, second, "
     "result): the line written in another notation, or None"},
    {"count", (PyCFunction)Rules_count, METH_VARARGS,
     "count(white, black, kings, turn, tokens, kept, names, separator, floor[, head]): "
     "what the statistics count along a line (its head alone), or None"},
    {"rows", (PyCFunction)Rules_rows, METH_VARARGS,
     "rows(white, black, kings, turn, tokens, names, numbers, letters, squares, columns, "
     "men_share_files, separator): the moves table's columns of a line in bytes, or None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "replay.rules._native.Rules",
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A variant's rules as the native move generator's tables.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rules_init,
    .tp_methods = Rules_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "replay.rules._native",
    "The native rules core (replay/rules/_native.c); use it through replay.rules.native.", -1,
    module_functions, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&RulesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType); Py_DECREF(m); return NULL;
    }
    PyModule_AddIntConstant(m, "MAX_SQUARES", MAXSQ);
    return m;
}

#endif
