"""Matches between two players, written as PDN: each start position played twice, colours
swapped, every game judged by our rules (``replay.engine.play``).

Players are named by a spec: ``builtin`` (the built-in engine, in this process),
``hub:COMMAND`` (a Hub engine we start, in ``cwd``),
``dxp:HOST:PORT`` (a DXP engine that listens; we connect as initiator),
``dxp-listen:[HOST:]PORT`` (we listen, on 127.0.0.1 unless HOST is given, and a DXP engine
connects as follower; we are the initiator either way, so the
match chooses colours and positions) or ``random[:SEED]`` (a random legal mover).

>>> record = play_game(PlayerSide(RandomPlayer(3)), PlayerSide(RandomPlayer(4)),
...                    Board(variant="international"), max_moves=2)
>>> text = game_pdn(record, event="demo", round_="1", date="2026.01.01", minutes=5)
>>> tags, moves = text.split(2 * chr(10))
>>> print(tags)
[Event "demo"]
[Site "?"]
[Date "2026.01.01"]
[Round "1"]
[White "random (seed 3)"]
[Black "random (seed 4)"]
[Result "*"]
[GameType "20"]
[TimeControl "300"]
[Termination "unterminated"]
>>> moves.startswith("1. "), moves.endswith("{move cap of 2 moves reached} *")
(True, True)
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import os
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from pdn.i18n import N_
from replay.engine.dxp import DxpConnection, DxpListener, DxpSide, is_initial
from replay.engine.limits import EngineError, Limit
from replay.engine.play import (
    DEFAULT_MAX_MOVES,
    GameRecord,
    PlayerSide,
    RandomPlayer,
    Side,
    play_game,
)
from replay.record.board import Board
from replay.rules.numbering import MoveNumbering
from replay.rules.variants import Variant

if TYPE_CHECKING:
    from pdn.game import Game

LINE_WIDTH = 80


class MatchError(ValueError):
    """A match that cannot start: a player spec, a start position or a ballot is wrong."""


@dataclass(frozen=True)
class StartPosition:
    """Where a pair of games starts: the board, and the label of the ballot it came from."""

    board: Board
    label: str = ""


# -- start positions ---------------------------------------------------------------------------


def start_positions(variant: Variant, *, ballots: str | None = None,
                    fens: tuple[str, ...] = (), count: int = 1) -> list[StartPosition]:
    """The start positions of a match: the lines of a ballot file (``fmjd-64``: the FMJD
    Drawing Table 64 ballots, Russian), then the FENs; the initial position ``count`` times
    when neither is given. Raises MatchError naming the line that is no position."""
    from pdn.fen import FenError

    positions: list[StartPosition] = []
    if ballots == "fmjd-64":
        positions += _fmjd_ballots(variant)
    elif ballots is not None:
        try:
            lines = Path(ballots).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise MatchError(N_("cannot read the ballots {file}: {reason}").format(
                file=ballots, reason=getattr(error, "strerror", None) or error)) from None
        for number, line in enumerate(lines, 1):
            text = line.split("#", 1)[0].strip()
            if text:
                positions.append(_ballot(variant, text, f"{ballots}:{number}"))
    for fen in fens:
        try:
            positions.append(StartPosition(Board(fen, variant=variant)))
        except FenError as error:
            raise MatchError(f"--fen {fen!r}: {error}") from None
    if not positions:
        positions = [StartPosition(Board(variant=variant)) for _ in range(count)]
    return positions


def _ballot(variant: Variant, text: str, where: str) -> StartPosition:
    """A ballot line: a FEN (it has a ``:``), or moves in any notation from the initial
    position (move numbers allowed)."""
    from pdn.fen import FenError

    if ":" in text and text[:1].upper() in "WB" and text[1:2] == ":":
        try:
            return StartPosition(Board(text, variant=variant), "")
        except FenError as error:
            raise MatchError(f"{where}: {error}") from None
    board = Board(variant=variant)
    moves = [token for token in text.split() if not token.rstrip(".").isdigit()]
    for token in moves:
        try:
            board.push_text(token)
        except ValueError as error:
            raise MatchError(N_("{place}: ballot move '{move}': {reason}").format(
                place=where, move=token, reason=error)) from None
    return StartPosition(Board(variant, board.position), " ".join(moves))


def _fmjd_ballots(variant: Variant) -> list[StartPosition]:
    from replay.reference.ballots import fmjd_ballots

    if variant.name != "russian":
        raise MatchError(N_("the FMJD Drawing Table 64 ballots are Russian draughts: "
                            "use --variant russian"))
    positions = []
    for moves, code in fmjd_ballots().items():
        board = Board(variant=variant)
        for text in moves:
            board.push_text(text)
        positions.append(StartPosition(Board(variant, board.position),
                                       f"{code}: {' '.join(moves)}"))
    return positions


# -- players ------------------------------------------------------------------------------------


@contextlib.contextmanager
def open_side(spec: str, *, cwd: str | None = None, timeout: float = 60.0,
              variant: str = "international",
              note: Callable[[str], None] | None = None) -> Iterator[Side]:
    """The side a player spec names, opened for the whole match and closed (engine quit,
    connection shut) when the block ends, whatever happens. A Hub engine is started for
    ``variant`` (the Hub client's ``popen_hub``, ``timeout`` bounding its start-up and each
    of its searches). A listening side takes the next connection when one closes before a
    word (a probe; ``note`` is told)."""
    kind, _, rest = spec.partition(":")
    if kind == "hub" and rest:
        try:
            from replay.engine.hub import popen_hub
        except ImportError:
            raise MatchError(N_("this build has no Hub client (replay.engine.hub)")) from None
        extra = {} if variant == "international" else {"variant": variant}
        with popen_hub(rest, cwd=cwd, timeout=timeout, **extra) as engine:
            yield PlayerSide(engine)
    elif kind == "dxp" and rest:
        host, _, port = rest.rpartition(":")
        with DxpConnection.connect(host or "127.0.0.1", _port(port, spec), timeout=timeout,
                                   connect_timeout=timeout) as connection:
            yield DxpSide(connection)
    elif kind == "dxp-listen" and rest:
        host, _, port = rest.rpartition(":")
        with DxpListener(_port(port, spec), host or "127.0.0.1") as listener:
            side = DxpSide(listener.accept(timeout, timeout), listener=listener,
                           accept_timeout=timeout, note=note)
            try:
                yield side
            finally:
                side.connection.close()
    elif kind == "builtin" and not rest:
        from replay.engine.builtin import BuiltinEngine

        try:
            engine = BuiltinEngine(variant)
        except EngineError as error:
            raise MatchError(str(error)) from None
        yield PlayerSide(engine)
    elif kind == "random":
        try:
            seed = int(rest) if rest else 0
        except ValueError:
            raise MatchError(N_("player '{player}': the seed is a number").format(
                player=spec)) from None
        yield PlayerSide(RandomPlayer(seed))
    else:
        raise MatchError(N_("player '{player}' is none of builtin, hub:COMMAND, dxp:HOST:PORT, "
                            "dxp-listen:[HOST:]PORT, random[:SEED]").format(player=spec))


def tell_apart(first: Side, second: Side) -> None:
    """Two players of one name (``pdn match builtin builtin``, one Hub engine against
    itself) are two players all the same: each is named with its place in the match,
    ``pdn builtin (1)`` and ``pdn builtin (2)``, in the games' tags and the score. A DXP
    engine's name comes with each game: it is left as it is."""
    if isinstance(first, DxpSide) or isinstance(second, DxpSide) or first.name != second.name:
        return
    for number, side in enumerate((first, second), 1):
        side.name = f"{side.name} ({number})"


def _port(text: str, spec: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise MatchError(N_("player '{player}': the port is a number 1-65535").format(
            player=spec))
    return int(text)


# -- the match ----------------------------------------------------------------------------------


def play_match(first: Side, second: Side, positions: list[StartPosition], *,
               minutes: int = 5, max_moves: int = DEFAULT_MAX_MOVES,
               limit: Limit | None = None,
               on_game: Callable[[int, GameRecord, StartPosition], None] | None = None,
               done: Collection[int] = ()) -> list[GameRecord]:
    """Play every start position twice, ``first`` White in the first game of each pair and
    Black in the second, save the games numbered in ``done`` (played by an earlier run);
    ``on_game(number, record, start)`` is called as each game ends."""
    records = []
    numbers = [number for number in range(1, 2 * len(positions) + 1) if number not in done]
    for number in numbers:
        start = positions[(number - 1) // 2]
        white, black = (first, second) if number % 2 else (second, first)
        record = play_game(white, black, start.board, minutes=minutes, max_moves=max_moves,
                           limit=limit, last=number == numbers[-1])
        records.append(record)
        if on_game is not None:
            on_game(number, record, start)
    return records


def finished_games(games: Iterable[Game], event: str, positions: list[StartPosition],
                   names: tuple[str | None, str | None]) -> dict[int, Game]:
    """The games of this match an earlier run wrote, by number: those of ``event`` (its
    other games are left alone), told by their Round (the game's number), each of which must
    start where this match's game of that number starts (its FEN, its ballot) between its
    players (``names``: the first player's and the second's, None where not known before
    the game, a DXP engine's). Raises MatchError for one that does not fit: the output holds
    another match."""
    total = 2 * len(positions)
    found: dict[int, Game] = {}
    for game in games:
        if game.tags.get("Event") != event:
            continue
        number = game.tags.get("Round", "")
        if not number.isdigit() or not 1 <= int(number) <= total:
            raise MatchError(N_("it holds a game of event '{event}', round '{round}', which is "
                                "not one of this match's {count}: give another --event or "
                                "-o").format(event=event, round=number, count=total))
        start = positions[(int(number) - 1) // 2]
        fen = None if is_initial(start.board) else start.board.fen()
        ballot = next((text[len("ballot "):] for text in game.moves.comments
                       if text.startswith("ballot ")), "")
        first, second = names
        white, black = (first, second) if int(number) % 2 else (second, first)
        wrong = [what for what, differs in (
            (N_("start position"), game.tags.get("FEN") != fen or ballot != start.label),
            (N_("White"), white is not None and game.tags.get("White") != white),
            (N_("Black"), black is not None and game.tags.get("Black") != black)) if differs]
        if wrong:
            raise MatchError(N_("its game {number} of event '{event}' has another {listing} "
                                "than this match's: it holds another match; give another "
                                "--event or -o").format(number=number, event=event,
                                                        listing=" and ".join(wrong)))
        found.setdefault(int(number), game)
    return found


def game_pdn(record: GameRecord, *, event: str, round_: str, date: str | None = None,
             minutes: int = 5, limit: Limit | None = None, ballot: str = "") -> str:
    """A game as PDN: the seven tags, GameType, the FEN when the start is not the initial
    position, TimeControl (seconds per side, PGN's form), the per-move limit of Hub engines
    when one was set, Termination; the moves in the variant's notation; how the game ended as
    a comment before the result."""
    board = Board(record.start.variant, record.start.position)
    date = date or datetime.date.today().strftime("%Y.%m.%d")
    tags = [("Event", event), ("Site", "?"), ("Date", date), ("Round", round_),
            ("White", record.white), ("Black", record.black), ("Result", record.result),
            ("GameType", str(board.variant.gametype.number))]
    fen = None if is_initial(board) else board.fen()
    if fen:
        tags.append(("FEN", fen))
    tags.append(("TimeControl", str(minutes * 60)))
    if limit is not None:
        bounds = [f"{name}={value:g}" for name, value in
                  (("depth", limit.depth), ("nodes", limit.nodes),
                   ("movetime", limit.movetime)) if value is not None]
        if bounds:
            tags.append(("EngineLimit", " ".join(bounds)))
    tags.append(("Termination", record.ending.termination))
    numbering = MoveNumbering.of(fen, board.variant)
    words = [f"{{ballot {ballot}}}"] if ballot else []
    for index, move in enumerate(record.moves):
        if not numbering.is_second(index) or index == 0:
            words.append(numbering.label(index))
        words.append(board.text(move, "pdn"))
        board.push(move)
    words += [f"{{{record.reason}}}", record.result]
    header = "\n".join(f'[{name} "{_quoted(value)}"]' for name, value in tags)
    return header + "\n\n" + "\n".join(_wrap(words))


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _wrap(words: list[str]) -> Iterator[str]:
    line = ""
    for word in words:
        candidate = f"{line} {word}" if line else word
        if len(candidate) > LINE_WIDTH and line:
            yield line
            line = word
        else:
            line = candidate
    if line:
        yield line


class GameFile:
    """The match's output, rewritten atomically after every game (``replay.run.output``): a stopped
    match leaves every finished game and never a half-written one. Games already in the file
    are kept (``games``: a rerun goes on after them); the new ones follow. A device or FIFO
    (``/dev/full``, a named pipe) is never read: it is opened once, before any game, and the
    games are streamed into it (a named pipe that no program reads is a ``WriteError`` at
    once, never waited on); a folder is refused (``OutputError``). Writing fails with a
    ``WriteError`` naming the output.

    One match at a time writes a file: the file is locked (``flock(2)``, where ``fcntl``
    is) through a lock file beside it, ``.NAME.lock``, removed by ``close``; a second match
    on the same file is refused with an ``OutputError``. A lock file left by a killed match
    holds no lock: the next run takes it."""

    def __init__(self, path: str | os.PathLike) -> None:
        from replay.run.output import as_write_error, in_place_writer, output_target

        self.path = Path(path)
        self.text = ""
        self.target = output_target(path)
        self._lock: tuple[int, Path] | None = None
        self._stream: IO | None = None
        if self.target.in_place:
            self._stream = in_place_writer(self.target, path)
            return
        self._take_lock()
        try:
            self.text = self.target.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            self.text = ""
        except (OSError, UnicodeDecodeError) as error:
            if isinstance(error, UnicodeDecodeError):
                error = OSError(errno.EILSEQ, "not UTF-8 text: not a match's output")
            raise as_write_error(error, path) from None
        if self.text and not self.text.endswith("\n\n"):
            self.text = self.text.rstrip("\n") + "\n\n"

    def add(self, game: str) -> None:
        from replay.run.output import write_atomically

        if self._stream is not None:
            self._stream.write(game + "\n\n")
            self._stream.flush()
            return
        text = self.text + game + "\n\n"
        write_atomically(self.path, text)
        self.text = text

    def games(self) -> list[Game]:
        """The games the file held when opened (none for a device or FIFO)."""
        import io

        from pdn.reader import read_games

        return list(read_games(io.StringIO(self.text))) if self.text.strip() else []

    def _take_lock(self) -> None:
        from replay.run.output import OutputError, as_write_error

        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows: runs are not kept apart
            return
        target = self.target.path
        lock = target.with_name(f".{target.name}.lock")
        while True:
            try:
                descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as error:
                raise as_write_error(error, self.path) from None
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(descriptor)
                raise OutputError(f"{self.path}: another pdn match is writing it: wait for "
                                  "it to end, or give another -o") from None
            try:  # the lock file a run that just ended removed is no lock: take it again
                same = os.stat(lock).st_ino == os.fstat(descriptor).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self._lock = (descriptor, lock)
                return
            os.close(descriptor)

    def close(self) -> None:
        """Let another run write the file (the lock file removed); a device or FIFO is
        closed."""
        if self._stream is not None:
            stream, self._stream = self._stream, None
            with contextlib.suppress(OSError):  # a write that failed is reported already
                stream.close()
        if self._lock is not None:
            descriptor, lock = self._lock
            self._lock = None
            with contextlib.suppress(OSError):
                lock.unlink()
            os.close(descriptor)

    def __enter__(self) -> GameFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["EngineError", "GameFile", "MatchError", "StartPosition", "finished_games",
           "game_pdn", "open_side", "play_match", "start_positions", "tell_apart"]
