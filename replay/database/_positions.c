/* The game database's rows of a main line (replay/database/keys.py, build.py): the module
 * replay.database._positions, used by replay/database/native.py. It #includes the rules core,
 * replay/rules/_native.c, for the generator's own static functions; index(rules, ...) replays
 * a line from its move texts on a replay.rules._native.Rules (as its replay() does) and gives
 * every position's key, the ``positions`` row of each key not met before, and the moves in
 * the database's text, with no Python object per ply but the keys and rows. Its Tally adds
 * up the moves played from each position (replay/database/played.py).
 *
 * The key is keys.position_hash: the variant's seed, then the white, black and kings
 * bitboards and the side to move, each xored in, SplitMix64's increment added and the
 * state put through SplitMix64's finaliser; read as signed. */
#define RULES_EMBEDDED
#include "../rules/_native.c"

/* SplitMix64's finaliser (Steele, Lea and Flood, OOPSLA 2014): a bijection of 64-bit words. */
static inline uint64_t key_mix(uint64_t v) {
    v = (v ^ v >> 30) * 0xBF58476D1CE4E5B9ULL;
    v = (v ^ v >> 27) * 0x94D049BB133111EBULL;
    return v ^ v >> 31;
}

#define KEY_GAMMA 0x9E3779B97F4A7C15ULL

/* What the caller says of its variant (replay/database/keys.py's Coder): its name, the
 * key's seed, each internal square's dense bit and FEN rank, the FEN names by rank and the
 * move names by square. */
typedef struct {
    PyObject *name;                      /* borrowed: the variant's name, in every row */
    uint64_t seed;                       /* keys.key_seed */
    uint8_t dense[MAXSQ], rank[MAXSQ];   /* 255: no bit, no rank */
    int n_ranks; int8_t by_rank[MAXSQ];  /* rank -> square */
    const char *fen_name[MAXSQ]; Py_ssize_t fen_len[MAXSQ];
    const char *move_name[MAXSQ]; Py_ssize_t move_len[MAXSQ];
} Layout;

#define NAME_MAX_BYTES 8

static int read_names(PyObject *o, Py_ssize_t n, const char **out, Py_ssize_t *lens,
                      const char *what) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != n) {
        PyErr_Format(PyExc_ValueError, "%s: a tuple of %zd names", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *s = PyTuple_GET_ITEM(o, i);
        const char *t = PyUnicode_Check(s) ? PyUnicode_AsUTF8AndSize(s, &lens[i]) : NULL;
        if (!t) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: names are text", what);
            return -1;
        }
        if (lens[i] > NAME_MAX_BYTES) {
            PyErr_Format(PyExc_ValueError, "%s: a name of more than %d bytes", what,
                         NAME_MAX_BYTES);
            return -1;
        }
        out[i] = t;
    }
    return 0;
}

/* layout: (name, seed (8 bytes, big-endian), dense and rank bytes (2 * size), FEN names by rank, move
 * names by square) */
static int read_layout(const Rules *r, PyObject *o, Layout *l) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 5) {
        PyErr_SetString(PyExc_ValueError,
                        "layout: (name, seed, squares, FEN names, move names)");
        return -1;
    }
    PyObject *name = PyTuple_GET_ITEM(o, 0), *seed = PyTuple_GET_ITEM(o, 1),
             *squares = PyTuple_GET_ITEM(o, 2);
    if (!PyUnicode_Check(name) || !PyBytes_Check(seed) || !PyBytes_Check(squares)
        || PyBytes_GET_SIZE(seed) != 8 || PyBytes_GET_SIZE(squares) != 2 * r->size) {
        PyErr_SetString(PyExc_ValueError, "layout: a name, an 8-byte seed and 2 bytes a square");
        return -1;
    }
    l->name = name;
    const uint8_t *seed_bytes = (const uint8_t *)PyBytes_AS_STRING(seed);
    l->seed = 0;
    for (int i = 0; i < 8; i++) l->seed = l->seed << 8 | seed_bytes[i];
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(squares);
    int n_ranks = 0;
    for (int sq = 0; sq < r->size; sq++) {
        l->dense[sq] = b[sq];
        l->rank[sq] = b[r->size + sq];
        if (l->dense[sq] != 255 && l->dense[sq] >= 64) goto bad;
        if (l->rank[sq] != 255) n_ranks++;
        if ((l->dense[sq] == 255 || l->rank[sq] == 255) && (r->board >> sq & 1)) goto bad;
    }
    l->n_ranks = n_ranks;
    for (int i = 0; i < MAXSQ; i++) l->by_rank[i] = -1;
    for (int sq = 0; sq < r->size; sq++) {
        int k = l->rank[sq];
        if (k == 255) continue;
        if (k >= n_ranks || l->by_rank[k] >= 0) goto bad;
        l->by_rank[k] = (int8_t)sq;
    }
    if (read_names(PyTuple_GET_ITEM(o, 3), n_ranks, l->fen_name, l->fen_len,
                   "FEN names") < 0
        || read_names(PyTuple_GET_ITEM(o, 4), r->size, l->move_name, l->move_len,
                      "move names") < 0) return -1;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "layout: every playing square needs one bit and rank");
    return -1;
}

static int64_t position_key(const Layout *l, const Pos *p) {
    uint64_t h = l->seed;
    h = key_mix((h ^ (uint64_t)p->white) + KEY_GAMMA);
    h = key_mix((h ^ (uint64_t)p->black) + KEY_GAMMA);
    h = key_mix((h ^ (uint64_t)p->kings) + KEY_GAMMA);
    h = key_mix((h ^ (uint64_t)(unsigned)p->turn) + KEY_GAMMA);
    return (int64_t)h;
}

static int64_t dense_of(const Layout *l, bb bits) {
    uint64_t v = 0;
    while (bits) {
        int sq = lowbit(bits);
        bits &= bits - 1;
        v |= (uint64_t)1 << l->dense[sq];
    }
    return (int64_t)v;
}

/* One side's squares in FEN order, kings marked K (keys.Coder.section). */
static char *fen_section(const Layout *l, bb pieces, bb kings, char *out) {
    int first = 1;
    for (int k = 0; k < l->n_ranks; k++) {
        int sq = l->by_rank[k];
        if (!(pieces >> sq & 1)) continue;
        if (!first) *out++ = ',';
        first = 0;
        if (kings >> sq & 1) *out++ = 'K';
        memcpy(out, l->fen_name[k], (size_t)l->fen_len[k]);
        out += l->fen_len[k];
    }
    return out;
}

/* The ``positions`` row of a key (build.py's INSERT): key, variant, turn, four dense
 * bitboards, their counts, FEN. */
static PyObject *position_row(const Layout *l, const Pos *p, PyObject *key) {
    char fen[8 + MAXSQ * (NAME_MAX_BYTES + 2)];
    char *e = fen;
    *e++ = p->turn == 0 ? 'W' : 'B'; *e++ = ':'; *e++ = 'W';
    e = fen_section(l, p->white, p->kings, e);
    *e++ = ':'; *e++ = 'B';
    e = fen_section(l, p->black, p->kings, e);
    bb parts[4] = {p->white & ~p->kings, p->white & p->kings, p->black & ~p->kings,
                   p->black & p->kings};
    PyObject *row = PyTuple_New(12);
    if (!row) return NULL;
    Py_INCREF(key); PyTuple_SET_ITEM(row, 0, key);
    Py_INCREF(l->name); PyTuple_SET_ITEM(row, 1, l->name);
    PyTuple_SET_ITEM(row, 2, PyUnicode_FromStringAndSize(p->turn == 0 ? "W" : "B", 1));
    for (int i = 0; i < 4; i++) {
        PyTuple_SET_ITEM(row, 3 + i, PyLong_FromLongLong(dense_of(l, parts[i])));
        PyTuple_SET_ITEM(row, 7 + i, PyLong_FromLong(popcount(parts[i])));
    }
    PyTuple_SET_ITEM(row, 11, PyUnicode_DecodeUTF8(fen, e - fen, "strict"));
    for (int i = 2; i < 12; i++)
        if (!PyTuple_GET_ITEM(row, i)) { Py_DECREF(row); return NULL; }
    return row;
}

/* The key of a position into ``keys``, and its row into ``rows`` when ``seen`` (a set, or
 * None: every position) did not hold it yet. */
static int describe(const Layout *l, const Pos *p, PyObject *seen, PyObject *keys,
                    PyObject *rows) {
    PyObject *key = PyLong_FromLongLong(position_key(l, p));
    if (!key) return -1;
    int known = 0;
    if (seen != Py_None) {
        known = PySet_Contains(seen, key);
        if (known == 0) known = PySet_Add(seen, key) < 0 ? -1 : 0;
    }
    int failed = known < 0 || PyList_Append(keys, key) < 0;
    if (!failed && !known) {
        PyObject *row = position_row(l, p, key);
        failed = !row || PyList_Append(rows, row) < 0;
        Py_XDECREF(row);
    }
    Py_DECREF(key);
    return failed ? -1 : 0;
}

/* A growing text: the moves in the database's notation. */
typedef struct { char *text; size_t len, cap; } Text;

static int text_put(Text *t, const char *s, size_t n) {
    if (t->len + n > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (cap < t->len + n) cap *= 2;
        char *grown = PyMem_Realloc(t->text, cap);
        if (!grown) { PyErr_NoMemory(); return -1; }
        t->text = grown; t->cap = cap;
    }
    memcpy(t->text + t->len, s, n);
    t->len += n;
    return 0;
}

/* ``9x18x27``: every landing square (build.moves_text) */
static int move_text(const Layout *l, const Mv *m, Text *t) {
    const char *sep = m->ncap ? "x" : "-";
    if (t->len && text_put(t, " ", 1) < 0) return -1;
    if (text_put(t, l->move_name[m->from], (size_t)l->move_len[m->from]) < 0) return -1;
    int n = m->ncap ? m->ncap : 1;
    for (int i = 0; i < n; i++) {
        int sq = m->ncap ? m->path[i] : m->to;
        if (text_put(t, sep, 1) < 0
            || text_put(t, l->move_name[sq], (size_t)l->move_len[sq]) < 0) return -1;
    }
    return 0;
}

/* index(rules, white, black, kings, turn, texts, layout, seen)
 *   -> (plies, stop, (white, black, kings, turn), keys, rows, moves)
 * Replays ``texts`` as ``replay`` does; ``keys``: the key of the start and of the position
 * after each move replayed; ``rows``: the positions row of each key ``seen`` (a set, added
 * to; None: no set) did not hold; ``moves``: the moves replayed as the database writes them. */
static PyObject *index_line(PyObject *Py_UNUSED(module), PyObject *args) {
    const Rules *r = rules_argument(args, 8,
                                    "index(rules, white, black, kings, turn, texts, layout, seen)");
    Pos p;
    Layout l;
    if (!r || read_pos(r, args, 1, &p) < 0 || read_layout(r, PyTuple_GET_ITEM(args, 6), &l) < 0)
        return NULL;
    PyObject *seen = PyTuple_GET_ITEM(args, 7);
    if (seen != Py_None && !PySet_Check(seen)) {
        PyErr_SetString(PyExc_TypeError, "seen: a set or None");
        return NULL;
    }
    if (r->max_king_moves || !r->forced) {
        PyErr_SetString(PyExc_ValueError, "these rules are replayed by Python");
        return NULL;
    }
    PyObject *texts = PySequence_Fast(PyTuple_GET_ITEM(args, 5), "texts: a sequence");
    if (!texts) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(texts);
    PyObject *keys = PyList_New(0), *rows = PyList_New(0), *result = NULL;
    Mv *buf = new_buffer(PLYMOVES);
    Text moves = {NULL, 0, 0};
    if (!keys || !rows || !buf || describe(&l, &p, seen, keys, rows) < 0) goto done;
    int stop = STOP_END;
    Py_ssize_t plies = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(texts, i);
        Py_ssize_t len;
        const char *t = PyUnicode_Check(o) ? PyUnicode_AsUTF8AndSize(o, &len) : NULL;
        if (!t) {
            if (PyErr_Occurred()) PyErr_Clear();
            stop = STOP_NOTATION; break;
        }
        Mv m = {0};   /* set by resolve_text when it finds the move (gcc cannot tell) */
        Py_ssize_t start, end; long long number; int black;
        token_move(t, len, &start, &end, &number, &black);
        stop = resolve_text(r, &p, t + start, end - start, buf, &m);
        if (stop != STOP_END) break;
        Pos q; play(r, &p, &m, &q); p = q;
        plies++;
        if (move_text(&l, &m, &moves) < 0 || describe(&l, &p, seen, keys, rows) < 0)
            goto done;
    }
    PyObject *text = PyUnicode_DecodeUTF8(moves.text ? moves.text : "", (Py_ssize_t)moves.len,
                                          "strict");
    if (!text) goto done;
    result = Py_BuildValue("ni(KKKi)OON", plies, stop, (unsigned long long)p.white,
                           (unsigned long long)p.black, (unsigned long long)p.kings, p.turn,
                           keys, rows, text);
done:
    PyMem_Free(buf);
    PyMem_Free(moves.text);
    Py_DECREF(texts);
    Py_XDECREF(keys);
    Py_XDECREF(rows);
    return result;
}

/* ---- the explorer's table (replay/database/played.py): each (position, next position)
 * step of every game, added up in memory and given back sorted for one upsert ---- */

typedef struct {
    int64_t key, next;
    PyObject *move;                     /* the first game's move text; NULL: a free slot */
    int32_t games, white_wins, draws, black_wins, rated, latest_day;
    int64_t rating_sum, latest_game, last_game;
} Step;

typedef struct {
    PyObject_HEAD
    Step *slots;
    size_t cap, count;                  /* cap: a power of two */
    PyObject *texts;                    /* move text -> one str shared by its steps */
    int reading;                        /* slots sorted, ``given`` of them read by rows() */
    size_t given;
} TallyObject;

static size_t step_slot(const Step *slots, size_t cap, int64_t key, int64_t next) {
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ULL ^ (uint64_t)next * 0xC2B2AE3D27D4EB4FULL;
    size_t i = (size_t)(h ^ h >> 29) & (cap - 1);
    while (slots[i].move && (slots[i].key != key || slots[i].next != next)) i = (i + 1) & (cap - 1);
    return i;
}

static int tally_grow(TallyObject *t) {
    size_t cap = t->cap ? t->cap * 2 : 1024;
    Step *slots = PyMem_Calloc(cap, sizeof(Step));
    if (!slots) { PyErr_NoMemory(); return -1; }
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].move) {
            const Step *s = &t->slots[i];
            slots[step_slot(slots, cap, s->key, s->next)] = *s;
        }
    PyMem_Free(t->slots);
    t->slots = slots; t->cap = cap;
    return 0;
}

static void tally_clear(TallyObject *t) {
    for (size_t i = 0; i < t->cap; i++) Py_CLEAR(t->slots[i].move);
    PyMem_Free(t->slots);
    t->slots = NULL; t->cap = t->count = t->given = 0;
    t->reading = 0;
    if (t->texts) PyDict_Clear(t->texts);
}

static PyObject *Tally_new(PyTypeObject *type, PyObject *Py_UNUSED(args),
                           PyObject *Py_UNUSED(kw)) {
    TallyObject *t = (TallyObject *)type->tp_alloc(type, 0);
    if (!t) return NULL;
    t->texts = PyDict_New();
    if (!t->texts) { Py_DECREF(t); return NULL; }
    return (PyObject *)t;
}

static void Tally_dealloc(TallyObject *t) {
    tally_clear(t);
    Py_XDECREF(t->texts);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static int is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
           || (c >= 0x1c && c <= 0x1f);
}

/* The shared str of a move text. */
static PyObject *move_word(TallyObject *t, const char *s, Py_ssize_t n) {
    PyObject *word = PyUnicode_DecodeUTF8(s, n, "strict");
    if (!word) return NULL;
    PyObject *shared = PyDict_SetDefault(t->texts, word, word);
    Py_XINCREF(shared);
    Py_DECREF(word);
    return shared;
}

/* add(keys, moves, outcome, rated, rating_sum, day, game_id): one game's steps, each once
 * (the first move that makes it); outcome 1 White won, 2 a draw, 3 Black won, else 0;
 * ``moves``: the moves text, words split as str.split() splits ASCII text. */
static PyObject *Tally_add(TallyObject *t, PyObject *args) {
    PyObject *keys, *moves;
    int outcome, rated;
    long long rating_sum, day, game_id;
    if (!PyArg_ParseTuple(args, "O!UiiLLL", &PyList_Type, &keys, &moves, &outcome, &rated,
                          &rating_sum, &day, &game_id)) return NULL;
    if (t->reading) {
        PyErr_SetString(PyExc_RuntimeError, "the tally is being read: read all its rows first");
        return NULL;
    }
    Py_ssize_t len, nkeys = PyList_GET_SIZE(keys);
    const char *text = PyUnicode_AsUTF8AndSize(moves, &len);
    if (!text) return NULL;
    Py_ssize_t at = 0;
    int64_t key = 0;
    if (nkeys) {
        key = PyLong_AsLongLong(PyList_GET_ITEM(keys, 0));
        if (key == -1 && PyErr_Occurred()) return NULL;
    }
    for (Py_ssize_t ply = 0; ply + 1 < nkeys; ply++) {
        while (at < len && is_blank(text[at])) at++;
        if (at >= len) break;
        Py_ssize_t start = at;
        while (at < len && !is_blank(text[at])) at++;
        int64_t next = PyLong_AsLongLong(PyList_GET_ITEM(keys, ply + 1));
        if (next == -1 && PyErr_Occurred()) return NULL;
        if ((t->count + 1) * 10 > t->cap * 7 && tally_grow(t) < 0) return NULL;
        Step *s = &t->slots[step_slot(t->slots, t->cap, key, next)];
        if (!s->move) {
            PyObject *word = move_word(t, text + start, at - start);
            if (!word) return NULL;
            memset(s, 0, sizeof *s);
            s->key = key; s->next = next; s->move = word;
            s->latest_day = (int32_t)day; s->latest_game = game_id; s->last_game = game_id - 1;
            t->count++;
        }
        key = next;
        if (s->last_game == game_id && s->games) continue;   /* a step the game repeats */
        s->last_game = game_id;
        s->games++;
        s->white_wins += outcome == 1; s->draws += outcome == 2; s->black_wins += outcome == 3;
        s->rated += rated; s->rating_sum += rating_sum;
        if (day > s->latest_day || (day == s->latest_day && game_id > s->latest_game)) {
            s->latest_day = (int32_t)day; s->latest_game = game_id;
        }
    }
    Py_RETURN_NONE;
}

static int step_order(const void *a, const void *b) {
    const Step *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->next != y->next) return x->next < y->next ? -1 : 1;
    return 0;
}

/* rows([limit]): the next ``limit`` (default: all) steps as position_moves rows, sorted by
 * (position, next position); the tally is emptied once every row was read */
static PyObject *Tally_rows(TallyObject *t, PyObject *args) {
    Py_ssize_t limit = PY_SSIZE_T_MAX;
    if (!PyArg_ParseTuple(args, "|n", &limit)) return NULL;
    if (limit < 1) { PyErr_SetString(PyExc_ValueError, "limit: at least 1"); return NULL; }
    if (!t->reading) {
        size_t n = 0;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].move) t->slots[n++] = t->slots[i];
        for (size_t i = n; i < t->cap; i++) t->slots[i].move = NULL;
        if (n) qsort(t->slots, n, sizeof(Step), step_order);
        t->reading = 1; t->given = 0;
    }
    size_t left = t->count - t->given;
    size_t n = (size_t)limit < left ? (size_t)limit : left;
    PyObject *rows = PyList_New((Py_ssize_t)n);
    if (!rows) return NULL;
    for (size_t i = 0; i < n; i++) {
        const Step *s = &t->slots[t->given + i];
        PyObject *row = Py_BuildValue("LLOiiiiiLiL", (long long)s->key, (long long)s->next,
                                      s->move, s->games, s->white_wins, s->draws,
                                      s->black_wins, s->rated, (long long)s->rating_sum,
                                      s->latest_day, (long long)s->latest_game);
        if (!row) { Py_DECREF(rows); tally_clear(t); return NULL; }
        PyList_SET_ITEM(rows, (Py_ssize_t)i, row);
    }
    t->given += n;
    if (t->given == t->count) tally_clear(t);
    return rows;
}

static Py_ssize_t Tally_len(TallyObject *t) { return (Py_ssize_t)t->count; }

static PyMethodDef Tally_methods[] = {
    {"add", (PyCFunction)Tally_add, METH_VARARGS,
     "add(keys, moves, outcome, rated, rating_sum, day, game_id): one game's steps"},
    {"rows", (PyCFunction)Tally_rows, METH_VARARGS,
     "rows([limit]): the next position_moves rows, sorted; emptied once all are read"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods Tally_sequence = {.sq_length = (lenfunc)Tally_len};

static PyTypeObject TallyType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "replay.database._positions.Tally",
    .tp_basicsize = sizeof(TallyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The moves played from each position, added up (replay/database/played.py).",
    .tp_new = Tally_new,
    .tp_dealloc = (destructor)Tally_dealloc,
    .tp_methods = Tally_methods,
    .tp_as_sequence = &Tally_sequence,
};

static PyMethodDef positions_functions[] = {
    {"index", index_line, METH_VARARGS,
     "index(rules, white, black, kings, turn, texts, layout, seen): (plies, stop, final "
     "position, keys, rows, moves)"},
    {NULL, NULL, 0, NULL},
};

PyMODINIT_FUNC PyInit__positions(void) {
    if (PyType_Ready(&TallyType) < 0) return NULL;
    PyObject *m = rules_extension("replay.database._positions", "The game database's rows and "
                                  "tally (replay/database/_positions.c); use them through "
                                  "replay.database.native.", positions_functions);
    if (!m) return NULL;
    Py_INCREF(&TallyType);
    if (PyModule_AddObject(m, "Tally", (PyObject *)&TallyType) < 0) {
        Py_DECREF(&TallyType); Py_DECREF(m); return NULL;
    }
    return m;
}
