"""The old import paths of the modules that moved into the floors' folders (after release 0.1.0):
``import replay.board`` or ``from replay.perft import perft`` still work for this release,
with a ``DeprecationWarning`` that names the new home, and pickles that name an old path load.

An old module is made anew from its new homes (``MOVED``): its names are theirs, the first
home that has a name giving it. The homes are found by name with ``importlib``, so this
front door adds no arrow to the floors' rule of imports (tests/test_layers.py).
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence
from importlib import import_module
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType

_RULES = ("choice", "draws", "endings", "identity", "move", "movegen", "native", "numbering",
          "perft", "variant_titles", "variants")
_RECORD = ("agreement", "criteria", "editing", "held", "inference", "lines", "notation",
           "resolve", "silent", "tree")
# old module -> its new homes, in the order its names are looked up
MOVED: dict[str, tuple[str, ...]] = {
    **{f"replay.{name}": (f"replay.rules.{name}",) for name in _RULES},
    **{f"replay.{name}": (f"replay.record.{name}",) for name in _RECORD},
    "replay.board": ("replay.record.board", "replay.rules.position"),
    "replay.diagram": ("replay.record.diagram", "replay.record.plies"),
    "replay.replayer": ("replay.record.replayer", "replay.record.variation"),
    "replay.openings": ("replay.reference.openings",),
    "replay.ballots": ("replay.reference.ballots",),
}


def _warn(old: str, homes: Sequence[str]) -> None:
    """The warning, shown at the importer's line: ``warnings`` skips the import machinery's
    frames itself, so the importer is the one past ``exec_module``."""
    warnings.warn(f"{old} has moved to {' and '.join(homes)}: import it from there "
                  "(the old path goes in the next release)", DeprecationWarning, stacklevel=3)


class MovedFinder(MetaPathFinder, Loader):
    """Finds an old path of ``MOVED`` and nothing else."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> ModuleSpec | None:
        return ModuleSpec(fullname, self) if fullname in MOVED else None

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return None  # the default module

    def exec_module(self, module: ModuleType) -> None:
        homes = MOVED[module.__name__]
        _warn(module.__name__, homes)
        for home in reversed(homes):  # the first home's names win
            new = import_module(home)
            module.__dict__.update({name: value for name, value in vars(new).items()
                                    if not name.startswith("__")})
        module.__doc__ = f"Moved to {' and '.join(homes)}."


def install() -> None:
    """Put the finder first on ``sys.meta_path``, once: an old path is always the moved
    module, never an extension an earlier in-place build left beside the old source."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
