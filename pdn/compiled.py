"""Which build runs: the rules core compiled with mypyc, or the same modules as pure Python.

``setup.py`` compiles the modules of ``COMPILED`` with mypyc from these very sources when it
can (mypy and a C compiler at hand, ``PDN_PURE_PYTHON`` not set) and records a digest of each
source in ``pdn/_compiled.json``. At run time the extension modules are used only while
every compiled module's source still has the digest it was built from and their shared
library can be imported: otherwise (or with ``PDN_PURE_PYTHON=1`` in the environment) the
whole core runs from its ``.py`` files, with a warning that says why, so a stale build never
hides a change.

>>> build() in ("compiled", "pure Python")
True
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import find_spec, spec_from_file_location
from pathlib import Path
from types import ModuleType

# The hot path of reading and replaying (found with a profile of ``pdn validate``).
COMPILED = (
    "pdn.moves",
    "replay.rules.position",
    "replay.rules.draws",
    "replay.rules.move",
    "replay.rules.movegen",
    "replay.rules.perft",
    "replay.record.board",
    "replay.record.replayer",
    "replay.record.resolve",
    "replay.record.variation",
)
MANIFEST = "_compiled.json"  # beside this module, written by the build (``manifest``)
PURE_VARIABLE = "PDN_PURE_PYTHON"
# The native parts, each extension built from its C file: the rules core (replay.rules.native),
# and the built-in engine's search and the database's rows, which #include the rules core's
# file. The build records one digest of the three (``native_digest``: an edit of any makes them
# all stale); the variable builds them alone (no mypyc: a quick build while working on them).
NATIVE_SOURCE = "replay/rules/_native.c"
# (laid out unlike COMPILED, whose lines the Makefile reads as the mypyc sources)
NATIVE_EXTENSIONS = {"replay.rules._native": NATIVE_SOURCE,
                     "replay.engine._search": "replay/engine/_search.c",
                     "replay.database._positions": "replay/database/_positions.c"}
NATIVE_SOURCES = tuple(NATIVE_EXTENSIONS.values())
NATIVE_ONLY_VARIABLE = "PDN_NATIVE_ONLY"
SCAN_SOURCE = "pdn/_scan.c"  # the reader's native scanner (pdn._scan), recorded as "scan"
ROOT = Path(__file__).resolve().parent.parent  # the folder that holds pdn/ and replay/


def wants_pure(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``PDN_PURE_PYTHON`` asks for pure Python (any value but empty or ``0``)."""
    return environ.get(PURE_VARIABLE, "") not in ("", "0")


def wants_native_only(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``PDN_NATIVE_ONLY`` asks the build for the native core alone."""
    return environ.get(NATIVE_ONLY_VARIABLE, "") not in ("", "0")


def native_is_stale(root: Path = ROOT) -> bool:
    """Whether the native parts' C sources (``NATIVE_SOURCES``) differ from those they were
    built from (an install without the source has nothing to hide)."""
    source = root / NATIVE_SOURCE
    return source.is_file() and manifest(root).get("native") != native_digest(root)


def scan_is_stale(root: Path = ROOT) -> bool:
    """Whether the reader's native scanner's C source differs from the one it was built from
    (an install without the source has nothing to hide)."""
    source = root / SCAN_SOURCE
    return source.is_file() and manifest(root).get("scan") != digest(source)


def native_digest(root: Path = ROOT) -> str:
    """The digest a build records for the native parts: of their C sources that exist, in
    order (one source alone: ``digest`` of it)."""
    hashed = hashlib.sha256()
    for name in NATIVE_SOURCES:
        if (root / name).is_file():
            hashed.update((root / name).read_bytes())
    return hashed.hexdigest()[:20]


def source_path(module: str, root: Path = ROOT) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: Path) -> str:
    """The digest a build records for a source file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:20]


def extension_paths(module: str, root: Path = ROOT) -> list[Path]:
    """The compiled files of a module that lie beside its source (none in a pure build)."""
    base = root.joinpath(*module.split("."))
    return [base.with_name(base.name + suffix) for suffix in EXTENSION_SUFFIXES
            if base.with_name(base.name + suffix).is_file()]


def manifest(root: Path = ROOT) -> dict:
    """What the build recorded: ``library``, the name of the compiled modules' shared
    library, and ``sources``, the digest of each source; {} where nothing was recorded."""
    try:
        recorded = json.loads((root / "pdn" / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return recorded if isinstance(recorded, dict) else {}


def stale_modules(root: Path = ROOT, modules: Sequence[str] = COMPILED) -> list[str]:
    """The compiled modules whose source differs from the one they were built from (all of
    them where the digests are missing); [] where nothing is compiled."""
    built = [module for module in modules if extension_paths(module, root)]
    recorded = manifest(root).get("sources", {})
    stale = []
    for module in built:
        source = source_path(module, root)  # an install without sources has nothing to hide
        if source.is_file() and recorded.get(module) != digest(source):
            stale.append(module)
    return stale


@cache
def runs_pure() -> bool:
    """Whether the core is imported from its ``.py`` files: asked for, nothing compiled, or,
    with a warning that says why, a compiled module older than its source or a shared library
    that this environment cannot import (a second venv over the same working tree)."""
    if wants_pure() or not any(extension_paths(module) for module in COMPILED):
        return True
    stale = stale_modules()
    library = manifest().get("library", "")
    if stale:
        reason = f"compiled modules no longer match their source ({', '.join(stale)})"
    elif not library or find_spec(library) is None:
        reason = f"the compiled modules' library {library or '(not recorded)'} is not importable"
    else:
        return False
    warnings.warn(f"{reason}: running pure Python (rebuild with `make` or `pip install -e .`)",
                  RuntimeWarning, stacklevel=2)
    return True


def build() -> str:
    """``compiled`` when the core runs as mypyc extension modules, else ``pure Python``."""
    return "pure Python" if runs_pure() else "compiled"


def loaded_build(modules: Sequence[ModuleType]) -> str:
    """What the given modules really are: ``compiled``, ``pure Python`` or ``mixed``."""
    kinds = {str(module.__file__).endswith(tuple(EXTENSION_SUFFIXES)) for module in modules}
    return "mixed" if len(kinds) > 1 else "compiled" if kinds == {True} else "pure Python"


class _SourceFinder(MetaPathFinder):
    """Finds the compiled modules' ``.py`` files ahead of their extensions when the core
    must run as pure Python."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in COMPILED or not runs_pure():
            return None
        source = source_path(fullname)
        return spec_from_file_location(fullname, source) if source.is_file() else None


def install() -> None:
    """Put the source finder first on ``sys.meta_path`` (once; ``pdn`` does it on import)."""
    if not any(isinstance(finder, _SourceFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
