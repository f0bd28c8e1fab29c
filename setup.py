"""Build of pdn-toolkit: the rules core (``pdn.compiled.COMPILED``) compiled with mypyc from
its own Python source where mypy and a C compiler are at hand, else pure Python, which gives
identical results. ``PDN_PURE_PYTHON=1`` builds pure Python. The metadata is in pyproject.toml.
"""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
BUILD = runpy.run_path(str(ROOT / "pdn" / "compiled.py"))  # the list, without importing pdn


def say(message: str) -> None:
    print(f"pdn-toolkit: {message}", file=sys.stderr)


def compiled_extensions() -> list:
    """The mypyc extension modules, or [] for a pure-Python build (asked for, or no mypy)."""
    if BUILD["wants_pure"]():
        say("PDN_PURE_PYTHON is set: building pure Python")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypy is not installed: building pure Python")
        return []
    sources = [str(BUILD["source_path"](module, Path("."))) for module in BUILD["COMPILED"]]
    try:
        return mypycify(sources, opt_level="3")
    except (Exception, SystemExit) as error:  # mypyc reports a type error by exiting
        say(f"mypyc could not compile the rules core ({error}): building pure Python")
        return []


class OptionalBuildExt(build_ext):
    """Builds the extensions and records the source digests they were built from; where no
    C compiler works, the package stays pure Python."""

    def run(self) -> None:
        if not self.extensions:
            return
        manifest = Path(self.build_lib if not self.inplace else ".") / "pdn" / BUILD["MANIFEST"]
        manifest.unlink(missing_ok=True)  # until the new extensions are built
        try:
            super().run()
        except Exception as error:  # no compiler, or one that fails: the build goes on pure
            say(f"the C compiler failed ({error}): building pure Python")
            return
        sources = {module: BUILD["digest"](BUILD["source_path"](module, ROOT))
                   for module in BUILD["COMPILED"]}
        library = next(ext.name for ext in self.extensions if ext.name.endswith("__mypyc"))
        manifest.parent.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps({"library": library, "sources": sources}, indent=1)
                            + "\n", encoding="utf-8")
        say(f"compiled with mypyc: {', '.join(BUILD['COMPILED'])}")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
