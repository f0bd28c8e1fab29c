"""The parser of ``grammar.lark``: Lark's LALR tables fed by ``pdn.lexer``, reporting to the
transformer of ``pdn.movetext``, which builds the games while parsing (no tree).

Only Lark's public interface is used (``Lark`` options, the custom-lexer interface, the
terminals it compiled), so ``lark`` need not be pinned.

>>> parser, transformer = load_parser()
>>> transformer.start_chunk(1)
>>> [len(game.moves.plies) for game in parser.parse("1. 32-28 19-23 * 1. 33-28 *")]
[2, 1]
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from lark import Lark, Token

from pdn.grammar import grammar_text
from pdn.lexer import PdnLexer, Scanner
from pdn.model import Game
from pdn.movetext import GameTransformer


class PdnParser:
    """``parse(text) -> list[Game]`` for the grammar ``grammar`` (the text of a ``.lark``
    file), building the games with ``transformer``."""

    def __init__(self, grammar: str, transformer: GameTransformer) -> None:
        self.lark = Lark(grammar, parser="lalr", lexer=PdnLexer, transformer=transformer,
                         maybe_placeholders=False)
        self._scanner = Scanner(self.lark.terminals, self.lark.ignore_tokens)

    def parse(self, text: str) -> list[Game]:
        """The games of a chunk (the transformer's ``start_chunk`` placed it in its file)."""
        return self.lark.parse(text)

    def lex(self, text: str) -> Iterator[Token]:
        """The tokens of ``text``, as the parser sees them (to cut chunks, explain errors)."""
        return self._scanner.tokens(text)


@cache
def load_parser() -> tuple[PdnParser, GameTransformer]:
    """The parser of ``grammar.lark`` and the transformer it reports to (one per process)."""
    transformer = GameTransformer()
    return PdnParser(grammar_text(), transformer), transformer
