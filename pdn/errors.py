"""Error messages: a Lark error, the nesting limit or an internal error as a ``Diagnostic``
that a person understands, located in the whole file.

>>> from lark.exceptions import UnexpectedCharacters
>>> from pdn.chunks import Chunk
>>> explain_error(UnexpectedCharacters("1. 32-28 }", 9, 1, 10), Chunk("1. 32-28 }", 5)).message
"unexpected '}' at 5:10: comment closed but none is open"
"""

from __future__ import annotations

import re

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from pdn.chunks import Chunk
from pdn.i18n import N_
from pdn.lexer import MAX_NESTING, NestingError
from pdn.model import Diagnostic
from pdn.moves import NumberError
from pdn.parser import load_parser
from pdn.quoting import shown

_CHARACTER_REASONS = {
    "{": N_("comment opened but never closed"),
    "}": N_("comment closed but none is open"),
    "[": N_("tag not closed on its line"),
    "]": N_("tag closed but none is open"),
    '"': N_("a quote outside a tag"),
    "/": N_("setup is not of the form /FEN \"...\"/"),
}
UNEXPECTED = N_("unexpected '{word}' at {line}:{column}: {reason}")


def _word_at(text: str, position: int) -> str:
    match = re.compile(r"\S{1,20}").match(text, position)
    return shown(match.group() if match else text[position : position + 1])


def _open_variations(text: str, end: int, first_column: int = 0) -> list[tuple[int, int]]:
    """Lines (in the chunk) and columns of the variations still open before offset ``end``
    (``first_column``: the characters before the chunk on its first line)."""
    parser, _ = load_parser()
    stack: list[tuple[int, int]] = []
    try:
        for token in parser.lex(text, first_column):
            if token.start_pos >= end:
                break
            if token.type == "LPAR":
                stack.append((token.line, token.column))
            elif token.type == "RPAR" and stack:
                stack.pop()
    except (UnexpectedInput, NestingError):
        pass
    return stack


def explain_error(error: Exception, chunk: Chunk) -> Diagnostic:
    """A Lark error or a ``NestingError`` as a diagnostic located in the whole file (anything
    else as an internal error)."""
    offset = chunk.line - 1
    if isinstance(error, NestingError):
        line = error.line + offset
        message = N_("variation opened at {line}:{column} is nested more than {count} deep: "
                     "the game is not read").format(line=line, column=error.column,
                                                    count=MAX_NESTING)
        return Diagnostic("syntax", message, line, error.column)
    if isinstance(error, UnexpectedCharacters):
        line, column = error.line + offset, error.column
        word = _word_at(chunk.text, error.pos_in_stream)
        reason = _CHARACTER_REASONS.get(word[0],
                                        N_("not a move, move number, comment, NAG or result"))
        message = UNEXPECTED.format(word=word, line=line, column=column, reason=reason)
        return Diagnostic("syntax", message, line, column)
    if isinstance(error, UnexpectedToken):
        token = error.token
        if token.type == "$END":
            lines = chunk.text.splitlines() or [""]
            line = len(lines) + offset
            column = len(lines[-1]) + 1 + (chunk.column if len(lines) == 1 else 0)
            opened = _open_variations(chunk.text, len(chunk.text), chunk.column)
            reason = (N_("variation opened at {line}:{column} is not closed").format(
                line=opened[-1][0] + offset, column=opened[-1][1])
                      if opened else N_("the game ends too early"))
            return Diagnostic("syntax", N_("end of game at {line}:{column}: {reason}").format(
                line=line, column=column, reason=reason), line, column)
        line, column = token.line + offset, token.column
        opened = _open_variations(chunk.text, token.start_pos, chunk.column)
        if token.type == "RPAR":
            reason = N_("variation closed but none is open")
        elif opened:
            reason = N_("inside the variation opened at {line}:{column}, not closed").format(
                line=opened[-1][0] + offset, column=opened[-1][1])
        elif token.type == "RESULT":
            reason = N_("a result where the game has already ended")
        else:
            reason = N_("not expected here")
        message = UNEXPECTED.format(word=shown(token.value), line=line, column=column,
                                    reason=reason)
        return Diagnostic("syntax", message, line, column)
    if isinstance(error, NumberError):
        place = max(chunk.text.find(error.text), 0)
        line = chunk.text.count("\n", 0, place) + 1 + offset
        before = chunk.text.rfind("\n", 0, place)
        column = place - before + (chunk.column if before < 0 else 0)
        message = N_("number '{word}' at {line}:{column} has {count} digits: no move number or "
                     "NAG is that long").format(word=shown(error.text, 20), line=line,
                                                column=column, count=f"{len(error.text):,}")
        return Diagnostic("syntax", message, line, column)
    return internal_error(error, chunk)


def internal_error(error: BaseException, chunk: Chunk) -> Diagnostic:
    """An exception the reader does not expect, as a diagnostic that says it is a bug of the
    toolkit, not of the record (the games around it are still read)."""
    message = N_("internal error reading the game at {line}:1: {error} (a bug of pdn-toolkit, "
                 "not of the record: please report it with this game)").format(
        line=chunk.line, error=f"{type(error).__name__}: {shown(str(error), 200)}")
    return Diagnostic("internal-error", message, chunk.line, 1)


# The errors after which a game was not read at all (its text is not PDN the grammar reads,
# the reader failed, or it is over the size limit): its tags at most are known.
UNREADABLE = frozenset({"syntax", "internal-error", "too-large"})


def unreadable_reason(game) -> str | None:
    """Why a game (``pdn.game.Game``) could not be read, or None when it was."""
    return next((d.message for d in game.diagnostics if d.code in UNREADABLE
                 and d.severity == "error"), None)
