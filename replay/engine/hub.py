"""A client of the Hub protocols, both generations, in the shape of python-chess's
``chess.engine.SimpleEngine``.

- The first Hub protocol (Scan 2.0, ``scan hub``; its ``src/main.cpp``): bare words,
  ``hub`` → ``name ...``, ``author ...``, ``wait``; ``init`` → ``ready``; ``pos <51 letters>``,
  ``depth N``, ``time MS``, ``level MOVES MS INC``; ``analyse`` or ``go`` → ``info DEPTH
  PLY-AVG SCORE NODES TIME MNPS PV...`` lines (from depth 12 on) and ``move MOVE [PONDER]``.
- The second Hub protocol (Scan 3.x's ``protocol.txt``, dame-rs's ``dame hub``):
  ``name=value`` pairs, ``hub`` → ``id ...``, ``param ...``, ``wait``; ``set-param``;
  ``init`` → ``ready``; ``pos pos=...``, ``level depth=...``, ``go think|analyze`` →
  ``info depth=... score=... pv="..."`` and ``done move=... ponder=...``.

Which one an engine speaks is told from its answer to ``hub``. docs/engines.md has every
message we send and accept.

>>> from replay.record.board import Board
>>> position_text(Board(variant="international"), 2)[:6]
'Wbbbbb'
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time as clock
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pdn.i18n import N_
from replay.engine.limits import EngineError, Info, Limit, PlayResult, Score, VariantRefused
from replay.engine.lines import several_lines
from replay.run.children import popen_bound, release

if TYPE_CHECKING:
    from replay.record.board import Board
    from replay.rules.move import Move

DEFAULT_TIMEOUT = 30.0  # seconds for start-up (``hub``, ``init``) and for ``quit``
_EOF = None  # what the reader thread queues when the engine's output closes
# An engine's output is read within bounds, whatever it writes: lines of at most LINE_LIMIT
# characters (a longer one is an error of the engine, read and dropped piece by piece), at
# most QUEUE_LIMIT lines waiting to be taken (then the engine waits to write: a flood of
# ``info`` costs no memory), and the last STDERR_LINES lines of stderr, STDERR_WIDTH
# characters of each, for the message when it dies.
LINE_LIMIT = 1 << 16
QUEUE_LIMIT = 1024
STDERR_LINES, STDERR_WIDTH = 10, 300
_TOO_LONG = "\0too-long"  # queued for a line over LINE_LIMIT (no engine line holds a NUL)

# Scan 3.x's names of the variants (its ``param name=variant``) and ours.
HUB_VARIANTS = {"international": "normal", "frisian": "frisian", "antidraughts": "losing",
                "breakthrough": "bt", "killer": "killer"}

# Score bounds: a score past them is a won or lost end, its distance in plies
# (Scan 2.0's score.h: Inf 2000, bitbase wins from 1900; Scan 3.x's score.hpp: Inf 10000).
FIRST_INF, FIRST_MATE_FROM = 2000, 1900
SECOND_INF, SECOND_MATE_FROM = 10000, 9000

_PAIR = re.compile(r'\s*([^\s="]+)(?:\s*=\s*(?:"([^"]*)"|([^\s"]*)))?')
_MOVE = re.compile(r"\d+(?:[-x]\d+)+$")


def parse_pairs(text: str) -> dict[str, str]:
    """The ``name=value`` arguments of a second-protocol line (values may be quoted; a flag
    without ``=`` has the value ``""``).

    >>> parse_pairs('id name=dame version=0.2.0 author="Markus Bilz"')['author']
    'Markus Bilz'
    """
    pairs: dict[str, str] = {}
    for match in _PAIR.finditer(text):
        name, quoted, bare = match.groups()
        pairs[name] = quoted if quoted is not None else (bare or "")
    return pairs


def _quote(value: str) -> str:
    """A second-protocol value, quoted where it holds a space, ``=`` or nothing."""
    return f'"{value}"' if not value or re.search(r'[\s="]', value) else value


def square_numbers(board: Board) -> tuple[int, ...]:
    """The internal squares of the board in the order of their numbers (1, 2, ...)."""
    numbers = board.variant.gametype.notation.numbers
    return tuple(square for square, _ in sorted(numbers.items(), key=lambda kv: int(kv[1])))


def position_text(board: Board, generation: int) -> str:
    """The Hub position string: the side to move (``w``/``b`` in the first protocol, ``W``/
    ``B`` in the second) and a letter per square in number order (``w b W B e``)."""
    from replay.rules.movegen import WHITE

    position = board.position
    letters = ["W" if board.turn == WHITE else "B"]
    for square in square_numbers(board):
        bit = 1 << square
        if position.white & bit:
            letters.append("W" if position.kings & bit else "w")
        elif position.black & bit:
            letters.append("B" if position.kings & bit else "b")
        else:
            letters.append("e")
    if generation == 1:
        letters[0] = letters[0].lower()
    return "".join(letters)


def move_text(board: Board, move: Move) -> str:
    """A move in Hub form: ``32-28``, or for a capture origin ``x`` destination and every
    captured square (``28x19x23``)."""
    numbers = board.variant.gametype.notation.numbers
    if not move.captures:
        return f"{numbers[move.origin]}-{numbers[move.destination]}"
    captured = sorted(int(numbers[square]) for square in move.captures)
    return "x".join([numbers[move.origin], numbers[move.destination], *map(str, captured)])


def parse_move(board: Board, text: str, engine: str = "the engine") -> Move:
    """The legal move of ``board`` a Hub move means: origin, destination and any captured
    squares given (Scan 2.0's PV names only those that tell two captures apart). Raises
    ``EngineError`` naming the engine and the text when it is no legal move."""
    if not _MOVE.match(text):
        raise EngineError(N_("{engine} sent {text}, which is not a move").format(
            engine=engine, text=repr(text)))
    numbers = board.variant.gametype.notation.numbers
    squares = {int(number): square for square, number in numbers.items()}
    try:
        origin, destination, *taken = (squares[int(n)] for n in re.split("[-x]", text))
    except KeyError:
        raise EngineError(N_("{engine} sent {text}: a square that is not on the board").format(
            engine=engine, text=repr(text))) from None
    capture = "x" in text
    fits = [move for move in board.legal_moves()
            if move.origin == origin and move.destination == destination
            and move.is_capture == capture and set(taken) <= set(move.captures)]
    if len(fits) != 1:
        said = (N_("{engine} sent {text}, an illegal move in {fen}") if not fits
                else N_("{engine} sent {text}, an ambiguous move in {fen}"))
        raise EngineError(said.format(engine=engine, text=repr(text), fen=board.fen()))
    return fits[0]


def parse_line(board: Board, texts: list[str], engine: str) -> list[Move]:
    """A principal variation: each move parsed on the position the previous ones reach."""
    line: list[Move] = []
    here = board.copy()
    for text in texts:
        move = parse_move(here, text, engine)
        line.append(move)
        here.push(move)
    return line


def _score(value: float, generation: int) -> Score:
    """An engine's score as a ``Score``: centi-men, or plies to a won/lost end where the
    protocol's bounds say so (dame-rs's ±100.00 is a win without its distance)."""
    centi = round(value) if generation == 1 else round(value * 100)
    inf, mate_from = (FIRST_INF, FIRST_MATE_FROM) if generation == 1 else (SECOND_INF,
                                                                           SECOND_MATE_FROM)
    if mate_from < abs(centi) < inf:
        plies = inf - abs(centi)
        return Score(centi=centi, mate=plies if centi > 0 else -plies)
    return Score(centi=centi)


@dataclass
class _Search:
    """What one search said: its last info line and how many came, its move, its errors."""

    info: Info | None = None
    count: int = 0  # info lines taken (only the last is kept: a flood costs no memory)
    move: str | None = None
    ponder: str | None = None
    errors: list[str] = field(default_factory=list)


_LIVE: weakref.WeakSet[HubEngine] = weakref.WeakSet()


def _close_all() -> None:
    """At exit, no engine outlives us."""
    for engine in list(_LIVE):
        engine.close()


atexit.register(_close_all)


class HubEngine:
    """A running Hub engine; blocking calls, one search at a time. Use ``popen_hub``.

    ``name`` and ``author`` are what it says of itself, ``options`` its parameters (name →
    declared default) in the second protocol, ``generation`` 1 or 2.
    """

    def __init__(self, command: list[str], cwd: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT, options: dict[str, object] | None = None,
                 variant: str = "international") -> None:
        self.command, self.timeout = command, timeout
        self.name = os.path.basename(command[0])
        self.author: str | None = None
        self.options: dict[str, str] = {}
        self.option_values: dict[str, list[str]] = {}
        self.generation = 0
        self.variant = variant
        self._stderr: list[str] = []
        self._lines: queue.Queue[str | None] = queue.Queue(QUEUE_LIMIT)
        self._closed = threading.Event()
        self._searching = False
        self._sending = threading.Lock()  # a stop() from another thread between two lines
        try:
            self.process = popen_bound(
                command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, encoding="utf-8", errors="replace", bufsize=1)
        except OSError as error:
            raise EngineError(N_("cannot start {command}: {reason}").format(
                command=shlex.join(command), reason=error.strerror or error)) from None
        _LIVE.add(self)
        threading.Thread(target=self._read, args=(self.process.stdout, True), daemon=True
                         ).start()
        threading.Thread(target=self._read, args=(self.process.stderr, False), daemon=True
                         ).start()
        try:
            self._start(options or {})
        except BaseException:
            self.close()
            raise

    # -- the process ------------------------------------------------------------------------

    def _read(self, stream, is_stdout: bool) -> None:
        try:
            while line := stream.readline(LINE_LIMIT):
                if len(line) == LINE_LIMIT and not line.endswith("\n"):
                    if is_stdout and not self._put(_TOO_LONG):  # said at once: it may not end
                        return
                    while (more := stream.readline(LINE_LIMIT)) and not more.endswith("\n"):
                        pass  # the rest of a line too long: read and dropped
                    if not is_stdout:
                        said = line[:STDERR_WIDTH] + "..."
                        self._stderr = [*self._stderr[1 - STDERR_LINES:], said]
                    continue
                if is_stdout:
                    if not self._put(line.rstrip("\r\n")):
                        return
                else:
                    said = line.rstrip()
                    said = said if len(said) <= STDERR_WIDTH else said[:STDERR_WIDTH] + "..."
                    self._stderr = [*self._stderr[1 - STDERR_LINES:], said]
        except (OSError, ValueError):  # the stream closed under us (close())
            pass
        finally:
            if is_stdout:
                self._put(_EOF)

    def _put(self, line: str | None) -> bool:
        """Queue a line of the engine's, waiting while the queue is full; False once the
        engine was closed (nobody takes lines any more)."""
        while not self._closed.is_set():
            try:
                self._lines.put(line, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _send(self, line: str) -> None:
        try:
            with self._sending:
                self.process.stdin.write(line + "\n")
                self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died() from None

    def stop(self) -> None:
        """Ask a running search to end now (any thread): the search then returns the
        engine's move as it stands. Nothing happens when none runs or the engine ended."""
        if self._searching and self.process.poll() is None:
            with contextlib.suppress(EngineError):
                self._send("stop")

    def _died(self) -> EngineError:
        code = self.process.poll()
        if code is None:
            try:
                code = self.process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                code = None
        if code is not None and code < 0:
            how = N_("engine {name} was killed by signal {number}").format(name=self.name,
                                                                          number=-code)
        elif code is not None:
            how = N_("engine {name} exited with code {number}").format(name=self.name,
                                                                       number=code)
        else:
            how = N_("engine {name} closed its output").format(name=self.name)
        if self._stderr:
            how = N_("{problem}; it said: {said}").format(problem=how,
                                                          said=" | ".join(self._stderr[-3:]))
        self.close()
        return EngineError(how)

    def _next(self, timeout: float | None, whole: float | None = None) -> str:
        """The engine's next line; EngineError when it dies, writes a line too long, or
        stays silent too long: ``timeout`` is the time left (``whole``: the time allowed,
        as the message says it), and once none is left lines still coming do not count."""
        try:
            if timeout is not None and timeout <= 0:
                raise queue.Empty
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            self.close()
            allowed = whole if whole is not None else timeout
            raise EngineError(N_("engine {name} did not answer within {seconds} s").format(
                name=self.name, seconds=f"{allowed:g}")) from None
        if line is _EOF:
            with contextlib.suppress(queue.Full):
                self._lines.put_nowait(_EOF)
            raise self._died()
        if line == _TOO_LONG:
            self.close()
            raise EngineError(N_("engine {name} sent a line longer than {count} characters")
                              .format(name=self.name, count=f"{LINE_LIMIT:,}"))
        return line

    def _until(self, word: str, timeout: float | None) -> Iterator[str]:
        """Lines up to and including the first whose first word is ``word``, as they come
        (none kept: an engine that floods before it costs no memory)."""
        deadline = None if timeout is None else clock.monotonic() + timeout
        while True:
            left = None if deadline is None else deadline - clock.monotonic()
            line = self._next(left, timeout)
            yield line
            if line.split(" ", 1)[0] == word:
                return

    def _wait_for(self, word: str, timeout: float | None) -> None:
        """Skip lines up to and including the first whose first word is ``word``."""
        for _ in self._until(word, timeout):
            pass

    def close(self) -> None:
        """Stop the process at once (its whole process group): terminate, then kill, and
        wait for it, so that no zombie is left."""
        process = getattr(self, "process", None)
        if process is None:
            return
        self._closed.set()
        _LIVE.discard(self)
        if process.poll() is None:
            for sig, wait in ((signal.SIGTERM, 1.0), (signal.SIGKILL, 5.0)):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, sig)
                try:
                    process.wait(timeout=wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
        else:
            # the group may hold children of a shell wrapper
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        release(process)
        for stream in (process.stdin, process.stdout, process.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.close()
        with contextlib.suppress(queue.Full):  # wakes a thread waiting for a line: it ended
            self._lines.put_nowait(_EOF)

    def quit(self) -> None:
        """Ask the engine to quit, then make sure it has (``close``)."""
        if self.process.poll() is None:
            try:
                if self._searching:
                    self._send("stop")
                self._send("quit")
                self.process.wait(timeout=min(self.timeout, 5.0))
            except (EngineError, subprocess.TimeoutExpired):
                pass
        self.close()

    def __enter__(self) -> HubEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<HubEngine {self.name!r} (Hub {self.generation}, pid {self.process.pid})>"

    # -- start-up ---------------------------------------------------------------------------

    def _start(self, options: dict[str, object]) -> None:
        self._send("hub")
        for line in self._until("wait", self.timeout):
            word, _, rest = line.partition(" ")
            if word == "id":
                self.generation = 2
                pairs = parse_pairs(rest)
                name, version = pairs.get("name"), pairs.get("version")
                if name:
                    self.name = name if not version or version in name else f"{name} {version}"
                self.author = pairs.get("author") or self.author
            elif word == "param":
                self.generation = 2
                pairs = parse_pairs(rest)
                if "name" in pairs:
                    self.options[pairs["name"]] = pairs.get("value", "")
                    if pairs.get("values"):
                        self.option_values[pairs["name"]] = pairs["values"].split()
            elif word == "name" and rest:
                self.name = rest.strip()
            elif word == "author" and rest:
                self.author = rest.strip()
        self.generation = self.generation or 1
        self._check_variant()
        self.configure(options)
        self._send("init")
        self._wait_for("ready", self.timeout)

    def _check_variant(self) -> None:
        """Choose the engine's variant, or refuse one it cannot play."""
        if "variant" in self.options:
            wanted = HUB_VARIANTS.get(self.variant, self.variant)
            known = self.option_values.get("variant", [])
            if known and wanted not in known:
                raise VariantRefused(N_("engine {name} does not play {variant} (it plays "
                                        "{variants})").format(
                    name=self.name, variant=self.variant, variants=", ".join(known)))
            if self.options["variant"] != wanted:
                self.configure({"variant": wanted})
        elif self.variant != "international":
            raise VariantRefused(N_("engine {name} does not play {variant} (it plays "
                                    "International draughts only: it declares no variant)")
                                 .format(name=self.name, variant=self.variant))

    def configure(self, options: dict[str, object]) -> None:
        """Set engine parameters: ``set-param name=... value=...`` (second protocol) or
        ``set NAME VALUE`` (Scan 2.0's ``scan.ini`` variables). Those read at start-up
        (Scan's ``tt-size``) count when given to ``popen_hub(options=...)``."""
        for name, value in options.items():
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            if self.generation == 2:
                self._send(f"set-param name={_quote(name)} value={_quote(text)}")
                self.options[name] = text
            else:
                self._send(f"set {name} {text}")

    def new_game(self) -> None:
        """Tell the engine that a new game begins, so that nothing it learnt in the last one
        (its transposition table) colours the next: ``new-game`` in the second protocol
        (protocol.txt), ``new`` in the first (Scan 2.0's ``main.cpp``: it clears its table).
        Neither has an answer."""
        if self._searching:  # an analysis left running: ended first
            self._send("stop")
            self._wait_for("done" if self.generation == 2 else "move", self.timeout)
            self._searching = False
        self._send("new-game" if self.generation == 2 else "new")

    # -- searching --------------------------------------------------------------------------

    def _begin(self, board: Board, limit: Limit | None, mode: str) -> None:
        if board.variant.name != self.variant:
            raise EngineError(f"engine {self.name} was started for {self.variant}, "
                              f"not {board.variant.name}")
        if not board.legal_moves():
            raise EngineError(f"the position {board.fen()} has no legal move to search")
        if self._searching:  # an analysis left running: its move is no answer to this
            self._send("stop")
            end = "done" if self.generation == 2 else "move"
            self._wait_for(end, self.timeout)
            self._searching = False
        limit = limit or Limit()
        if self.generation == 2:
            self._send(f"pos {_position_pairs(board)}")
            if limit.depth is not None:
                self._send(f"level depth={limit.depth}")
            elif limit.movetime is not None:
                self._send(f"level move-time={limit.movetime:g}")
            elif limit.time is not None:
                self._send(f"level time={limit.time:g}")
            else:
                self._send("level infinite")
            self._send(f"go {'analyze' if mode == 'analyse' else 'think'}")
        else:
            self._send(f"pos {position_text(board, 1)}")  # resets the limits
            if limit.depth is not None:
                self._send(f"depth {limit.depth}")
            if limit.movetime is not None:
                self._send(f"time {round(limit.movetime * 1000)}")
            elif limit.time is not None:
                self._send(f"level 0 {round(limit.time * 1000)} 0")
            self._send("analyse" if mode == "analyse" else "go")
        self._searching = True

    def _info(self, board: Board, line: str) -> Info | None:
        """An ``info`` line as an ``Info`` (None for one without anything we use)."""
        word, _, rest = line.partition(" ")
        if word != "info":
            return None
        try:
            if self.generation == 2:
                pairs = parse_pairs(rest)
                score = _score(float(pairs["score"]), 2) if "score" in pairs else None
                return Info(score=score,
                            depth=int(pairs["depth"]) if "depth" in pairs else None,
                            nodes=int(pairs["nodes"]) if "nodes" in pairs else None,
                            time=float(pairs["time"]) if "time" in pairs else None,
                            pv=parse_line(board, pairs.get("pv", "").split(), self.name))
            fields = rest.split()
            return Info(score=_score(float(fields[2]), 1), depth=int(fields[0]),
                        nodes=int(fields[3]), time=float(fields[4]),
                        pv=parse_line(board, fields[6:], self.name))
        except (ValueError, IndexError, KeyError):
            raise EngineError(N_("engine {name} sent a garbled line: {line}").format(
                name=self.name, line=repr(line))) from None

    def _consume(self, board: Board, line: str, search: _Search) -> bool:
        """Take one line of a running search; True once it has given its move."""
        word, _, rest = line.partition(" ")
        if word == "info":
            info = self._info(board, line)
            if info is not None:
                search.info = info
                search.count += 1
        elif word == "error" and len(search.errors) < 10:  # the first ten tell enough
            search.errors.append(parse_pairs(rest).get("message", rest)
                                 if self.generation == 2 else rest)
        elif (word, self.generation) in (("done", 2), ("move", 1)):
            if self.generation == 2:
                pairs = parse_pairs(rest)
                search.move, search.ponder = pairs.get("move"), pairs.get("ponder")
            else:
                words = rest.split()
                search.move = words[0] if words else None
                search.ponder = words[1] if len(words) > 1 else None
            self._searching = False
            return True
        return False

    def _search_timeout(self, limit: Limit | None) -> float:
        """The time a search may take: its own time (``movetime``, or the clock's ``time``)
        and ``timeout`` more; under a depth or a node limit, or none, ``timeout`` in all."""
        if limit is not None and limit.movetime is not None:
            return limit.movetime + self.timeout
        if limit is not None and limit.time is not None:
            return limit.time + self.timeout
        return self.timeout

    def _run(self, board: Board, limit: Limit | None, mode: str) -> _Search:
        self._begin(board, limit, mode)
        search = _Search()
        wait = self._search_timeout(limit)
        deadline = clock.monotonic() + wait
        try:
            while True:
                left = deadline - clock.monotonic()
                if self._consume(board, self._next(left, wait), search):
                    break
        except BaseException:  # a garbled line, a timeout, Ctrl-C: the engine goes
            self.close()
            raise
        if search.errors:
            self.close()
            raise EngineError(N_("engine {name} refused the search: {said}").format(
                name=self.name, said="; ".join(search.errors)))
        return search

    def _result(self, board: Board, search: _Search) -> PlayResult:
        try:
            move = parse_move(board, search.move or "", self.name)
        except EngineError:
            self.close()
            raise
        ponder = None
        if search.ponder:
            after = board.copy()
            after.push(move)
            try:
                ponder = parse_move(after, search.ponder, self.name) if after.legal_moves() \
                    else None
            except EngineError:
                ponder = None  # a guess about the future: not worth failing for
        info = search.info or Info(depth=None, pv=[move])
        if not info.pv or info.pv[0] != move:  # the move is what counts (Scan's book)
            info = Info(score=info.score, depth=info.depth, nodes=info.nodes, time=info.time,
                        pv=[move])
        return PlayResult(move, ponder, info)

    def play(self, board: Board, limit: Limit) -> PlayResult:
        """The engine's move in ``board`` (``go`` / ``go think``: it may use its book)."""
        return self._result(board, self._run(board, limit, "play"))

    def analyse(self, board: Board, limit: Limit, multipv: int = 1) -> Info | list[Info]:
        """The engine's view of ``board``: its last ``Info`` (score from the mover's side,
        depth, nodes, time, principal variation), the move it chose first in the ``pv``.
        With ``multipv`` > 1 a list of that many lines, best first: neither protocol has
        several lines, so each legal move's position is searched one ply less deep (or for
        the same time) and the best are kept."""
        if multipv > 1:
            return self._multipv(board, limit, multipv)
        return self._result(board, self._run(board, limit, "analyse")).info

    def _multipv(self, board: Board, limit: Limit, count: int) -> list[Info]:
        return several_lines(board, self._one_line, limit, count)

    def _one_line(self, board: Board, limit: Limit) -> Info:
        info = self.analyse(board, limit)
        assert isinstance(info, Info)
        return info

    def analysis(self, board: Board, limit: Limit | None = None) -> Analysis:
        """A search that streams ``Info`` as the engine reports it, until ``stop()`` (or the
        limit, or leaving the ``with`` block)::

            with engine.analysis(board) as analysis:
                for info in analysis:
                    if info.depth and info.depth >= 14:
                        break
            analysis.best  # the PlayResult, once stopped
        """
        self._begin(board, limit, "analyse")
        return Analysis(self, board)


def _position_pairs(board: Board) -> str:
    """The second protocol's ``pos=...``, with ``moves="..."`` for the king moves that led
    to it (protocol.txt: so that the engine sees repetitions): the position before the last
    run of non-capturing king moves of the board's history, then those moves."""
    from replay.record.board import Board as BoardType

    states, stack = getattr(board, "_states", []), board.move_stack
    count = 0
    while (count < len(stack) and count < len(states)
           and not stack[-1 - count].captures
           and (states[-1 - count].kings >> stack[-1 - count].origin) & 1):
        count += 1
    if count == 0:
        return f"pos={position_text(board, 2)}"
    start = BoardType(board.variant, states[-count])
    here, texts = start.copy(), []
    for move in stack[len(stack) - count:]:
        texts.append(move_text(here, move))
        here.push(move)
    return f'pos={position_text(start, 2)} moves="{" ".join(texts)}"'


class Analysis:
    """A running analysis (``HubEngine.analysis``): iterate for ``Info``; ``stop()`` asks
    the engine for its move, ``best`` is then the ``PlayResult``."""

    def __init__(self, engine: HubEngine, board: Board) -> None:
        self.engine, self.board = engine, board
        self.search = _Search()
        self.best: PlayResult | None = None
        self._stopped = False

    def __iter__(self) -> Iterator[Info]:
        while self.best is None:
            seen = self.search.count
            try:
                done = self.engine._consume(self.board, self.engine._next(None), self.search)
            except BaseException:
                self.engine.close()
                raise
            if done:
                self.best = self.engine._result(self.board, self.search)
                return
            if self.search.count > seen and self.search.info is not None:  # an info line
                yield self.search.info

    @property
    def info(self) -> Info | None:
        """The latest ``Info``."""
        return self.search.info

    def stop(self) -> PlayResult:
        """Stop the search and return the engine's move (waiting for it)."""
        if self.best is None:
            if not self._stopped:
                self.engine._send("stop")
                self._stopped = True
            for _ in self:
                pass
        assert self.best is not None
        return self.best

    def __enter__(self) -> Analysis:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.best is None and self.engine.process.poll() is None:
            with contextlib.suppress(EngineError):
                self.stop()


def popen_hub(command: str | list[str], cwd: str | os.PathLike | None = None,
              timeout: float = DEFAULT_TIMEOUT, options: dict[str, object] | None = None,
              variant: str = "international") -> HubEngine:
    """Start a Hub engine (``"dame hub"``, ``["./scan", "hub"]``) and go through its
    start-up: ``hub`` … ``wait``, the ``options`` set, ``init`` … ``ready``. ``cwd`` is its
    working folder (Scan reads ``scan.ini`` and ``data/`` there); ``timeout`` bounds the
    start-up and every search: one under a time limit may take that limit and ``timeout``
    more, any other ``timeout`` in all, whatever the engine writes meanwhile. Raises
    ``EngineError``."""
    try:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    except ValueError as error:  # "dame 'hub": a quote left open
        raise EngineError(N_("the engine command {command} cannot be read: {error}").format(
            command=repr(command), error=error)) from None
    if not argv:
        raise EngineError(N_("no engine command given"))
    return HubEngine(argv, None if cwd is None else str(cwd), timeout, options, variant)


__all__ = ["Analysis", "HubEngine", "move_text", "parse_move", "popen_hub", "position_text"]
