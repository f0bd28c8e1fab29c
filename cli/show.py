"""``pdn show``: a position of a game (or a FEN) as a text diagram, an SVG or a PNG."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pdn.i18n import N_
from replay.rules.choice import RulesChoice

from .common import CANNOT_WRITE, ExitCode, echo, fail, fail_io, games_exit, spoken
from .options import (
    EncodingOption,
    IgnoreGameTypeOption,
    LangOption,
    NoForcedCaptureOption,
    RulesOption,
    UntaggedVariantOption,
    variant_choice,
    words_for,
)
from .sources import game_of

if TYPE_CHECKING:
    from pdn.i18n import Catalog
    from replay.record.board import Board
    from replay.record.replayer import ReplayedGame

MAX_SIZE = 4096  # a PNG of 4096 pixels square is 64 MB in memory; a larger one helps no one
PNG_MISSING = N_("PNG output needs cairosvg (and the cairo library): pip install "
                 "'pdn-toolkit[png]', or write --svg instead")
WRITTEN = N_("diagram written to {file}")


def show(
    file: Annotated[str | None, typer.Argument(
        help="A PDN file, a folder (its games counted in order) or - for stdin.",
        show_default=False)] = None,
    fen: Annotated[str | None, typer.Option(help="Show this position instead of a game's.")]
    = None,
    game: Annotated[int, typer.Option(
        "--game", "-g", min=1, metavar="N",
        help="Which game, counted through the inputs in order.")] = 1,
    ply: Annotated[int | None, typer.Option(
        min=0, help="The position after this many plies (default: the last one).")] = None,
    move: Annotated[str | None, typer.Option(
        help="The position after this move: number and side, as in 12b.")] = None,
    svg: Annotated[Path | None, typer.Option(help="Write an SVG diagram to this file.")] = None,
    png: Annotated[Path | None, typer.Option(
        help="Write a PNG diagram to this file (needs the png extra).")] = None,
    flip: Annotated[bool, typer.Option(help="Black's side at the bottom.")] = False,
    size: Annotated[int, typer.Option(min=64, max=MAX_SIZE, help="Width of the SVG or PNG, "
                                      f"in pixels (at most {MAX_SIZE}).")]
    = 480,
    variant: UntaggedVariantOption = None,
    ignore_gametype: IgnoreGameTypeOption = False,
    rule: RulesOption = None,
    no_forced_capture: NoForcedCaptureOption = False,
    encoding: EncodingOption = None,
    lang: LangOption = None,
) -> None:
    """Show a position: a text diagram here, or an SVG or PNG file.

    The variant is the game's GameType, else --variant, else the one its record (or the
    FEN's squares) tells. Exit status: 0 done, 1 the game stops replaying (the position
    shown is the last one reached), 2 usage error or bad input.
    """
    words = words_for(lang)
    choice = variant_choice(variant, ignore_gametype, rule, no_forced_capture)
    if (file is None) == (fen is None):
        fail(N_("give either a PDN FILE or --fen FEN"))
    if ply is not None and move is not None:
        fail(N_("give --ply or --move, not both"))
    if fen is not None and (ply is not None or move is not None or game != 1):
        fail(N_("--game, --ply and --move choose a position of a game; a --fen is one "
                "position"))
    stopped = False
    if file is not None:
        board, caption, stopped = _game_position(file, game, ply, move, choice, encoding)
    else:
        board, caption = _fen_position(fen or "", choice), ""
    if svg is None and png is None:
        _print_diagram(board, caption, flip, words)
    _refuse_input({"--svg": svg, "--png": png}, file)
    if svg is not None:
        _write_svg(board, svg, flip, size)
    if png is not None:
        _write_png(board, png, flip, size)
    raise typer.Exit(games_exit(stopped))


def _fen_position(fen: str, choice: RulesChoice) -> Board:
    from pdn.fen import FenError
    from pdn.game import Game
    from replay.record.board import Board
    from replay.record.replayer import game_variant

    # the variant given, else the usual one of the board the FEN's squares need
    variant = game_variant(Game(tags={"FEN": fen}), choice.default, choice.override,
                           rules=choice.rules)
    try:
        return Board.from_fen(fen, variant)
    except FenError as error:
        fail(str(error))


def _game_position(path: str, number: int, ply: int | None, move: str | None,
                   choice: RulesChoice, encoding: str | None) -> tuple[Board, str, bool]:
    """The position asked for, its caption, and whether the game stops replaying."""
    from replay.record.plies import board_after, plies_to_move
    from replay.record.replayer import UNREADABLE, replay_game

    game = game_of([path], number, encoding)
    replayed = replay_game(game, choice.default, choice.override, rules=choice.rules)
    if replayed.status == UNREADABLE:  # nothing read to draw: never a start position
        problem = game.errors[0]
        fail(N_("{place}: game {number} cannot be read: {reason}").format(
            place=f"{game.source}:{problem.line or game.line}", number=number,
            reason=problem.message), ExitCode.SOME_GAMES)
    try:
        plies = plies_to_move(replayed, move) if move is not None else ply
        board = board_after(replayed, len(replayed.moves) if plies is None else plies)
    except ValueError as error:
        fail(N_("{file}, game {number}: {reason}").format(file=game.source, number=game.index,
                                                          reason=error))
    words = spoken()
    for problem in replayed.errors:
        echo(words.localize(N_("{place}: the game stops replaying here: {reason}").format(
            place=f"{game.source}:{problem.line or replayed.game.line}",
            reason=problem.message)), err=True, fg="yellow")
    return board, _caption(replayed, board, number, words), bool(replayed.errors)


def _caption(replayed: ReplayedGame, board: Board, number: int, words: Catalog) -> str:
    """The players, the event, the game's number and the move the position follows, in
    the language of ``words``."""
    from replay.record.notation import full_text
    from replay.record.plies import move_label

    tags = replayed.game.tags
    title = f"{tags.get('White', '?')} – {tags.get('Black', '?')}"
    event = f" ({tags['Event']})" if tags.get("Event") else ""
    game = words.gettext(N_("game {number}")).format(number=number)
    if not board.move_stack:
        return f"{title}{event}, {game}: " + words.gettext(N_("start position"))
    before = board.copy()
    last = before.pop()
    plies = len(board.move_stack)
    return f"{title}{event}, {game}: " + words.gettext(
        N_("after {move} (ply {ply} of {count})")).format(
            move=f"{move_label(replayed, plies - 1)} {full_text(before, last, 'turns')}",
            ply=plies, count=len(replayed.moves))


def _print_diagram(board: Board, caption: str, flip: bool, words: Catalog) -> None:
    from replay.record.diagram import text_diagram

    if caption:
        echo(caption)
    typer.echo(text_diagram(board, unicode=_terminal_has_unicode(), flipped=flip,
                            words=words))
    typer.echo(f"FEN {board.fen()}")


def _terminal_has_unicode() -> bool:
    try:
        "⛀⛃│·".encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _diagram(board: Board, flip: bool, size: int) -> str:
    from replay.record.diagram import board_svg

    last = board.move_stack[-1] if board.move_stack else None
    return board_svg(board, last_move=last, flipped=flip, size=size)


def _refuse_input(outputs: dict[str, Path | None], source: str | None) -> None:
    """A usage error when an output is the input, a folder, or the other output."""
    from replay.run.output import OutputError, check_outputs

    from .sources import collect_sources

    try:
        check_outputs(outputs, collect_sources([source]) if source else [])
    except OutputError as error:
        fail(str(error))


def _write_svg(board: Board, path: Path, flip: bool, size: int) -> None:
    from replay.run.output import write_atomically

    try:
        write_atomically(path, _diagram(board, flip, size) + "\n")
    except OSError as error:
        fail_io(error, str(path), CANNOT_WRITE)
    typer.echo(spoken().gettext(WRITTEN).format(file=path), err=True)


def _write_png(board: Board, path: Path, flip: bool, size: int) -> None:
    from replay.run.output import atomic_writer

    try:
        import cairosvg
    except (ImportError, OSError):
        fail(PNG_MISSING)
    try:
        picture = cairosvg.svg2png(bytestring=_diagram(board, flip, size).encode(),
                                   output_width=size)
        with atomic_writer(path, binary=True) as stream:
            stream.write(picture)
    except OSError as error:
        fail_io(error, str(path), CANNOT_WRITE)
    typer.echo(spoken().gettext(WRITTEN).format(file=path), err=True)


def register(app: typer.Typer) -> None:
    app.command()(show)
