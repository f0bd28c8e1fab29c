"""``pdn match``: two engines (or players) play each other, and the games are written as PDN."""

from __future__ import annotations

import contextlib
import sys
from typing import Annotated

import typer

from pdn.i18n import N_, Catalog, catalog
from pdn.wording import number

from .common import ExitCode, fail, stderr_console
from .options import LangOption, OutputOption, VariantOption, words_for

PLAYER_HELP = ("builtin (the toolkit's own engine), hub:COMMAND (a Hub engine we start), "
               "dxp:HOST:PORT (a DXP engine that listens), "
               "dxp-listen:[HOST:]PORT (we listen, a DXP engine connects) or random[:SEED].")
NOTE = N_("note")


def match(
    first: Annotated[str, typer.Argument(metavar="PLAYER1", help=PLAYER_HELP)],
    second: Annotated[str, typer.Argument(metavar="PLAYER2", help="The other player, as "
                                          "PLAYER1; the built-in engine when not given.")]
    = "builtin",
    output: OutputOption = None,
    variant: VariantOption = "international",  # type: ignore[assignment]
    ballots: Annotated[str | None, typer.Option(
        "--ballots", metavar="FILE", help="Start positions, one a line: a FEN, or moves from "
        "the initial position (# starts a comment); fmjd-64: the FMJD Drawing Table 64 "
        "ballots (Russian).")] = None,
    fen: Annotated[list[str] | None, typer.Option(
        "--fen", help="A start position (repeatable; after the ballots).")] = None,
    games: Annotated[int, typer.Option(
        "--pairs", min=1, metavar="N",
        help="Pairs of games from the initial position when no --ballots or "
        "--fen is given.")] = 1,
    minutes: Annotated[int, typer.Option(
        "--minutes", min=0, max=999, help="Each side's clock for a game (told to the engines, "
        "not enforced).")] = 5,
    max_moves: Annotated[int, typer.Option(
        "--max-moves", min=0, max=999, metavar="MOVES",
        help="The move cap: a game still going after this many "
        "moves of each side ends without a result (*); 0: none.")] = 150,
    depth: Annotated[int | None, typer.Option(
        "--depth", min=1, help="Search depth of Hub engines and the built-in one (instead of "
        "the clock).")] = None,
    movetime: Annotated[float | None, typer.Option(
        "--movetime", min=0.0, metavar="SECONDS",
        help="Seconds per move of Hub engines (instead of the "
        "clock).")] = None,
    event: Annotated[str, typer.Option("--event", help="The Event tag.")] = "pdn match",
    engine_dir: Annotated[list[str] | None, typer.Option(
        "--engine-dir", metavar="DIR", help="Folder a Hub engine runs in (its own files): "
        "once for both players, or once per player in order.")] = None,
    timeout: Annotated[float, typer.Option(
        "--timeout", min=1.0, metavar="SECONDS",
        help="Seconds to wait for an engine to start, connect or answer; a Hub engine's "
        "search may take --movetime and this more, under --depth this in all.")] = 60.0,
    lang: LangOption = None,
) -> None:
    """Play a match: every start position twice with colours swapped; the games are written
    as PDN (the engines' names, Event, Date, Round, TimeControl, FEN, the result by our rules),
    each as soon as it ends (docs/engines-dxp.md). Run again with the same -o, a stopped
    match goes on after the games the file holds; one match at a time writes a file. The
    lines on stderr speak --lang's language; the PDN stays as it is.

    Exit status: 0 all games played; 1 an engine failed or played an illegal move (the
    finished games are kept); 2 a usage error (also an output that holds another match or
    that another match writes)."""
    from replay.engine.limits import Limit
    from replay.engine.match import GameFile, MatchError, start_positions

    words = words_for(lang)
    folders = list(engine_dir or [])
    if len(folders) > 2:
        fail(N_("--engine-dir is given once for both players or once per player"))
    folders = folders * 2 if len(folders) == 1 else folders + [None] * (2 - len(folders))
    if variant.name != "international" and any(spec.startswith("dxp") for spec in
                                                (first, second)):
        fail(N_("DXP engines play International draughts only, not {variant}").format(
            variant=variant.name))
    limit = Limit(depth=depth, movetime=movetime) if depth or movetime else None
    try:
        positions = start_positions(variant, ballots=ballots, fens=tuple(fen or ()),
                                    count=games)
    except MatchError as error:
        fail(str(error))
    from replay.run.output import OutputError

    try:
        target = GameFile(output) if output and output != "-" else None
    except (OutputError, OSError) as error:
        fail(str(error))
    console = stderr_console()
    played: list[tuple[str, str, str]] = []
    try:
        _play(target, first, second, folders, positions, played, console, event=event,
              minutes=minutes, max_moves=max_moves, limit=limit, timeout=timeout,
              variant=variant, words=words)
    finally:
        if target is not None:
            target.close()
    console.print(final_score(played, variant, words), markup=False)


def _play(target, first: str, second: str, folders: list, positions: list, played: list,
          console, *, event: str, minutes: int, max_moves: int, limit, timeout: float,
          variant, words: Catalog) -> None:
    """Open both players, go on after the games ``target`` holds already, play the rest;
    what it says in the language of ``words``."""
    from replay.engine.limits import EngineError
    from replay.engine.match import (
        MatchError,
        finished_games,
        game_pdn,
        open_side,
        play_match,
        tell_apart,
    )

    def on_game(number: int, record, start) -> None:
        text = game_pdn(record, event=event, round_=str(number), minutes=minutes,
                        limit=limit, ballot=start.label)
        if target is None:
            sys.stdout.write(text + "\n\n")
            sys.stdout.flush()
        else:
            target.add(text)
        console.print(words.gettext(N_("game {number}/{total}: {white} - {black} {result} "
                                       "({reason})")).format(
            number=number, total=2 * len(positions), white=record.white, black=record.black,
            result=record.result, reason=words.localize(record.reason)), markup=False)
        played.append((record.white, record.black, record.result))

    try:
        with contextlib.ExitStack() as stack:
            sides = [stack.enter_context(open_side(
                spec, cwd=folder, timeout=timeout, variant=variant.name,
                note=lambda text: console.print(
                    f"{words.gettext(NOTE)}: {words.localize(text)}", markup=False)))
                     for spec, folder in zip((first, second), folders, strict=True)]
            tell_apart(*sides)
            done = {}
            if target is not None:
                names = [None if spec.startswith("dxp") else side.name
                         for spec, side in zip((first, second), sides, strict=True)]
                try:
                    done = finished_games(target.games(), event, positions, tuple(names))
                except MatchError as error:
                    raise MatchError(f"{target.path}: {error}") from None
            if done:
                console.print(words.ngettext(
                    "{done} of {count} game is in {file} already: going on after it",
                    "{done} of {count} games are in {file} already: going on after them",
                    2 * len(positions)).format(done=len(done), count=2 * len(positions),
                                               file=target.path), markup=False)
                played += [(game.tags.get("White", "?"), game.tags.get("Black", "?"),
                            game.tags.get("Result", "*")) for _, game in sorted(done.items())]
            play_match(*sides, positions, minutes=minutes, max_moves=max_moves, limit=limit,
                       on_game=on_game, done=done)
    except MatchError as error:
        fail(str(error))
    except EngineError as error:
        if played:
            console.print(final_score(played, variant, words), markup=False)
        fail(str(error), ExitCode.SOME_GAMES)
    except OSError as error:  # the output (a WriteError names it): a full disk, /dev/full
        fail(str(error))


def final_score(played: list[tuple[str, str, str]], variant, words: Catalog | None = None
                ) -> str:
    """The match's score from its games (white, black, result), in the variant's scoring
    (FMJD 2-1-0; 1-½-0 in English), with each player's wins, draws and losses; in the
    language of ``words`` (English by default).

    >>> from replay.rules.variants import INTERNATIONAL
    >>> final_score([("A", "B", "2-0"), ("B", "A", "1-1"), ("A", "B", "0-2")], INTERNATIONAL)
    'final score after 3 games: A 3 - 3 B (A: 1 win, 1 draw, 1 loss; B: 1 win, 1 draw, 1 loss)'
    """
    from replay.record.replayer import normalise_result
    from replay.tournament.scoring import scoring_for

    scoring = scoring_for(variant)
    names = list(dict.fromkeys(name for white, black, _ in played for name in (white, black)))
    points = dict.fromkeys(names, 0.0)
    tally = {name: [0, 0, 0] for name in names}  # wins, draws, losses
    for white, black, result in played:
        outcome = normalise_result(result, variant)
        for name, as_white in ((white, True), (black, False)):
            got = scoring.points(outcome, as_white)
            if got is None:
                continue
            points[name] += got
            tally[name][0 if got == scoring.win else 1 if got == scoring.draw else 2] += 1
    first, second = (names + ["?", "?"])[:2]
    words = words or catalog("en")
    counts = "; ".join(
        f"{name}: " + ", ".join((
            words.ngettext("{count} win", "{count} wins", w).format(count=number(w)),
            words.ngettext("{count} draw", "{count} draws", d).format(count=number(d)),
            words.ngettext("{count} loss", "{count} losses", lost).format(count=number(lost))))
        for name, (w, d, lost) in tally.items())
    return words.ngettext(
        "final score after {count} game: {first} {points} - {other_points} {second} "
        "({counts})",
        "final score after {count} games: {first} {points} - {other_points} {second} "
        "({counts})", len(played)).format(
        count=number(len(played)), first=first, points=scoring.text(points.get(first, 0)),
        other_points=scoring.text(points.get(second, 0)), second=second, counts=counts)


def register(app: typer.Typer) -> None:
    app.command()(match)
