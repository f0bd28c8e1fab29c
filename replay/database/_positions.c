/* The game database's rows of a main line (replay/database/keys.py, build.py): the module
 * replay.database._positions, used by replay/database/native.py. It #includes the rules core,
 * replay/rules/_native.c, for the generator's own static functions; index(rules, ...) replays
 * a line from its move texts on a replay.rules._native.Rules (as its replay() does) and gives
 * every position's key, the ``positions`` row of each key not met before, and the moves in
 * the database's text, with no Python object per ply but the keys and rows. Its Tally adds
 * up the moves played from each position (replay/database/played.py), its KeySet holds the
 * keys a run described, and its Planes make the pattern index of the positions written.
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

/* ---- KeySet: a set of 64-bit keys, 8 bytes a slot (a Python set of ints takes about 80
 * bytes a key): the keys whose rows a run gave already (build.py), looked up by ``describe``
 * without a Python call ---- */

typedef struct {
    PyObject_HEAD
    int64_t *slots;                     /* 0: a free slot (the key 0 is ``has_zero``) */
    size_t cap, count;                  /* cap: a power of two, or 0 */
    int has_zero;
} KeySetObject;

static PyTypeObject KeySetType;

static size_t keyset_home(size_t cap, int64_t key) {
    return (size_t)key_mix((uint64_t)key) & (cap - 1);
}

/* The slot of ``key``, or the free slot where it would go (the table is never full). */
static size_t keyset_slot(const int64_t *slots, size_t cap, int64_t key) {
    size_t i = keyset_home(cap, key);
    while (slots[i] && slots[i] != key) i = (i + 1) & (cap - 1);
    return i;
}

static int keyset_has(const KeySetObject *s, int64_t key) {
    if (!key) return s->has_zero;
    return s->cap && s->slots[keyset_slot(s->slots, s->cap, key)] == key;
}

static int keyset_grow(KeySetObject *s) {
    if (s->cap > ((size_t)-1 >> 1) / sizeof(int64_t)) { PyErr_NoMemory(); return -1; }
    size_t cap = s->cap ? s->cap * 2 : 1024;
    int64_t *slots = PyMem_Calloc(cap, sizeof(int64_t));
    if (!slots) { PyErr_NoMemory(); return -1; }
    for (size_t i = 0; i < s->cap; i++)
        if (s->slots[i]) slots[keyset_slot(slots, cap, s->slots[i])] = s->slots[i];
    PyMem_Free(s->slots);
    s->slots = slots; s->cap = cap;
    return 0;
}

/* 1: added, 0: held already, -1: an error (no memory). */
static int keyset_add(KeySetObject *s, int64_t key) {
    if (!key) {
        if (s->has_zero) return 0;
        s->has_zero = 1; s->count++;
        return 1;
    }
    if ((s->count + 1) * 4 > s->cap * 3 && keyset_grow(s) < 0) return -1;   /* load <= 3/4 */
    size_t i = keyset_slot(s->slots, s->cap, key);
    if (s->slots[i] == key) return 0;
    s->slots[i] = key; s->count++;
    return 1;
}

/* Linear probing's deletion: the keys after the freed slot that would no longer be found
 * move back into it. */
static void keyset_discard(KeySetObject *s, int64_t key) {
    if (!key) {
        if (s->has_zero) { s->has_zero = 0; s->count--; }
        return;
    }
    if (!s->cap) return;
    size_t mask = s->cap - 1, i = keyset_slot(s->slots, s->cap, key), j = i;
    if (s->slots[i] != key) return;
    for (;;) {
        j = (j + 1) & mask;
        if (!s->slots[j]) break;
        size_t home = keyset_home(s->cap, s->slots[j]);
        int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) { s->slots[i] = s->slots[j]; i = j; }
    }
    s->slots[i] = 0; s->count--;
}

/* A key from Python: 1 read, 0 not an integer of 64 bits (no error set), -1 an error. */
static int key_argument(PyObject *o, int64_t *key) {
    if (!PyLong_Check(o)) return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow) return 0;
    *key = (int64_t)v;
    return 1;
}

static PyObject *KeySet_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    if (PyTuple_GET_SIZE(args) || (kw && PyDict_GET_SIZE(kw))) {
        PyErr_SetString(PyExc_TypeError, "KeySet() takes no arguments");
        return NULL;
    }
    return type->tp_alloc(type, 0);
}

static void KeySet_dealloc(KeySetObject *s) {
    PyMem_Free(s->slots);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int KeySet_contains(KeySetObject *s, PyObject *o) {
    int64_t key;
    int read = key_argument(o, &key);
    return read <= 0 ? read : keyset_has(s, key);
}

static Py_ssize_t KeySet_len(KeySetObject *s) { return (Py_ssize_t)s->count; }

static PyObject *KeySet_add(KeySetObject *s, PyObject *o) {
    int64_t key;
    int read = key_argument(o, &key);
    if (read == 0) PyErr_SetString(PyExc_TypeError, "a KeySet holds integers of 64 bits");
    if (read <= 0 || keyset_add(s, key) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *KeySet_discard(KeySetObject *s, PyObject *o) {
    int64_t key;
    int read = key_argument(o, &key);
    if (read < 0) return NULL;
    if (read) keyset_discard(s, key);
    Py_RETURN_NONE;
}

static PyObject *KeySet_difference_update(KeySetObject *s, PyObject *iterable) {
    PyObject *it = PyObject_GetIter(iterable), *o;
    if (!it) return NULL;
    while ((o = PyIter_Next(it))) {
        PyObject *done = KeySet_discard(s, o);
        Py_DECREF(o);
        if (!done) { Py_DECREF(it); return NULL; }
        Py_DECREF(done);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

/* fresh(rows): the rows (sequences, the key first) whose key the set did not hold, in
 * their order; their keys are added. */
static PyObject *KeySet_fresh(KeySetObject *s, PyObject *rows) {
    PyObject *seq = PySequence_Fast(rows, "fresh(rows): a sequence of rows");
    if (!seq) return NULL;
    PyObject *found = PyList_New(0);
    for (Py_ssize_t i = 0; found && i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *row = PySequence_Fast_GET_ITEM(seq, i);
        PyObject *first = PyTuple_Check(row) && PyTuple_GET_SIZE(row) ? PyTuple_GET_ITEM(row, 0)
                                                                      : NULL;
        int64_t key;
        int read = first ? key_argument(first, &key) : 0;
        if (read == 0 && !PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "fresh(rows): tuples, an integer of 64 bits first");
        int added = read <= 0 ? -1 : keyset_add(s, key);
        if (added < 0 || (added && PyList_Append(found, row) < 0)) Py_CLEAR(found);
    }
    Py_DECREF(seq);
    return found;
}

static PyMethodDef KeySet_methods[] = {
    {"add", (PyCFunction)KeySet_add, METH_O, "add(key)"},
    {"discard", (PyCFunction)KeySet_discard, METH_O, "discard(key)"},
    {"difference_update", (PyCFunction)KeySet_difference_update, METH_O,
     "difference_update(keys)"},
    {"fresh", (PyCFunction)KeySet_fresh, METH_O,
     "fresh(rows): the rows whose key (first item) was not held; their keys added"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods KeySet_sequence = {
    .sq_length = (lenfunc)KeySet_len,
    .sq_contains = (objobjproc)KeySet_contains,
};

static PyTypeObject KeySetType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "replay.database._positions.KeySet",
    .tp_basicsize = sizeof(KeySetObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A set of 64-bit keys, 8 bytes a slot (replay/database/build.py).",
    .tp_new = KeySet_new,
    .tp_dealloc = (destructor)KeySet_dealloc,
    .tp_methods = KeySet_methods,
    .tp_as_sequence = &KeySet_sequence,
};

/* The key of a position into ``keys``, and its row into ``rows`` when ``seen`` (a set, a
 * KeySet, or None: every position) did not hold it yet. */
static int describe(const Layout *l, const Pos *p, PyObject *seen, PyObject *keys,
                    PyObject *rows) {
    int64_t value = position_key(l, p);
    PyObject *key = PyLong_FromLongLong(value);
    if (!key) return -1;
    int known = 0;
    if (seen != Py_None && Py_IS_TYPE(seen, &KeySetType)) {
        int added = keyset_add((KeySetObject *)seen, value);
        known = added < 0 ? -1 : !added;
    } else if (seen != Py_None) {
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
    if (seen != Py_None && !PySet_Check(seen) && !Py_IS_TYPE(seen, &KeySetType)) {
        PyErr_SetString(PyExc_TypeError, "seen: a set, a KeySet or None");
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
    PyObject *move;                     /* the first game's move text */
    int32_t games, white_wins, draws, black_wins, rated, latest_day;
    int64_t rating_sum, latest_game, last_game;
} Step;

/* The steps in a dense array, in the order first met, found through an open-addressing
 * index of their numbers (4 bytes a slot where a table of steps would waste a step's 72 bytes
 * on each free slot). */
typedef struct {
    PyObject_HEAD
    Step *steps;
    size_t count, room;                 /* steps held; steps allocated */
    uint32_t *index;                    /* step number + 1; 0: a free slot */
    size_t cap;                         /* the index's slots: a power of two, or 0 */
    PyObject *texts;                    /* move text -> one str shared by its steps */
    int reading;                        /* steps sorted, ``given`` of them read by rows() */
    size_t given;
} TallyObject;

#define TALLY_MAX_STEPS ((size_t)UINT32_MAX - 1)

static size_t step_home(size_t cap, int64_t key, int64_t next) {
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ULL ^ (uint64_t)next * 0xC2B2AE3D27D4EB4FULL;
    return (size_t)(h ^ h >> 29) & (cap - 1);
}

/* The index slot of a step, or the free slot where it would go (the index is never full). */
static size_t step_slot(const TallyObject *t, const uint32_t *index, size_t cap, int64_t key,
                        int64_t next) {
    size_t i = step_home(cap, key, next);
    while (index[i]) {
        const Step *s = &t->steps[index[i] - 1];
        if (s->key == key && s->next == next) break;
        i = (i + 1) & (cap - 1);
    }
    return i;
}

static int tally_grow_index(TallyObject *t) {
    if (t->cap > ((size_t)-1 >> 1) / sizeof(uint32_t)) { PyErr_NoMemory(); return -1; }
    size_t cap = t->cap ? t->cap * 2 : 1024;
    uint32_t *index = PyMem_Calloc(cap, sizeof(uint32_t));
    if (!index) { PyErr_NoMemory(); return -1; }
    for (size_t n = 0; n < t->count; n++)
        index[step_slot(t, index, cap, t->steps[n].key, t->steps[n].next)] = (uint32_t)(n + 1);
    PyMem_Free(t->index);
    t->index = index; t->cap = cap;
    return 0;
}

static int tally_grow_steps(TallyObject *t) {
    if (t->room >= TALLY_MAX_STEPS) {
        PyErr_SetString(PyExc_OverflowError, "a tally holds at most 2**32 - 2 steps");
        return -1;
    }
    size_t room = t->room + t->room / 4 + 1024;
    if (room > TALLY_MAX_STEPS) room = TALLY_MAX_STEPS;
    Step *steps = PyMem_Realloc(t->steps, room * sizeof(Step));
    if (!steps) { PyErr_NoMemory(); return -1; }
    t->steps = steps; t->room = room;
    return 0;
}

static void tally_clear(TallyObject *t) {
    for (size_t n = 0; n < t->count; n++) Py_CLEAR(t->steps[n].move);
    PyMem_Free(t->steps);
    PyMem_Free(t->index);
    t->steps = NULL; t->index = NULL;
    t->cap = t->count = t->room = t->given = 0;
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
        if ((t->count + 1) * 10 > t->cap * 7 && tally_grow_index(t) < 0) return NULL;
        size_t slot = step_slot(t, t->index, t->cap, key, next);
        if (!t->index[slot]) {
            if (t->count == t->room && tally_grow_steps(t) < 0) return NULL;
            PyObject *word = move_word(t, text + start, at - start);
            if (!word) return NULL;
            Step *fresh = &t->steps[t->count];
            memset(fresh, 0, sizeof *fresh);
            fresh->key = key; fresh->next = next; fresh->move = word;
            fresh->latest_day = (int32_t)day; fresh->latest_game = game_id;
            fresh->last_game = game_id - 1;
            t->index[slot] = (uint32_t)++t->count;
        }
        Step *s = &t->steps[t->index[slot] - 1];
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
    if (!t->reading) {   /* the index is not needed to read: freed before the sort */
        PyMem_Free(t->index);
        t->index = NULL; t->cap = 0;
        if (t->count) qsort(t->steps, t->count, sizeof(Step), step_order);
        t->reading = 1; t->given = 0;
    }
    size_t left = t->count - t->given;
    size_t n = (size_t)limit < left ? (size_t)limit : left;
    PyObject *rows = PyList_New((Py_ssize_t)n);
    if (!rows) return NULL;
    for (size_t i = 0; i < n; i++) {
        const Step *s = &t->steps[t->given + i];
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

/* ---- the pattern index's planes (replay/database/planes.py) of the positions as they are
 * written, their ids known: a chunk's bitmaps of each variant held until its positions are
 * all given, then handed over as bytes (no reading the positions back) ---- */

#define PLANE_CHUNK_BITS 16
#define PLANE_BYTES ((1 << PLANE_CHUNK_BITS) / 8)
#define PLANE_ALL 256
#define PLANE_BLACK_TO_MOVE 257
#define PLANE_COUNT 258

typedef struct {
    PyObject *variant;                  /* the variant's name (a reference held) */
    long long chunk;                    /* the chunk held; -1: none */
    uint8_t *plane[PLANE_COUNT];        /* NULL: no position of the chunk sets it */
} VariantPlanes;

typedef struct {
    PyObject_HEAD
    VariantPlanes *variants;
    Py_ssize_t count, room;
    PyObject *done;                     /* [(variant, chunk, {plane: bytes})] not yet taken */
} PlanesObject;

static PyObject *Planes_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    if (PyTuple_GET_SIZE(args) || (kw && PyDict_GET_SIZE(kw))) {
        PyErr_SetString(PyExc_TypeError, "Planes() takes no arguments");
        return NULL;
    }
    PlanesObject *p = (PlanesObject *)type->tp_alloc(type, 0);
    if (!p) return NULL;
    p->done = PyList_New(0);
    if (!p->done) { Py_DECREF(p); return NULL; }
    return (PyObject *)p;
}

static void planes_free(VariantPlanes *v) {
    for (int k = 0; k < PLANE_COUNT; k++) { PyMem_Free(v->plane[k]); v->plane[k] = NULL; }
    v->chunk = -1;
}

static void Planes_dealloc(PlanesObject *p) {
    for (Py_ssize_t i = 0; i < p->count; i++) {
        planes_free(&p->variants[i]);
        Py_DECREF(p->variants[i].variant);
    }
    PyMem_Free(p->variants);
    Py_XDECREF(p->done);
    Py_TYPE(p)->tp_free((PyObject *)p);
}

/* A variant's held chunk handed over to ``done`` (nothing when none is held). */
static int planes_emit(PlanesObject *p, VariantPlanes *v) {
    if (v->chunk < 0) return 0;
    PyObject *bitmaps = PyDict_New();
    for (int k = 0; bitmaps && k < PLANE_COUNT; k++) {
        if (!v->plane[k]) continue;
        PyObject *number = PyLong_FromLong(k);
        PyObject *bits = PyBytes_FromStringAndSize((const char *)v->plane[k], PLANE_BYTES);
        if (!number || !bits || PyDict_SetItem(bitmaps, number, bits) < 0) Py_CLEAR(bitmaps);
        Py_XDECREF(number);
        Py_XDECREF(bits);
    }
    PyObject *item = bitmaps ? Py_BuildValue("OLN", v->variant, v->chunk, bitmaps) : NULL;
    int failed = !item || PyList_Append(p->done, item) < 0;
    Py_XDECREF(item);
    planes_free(v);
    return failed ? -1 : 0;
}

static VariantPlanes *planes_of(PlanesObject *p, PyObject *variant) {
    for (Py_ssize_t i = 0; i < p->count; i++) {
        PyObject *name = p->variants[i].variant;
        if (name == variant) return &p->variants[i];
        int same = PyObject_RichCompareBool(name, variant, Py_EQ);
        if (same < 0) return NULL;
        if (same) return &p->variants[i];
    }
    if (p->count == p->room) {
        Py_ssize_t room = p->room ? p->room * 2 : 4;
        VariantPlanes *grown = PyMem_Realloc(p->variants, (size_t)room * sizeof(VariantPlanes));
        if (!grown) { PyErr_NoMemory(); return NULL; }
        p->variants = grown; p->room = room;
    }
    VariantPlanes *v = &p->variants[p->count++];
    memset(v, 0, sizeof *v);
    Py_INCREF(variant);
    v->variant = variant; v->chunk = -1;
    return v;
}

static int plane_set(VariantPlanes *v, int plane, size_t offset) {
    if (!v->plane[plane]) {
        v->plane[plane] = PyMem_Calloc(PLANE_BYTES, 1);
        if (!v->plane[plane]) { PyErr_NoMemory(); return -1; }
    }
    v->plane[plane][offset >> 3] |= (uint8_t)(1u << (offset & 7));
    return 0;
}

/* add(first_id, rows): ``positions`` rows (key, variant, turn, white men, white kings,
 * black men, black kings, ...) written with the ids first_id, first_id + 1...; rows
 * without bitboards (NULL: boards of more than 64 squares) have no planes. A variant's
 * chunk is handed over when a row of another chunk of it comes. */
static PyObject *Planes_add(PlanesObject *p, PyObject *args) {
    long long first;
    PyObject *rows;
    if (!PyArg_ParseTuple(args, "LO!", &first, &PyList_Type, &rows)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(rows);
    if (first < 1 || first > LLONG_MAX - n) {
        PyErr_SetString(PyExc_ValueError, "add(first_id, rows): ids from 1");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *row = PyList_GET_ITEM(rows, i);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) < 7
            || !PyUnicode_Check(PyTuple_GET_ITEM(row, 1))
            || !PyUnicode_Check(PyTuple_GET_ITEM(row, 2))) {
            PyErr_SetString(PyExc_TypeError, "add(first_id, rows): positions rows");
            return NULL;
        }
        if (PyTuple_GET_ITEM(row, 3) == Py_None) continue;
        int64_t boards[4];
        for (int kind = 0; kind < 4; kind++) {
            PyObject *o = PyTuple_GET_ITEM(row, 3 + kind);
            int read = key_argument(o, &boards[kind]);
            if (read == 0) PyErr_SetString(PyExc_TypeError, "a bitboard: an integer of 64 bits");
            if (read <= 0) return NULL;
        }
        long long id = first + i, chunk = id >> PLANE_CHUNK_BITS;
        size_t offset = (size_t)(id & ((1 << PLANE_CHUNK_BITS) - 1));
        VariantPlanes *v = planes_of(p, PyTuple_GET_ITEM(row, 1));
        if (!v) return NULL;
        if (v->chunk != chunk) {
            if (planes_emit(p, v) < 0) return NULL;
            v->chunk = chunk;
        }
        int black = PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(row, 2), "B") == 0;
        if (plane_set(v, PLANE_ALL, offset) < 0
            || (black && plane_set(v, PLANE_BLACK_TO_MOVE, offset) < 0)) return NULL;
        for (int kind = 0; kind < 4; kind++) {
            uint64_t bits = (uint64_t)boards[kind];
            while (bits) {
                int bit = __builtin_ctzll(bits);
                bits &= bits - 1;
                if (plane_set(v, kind * 64 + bit, offset) < 0) return NULL;
            }
        }
    }
    Py_RETURN_NONE;
}

/* finish(): every chunk held handed over. */
static PyObject *Planes_finish(PlanesObject *p, PyObject *Py_UNUSED(ignored)) {
    for (Py_ssize_t i = 0; i < p->count; i++)
        if (planes_emit(p, &p->variants[i]) < 0) return NULL;
    Py_RETURN_NONE;
}

/* take(): the chunks handed over, [(variant, chunk, {plane: bytes})], forgotten here. */
static PyObject *Planes_take(PlanesObject *p, PyObject *Py_UNUSED(ignored)) {
    PyObject *empty = PyList_New(0);
    if (!empty) return NULL;
    PyObject *done = p->done;
    p->done = empty;
    return done;
}

static PyMethodDef Planes_methods[] = {
    {"add", (PyCFunction)Planes_add, METH_VARARGS,
     "add(first_id, rows): the planes of positions rows written with ids from first_id"},
    {"finish", (PyCFunction)Planes_finish, METH_NOARGS, "finish(): every chunk handed over"},
    {"take", (PyCFunction)Planes_take, METH_NOARGS,
     "take(): [(variant, chunk, {plane: bytes})] handed over since the last take"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject PlanesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "replay.database._positions.Planes",
    .tp_basicsize = sizeof(PlanesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The pattern planes of positions as they are written (replay/database/planes.py).",
    .tp_new = Planes_new,
    .tp_dealloc = (destructor)Planes_dealloc,
    .tp_methods = Planes_methods,
};

static PyMethodDef positions_functions[] = {
    {"index", index_line, METH_VARARGS,
     "index(rules, white, black, kings, turn, texts, layout, seen): (plies, stop, final "
     "position, keys, rows, moves)"},
    {NULL, NULL, 0, NULL},
};

PyMODINIT_FUNC PyInit__positions(void) {
    PyTypeObject *types[] = {&TallyType, &KeySetType, &PlanesType};
    const char *names[] = {"Tally", "KeySet", "Planes"};
    for (int i = 0; i < 3; i++)
        if (PyType_Ready(types[i]) < 0) return NULL;
    PyObject *m = rules_extension("replay.database._positions", "The game database's rows, "
                                  "tally, key sets and pattern planes "
                                  "(replay/database/_positions.c); use them through "
                                  "replay.database.native.", positions_functions);
    if (!m) return NULL;
    for (int i = 0; i < 3; i++) {
        Py_INCREF(types[i]);
        if (PyModule_AddObject(m, names[i], (PyObject *)types[i]) < 0) {
            Py_DECREF(types[i]); Py_DECREF(m); return NULL;
        }
    }
    return m;
}
