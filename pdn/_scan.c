/* The reader's native scanner (pdn._scan): plain games found and read in C.

   scan(text, start, limit) takes, from offset ``start`` of ``text`` (a line start where
   the chunker of pdn/chunks.py would start a new chunk), the run of plain games that
   ``_PLAIN_GAME`` and ``_ends_once`` of pdn/chunks.py take whole, each no longer than
   ``limit`` characters, and reads each as pdn/plain.py's ``plain_game`` does (its
   ``_HEAD``, the run of ``_RECORD`` moves and the result), without the regular
   expressions. It returns ``([(end, newlines, info), ...], offset reached)``: ``info`` is
   None where ``plain_game`` might decline (the Python path then decides), else
   ``(tag texts, first tag line, move start, move end, move line, move column, result)``,
   offsets relative to the game's own text. tokens(run) splits a run of moves as
   ``_PlainRun.tokens`` (``_RECORDS.findall``) does.

   Any doubt declines: the Python path is the reference, and tests/notation/test_scan.py
   compares the two on every file of the archives, generated texts and random input.
   Every read is bounded by the text's length; the text is read through its own kind
   (1, 2 or 4 bytes a character), never copied. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
} Text;

static inline Py_UCS4 at(const Text *t, Py_ssize_t i) {
    /* outside the text (either side): a character no pattern takes */
    return (size_t)i < (size_t)t->n ? PyUnicode_READ(t->kind, t->data, i) : 0xFFFFFFFFu;
}

/* The character class of a movetext word in _WORD: [!-$&'*-,.-9<-Z^-z|~]. */
static inline int word_char(Py_UCS4 c) {
    return (c >= 0x21 && c <= 0x24) || c == 0x26 || c == 0x27 || (c >= 0x2A && c <= 0x2C)
           || (c >= 0x2E && c <= 0x39) || (c >= 0x3C && c <= 0x5A)
           || (c >= 0x5E && c <= 0x7A) || c == 0x7C || c == 0x7E;
}

static inline int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static inline int is_alpha(Py_UCS4 c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
static inline int is_space(Py_UCS4 c) { return c == ' ' || c == '\t' || c == '\n'; }

/* _BLANK_LINE at i: [ \t]*\n; the offset after it, or -1. */
static Py_ssize_t blank_line(const Text *t, Py_ssize_t i) {
    Py_UCS4 c;
    while ((c = at(t, i)) == ' ' || c == '\t')
        i++;
    return c == '\n' ? i + 1 : -1;
}

static Py_ssize_t blank_lines(const Text *t, Py_ssize_t i) {
    Py_ssize_t next;
    while ((next = blank_line(t, i)) >= 0)
        i = next;
    return i;
}

/* _TAG_PAIR_LINE at i: \[[A-Za-z][A-Za-z0-9_]*[ ]+"[^"\\\n\r\[\]]*"\]\n; the offset of its
   "\n", or -1. */
static Py_ssize_t tag_line(const Text *t, Py_ssize_t i) {
    Py_UCS4 c;
    if (at(t, i) != '[' || !is_alpha(at(t, i + 1)))
        return -1;
    i += 2;
    while (is_alpha(c = at(t, i)) || is_digit(c) || c == '_')
        i++;
    if (c != ' ')
        return -1;
    while ((c = at(t, i)) == ' ')
        i++;
    if (c != '"')
        return -1;
    i++;
    while (i < t->n && (c = at(t, i)) != '"' && c != '\\' && c != '\n' && c != '\r'
           && c != '[' && c != ']')
        i++;
    if (at(t, i) != '"' || at(t, i + 1) != ']' || at(t, i + 2) != '\n')
        return -1;
    return i + 2;
}

/* _MOVE_LINE at i: [ \t]*WORD(?:[ \t]+WORD)*+[ \t]*\n, WORD = C++(?:[-:]C++)*+. The
   offset after it, or -1; ``last`` gets the start of its last word. */
static Py_ssize_t move_line(const Text *t, Py_ssize_t i, Py_ssize_t *last) {
    Py_UCS4 c;
    while ((c = at(t, i)) == ' ' || c == '\t')
        i++;
    if (!word_char(c))
        return -1;
    for (;;) {
        *last = i;
        for (;;) {  /* one word */
            while (word_char(at(t, i)))
                i++;
            c = at(t, i);
            if ((c == '-' || c == ':') && word_char(at(t, i + 1)))
                i++;
            else
                break;
        }
        c = at(t, i);
        if (c == '\n')
            return i + 1;
        if (c != ' ' && c != '\t')
            return -1;
        while ((c = at(t, i)) == ' ' || c == '\t')
            i++;
        if (c == '\n')
            return i + 1;
        if (!word_char(c))
            return -1;
    }
}

/* Whether text[i:end] is a result token with no space inside (_WORD_RESULT). */
static int result_word(const Text *t, Py_ssize_t i, Py_ssize_t end) {
    static const char *spellings[] = {"1/2-1/2", "1/2:1/2", "1-0", "1:0", "0-1", "0:1",
                                      "2-0", "0-2", "1-1", "0-0", "*"};
    Py_ssize_t length = end - i;
    for (size_t s = 0; s < sizeof spellings / sizeof *spellings; s++) {
        const char *word = spellings[s];
        Py_ssize_t k = 0;
        while (word[k] && k < length && at(t, i + k) == (Py_UCS4)(unsigned char)word[k])
            k++;
        if (!word[k] && k == length)
            return 1;
    }
    return 0;
}

/* The end of the word that starts at i on a move line (up to a space, tab or newline). */
static Py_ssize_t word_end(const Text *t, Py_ssize_t i) {
    Py_UCS4 c;
    while (i < t->n && (c = at(t, i)) != ' ' && c != '\t' && c != '\n')
        i++;
    return i;
}

/* _PLAIN_GAME at i, with _ends_once: the offset of the "[" after the game, or -1. Also
   the start of its move lines (``moves``). */
static Py_ssize_t plain_game(const Text *t, Py_ssize_t i, Py_ssize_t *moves) {
    Py_ssize_t next, last = 0, tags = 0;
    i = blank_lines(t, i);
    for (;;) {
        if ((next = tag_line(t, i)) >= 0) {
            i = next + 1;
            tags++;
        } else if ((next = blank_line(t, i)) >= 0) {
            i = next;
        } else {
            break;
        }
    }
    if (!tags || (next = move_line(t, i, &last)) < 0)
        return -1;
    *moves = i;
    i = next;
    for (;;) {  /* each line's last word but the last line's must not be a result */
        Py_ssize_t word = last, after = blank_lines(t, i);
        if ((next = move_line(t, after, &last)) < 0) {
            if (!result_word(t, word, word_end(t, word)))
                return -1;
            break;
        }
        if (result_word(t, word, word_end(t, word)))
            return -1;
        i = next;
    }
    i = blank_lines(t, i);
    return at(t, i) == '[' ? i : -1;
}

/* The grammar's RESULT at i, where text[i:i+3] is "1-1": whether it matches (its lookahead
   after "1-1"). */
static int result_after_1_1(const Text *t, Py_ssize_t i) {
    Py_ssize_t j = i + 3;
    Py_UCS4 c = at(t, j);
    if (!(is_alpha(c) || is_digit(c) || c == '/'))  /* also the end of the text */
        return 1;
    if (c == '*')
        return 1;
    {  /* 0*[1-9][0-9]*\. */
        Py_ssize_t k = j;
        while (at(t, k) == '0')
            k++;
        if (at(t, k) >= '1' && at(t, k) <= '9') {
            k++;
            while (is_digit(at(t, k)))
                k++;
            if (at(t, k) == '.')
                return 1;
        }
    }
    /* (?:1/2|[012])[-:][012](?![0-9]) */
    if (c == '1' && at(t, j + 1) == '/' && at(t, j + 2) == '2') {
        Py_UCS4 d = at(t, j + 3), e = at(t, j + 4);
        if ((d == '-' || d == ':') && e >= '0' && e <= '2' && !is_digit(at(t, j + 5)))
            return 1;
    }
    if (c >= '0' && c <= '2') {
        Py_UCS4 d = at(t, j + 1), e = at(t, j + 2);
        if ((d == '-' || d == ':') && e >= '0' && e <= '2' && !is_digit(at(t, j + 3)))
            return 1;
    }
    return 0;
}

/* A move of _RECORD at i (numeric or alphanumeric, then whitespace or the end): the offset
   after it, or -1. */
static Py_ssize_t record_move(const Text *t, Py_ssize_t i) {
    Py_UCS4 c = at(t, i);
    if (c >= '1' && c <= '9') {
        int pieces = 0;
        for (;;) {
            i++;
            if (is_digit(at(t, i)))
                i++;
            pieces++;
            c = at(t, i);
            if ((c == '-' || c == 'x') && at(t, i + 1) >= '1' && at(t, i + 1) <= '9')
                i++;
            else
                break;
        }
        if (pieces < 2)
            return -1;
    } else if (c >= 'a' && c <= 'h' && at(t, i + 1) >= '1' && at(t, i + 1) <= '8') {
        int pieces = 1;
        i += 2;
        for (;;) {
            c = at(t, i);
            if ((c == '-' || c == 'x' || c == ':') && at(t, i + 1) >= 'a' && at(t, i + 1) <= 'h'
                && at(t, i + 2) >= '1' && at(t, i + 2) <= '8') {
                i += 3;
                pieces++;
            } else {
                break;
            }
        }
        if (pieces < 2)
            return -1;
    } else {
        return -1;
    }
    return i >= t->n || is_space(at(t, i)) ? i : -1;
}

#define MAX_NUMBER 6  /* the digits of a move number (plain.py's _RECORD) */

/* One record of _moves (the lexer's RESULT does not start at it, then _RECORD) at i: the
   offset after it, or -1. */
static Py_ssize_t record(const Text *t, Py_ssize_t i) {
    Py_ssize_t j = i, digits = 0;
    if (at(t, i) == '1' && at(t, i + 1) == '-' && at(t, i + 2) == '1' && result_after_1_1(t, i))
        return -1;
    if (at(t, j) >= '1' && at(t, j) <= '9') {
        while (is_digit(at(t, j)) && digits < MAX_NUMBER + 1) {
            j++;
            digits++;
        }
        if (at(t, j) == '.') {
            if (digits > MAX_NUMBER)
                return -1;
            j++;
            if (at(t, j) == '.' && at(t, j + 1) == '.')
                j += 2;
            while (is_space(at(t, j)))
                j++;
            return record_move(t, j);
        }
    }
    return record_move(t, i);
}

static Py_ssize_t count_newlines(const Text *t, Py_ssize_t from, Py_ssize_t to) {
    Py_ssize_t count = 0;
    for (Py_ssize_t i = from; i < to; i++)
        count += at(t, i) == '\n';
    return count;
}

/* The tag lines of the head text[start:moves] as a tuple of their texts ("\n" left out),
   and in ``first`` the 1-based line of the first one in the game. */
static PyObject *head_tags(PyObject *text, const Text *t, Py_ssize_t start, Py_ssize_t moves,
                           Py_ssize_t *first) {
    PyObject *tags = PyList_New(0), *tuple;
    Py_ssize_t line = 0, i = start;
    if (tags == NULL)
        return NULL;
    *first = 0;
    while (i < moves) {
        Py_ssize_t close = tag_line(t, i);
        if (close >= 0) {
            PyObject *tag = PyUnicode_Substring(text, i, close);
            if (tag == NULL || PyList_Append(tags, tag) < 0) {
                Py_XDECREF(tag);
                Py_DECREF(tags);
                return NULL;
            }
            Py_DECREF(tag);
            if (!*first)
                *first = line + 1;
            i = close + 1;
        } else {  /* a blank line */
            while (i < moves && at(t, i) != '\n')
                i++;
            i++;
        }
        line++;
    }
    tuple = PyList_AsTuple(tags);
    Py_DECREF(tags);
    return tuple;
}

/* plain_game's reading of the game text[start:end] (a _PLAIN_GAME whose move lines start
   at ``moves``), or Py_None where it might decline. */
static PyObject *read_game(PyObject *text, const Text *t, Py_ssize_t start, Py_ssize_t end,
                           Py_ssize_t moves) {
    Py_ssize_t i = moves, run, result, stop, k, back, first;
    PyObject *tags, *written;
    while (i < end && is_space(at(t, i)))  /* the end of _HEAD */
        i++;
    if (i >= end || (run = record(t, i)) < 0 || run > end)
        Py_RETURN_NONE;
    for (;;) {  /* the run: (?:[ \t\n]+record)*+ */
        Py_ssize_t j = run, next;
        while (j < end && is_space(at(t, j)))
            j++;
        if (j == run || j >= end || (next = record(t, j)) < 0 || next > end)
            break;
        run = next;
    }
    result = run;  /* then whitespace, the result alone, whitespace to the end */
    while (result < end && is_space(at(t, result)))
        result++;
    stop = word_end(t, result);
    if (stop > end || !result_word(t, result, stop))
        Py_RETURN_NONE;
    for (k = stop; k < end && is_space(at(t, k)); k++)
        ;
    if (k != end)
        Py_RETURN_NONE;
    for (back = i - 1; back >= start && at(t, back) != '\n'; back--)
        ;
    tags = head_tags(text, t, start, moves, &first);
    if (tags == NULL)
        return NULL;
    written = PyUnicode_Substring(text, result, stop);
    if (written == NULL) {
        Py_DECREF(tags);
        return NULL;
    }
    return Py_BuildValue("(NnnnnnN)", tags, first, i - start, run - start,
                         count_newlines(t, start, i) + 1, i - back, written);
}

static PyObject *scan(PyObject *module, PyObject *args) {
    PyObject *text, *games, *item;
    Py_ssize_t start, limit;
    Text t;
    (void)module;
    if (!PyArg_ParseTuple(args, "Unn", &text, &start, &limit))
        return NULL;
    t.kind = PyUnicode_KIND(text);
    t.data = PyUnicode_DATA(text);
    t.n = PyUnicode_GET_LENGTH(text);
    if (start < 0 || start > t.n || limit < 0) {
        PyErr_SetString(PyExc_ValueError, "start or limit out of range");
        return NULL;
    }
    games = PyList_New(0);
    if (games == NULL)
        return NULL;
    for (;;) {
        Py_ssize_t moves = 0, end = plain_game(&t, start, &moves);
        PyObject *info;
        if (end < 0 || end - start > limit)
            break;
        info = read_game(text, &t, start, end, moves);
        if (info == NULL)
            goto fail;
        item = Py_BuildValue("(nnN)", end, count_newlines(&t, start, end), info);
        if (item == NULL || PyList_Append(games, item) < 0) {
            Py_XDECREF(item);
            goto fail;
        }
        Py_DECREF(item);
        start = end;
    }
    return Py_BuildValue("(Nn)", games, start);
fail:
    Py_DECREF(games);
    return NULL;
}

/* _RECORDS.findall: (?:[0-9]+\.+[ \t\n]*)?[^ \t\n]+ */
static PyObject *tokens(PyObject *module, PyObject *arg) {
    PyObject *list, *token;
    Text t;
    Py_ssize_t i = 0;
    (void)module;
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "tokens() takes a str");
        return NULL;
    }
    t.kind = PyUnicode_KIND(arg);
    t.data = PyUnicode_DATA(arg);
    t.n = PyUnicode_GET_LENGTH(arg);
    list = PyList_New(0);
    if (list == NULL)
        return NULL;
    for (;;) {
        Py_ssize_t start, end, j, digits;
        while (i < t.n && is_space(at(&t, i)))
            i++;
        if (i >= t.n)
            break;
        start = i;
        end = word_end(&t, i);
        /* a word of digits then dots takes the next word with it */
        for (j = start, digits = 0; j < end && is_digit(at(&t, j)); j++)
            digits++;
        if (digits && j < end && at(&t, j) == '.') {
            while (j < end && at(&t, j) == '.')
                j++;
            if (j == end) {
                Py_ssize_t k = end;
                while (k < t.n && is_space(at(&t, k)))
                    k++;
                if (k < t.n)
                    end = word_end(&t, k);
            }
        }
        token = PyUnicode_Substring(arg, start, end);
        if (token == NULL || PyList_Append(list, token) < 0) {
            Py_XDECREF(token);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(token);
        i = end;
    }
    return list;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(text, start, limit): the plain games from start, [(end, newlines, info)], and "
     "the offset reached."},
    {"tokens", tokens, METH_O, "tokens(run): the move records of a plain run."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "pdn._scan", "The reader's native scanner (pdn/_scan.c).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__scan(void) { return PyModule_Create(&module_def); }
