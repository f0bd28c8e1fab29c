"""``pdn perft``: count the move paths of a position, depth by depth."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated

import typer

from pdn.i18n import N_

from .common import fail
from .options import (
    LangOption,
    NoForcedCaptureOption,
    RulesOption,
    VariantOption,
    ruled_variant,
    words_for,
)

if TYPE_CHECKING:
    from replay.record.board import Board


def perft(
    variant: VariantOption = "russian",  # type: ignore[assignment]
    depth: Annotated[int, typer.Option("--depth", "-d", min=1, max=30, help="Plies.")] = 6,
    fen: Annotated[str | None, typer.Option(help="Start from this FEN.")] = None,
    keep_duplicates: Annotated[bool, typer.Option(
        "--keep-duplicates", help="Count capture routes that take the same pieces in another "
        "order apart (DCTL/Kallisto convention).")] = False,
    divide: Annotated[bool, typer.Option(
        "--divide", help="Print the count at --depth under each legal move instead (to "
        "find where two move generators disagree).")] = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    lang: LangOption = None,
) -> None:
    """Print the number of leaf nodes at each depth (see docs/rules.md).

    Exit status: 0 done, 2 usage error or a FEN that is no position."""
    from pdn.fen import FenError  # the rules core, imported when a command runs (pdn --help)
    from replay.record.board import Board
    from replay.rules.perft import perft as count_paths

    words = words_for(lang)
    variant = ruled_variant(variant, rule, no_forced_capture)
    try:
        board = Board.from_fen(fen, variant) if fen else Board(variant)
    except FenError as error:
        fail(str(error))
    if divide:
        _print_divide(board, depth, keep_duplicates)
        return
    # the table's headings in the user's language; --divide's lines are those other move
    # generators print, to be compared: the same in every language
    depth_, nodes_, seconds_, rate_ = (words.gettext(heading) for heading in (
        N_("depth"), N_("nodes"), N_("seconds"), N_("nodes/s")))
    width = max(5, len(depth_))  # the first column as wide as its heading
    typer.echo(f"{depth_:>{width}} {nodes_:>16} {seconds_:>9} {rate_:>12}")
    for ply in range(1, depth + 1):
        start = time.perf_counter()
        nodes = count_paths(board.generator, board.position, ply, keep_duplicates)
        seconds = time.perf_counter() - start
        rate = nodes / seconds if seconds > 0 else 0.0
        typer.echo(f"{ply:>{width}} {nodes:>16,} {seconds:>9.3f} {rate:>12,.0f}")


def _print_divide(board: Board, depth: int, keep_duplicates: bool) -> None:
    """One line per legal move (its full capture path) with its leaf count, then the total."""
    from replay.rules.perft import perft_divide

    counts = perft_divide(board.generator, board.position, depth, keep_duplicates)
    for move, nodes in counts:
        typer.echo(f"{board.move_text(move, full_path=True)} {nodes}")
    typer.echo(f"total {sum(nodes for _, nodes in counts)}")


def register(app: typer.Typer) -> None:
    app.command()(perft)
