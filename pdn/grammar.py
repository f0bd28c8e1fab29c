"""The PDN grammar, ``grammar.lark``, and its terminals as regular expressions.

The parser (``pdn.parser``) compiles the grammar; the code that reads inside a token (a move
record's parts, a tag pair at the head of a game) asks ``terminal`` for the grammar's own
definition instead of writing a second one.

Compiling the grammar costs a short command most of its start-up, so what it gives is kept
in the user's cache folder (``cache_file``): the terminals as JSON, the parser as Lark's own
cache. A file's name holds the digest of the grammar, Lark's version and the options, so a
changed grammar never meets an old file; without a cache folder everything is compiled as
before.

>>> import re
>>> re.fullmatch(terminal("NUMERIC_MOVE"), "22x15") is not None
True
"""

from __future__ import annotations

import json
import os
import sys
from functools import cache
from hashlib import sha256
from pathlib import Path


@cache
def grammar_text() -> str:
    """The text of ``grammar.lark`` (beside this module, else from the package's resources:
    a zipped install)."""
    beside = Path(__file__).with_name("grammar.lark")
    if beside.is_file():
        return beside.read_text(encoding="utf-8")
    from importlib import resources

    return resources.files("pdn").joinpath("grammar.lark").read_text(encoding="utf-8")


def cache_folder() -> Path | None:
    """Where compiled grammars are kept: ``$PDN_CACHE_DIR``, else ``$XDG_CACHE_HOME`` or
    ``~/.cache``, under ``pdn-toolkit``; None when ``PDN_CACHE_DIR`` is set empty or no
    folder can be made."""
    folder = os.environ.get("PDN_CACHE_DIR")
    if folder is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                 ".cache")
        folder = os.path.join(base, "pdn-toolkit")
    if not folder:
        return None
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    return Path(folder)


def cache_file(kind: str, *key: str) -> Path | None:
    """The cache file of ``kind`` for the grammar and ``key`` (what else shapes it), or None
    without a cache folder."""
    import lark

    folder = cache_folder()
    if folder is None:
        return None
    digest = sha256("\0".join((grammar_text(), lark.__version__, sys.version, *key))
                    .encode("utf-8")).hexdigest()[:24]
    return folder / f"{kind}-{digest}"


def is_ours(path: Path) -> bool:
    """Whether ``path`` is a file this user wrote (a cache file someone else could have put
    there is never loaded)."""
    try:
        status = path.stat()
    except OSError:
        return False
    return not hasattr(os, "getuid") or status.st_uid == os.getuid()


def replace_atomically(written: Path, path: Path) -> None:
    """Move a cache file written under a name of its own to ``path``; a failure leaves no
    file (the next run compiles again)."""
    try:
        os.replace(written, path)
    except OSError:
        written.unlink(missing_ok=True)


@cache
def _all_terminals() -> dict[str, str]:
    path = cache_file("terminals", "v1")
    if path is not None and is_ours(path):
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            pass
    from lark import Lark

    # Lark's lexer-only mode (parser=None) keeps every terminal, also those that only make up
    # others (NUMERIC_SQUARE, SHORT_MOVE, ...), which a parser drops as unused.
    lexer_only = Lark(grammar_text(), parser=None, lexer="basic")
    terminals = {t.name: t.pattern.to_regexp() for t in lexer_only.terminals}
    if path is not None:
        written = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            written.write_text(json.dumps(terminals), encoding="utf-8")
        except OSError:
            written.unlink(missing_ok=True)
        else:
            replace_atomically(written, path)
    return terminals


def terminal(name: str) -> str:
    """The regular expression of the terminal ``name`` of ``grammar.lark``, with the terminals
    it is made of written out."""
    return _all_terminals()[name]
