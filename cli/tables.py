"""Tables for people and for pipes: on a terminal, the columns that fit its width, long
cells cut with an ellipsis (never wrapped); anywhere else, tab-separated values with a
header line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO

from pdn.i18n import SOURCE_LANGUAGE, Catalog, catalog

from .common import escape_controls

WIDEST_CELL = 32  # characters a column takes at most on a terminal; longer cells are cut
NARROWEST_TEXT = 16  # a text column is narrowed to fit the terminal down to this width
BORDERS = 3  # a column's padding and border in rich's default box
_SPACES = str.maketrans("\t\r\n", "   ")


def fitting_columns(headers: Sequence[str], rows: Sequence[Sequence[str]],
                    right: Sequence[bool], width: int, spare: Sequence[str] = ()
                    ) -> dict[int, int]:
    """The columns to show in ``width`` characters, by index, with the width of each: every
    cell cut at ``WIDEST_CELL``; then the widest text columns narrowed, down to
    ``NARROWEST_TEXT`` (numbers are never cut); then the ``spare`` columns left out, in that
    order, then the last ones (the first is always kept)."""
    widths = {index: max(len(header), min(WIDEST_CELL, max((len(row[index]) for row in rows),
                                                           default=0)))
              for index, header in enumerate(headers)}

    def used() -> int:
        return 1 + sum(widths.values()) + BORDERS * len(widths)

    while used() > width:
        narrowable = [index for index in widths if not right[index]
                      and widths[index] > max(NARROWEST_TEXT, len(headers[index]))]
        if not narrowable:
            break
        widths[max(narrowable, key=lambda index: widths[index])] -= 1
    spared = [headers.index(name) for name in spare if name in headers]
    while used() > width and len(widths) > 1:
        index = next((index for index in spared if index in widths), None)
        if index is None:
            widths.popitem()
        else:
            del widths[index]
    return widths


def print_terminal_table(console, title: str, headers: Sequence[str],
                         rows: Sequence[Sequence[str]], right: Sequence[bool], rest: str,
                         spare: Sequence[str] = (), words: Catalog | None = None) -> None:
    """A rich table of the columns that fit ``console``'s width (``spare`` ones left out
    first); the title says which were left out (in the language of ``words``, English
    without) and ``rest`` how to see them. Cells are shown as text: no rich markup, control
    characters escaped (``\x1b``)."""
    from rich.markup import escape
    from rich.table import Table

    chosen = fitting_columns(headers, rows, right, console.width, spare)
    left_out = [headers[index] for index in range(len(headers)) if index not in chosen]
    if left_out:
        title += (words or catalog(SOURCE_LANGUAGE)).ngettext(
            "; {count} column not shown ({columns}): {rest}",
            "; {count} columns not shown ({columns}): {rest}", len(left_out)).format(
                count=len(left_out), columns=", ".join(left_out), rest=rest)
    table = Table(title=title, title_justify="left")
    for index, width in chosen.items():
        table.add_column(headers[index], justify="right" if right[index] else "left",
                         no_wrap=True, overflow="ellipsis", width=width)
    for row in rows:
        table.add_row(*(escape(escape_controls(str(row[index]))) for index in chosen))
    console.print(table)


def write_tsv(stream: IO[str], headers: Sequence[str], rows) -> None:
    """Tab-separated values: a header line, then one line per row (tabs and line breaks in a
    cell become spaces; a text a spreadsheet would take for a formula is quoted, as
    ``replay.run.spreadsheet`` says)."""
    from replay.run.spreadsheet import safe_cell

    stream.write("\t".join(headers) + "\n")
    for row in rows:
        stream.write("\t".join(safe_cell(cell).translate(_SPACES) for cell in row) + "\n")
