"""A griffe extension for the API reference (``make docs``): the ``>>>`` examples of the
docstrings are shown as Python console blocks, not read as Markdown."""

from __future__ import annotations

import re

import griffe

_PROMPT = re.compile(r"^\s*>>>")


def fenced(text: str) -> str:
    """``text`` with each run of doctest lines (a ``>>>`` line, its ``...`` lines and its
    expected output, up to a blank line) inside a ```pycon fence."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if not inside and _PROMPT.match(line):
            out.append("```pycon")
            inside = True
        elif inside and not line.strip():
            out.append("```")
            inside = False
        out.append(line)
    if inside:
        out.append("```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence the doctests of every docstring griffe loads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: object) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fenced(obj.docstring.value)
