/* The built-in engine's search (docs/engines.md), on the native move generator: the module
 * replay.engine._search, used by replay/engine/builtin.py.
 *
 * It #includes the rules core, replay/rules/_native.c, for the generator's own static
 * functions (legal, play, has_capture, count_quiet) and searches the Rules objects that
 * replay.rules._native makes: search(rules, ...). Negamax with principal-variation search,
 * iterative deepening, a transposition table of Zobrist keys, move ordering (table move,
 * captures, promotions, killers, history), late-move reductions of quiet moves, a quiescence
 * search that follows every capture (forced captures: no stand-pat while the mover must
 * capture), repetition within the game and the search path as a draw, and an evaluation per
 * variant family.
 *
 * Scores are centi-men from the mover's side; a won end n plies away is S_MATE - n, a lost
 * one -(S_MATE - n): the second Hub protocol's units (Scan 3.x's score.hpp: Inf 10000,
 * which replay/engine/hub.py reads as a distance in plies past 9000).
 *
 * Limits: depth, nodes (never more nodes than the limit), milliseconds (the clock is read
 * every 64 nodes), and a stop flag (a bytearray another thread sets to non-zero). The move
 * returned is the first of the last completed iteration's line.
 */
#define RULES_EMBEDDED
#include "../rules/_native.c"
#include <time.h>

#define S_MATE 10000
#define S_MATE_FROM 9000
#define S_INF 30000
#define S_MAXPLY 96
#define S_HISTORY 1024      /* positions of the game before the root, for repetitions */
#define S_TT_BITS 20

enum { FAMILY_CLASSIC = 0, FAMILY_LOSER_WINS = 1, FAMILY_FIRST_KING_WINS = 2 };
enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct {
    uint64_t key;
    bb mask;             /* the move: origin, destination, captured set */
    int16_t score;
    int8_t depth;
    uint8_t flag, from, to;
} TTEntry;

typedef struct {
    const Rules *r;
    Mv *buf;                               /* PLYMOVES a ply */
    TTEntry *tt; uint64_t ttmask;
    uint64_t zob[4][MAXSQ], zturn;
    uint64_t path[S_HISTORY + S_MAXPLY + 2]; int npath;
    int history[2][MAXSQ][MAXSQ];
    Mv killer[S_MAXPLY][2];
    Mv pv[S_MAXPLY][S_MAXPLY]; int pvlen[S_MAXPLY];
    int keys[S_MAXPLY][PLYMOVES];          /* move ordering, a ply's moves */
    unsigned long long nodes, max_nodes;
    double deadline;                       /* seconds of CLOCK_MONOTONIC, 0: none */
    volatile const char *stop_flag;
    int stopped, overflow;
    int family, king_value, man_value;
    int adv[2][MAXSQ];                     /* rows from the mover's own back row, weighted */
    int centre[MAXSQ];
    bb back[2];                            /* each side's own back row */
} Eng;

static double s_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t s_splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The evaluation's tables from the board's geometry: a side's far row is its promotion row,
 * its own back row the one opposite; advancement counts rows from the back row. */
static void s_tables(Eng *e) {
    const Rules *r = e->r;
    uint64_t seed = 0x5EED;
    for (int k = 0; k < 4; k++)
        for (int sq = 0; sq < MAXSQ; sq++) e->zob[k][sq] = s_splitmix(&seed);
    e->zturn = s_splitmix(&seed);
    int height = r->height, width = r->width;
    for (int c = 0; c < 2; c++) {
        int far = -1;
        for (int sq = 0; sq < r->size; sq++)
            if ((r->promo[c] >> sq) & 1 && r->row[sq] >= 0) { far = r->row[sq]; break; }
        e->back[c] = 0;
        for (int sq = 0; sq < MAXSQ; sq++) {
            e->adv[c][sq] = 0;
            if (sq >= r->size || r->row[sq] < 0 || far < 0) continue;
            int from_far = r->row[sq] > far ? r->row[sq] - far : far - r->row[sq];
            int rows = height - 1 - from_far;          /* 0 on the own back row */
            if (rows == 0) e->back[c] |= (bb)1 << sq;
            if (e->family == FAMILY_FIRST_KING_WINS)
                e->adv[c][sq] = rows * rows * 60 / ((height - 1) * (height - 1)) + 2 * rows;
            else
                e->adv[c][sq] = 2 * rows;
        }
    }
    for (int sq = 0; sq < MAXSQ; sq++) {
        e->centre[sq] = 0;
        if (sq >= r->size || r->row[sq] < 0) continue;
        int rw = r->row[sq], cl = r->col[sq];
        int in_rows = 2 * rw >= height / 2 - 1 && 2 * rw <= height + height / 2 - 1;
        int in_cols = 4 * cl >= width - 1 && 4 * cl <= 3 * (width - 1);
        e->centre[sq] = (in_rows && in_cols) ? 4 : 0;
    }
}

static uint64_t s_hash(const Eng *e, const Pos *p) {
    uint64_t h = p->turn ? e->zturn : 0;
    bb sets[4] = {p->white & ~p->kings, p->black & ~p->kings, p->white & p->kings,
                  p->black & p->kings};
    for (int k = 0; k < 4; k++)
        for (bb x = sets[k]; x; x &= x - 1) h ^= e->zob[k][lowbit(x)];
    return h;
}

/* One side's material and position, in centi-men. */
static int s_side(const Eng *e, const Pos *p, int c) {
    bb own = c == 0 ? p->white : p->black, opp = c == 0 ? p->black : p->white;
    bb men = own & ~p->kings, kings = own & p->kings;
    int s = e->man_value * popcount(men) + e->king_value * popcount(kings);
    if (e->family == FAMILY_LOSER_WINS) return s;
    for (bb x = men; x; x &= x - 1) {
        int sq = lowbit(x);
        s += e->adv[c][sq] + e->centre[sq];
    }
    for (bb x = kings; x; x &= x - 1) s += e->centre[lowbit(x)];
    if (!(opp & p->kings)) s += 5 * popcount(men & e->back[c]);   /* guards of the back row */
    return s;
}

static int s_eval(const Eng *e, const Pos *p) {
    int own = s_side(e, p, p->turn), opp = s_side(e, p, 1 - p->turn);
    return e->family == FAMILY_LOSER_WINS ? opp - own : own - opp;
}

static int s_check(Eng *e) {
    if (e->stopped) return 1;
    if (e->max_nodes && e->nodes >= e->max_nodes) e->stopped = 1;
    else if ((e->nodes & 63) == 0) {
        if (e->stop_flag && *e->stop_flag) e->stopped = 1;
        else if (e->deadline > 0 && s_now() >= e->deadline) e->stopped = 1;
    }
    return e->stopped;
}

static int s_repeated(const Eng *e, uint64_t h) {
    for (int i = e->npath - 2; i >= 0; i -= 2)
        if (e->path[i] == h) return 1;
    return 0;
}

static int s_same(const Mv *a, const Mv *b) {
    return a->from == b->from && a->to == b->to && a->mask == b->mask;
}

static int s_to_tt(int score, int ply) {
    return score > S_MATE_FROM ? score + ply : score < -S_MATE_FROM ? score - ply : score;
}

static int s_from_tt(int score, int ply) {
    return score > S_MATE_FROM ? score - ply : score < -S_MATE_FROM ? score + ply : score;
}

/* The value of a position without moves for the side to move, ply plies from the root. */
static int s_no_moves(const Eng *e, int ply) {
    return e->family == FAMILY_LOSER_WINS ? S_MATE - ply : -(S_MATE - ply);
}

static int s_search(Eng *e, const Pos *p, int depth, int alpha, int beta, int ply);

static int s_node(Eng *e, const Pos *p, int depth, int alpha, int beta, int ply,
                  uint64_t h) {
    const Rules *r = e->r;
    int is_pv = beta - alpha > 1;
    bb own = p->turn == 0 ? p->white : p->black, opp = p->turn == 0 ? p->black : p->white;
    if (e->family == FAMILY_FIRST_KING_WINS && p->kings) {   /* the first king has won */
        if (p->kings & opp) return -(S_MATE - ply);
        return S_MATE - ply;
    }
    if (ply >= S_MAXPLY - 1) return s_eval(e, p);
    int capture = has_capture(r, own, opp, p->kings, p->turn);
    int quiesce = depth <= 0;
    int stand = -S_INF;
    if (quiesce && !(capture && r->forced)) {
        if (!capture && !count_quiet(r, own, opp, p->kings, p->turn, frozen_kings(r, p)))
            return s_no_moves(e, ply);
        stand = s_eval(e, p);
        if (!capture || stand >= beta) return stand;   /* free captures: stand pat */
        if (stand > alpha) alpha = stand;
    }
    /* the transposition table */
    TTEntry *te = &e->tt[h & e->ttmask];
    int has_tt = te->key == h && te->flag;
    if (has_tt && !is_pv && te->depth >= depth) {
        int v = s_from_tt(te->score, ply);
        if (te->flag == TT_EXACT || (te->flag == TT_LOWER && v >= beta)
            || (te->flag == TT_UPPER && v <= alpha)) return v;
    }
    Mv *moves = e->buf + (size_t)ply * PLYMOVES;
    int n = legal(r, p, moves, PLYMOVES, 0, &e->overflow);
    if (e->overflow) { e->stopped = 1; return 0; }
    if (n == 0) return s_no_moves(e, ply);
    if (quiesce && !r->forced) {   /* the captures alone */
        int k = 0;
        for (int i = 0; i < n; i++) if (moves[i].ncap) moves[k++] = moves[i];
        n = k;
    }
    int *keys = e->keys[ply];
    for (int i = 0; i < n; i++) {
        const Mv *m = &moves[i];
        int k;
        if (has_tt && m->from == te->from && m->to == te->to && m->mask == te->mask)
            k = 1 << 30;
        else if (m->ncap) k = (1 << 24) + popcount(m->mask & p->kings) * 4096 + m->ncap * 256;
        else if (m->promotes) k = 1 << 23;
        else if (s_same(m, &e->killer[ply][0])) k = (1 << 22) + 1;
        else if (s_same(m, &e->killer[ply][1])) k = 1 << 22;
        else k = e->history[p->turn][m->from][m->to];
        keys[i] = k;
    }
    int best = -S_INF, flag = TT_UPPER, first = 1;
    Mv best_move = moves[0];
    e->pvlen[ply] = 0;
    for (int i = 0; i < n; i++) {
        int top = i;
        for (int j = i + 1; j < n; j++) if (keys[j] > keys[top]) top = j;
        if (top != i) {
            Mv t = moves[i]; moves[i] = moves[top]; moves[top] = t;
            int tk = keys[i]; keys[i] = keys[top]; keys[top] = tk;
        }
        const Mv *m = &moves[i];
        Pos q;
        play(r, p, m, &q);
        int child = depth - 1, score;
        if (first) {
            score = -s_search(e, &q, child, -beta, -alpha, ply + 1);
        } else {
            int reduce = !quiesce && depth >= 3 && i >= 3 && !m->ncap && !m->promotes
                         && keys[i] < (1 << 22) && !capture ? 1 : 0;
            score = -s_search(e, &q, child - reduce, -alpha - 1, -alpha, ply + 1);
            if (!e->stopped && score > alpha && (reduce || score < beta))
                score = -s_search(e, &q, child, -beta, -alpha, ply + 1);
        }
        first = 0;
        if (e->stopped) return 0;
        if (score > best) {
            best = score; best_move = *m;
            if (score > alpha) {
                alpha = score; flag = TT_EXACT;
                e->pv[ply][0] = *m;
                int len = e->pvlen[ply + 1];
                if (len > S_MAXPLY - 2 - ply) len = S_MAXPLY - 2 - ply;
                memcpy(&e->pv[ply][1], e->pv[ply + 1], (size_t)len * sizeof(Mv));
                e->pvlen[ply] = len + 1;
                if (alpha >= beta) {
                    flag = TT_LOWER;
                    if (!m->ncap) {
                        int *hv = &e->history[p->turn][m->from][m->to];
                        *hv += depth * depth;
                        if (*hv > (1 << 21)) {
                            for (int a = 0; a < 2; a++) for (int b = 0; b < MAXSQ; b++)
                                for (int c = 0; c < MAXSQ; c++) e->history[a][b][c] /= 2;
                        }
                        if (!s_same(m, &e->killer[ply][0])) {
                            e->killer[ply][1] = e->killer[ply][0];
                            e->killer[ply][0] = *m;
                        }
                    }
                    break;
                }
            }
        }
    }
    if (quiesce && stand > best) best = stand;
    te->key = h; te->score = (int16_t)s_to_tt(best, ply);
    te->depth = (int8_t)(depth < 0 ? 0 : depth > 127 ? 127 : depth);
    te->flag = (uint8_t)flag; te->from = best_move.from; te->to = best_move.to;
    te->mask = best_move.mask;
    return best;
}

static int s_search(Eng *e, const Pos *p, int depth, int alpha, int beta, int ply) {
    e->pvlen[ply] = 0;
    e->nodes++;
    if (s_check(e)) return 0;
    uint64_t h = s_hash(e, p);
    if (ply > 0 && s_repeated(e, h)) return 0;
    if (depth < -S_MAXPLY) depth = -S_MAXPLY;
    e->path[e->npath++] = h;
    int v = s_node(e, p, depth, alpha, beta, ply, h);
    e->npath--;
    return v;
}

/* The search context, taken from the arguments; NULL with an exception set. */
static int s_history(Eng *e, const Rules *r, PyObject *history) {
    e->npath = 0;
    if (history == Py_None) return 0;
    PyObject *f = PySequence_Fast(history, "history: a sequence of positions");
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f), from = n > S_HISTORY ? n - S_HISTORY : 0;
    for (Py_ssize_t i = from; i < n; i++) {
        PyObject *t = PySequence_Fast_GET_ITEM(f, i);
        Pos q;
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 4) {
            Py_DECREF(f);
            PyErr_SetString(PyExc_ValueError, "a history position is (white, black, kings, turn)");
            return -1;
        }
        if (read_pos(r, t, 0, &q) < 0) { Py_DECREF(f); return -1; }
        e->path[e->npath++] = s_hash(e, &q);
    }
    Py_DECREF(f);
    return 0;
}

static PyObject *s_line(const Mv *line, int n) {
    return move_list(line, n);
}

/* search(rules, white, black, kings, turn, streaks, history, depth, nodes, millis, stop,
 *        callback, family, man_value, king_value) -> (line, score, depth, nodes, seconds) */
static PyObject *search(PyObject *Py_UNUSED(module), PyObject *args) {
    const Rules *r = rules_argument(args, 15, "search(rules, white, black, kings, turn, "
                                    "streaks, history, depth, nodes, millis, stop, callback, "
                                    "family, man_value, king_value)");
    Pos root;
    long depth, family, man_value, king_value;
    unsigned long long max_nodes;
    double millis;
    PyObject *streaks, *history, *stop, *callback;
    if (!r) return NULL;
    if (read_pos(r, args, 1, &root) < 0) return NULL;
    streaks = PyTuple_GET_ITEM(args, 5); history = PyTuple_GET_ITEM(args, 6);
    stop = PyTuple_GET_ITEM(args, 10); callback = PyTuple_GET_ITEM(args, 11);
    if (read_streaks(r, streaks, &root) < 0
        || read_int(PyTuple_GET_ITEM(args, 7), 1, S_MAXPLY - 2, &depth) < 0
        || read_int(PyTuple_GET_ITEM(args, 12), 0, 2, &family) < 0
        || read_int(PyTuple_GET_ITEM(args, 13), 1, 1000, &man_value) < 0
        || read_int(PyTuple_GET_ITEM(args, 14), 1, 5000, &king_value) < 0) return NULL;
    max_nodes = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, 8));
    if (max_nodes == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    millis = PyFloat_AsDouble(PyTuple_GET_ITEM(args, 9));
    if (millis == -1.0 && PyErr_Occurred()) return NULL;
    if (millis < 0) { PyErr_SetString(PyExc_ValueError, "millis: 0 (none) or more"); return NULL; }
    if (stop != Py_None && (!PyByteArray_Check(stop) || PyByteArray_GET_SIZE(stop) < 1)) {
        PyErr_SetString(PyExc_TypeError, "stop: a bytearray of one byte, or None"); return NULL;
    }
    if (callback != Py_None && !PyCallable_Check(callback)) {
        PyErr_SetString(PyExc_TypeError, "callback: a callable, or None"); return NULL;
    }
    Eng *e = PyMem_Calloc(1, sizeof(Eng));
    if (!e) return PyErr_NoMemory();
    e->r = r; e->family = (int)family;
    e->man_value = (int)man_value; e->king_value = (int)king_value;
    e->max_nodes = max_nodes;
    s_tables(e);
    if (s_history(e, r, history) < 0) { PyMem_Free(e); return NULL; }
    e->buf = new_buffer((size_t)S_MAXPLY * PLYMOVES);
    e->ttmask = ((uint64_t)1 << S_TT_BITS) - 1;
    e->tt = PyMem_Calloc((size_t)1 << S_TT_BITS, sizeof(TTEntry));
    if (!e->buf || !e->tt) {
        PyMem_Free(e->buf); PyMem_Free(e->tt); PyMem_Free(e); return PyErr_NoMemory();
    }
    Py_INCREF(stop); Py_INCREF(callback);
    e->stop_flag = stop == Py_None ? NULL : PyByteArray_AS_STRING(stop);
    double start = s_now();
    e->deadline = millis > 0 ? start + millis / 1000.0 : 0;
    Mv line[S_MAXPLY]; int line_len = 0, score = 0, done = 0, failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int d = 1; d <= depth; d++) {
        int v = s_search(e, &root, d, -S_INF, S_INF, 0);
        if (e->stopped) break;
        score = v; done = d;
        line_len = e->pvlen[0];
        memcpy(line, e->pv[0], (size_t)line_len * sizeof(Mv));
        if (callback != Py_None) {
            PyGILState_STATE g = PyGILState_Ensure();
            PyObject *pv = s_line(line, line_len);
            PyObject *res = pv ? PyObject_CallFunction(callback, "iiKdN", d, score, e->nodes,
                                                       s_now() - start, pv) : NULL;
            if (!res) failed = 1;
            Py_XDECREF(res);
            PyGILState_Release(g);
            if (failed) break;
        }
        if (line_len == 0) break;                            /* no move: the game is over */
        if (score > S_MATE_FROM || score < -S_MATE_FROM) {   /* a won or lost end, seen whole */
            if (S_MATE - (score < 0 ? -score : score) <= d) break;
        }
    }
    Py_END_ALLOW_THREADS
    int overflow = e->overflow;
    unsigned long long nodes = e->nodes;
    if (!failed && !overflow && done == 0) {
        /* not one iteration within the limit: the first move the ordering gives, unsearched */
        int ov = 0;
        Mv *moves = e->buf;
        int n = legal(r, &root, moves, PLYMOVES, 0, &ov);
        overflow = ov;
        line_len = n > 0 ? 1 : 0;
        if (n > 0) line[0] = moves[0];
        score = n > 0 ? s_eval(e, &root) : s_no_moves(e, 0);
    }
    PyMem_Free(e->buf); PyMem_Free(e->tt); PyMem_Free(e);
    Py_DECREF(stop); Py_DECREF(callback);
    if (failed) return NULL;
    if (overflow) return overflowed();
    PyObject *pv = s_line(line, line_len);
    if (!pv) return NULL;
    return Py_BuildValue("NiiKd", pv, score, done, nodes, s_now() - start);
}

static PyMethodDef search_functions[] = {
    {"search", search, METH_VARARGS,
     "search(rules, white, black, kings, turn, streaks, history, depth, nodes, millis, stop, "
     "callback, family, man_value, king_value): (line, score, depth, nodes, seconds)"},
    {NULL, NULL, 0, NULL},
};

PyMODINIT_FUNC PyInit__search(void) {
    return rules_extension("replay.engine._search", "The built-in engine's search "
                           "(replay/engine/_search.c); use it through replay.engine.builtin.",
                           search_functions);
}
