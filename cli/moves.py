"""``pdn moves``: the legal moves of positions, for people or (``--json``) for scripts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from pdn.wording import count

from .common import ExitCode, fail
from .options import (
    JsonOption,
    NoForcedCaptureOption,
    RulesOption,
    VariantOption,
    ruled_variant,
)


def moves(
    fen: Annotated[str | None, typer.Argument(help="Position; the start position if omitted.")]
    = None,
    variant: VariantOption = "russian",  # type: ignore[assignment]
    fen_file: Annotated[Path | None, typer.Option(
        "--fen-file", help="Read one FEN per line from this file ('-' for stdin).",
        allow_dash=True)] = None,
    as_json: JsonOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
) -> None:
    """List the legal moves of a position.

    Exit status: 0 done, 1 some lines of --fen-file are no position (the others listed), 2
    usage error, a FEN that is no position, or a file that cannot be read."""
    from pdn.fen import FenError  # the rules core, imported when a command runs (pdn --help)
    from replay.record.board import Board
    from replay.record.notation import move_json

    variant = ruled_variant(variant, rule, no_forced_capture)
    if fen_file is not None:
        text = typer.get_text_stream("stdin").read() if str(fen_file) == "-" else _read(fen_file)
        fens = [line.strip() for line in text.splitlines() if line.strip()]
    else:
        fens = [fen] if fen else [None]
    failed = False
    for number, text in enumerate(fens, 1):
        try:
            board = Board.from_fen(text, variant) if text else Board(variant)
        except FenError as error:
            where = f"{fen_file}:{number}: " if fen_file else ""
            typer.secho(f"{where}{error}", err=True, fg="red")
            failed = True
            continue
        legal = board.legal_moves()
        if as_json:
            typer.echo(json.dumps({"fen": board.fen(),
                                   "moves": [move_json(board, m) for m in legal]}))
        else:
            typer.echo(board.fen())
            typer.echo(str(board))
            names = " ".join(board.move_text(m, full_path=len(m.captures) > 1) for m in legal)
            typer.echo(f"{count(len(legal), 'legal move')}: {names}" if legal
                       else "no legal moves")
    if failed:
        raise typer.Exit(ExitCode.SOME_GAMES if fen_file is not None else ExitCode.USAGE)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        fail(f"{path}: {error.strerror}")


def register(app: typer.Typer) -> None:
    app.command()(moves)
