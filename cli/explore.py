"""``pdn explore``: the opening explorer over a database made by ``pdn index``.

From a position (``--position FEN``, ``--moves "1.cd4 fg5"``, or the start), every move
played in the database's games with their number, the results from the mover's side, the
score, the average rating, the latest game and the opening's name; ``pdn search``'s
criteria choose the games. ``--book`` writes the tree as a PDN opening book instead.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pdn.i18n import N_
from pdn.wording import number

from .common import fail
from .options import (
    BlackOption,
    DateFromOption,
    DateToOption,
    GameVariantOption,
    JsonOption,
    LangOption,
    MaterialOption,
    PlayerOption,
    PositionOption,
    TagOption,
    WhiteOption,
    words_for,
)

if TYPE_CHECKING:
    from pdn.i18n import Catalog
    from replay.database.explore import Exploration

# The columns as the tab-separated output names them (data: the same in every language) and
# as the terminal table heads them, in the user's language.
HEADERS = ("move", "games", "+", "=", "-", "*", "score %", "rating", "latest", "players",
           "opening")
SHOWN_HEADERS = (N_("move"), N_("games"), "+", "=", "-", "*", N_("score %"), N_("rating"),
                 N_("latest"), N_("players"), N_("opening"))
NUMERIC = (False, True, True, True, True, True, True, True, False, False, False)


def explore(
    database: Annotated[Path, typer.Argument(help="A database made by pdn index.",
                                             show_default=False)],
    position: PositionOption = None,
    moves: Annotated[str | None, typer.Option(
        help='The position after these moves from the start, in any notation ("1.cd4 fg5", '
        '"11-15 23-19").')] = None,
    as_json: JsonOption = False,
    book: Annotated[Path | None, typer.Option(
        "--book", metavar="FILE", help="Write the tree from the position as a PDN opening "
        "book (the most played move as the main line, the others as variations, counts "
        "and scores in comments).", show_default=False)] = None,
    depth: Annotated[int, typer.Option(min=1, metavar="N", help="With --book: plies deep."
                                       )] = 6,
    min_games: Annotated[int, typer.Option(min=1, metavar="N", help="With --book: leave "
                                           "out the moves played in fewer games.")] = 1,
    tag: TagOption = None,
    player: PlayerOption = None,
    white: WhiteOption = None,
    black: BlackOption = None,
    date_from: DateFromOption = None,
    date_to: DateToOption = None,
    game_variant: GameVariantOption = None,
    material: MaterialOption = None,
    lang: LangOption = None,
) -> None:
    """Every move played from a position in a database's games, with counts and scores.

    The position is --position, the one after --moves, or the start. A game counts for a
    move when it reaches the position at any ply (transpositions count) and plays it.
    Exit status: 0 done (also when no game reaches the position); 2 usage error or a
    database that cannot be used."""
    from replay.database.explore import ExplorerError, explore_fen, explore_moves
    from replay.database.schema import CANNOT_READ, DatabaseError, open_readonly
    from replay.database.sqlite_reasons import sqlite_reason

    words = words_for(lang)
    if position is not None and moves is not None:
        fail(N_("--position and --moves both say where to start: give one"))
    criteria = None
    if any((tag, player, white, black, date_from, date_to, game_variant, material)):
        from .criteria import game_criteria

        criteria = game_criteria(tag, player, white, black, date_from, date_to, game_variant,
                               None, None, None, None, None, None, material, False)
    try:
        connection = open_readonly(database)
    except DatabaseError as error:
        fail(str(error))
    try:
        if position is not None:
            found = explore_fen(connection, position, criteria)
        else:
            found = explore_moves(connection, moves or "", criteria)
        if book is not None:
            _write_book(connection, found, book, depth, min_games, criteria, moves, database,
                        words)
            return
    except ExplorerError as error:
        fail(str(error))
    except sqlite3.Error as error:
        fail(CANNOT_READ.format(file=database, reason=sqlite_reason(error)))
    finally:
        connection.close()
    if as_json:
        for exploration in found:
            print(json.dumps(exploration.as_dict(), ensure_ascii=False))
        return
    _show(found, words)


def cells(exploration: Exploration) -> list[list[str]]:
    """The table's rows as text (HEADERS' order): empty cells where nothing is known."""
    rows = []
    for row in exploration.rows:
        players = " – ".join(name or "?" for name in (row.latest_white, row.latest_black))
        rows.append([row.move, str(row.games), str(row.wins), str(row.draws), str(row.losses),
                     str(row.unfinished), "" if row.score is None else f"{row.score:.1f}",
                     "" if row.rating is None else str(row.rating), row.latest_date or "",
                     players, row.opening or ""])
    return rows


def headline(exploration: Exploration, words: Catalog) -> str:
    """What the table is about, in the language of ``words``: the variant, the position,
    its opening, the side to move, the games."""
    named = f" ({exploration.opening})" if exploration.opening else ""
    games = words.ngettext("{count} game", "{count} games", exploration.games).format(
        count=number(exploration.games))
    side = (N_("White to move, {games}") if exploration.fen.startswith("W")
            else N_("Black to move, {games}"))
    return (f"{exploration.variant.name} {exploration.fen}{named}: "
            + words.gettext(side).format(games=games))


def _show(found: list[Exploration], words: Catalog) -> None:
    """On a terminal, a rich table per variant; piped, tab-separated values (the headline
    on stderr)."""
    from rich.console import Console

    from .common import stderr_console
    from .tables import print_terminal_table, write_tsv

    console = Console()
    for exploration in found:
        if not console.is_terminal:
            stderr_console().print(headline(exploration, words), markup=False,
                                   highlight=False)
            write_tsv(sys.stdout, HEADERS, cells(exploration))
            continue
        if not exploration.rows:
            console.print(headline(exploration, words) + "; "
                          + words.gettext(N_("no move played from here")), markup=False)
            continue
        from rich.markup import escape

        print_terminal_table(console, escape(headline(exploration, words)),
                             [words.gettext(header) for header in SHOWN_HEADERS],
                             cells(exploration), NUMERIC,
                             words.gettext(N_("--json has every column")))


def _write_book(connection, found: list[Exploration], book: Path, depth: int, min_games: int,
                criteria, moves: str | None, database: Path, words: Catalog) -> None:
    from replay.database.book import book_pdn
    from replay.database.schema import indexed_files
    from replay.run.output import OutputError, atomic_writer, refuse_overwriting_inputs

    try:
        refuse_overwriting_inputs(book, [database, *indexed_files(database)])
        with atomic_writer(book) as stream:
            for exploration in found:
                line = _line_texts(moves, exploration.variant) if moves else []
                stream.write(book_pdn(connection, exploration, depth, criteria=criteria,
                                      min_games=min_games, line=line))
    except OutputError as error:
        fail(str(error))
    except OSError as error:
        fail(N_("{file}: cannot write: {reason}").format(file=book,
                                                         reason=error.strerror or error))
    print(words.ngettext("opening book of {count} ply written to {file}",
                         "opening book of {count} plies written to {file}", depth).format(
        count=depth, file=book), file=sys.stderr)


def _line_texts(moves: str, variant) -> list[str]:
    """The moves of --moves in the variant's notation, resolved on the board."""
    from replay.record.board import Board
    from replay.record.lines import opening_records
    from replay.record.notation import full_text
    from replay.record.resolve import resolve

    board, texts = Board(variant), []
    for record in opening_records(moves):
        move = resolve(board, record).move
        texts.append(full_text(board, move))
        board.push(move)
    return texts


def register(app: typer.Typer) -> None:
    app.command()(explore)
