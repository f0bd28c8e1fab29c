"""Notes, warnings and errors as every command prints them: a kind repeated is summed up.

The first of a kind is shown; the others are counted and told in one line when the scope
ends: a file for notes about whole games (``variant-inferred`` on every game of an archive),
a game for problems in it (fifty ``'-' is not a move`` in one record). ``--verbose`` shows
each one; ``--json`` (where a command has it) always lists them all.

>>> lines = []
>>> notes = NoteSummary(echo=lines.append)
>>> for game in (1, 2, 3):
...     notes.add(f"a.pdn: game {game}: told english", file="a.pdn", kind="variant-inferred")
>>> notes.close()
>>> print(chr(10).join(lines))
a.pdn: game 1: told english
a.pdn: … and 2 more variant-inferred notes like it (--verbose shows each)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from pdn.wording import count

Scope = tuple[str, "int | None", str, str]  # file, game (None: the whole file), kind, label


def _stderr(line: str) -> None:
    import typer

    typer.echo(line, err=True)


class NoteSummary:
    """Prints each kind of note once per scope and sums up the repeats when the scope ends;
    ``verbose`` prints every note. ``total`` counts every note added. With ``indent`` the
    notes are listed under their file's heading: the summing-up lines are indented and do
    not repeat the file's name."""

    def __init__(self, *, verbose: bool = False, echo: Callable[[str], None] = _stderr,
                 hint: str = "--verbose shows each", indent: str | None = None) -> None:
        self.verbose, self.echo, self.hint, self.indent = verbose, echo, hint, indent
        self.total = 0
        self._seen: Counter[Scope] = Counter()
        self._file: str | None = None
        self._game: tuple[str, int | None] | None = None

    def add(self, line: str, *, file: str | None, kind: str, game: int | None = None,
            label: str = "note") -> None:
        """Print ``line`` unless it repeats a ``kind`` (of ``label``: note, warning, error)
        already shown in its scope: ``game`` when given, else ``file``."""
        self.total += 1
        name = file or "<stdin>"
        if name != self._file:
            self._flush(lambda scope: True)
            self._file = name
        if game is not None and (name, game) != self._game:
            self._flush(lambda scope: scope[1] is not None)
            self._game = (name, game)
        scope = (name, game, kind, label)
        self._seen[scope] += 1
        if self.verbose or self._seen[scope] == 1:
            self.echo(line)

    def close(self) -> None:
        """Sum up what is still counted (call once, after the last note)."""
        self._flush(lambda scope: True)

    def _flush(self, ending: Callable[[Scope], bool]) -> None:
        for scope in [scope for scope in self._seen if ending(scope)]:
            more = self._seen.pop(scope) - 1
            if more and not self.verbose:
                name, game, kind, label = scope
                parts = ([name] if self.indent is None else []) + (
                    [f"game {game}"] if game is not None else [])
                where = "".join(f"{part}: " for part in parts)
                repeats = count(more, f"more {kind} {label}")
                self.echo(f"{self.indent or ''}{where}… and {repeats} like it ({self.hint})")
