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
from typing import TYPE_CHECKING

from pdn.i18n import N_
from pdn.wording import count, number

if TYPE_CHECKING:
    from pdn.i18n import Catalog

Scope = tuple[str, "int | None", str, str]  # file, game (None: the whole file), kind, label


def _stderr(line: str) -> None:
    import typer

    typer.echo(line, err=True)


class NoteSummary:
    """Prints each kind of note once per scope and sums up the repeats when the scope ends;
    ``verbose`` prints every note. ``total`` counts every note added. With ``indent`` the
    notes are listed under their file's heading: the summing-up lines are indented and do
    not repeat the file's name. With ``words`` (a ``pdn.i18n.Catalog``) the summing-up
    lines are in its language (the hint a catalog entry, the kind a code as it is)."""

    def __init__(self, *, verbose: bool = False, echo: Callable[[str], None] = _stderr,
                 hint: str = N_("--verbose shows each"), indent: str | None = None,
                 words: Catalog | None = None) -> None:
        self.verbose, self.echo, self.hint, self.indent = verbose, echo, hint, indent
        self.words = words
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
                self.echo(self._repeats(*scope, more))

    def _repeats(self, name: str, game: int | None, kind: str, label: str, more: int) -> str:
        """``a.pdn: game 3: … and 2 more lost-move errors like it (--verbose shows each)``."""
        game_words = N_("game {number}").format(number=game) if game is not None else None
        template = None if self.words is None else _repeated(self.words, label, more)
        if self.words is None or template is None:
            repeats = f"… and {count(more, f'more {kind} {label}')} like it ({self.hint})"
        else:
            game_words = None if game_words is None else self.words.localize(game_words)
            repeats = template.format(count=number(more), kind=kind,
                                      hint=self.words.gettext(self.hint))
        parts = ([name] if self.indent is None else []) + (
            [game_words] if game_words is not None else [])
        return f"{self.indent or ''}" + "".join(f"{part}: " for part in parts) + repeats


def _repeated(words: Catalog, label: str, more: int) -> str | None:
    """The summing-up line of ``more`` repeats of a kind of ``label`` in the language of
    ``words`` (None for a label of no entry)."""
    if label == "error":
        return words.ngettext("… and {count} more {kind} error like it ({hint})",
                              "… and {count} more {kind} errors like it ({hint})", more)
    if label == "warning":
        return words.ngettext("… and {count} more {kind} warning like it ({hint})",
                              "… and {count} more {kind} warnings like it ({hint})", more)
    if label == "note":
        return words.ngettext("… and {count} more {kind} note like it ({hint})",
                              "… and {count} more {kind} notes like it ({hint})", more)
    if label == "problem":
        return words.ngettext("… and {count} more {kind} problem like it ({hint})",
                              "… and {count} more {kind} problems like it ({hint})", more)
    return None

