"""Collection of the doctests in the library's modules (``--doctest-modules``): a module of
the rules core that runs compiled (``pdn.compiled``) is imported as an extension module, so
its doctests run in the pure-Python build's suite (``make test-pure``) instead."""

from __future__ import annotations

from pathlib import Path

from pdn import compiled


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if collection_path.suffix != ".py" or compiled.build() != "compiled":
        return None
    try:
        relative = collection_path.resolve().relative_to(compiled.ROOT)
        module = ".".join(relative.with_suffix("").parts)
    except ValueError:
        return None
    return True if module in compiled.COMPILED else None
