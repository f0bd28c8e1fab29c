"""Build of pdn-toolkit: the rules core (``pdn.compiled.COMPILED``) compiled with mypyc from
its own Python source where mypy and a C compiler are at hand, and the native parts where a C
compiler is (``pdn.compiled.NATIVE_SOURCES``: the native rules core, the built-in engine's
search and the database's rows, each C file its extension) and the reader's scanner
(``pdn/_scan.c``); else pure Python,
which gives identical results. ``PDN_PURE_PYTHON=1`` builds pure Python; ``PDN_NATIVE_ONLY=1``
builds the native core alone (a quick build while working on it: no mypyc). The metadata is
in pyproject.toml.
"""

from __future__ import annotations

import json
import platform
import runpy
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
BUILD = runpy.run_path(str(ROOT / "pdn" / "compiled.py"))  # the list, without importing pdn


def say(message: str) -> None:
    print(f"pdn-toolkit: {message}", file=sys.stderr)


def native_flags() -> list[str]:
    """-O3, and the popcount instruction where this machine's x86-64 processor has it (the
    extension is built for the machine that builds it; without the flag, a few shifts)."""
    flags = ["-O3"]
    try:
        cpu = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return flags
    if platform.machine() in ("x86_64", "AMD64") and " popcnt" in cpu:
        flags.append("-mpopcnt")
    return flags


def native_extension(module: str, source: str) -> Extension:
    """One native part; the engine's and the database's #include the rules core's file (each
    its own copy of the generator, working on the rules core's Rules objects)."""
    rules = BUILD["NATIVE_SOURCE"]
    return Extension(module, [source], depends=[] if source == rules else [rules],
                     extra_compile_args=native_flags())


NATIVE = [native_extension(module, source)
          for module, source in BUILD["NATIVE_EXTENSIONS"].items()]
# The reader's native scanner (pdn._scan, used by pdn.chunks and pdn.plain).
SCAN = Extension("pdn._scan", [BUILD["SCAN_SOURCE"]], extra_compile_args=["-O3"])


def compiled_extensions() -> list:
    """The native core and the mypyc extension modules, or [] for a pure-Python build (asked
    for); the native core alone where mypy is missing or ``PDN_NATIVE_ONLY`` is set."""
    if BUILD["wants_pure"]():
        say("PDN_PURE_PYTHON is set: building pure Python")
        return []
    if BUILD["wants_native_only"]():
        say("PDN_NATIVE_ONLY is set: building the native core alone")
        return [*NATIVE, SCAN]
    return [*NATIVE, SCAN, *mypyc_extensions()]


def mypyc_extensions() -> list:
    """The mypyc extension modules, or [] where mypy is missing or fails."""
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


def kept_mypyc_record(manifest: Path) -> dict:
    """What a native-only build keeps of the manifest it replaces: the mypyc modules'
    ``library`` and ``sources``, still beside their sources and still theirs (their digests
    go on telling a stale module); {} for any other build."""
    if not BUILD["wants_native_only"]():
        return {}
    try:
        recorded = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(recorded, dict):
        return {}
    return {key: recorded[key] for key in ("library", "sources") if key in recorded}


class OptionalBuildExt(build_ext):
    """Builds the extensions and records the source digests they were built from; where no
    C compiler works, the package stays pure Python."""

    def run(self) -> None:
        if not self.extensions:
            return
        manifest = Path(self.build_lib if not self.inplace else ".") / "pdn" / BUILD["MANIFEST"]
        mypyc_built = kept_mypyc_record(manifest)
        manifest.unlink(missing_ok=True)  # until the new extensions are built
        try:
            super().run()
        except Exception as error:  # no compiler, or one that fails: the build goes on pure
            say(f"the C compiler failed ({error}): building pure Python")
            return
        recorded: dict = {"native": BUILD["native_digest"](ROOT),
                          "scan": BUILD["digest"](ROOT / BUILD["SCAN_SOURCE"])}
        library = next((ext.name for ext in self.extensions if ext.name.endswith("__mypyc")),
                       None)
        if library is not None:
            recorded["library"] = library
            recorded["sources"] = {module: BUILD["digest"](BUILD["source_path"](module, ROOT))
                                   for module in BUILD["COMPILED"]}
            say(f"compiled with mypyc: {', '.join(BUILD['COMPILED'])}")
        else:
            recorded.update(mypyc_built)
        manifest.parent.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps(recorded, indent=1) + "\n", encoding="utf-8")
        say(f"built the native parts ({', '.join(BUILD['NATIVE_EXTENSIONS'])}) and scanner "
            "(pdn._scan)")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
