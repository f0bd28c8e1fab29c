"""The movetext lexer: ONE compiled regular expression built from the grammar's terminals.

Lark's own lexers match the ignored whitespace as a token of its own and try the terminals
one after another; here every match eats the whitespace before a token too. A MOVE token is
a whole run of move records with only whitespace between them (none of them a stronger
terminal such as the result ``1-1``): the parser takes a run of play in one step, and
``pdn.moves`` splits it with the same MOVE pattern.

``Scanner`` does the work; ``PdnLexer`` plugs it into Lark (its documented custom-lexer
interface: a ``Lexer`` class built from the lexer configuration, ``lex(text)`` yielding
tokens).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from contextvars import ContextVar

from lark import Token
from lark.exceptions import UnexpectedCharacters
from lark.lexer import Lexer, TerminalDef

# What may separate the moves of one MOVE token: plain whitespace (a comment, an escape line
# or anything else ends the run).
GAP = r"[ \t\r\n]+"

# Terminals whose text may span lines (the others never hold a newline).
_MULTILINE = frozenset({"MOVE", "COMMENT", "PAREN_COMMENT", "SETUP", "TAG"})

# Real records nest variations a few levels deep; a limit keeps every tree walk (writer,
# converter, viewer, pickling to workers) far from Python's recursion limit.
MAX_NESTING = 100


# The column offset of the text being parsed: the characters before it on its first line
# (``pdn.chunks.Chunk.column``), set by ``PdnParser.parse`` for Lark's call of ``lex``.
FIRST_COLUMN: ContextVar[int] = ContextVar("FIRST_COLUMN", default=0)


class NestingError(ValueError):
    """Variations nested deeper than ``MAX_NESTING``: the game is not read."""

    def __init__(self, line: int, column: int) -> None:
        self.line, self.column = line, column
        super().__init__(f"variations nested more than {MAX_NESTING} deep")


class Scanner:
    """The tokens of a text, from the terminals of a grammar (``ignore``: the names of those
    that are skipped), tried in Lark's order: priority, then length."""

    def __init__(self, terminals: Collection[TerminalDef], ignore: Collection[str]) -> None:
        ordered = sorted(terminals, key=lambda t: (-t.priority, -t.pattern.max_width,
                                                   -len(t.pattern.value), t.name))
        by_name = {t.name: t for t in ordered}
        ignored = "|".join(by_name[name].pattern.to_regexp() for name in ignore)
        alternatives = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})"
                                for t in ordered if t.name not in ignore)
        self._token = re.compile(f"(?:{ignored})*+(?:{alternatives})")
        self._trailer = re.compile(f"(?:{ignored})*+")
        move = by_name["MOVE"]
        stronger = "|".join(t.pattern.to_regexp() for t in ordered
                            if t.priority > move.priority and t.name not in ignore)
        self._run = re.compile(f"(?:{GAP}(?!{stronger}){move.pattern.to_regexp()})*+")
        # A whole run of moves as one MOVE token where the scan starts a token with no
        # whitespace before it, and a token of the terminals that outrank MOVE (for the
        # reader's fast path, ``pdn.plain``).
        self.move_run = re.compile(f"(?!{stronger}){move.pattern.to_regexp()}{self._run.pattern}")
        self.outranking = re.compile(stronger)
        self.outranking_names = tuple(t.name for t in ordered
                                      if t.priority > move.priority and t.name not in ignore)

    def tokens(self, text: str, first_column: int = 0) -> Iterator[Token]:
        """The tokens of ``text``, with 1-based lines and columns (those of its first line
        shifted by ``first_column``, the characters before it there); raises
        UnexpectedCharacters, and ``NestingError`` for variations nested deeper than
        ``MAX_NESTING``."""
        found = self._scan(text, first_column)
        return _limit_nesting(found) if text.count("(") > MAX_NESTING else found

    def _scan(self, text: str, first_column: int) -> Iterator[Token]:
        new_token = Token
        match = self._token.match
        run = self._run.match
        count = text.count
        end = len(text)
        position = line = 0
        line_start = -1 - first_column
        while True:
            found = match(text, position)
            if found is None:
                break
            kind = found.lastgroup
            start = found.start(kind)
            newlines = count("\n", position, start)
            if newlines:
                line += newlines
                line_start = text.rfind("\n", position, start)
            position = found.end()
            if kind == "MOVE":
                position = run(text, position).end()
            yield new_token(kind, text[start:position], start, line + 1, start - line_start)
            if kind in _MULTILINE:
                newlines = count("\n", start, position)
                if newlines:
                    line += newlines
                    line_start = text.rfind("\n", start, position)
        position = self._trailer.match(text, position).end()
        if position < end:
            newlines = count("\n", 0, position)
            column = position - text.rfind("\n", 0, position) + (0 if newlines else first_column)
            raise UnexpectedCharacters(text, position, newlines + 1, column)


class PdnLexer(Lexer):
    """``Scanner`` as Lark's lexer (``Lark(..., lexer=PdnLexer)``)."""

    def __init__(self, lexer_conf) -> None:
        self.scanner = Scanner(lexer_conf.terminals, lexer_conf.ignore)

    def lex(self, text: str) -> Iterator[Token]:
        """The tokens of ``text`` (Lark's custom-lexer interface: the whole text at once)."""
        return self.scanner.tokens(text, FIRST_COLUMN.get())


def _limit_nesting(tokens: Iterator[Token]) -> Iterator[Token]:
    """The tokens, raising ``NestingError`` at the "(" that opens one variation too many."""
    depth = 0
    for token in tokens:
        if token.type == "LPAR":
            depth += 1
            if depth > MAX_NESTING:
                raise NestingError(token.line, token.column)
        elif token.type == "RPAR":
            depth -= 1
        yield token
