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

import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token

from pdn.game import Game
from pdn.grammar import cache_file, grammar_text, is_ours, replace_atomically
from pdn.lexer import FIRST_COLUMN, PdnLexer, Scanner
from pdn.movetext import GameTransformer


class PdnParser:
    """``parse(text) -> list[Game]`` for the grammar ``grammar`` (the text of a ``.lark``
    file), building the games with ``transformer``; ``cache``: a file for Lark's own cache
    of the compiled grammar (``pdn.grammar.cache_file``), or None to compile it."""

    def __init__(self, grammar: str, transformer: GameTransformer,
                 cache: Path | None = None) -> None:
        options = {"parser": "lalr", "lexer": PdnLexer, "maybe_placeholders": False}
        self.lark = _cached_lark(grammar, cache, transformer=transformer, **options)
        conf = self.lark.lexer_conf  # also there when Lark loaded its cache
        self._scanner = Scanner(conf.terminals, conf.ignore)

    def parse(self, text: str, first_column: int = 0) -> list[Game]:
        """The games of a chunk (the transformer's ``start_chunk`` placed it in its file;
        ``first_column``: the characters before it on its first line)."""
        if not first_column:
            return self.lark.parse(text)
        reset = FIRST_COLUMN.set(first_column)
        try:
            return self.lark.parse(text)
        finally:
            FIRST_COLUMN.reset(reset)

    def lex(self, text: str, first_column: int = 0) -> Iterator[Token]:
        """The tokens of ``text``, as the parser sees them (to cut chunks, explain errors)."""
        return self._scanner.tokens(text, first_column)


@cache
def load_parser() -> tuple[PdnParser, GameTransformer]:
    """The parser of ``grammar.lark`` and the transformer it reports to (one per process),
    its compiled grammar kept in the user's cache folder (``pdn.grammar``)."""
    transformer = GameTransformer()
    cache_path = cache_file("parser", f"{PdnLexer.__module__}.{PdnLexer.__qualname__}",
                            "lalr", "maybe_placeholders=False")
    return PdnParser(grammar_text(), transformer, cache_path), transformer


def _cached_lark(grammar: str, path: Path | None, **options: Any) -> Lark:
    """Lark's parser, loaded from ``path`` when this user saved it there (``Lark.save``; the
    name of the file holds the digest of all that made it), else compiled and saved to a file
    of its own, then moved to ``path`` (never half written). A file that does not load is
    compiled again."""
    if path is not None and is_ours(path):
        try:
            with open(path, "rb") as file:
                # Lark's own load, as its cache= option does: the transformer is given anew
                return Lark.__new__(Lark)._load(file, transformer=options["transformer"])
        except Exception:  # a broken or foreign file: compile the grammar instead
            pass
    compiled = Lark(grammar, **options)
    if path is not None:
        written = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            with open(written, "wb") as file:
                compiled.save(file, exclude_options=("transformer",))
        except OSError:
            written.unlink(missing_ok=True)
        else:
            replace_atomically(written, path)
    return compiled
