"""The PDN grammar, ``grammar.lark``, and its terminals as regular expressions.

The parser (``pdn.parser``) compiles the grammar; the code that reads inside a token (a move
record's parts, a tag pair at the head of a game) asks ``terminal`` for the grammar's own
definition instead of writing a second one.

>>> import re
>>> re.fullmatch(terminal("NUMERIC_MOVE"), "22x15") is not None
True
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from lark import Lark


@cache
def grammar_text() -> str:
    """The text of ``grammar.lark``."""
    return resources.files("pdn").joinpath("grammar.lark").read_text(encoding="utf-8")


@cache
def _all_terminals() -> Lark:
    # Lark's lexer-only mode (parser=None) keeps every terminal, also those that only make up
    # others (NUMERIC_SQUARE, SHORT_MOVE, ...), which a parser drops as unused.
    return Lark(grammar_text(), parser=None, lexer="basic")


@cache
def terminal(name: str) -> str:
    """The regular expression of the terminal ``name`` of ``grammar.lark``, with the terminals
    it is made of written out."""
    return _all_terminals().get_terminal(name).pattern.to_regexp()
