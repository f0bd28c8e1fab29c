"""Reading PDN's syntax, in one import: the names of the modules that do each job.

- ``pdn.chunks``: cutting input into game chunks and, for workers, blocks of whole games;
- ``pdn.tags``: tag pairs and results;
- ``pdn.moves``: move records (a MOVE token) as plies;
- ``pdn.movetext``: the transformer that builds ``Game`` values while parsing;
- ``pdn.lexer``: the one-regex lexer; ``pdn.parser``: the Lark parser assembled from them;
- ``pdn.errors``: Lark's errors as diagnostics a person understands.

``pdn.grammar`` holds ``grammar.lark`` and its terminals.
"""

from pdn.chunks import Chunk, block_chunks, split_blocks, split_chunks
from pdn.errors import explain_error, internal_error
from pdn.lexer import MAX_NESTING, NestingError, PdnLexer
from pdn.moves import NAG_FORCED_MOVE
from pdn.movetext import GameTransformer
from pdn.parser import PdnParser, load_parser
from pdn.quoting import shown
from pdn.tags import RESULTS, UNKNOWN_RESULTS, check_tag, head_tags, split_tag

__all__ = [
    "MAX_NESTING",
    "NAG_FORCED_MOVE",
    "RESULTS",
    "UNKNOWN_RESULTS",
    "Chunk",
    "GameTransformer",
    "NestingError",
    "PdnLexer",
    "PdnParser",
    "block_chunks",
    "check_tag",
    "explain_error",
    "head_tags",
    "internal_error",
    "load_parser",
    "shown",
    "split_blocks",
    "split_chunks",
    "split_tag",
]
