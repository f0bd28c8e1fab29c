"""The built-in engine as a Hub engine (``pdn engine hub``): the second Hub protocol, the one
Scan 3.x's ``protocol.txt`` describes and dame-rs speaks, on stdin and stdout.

What it answers (docs/engines.md):

- ``hub`` → ``id name=... version=... author=...``, ``param name=variant value=normal
  type=enum values="..."`` (Scan 3.x's names where it has one: ``normal``, ``frisian``,
  ``losing``, ``bt``; ours for the rest), ``wait``;
- ``set-param name=variant value=V``; ``init`` → ``ready``; ``ping`` → ``pong``;
  ``new-game`` (nothing to do);
- ``pos pos=<side><a letter a square> [moves="..."]`` (``moves``: played from that position);
- ``level depth=N | nodes=N | move-time=S | time=S | infinite`` (the last one given counts);
- ``go think`` / ``go analyze`` → an ``info depth=... score=... nodes=... time=... pv="..."``
  line per completed depth, then ``done move=... ponder=...``; ``stop`` ends the search at
  once (the move of the last completed depth); ``quit``.

Scores are men with two decimals from the mover's side; a won end n plies away is
``(10000 - n) / 100`` (Scan 3.x's score bounds, as replay.engine.hub reads them).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from typing import TextIO

from replay.engine.builtin import NAME, BuiltinEngine
from replay.engine.hub import HUB_VARIANTS, move_text, parse_move, parse_pairs, square_numbers
from replay.engine.limits import EngineError, Info, Limit
from replay.record.board import Board
from replay.rules.native import rules_for
from replay.rules.position import Position
from replay.rules.variants import get_variant, variant_names

VERSION = "1"
# The longest command line read (characters): a position and the moves of the longest game
# fit many times over; a longer line is read in pieces of this size and refused, never held.
LINE_LIMIT = 1 << 20
_OURS = {hub: ours for ours, hub in HUB_VARIANTS.items()}


def hub_variants() -> list[str]:
    """The variants the server plays, by their Hub names."""
    names = []
    for name in variant_names():
        if rules_for(get_variant(name)) is not None:
            names.append(HUB_VARIANTS.get(name, name))
    return names


def read_position(board: Board, text: str) -> Position:
    """The position of a Hub ``pos=`` value on ``board``'s variant; ValueError if it is none."""
    squares = square_numbers(board)
    if len(text) != len(squares) + 1 or text[0] not in "WB":
        raise ValueError(f"a position is W or B and {len(squares)} letters")
    white = black = kings = 0
    for square, letter in zip(squares, text[1:], strict=True):
        bit = 1 << square
        if letter in "wW":
            white |= bit
        elif letter in "bB":
            black |= bit
        elif letter != "e":
            raise ValueError(f"{letter!r} is no piece (w b W B e)")
        if letter in "WB":
            kings |= bit
    return Position(white, black, kings, 0 if text[0] == "W" else 1)


def score_text(info: Info) -> str:
    """A score in men with two decimals (a win: 10000 - plies, in hundredths)."""
    centi = info.score.centi if info.score and info.score.centi is not None else 0
    return f"{centi / 100:.2f}"


def bounded_lines(source: TextIO, limit: int = LINE_LIMIT) -> Iterator[str | None]:
    """The lines of ``source``, each read at most ``limit`` characters at a time; a line of
    ``limit`` characters or more is skipped to its end and given as ``None``.

    >>> from io import StringIO
    >>> list(bounded_lines(StringIO("ping\\n" + "x" * 25 + "\\nquit\\n"), limit=10))
    ['ping\\n', None, 'quit\\n']
    """
    while piece := source.readline(limit):
        if piece.endswith("\n") or len(piece) < limit:
            yield piece
            continue
        while (piece := source.readline(limit)) and not piece.endswith("\n"):
            pass  # the rest of the long line, one piece at a time
        yield None


class HubServer:
    """One engine conversation: ``run()`` reads commands until ``quit`` or end of input."""

    def __init__(self, source: TextIO, sink: TextIO, variant: str = "international") -> None:
        self.source, self.sink = source, sink
        self._out = threading.Lock()
        self.engine = BuiltinEngine(variant)
        self.board = Board(variant=variant)
        self.limit = Limit()
        self.thread: threading.Thread | None = None
        self.busy = False  # a search runs and has not sent its done line yet

    def send(self, line: str) -> None:
        with self._out:
            self.sink.write(line + "\n")
            self.sink.flush()

    def error(self, message: str) -> None:
        self.send(f'error message="{message.replace(chr(34), chr(39))}"')

    def run(self) -> None:
        for line in bounded_lines(self.source):
            if line is None:
                self.error(f"a line of {LINE_LIMIT:,} characters or more is refused")
                continue
            word, _, rest = line.strip().partition(" ")
            if word == "quit":
                break
            try:
                self.command(word, parse_pairs(rest), rest)
            except (ValueError, EngineError) as problem:
                self.error(str(problem))
        self.finish()

    def finish(self) -> None:
        """End a running search and wait for it (its ``done`` line is still sent)."""
        if self.thread is not None:
            self.engine.stop()
            self.thread.join()
            self.thread = None

    def command(self, word: str, pairs: dict[str, str], rest: str) -> None:
        if word == "hub":
            self.send(f'id name="{NAME}" version={VERSION} author=pdn-toolkit')
            values = " ".join(hub_variants())
            current = HUB_VARIANTS.get(self.engine.variant.name, self.engine.variant.name)
            self.send(f'param name=variant value={current} type=enum values="{values}"')
            self.send("wait")
        elif word == "init":
            self.send("ready")
        elif word == "ping":
            self.send("pong")
        elif word == "stop":
            self.finish()
        elif word == "new-game":
            pass
        elif self.busy:
            self.error(f"{word}: a search is running (send stop first)")
        elif word == "set-param":
            self.set_param(pairs.get("name", ""), pairs.get("value", ""))
        elif word == "pos":
            self.set_position(pairs)
        elif word == "level":
            self.set_level(pairs)
        elif word == "go":
            self.go()
        elif word:
            self.error(f"unknown command {word}")

    def set_param(self, name: str, value: str) -> None:
        if name != "variant":
            raise ValueError(f"unknown parameter {name}")
        self.engine = BuiltinEngine(get_variant(_OURS.get(value, value)))
        self.board = Board(variant=self.engine.variant)

    def set_position(self, pairs: dict[str, str]) -> None:
        board = Board(self.engine.variant, read_position(Board(variant=self.engine.variant),
                                                         pairs.get("pos", "")))
        for text in pairs.get("moves", "").split():
            move = parse_move(board, text, "the position's moves")
            board.push(move)
        self.board = board

    def set_level(self, pairs: dict[str, str]) -> None:
        if "depth" in pairs:
            self.limit = Limit(depth=int(pairs["depth"]))
        elif "nodes" in pairs:
            self.limit = Limit(nodes=int(pairs["nodes"]))
        elif "move-time" in pairs:
            self.limit = Limit(movetime=float(pairs["move-time"]))
        elif "time" in pairs:
            self.limit = Limit(time=float(pairs["time"]))
        elif "infinite" in pairs:
            self.limit = Limit()
        else:
            raise ValueError("level: depth=, nodes=, move-time=, time= or infinite")

    def go(self) -> None:
        board, limit = self.board.copy(), self.limit
        if not board.legal_moves():
            self.error("the position has no legal move")
            return

        def info(found: Info) -> None:
            here = board.copy()
            texts = []
            for move in found.pv:
                texts.append(move_text(here, move))
                here.push(move)
            self.send(f"info depth={found.depth} score={score_text(found)} "
                      f"nodes={found.nodes} time={found.time:.3f} pv=\"{' '.join(texts)}\"")

        def search() -> None:
            try:
                last = self.engine.search(board, limit, info, fresh=False)
            except (EngineError, ValueError, OverflowError) as problem:
                self.busy = False
                self.error(str(problem))
                self.send(f"done move={move_text(board, board.legal_moves()[0])}")
                return
            move = last.pv[0] if last.pv else board.legal_moves()[0]
            after = board.copy()
            after.push(move)
            done = f"done move={move_text(board, move)}"
            if len(last.pv) > 1:
                done += f" ponder={move_text(after, last.pv[1])}"
            self.busy = False
            self.send(done)

        self.finish()
        self.busy = True
        self.engine.arm()
        self.thread = threading.Thread(target=search, daemon=True)
        self.thread.start()


def serve(variant: str = "international") -> None:
    """Speak the Hub protocol on stdin and stdout until ``quit``."""
    HubServer(sys.stdin, sys.stdout, variant).run()


def builtin_command() -> list[str]:
    """The command line that starts the built-in engine as a Hub engine (``popen_hub``)."""
    return [sys.executable, "-m", "replay.engine.server"]


__all__ = ["HubServer", "builtin_command", "hub_variants", "read_position", "serve"]


if __name__ == "__main__":
    try:
        serve()
    except EngineError as problem:  # no native core here: said on stderr, the client shows it
        print(f"error: {problem}", file=sys.stderr)
        raise SystemExit(1) from None
