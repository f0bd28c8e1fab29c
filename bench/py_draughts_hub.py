"""py-draughts' engine (``draughts.engines.SimpleEngine``) behind the second Hub protocol, so
that ``pdn match`` can play it: run with the peer's own Python (bench/peers.py makes its venv),
``hub:".bench-venvs/py-draughts/bin/python bench/py_draughts_hub.py"``.

Standalone on purpose: py-draughts imports as ``draughts`` in its own venv, without the
toolkit. It answers ``hub``, ``set-param name=variant``, ``init``, ``pos``, ``level depth=``
(its ``depth_limit``) or ``move-time=`` (its ``time_limit``), ``go``, ``pos`` with
``moves=`` (played on its board), ``stop`` (ignored: its
search cannot be stopped from outside), ``quit``; ``info`` gives its score (its units: men).

Squares: a Hub position lists the squares in number order, which is py-draughts' own order
(``position[i]`` is square ``i + 1``). English is played on py-draughts' American board, set
up with the side to move given (so its colour names do not matter). That board lets captures be
skipped (bench/PEERS.md); English forces them, so where py-draughts' choice skips a capture
that is possible, each capture is searched one ply less deep and the one it rates best is
played instead: its search inside the tree still sees the captures as optional.
"""

from __future__ import annotations

import re
import sys

import numpy as np
from draughts import AmericanBoard, RussianBoard, StandardBoard
from draughts.engines import SimpleEngine
from draughts.models import Color

BOARDS = {"normal": StandardBoard, "russian": RussianBoard, "english": AmericanBoard}
PIECES = {"w": -1, "W": -2, "b": 1, "B": 2, "e": 0}


def pairs(text: str) -> dict[str, str]:
    return {m[0]: m[1] or m[2] for m in re.findall(r'(\S+?)=(?:"([^"]*)"|(\S*))', text)}


def hub_move(move) -> str:
    squares = [s + 1 for s in move.square_list]
    if not move.captured_list:
        return f"{squares[0]}-{squares[-1]}"
    return "x".join(map(str, [squares[0], squares[-1], *sorted(c + 1 for c in move.captured_list)]))


def forced(board, captures: list, depth: int, seconds: float | None) -> tuple:
    """The capture py-draughts rates best, each searched one ply less deep."""
    best, best_score = captures[0], float("-inf")
    for move in captures:
        board.push(move)
        replies = list(board.legal_moves)
        if replies:
            engine = SimpleEngine(depth_limit=max(1, depth - 1),
                                  time_limit=None if seconds is None else seconds / len(captures))
            score = -engine.get_best_move(board, with_evaluation=True)[1]
        else:
            score = float("inf")
        board.pop()
        if score > best_score:
            best, best_score = move, score
    return best, best_score


def main() -> None:
    variant, board, depth, seconds = "normal", None, 6, None
    say = lambda line: print(line, flush=True)  # noqa: E731
    for line in sys.stdin:
        word, _, rest = line.strip().partition(" ")
        args = pairs(rest)
        if word == "hub":
            say('id name=py-draughts version=1.10.1 author="py-draughts SimpleEngine"')
            say('param name=variant value=normal type=enum values="normal russian english"')
            say("wait")
        elif word == "set-param" and args.get("name") == "variant":
            variant = args.get("value", variant)
        elif word == "init":
            say("ready")
        elif word == "pos":
            text = args["pos"]
            position = np.array([PIECES[c] for c in text[1:]], dtype=np.int8)
            turn = Color.WHITE if text[0] == "W" else Color.BLACK
            board = BOARDS[variant](starting_position=position, turn=turn)
            for text in args.get("moves", "").split():  # king moves since the position
                numbers = [int(n) for n in re.split("[-x]", text)]
                board.push(next(m for m in board.legal_moves
                                if m.square_list[0] + 1 == numbers[0]
                                and m.square_list[-1] + 1 == numbers[1]
                                and {c + 1 for c in m.captured_list} >= set(numbers[2:])))
        elif word == "level":
            depth = int(args["depth"]) if "depth" in args else 20
            seconds = float(args["move-time"]) if "move-time" in args else None
        elif word == "go" and board is not None:
            engine = SimpleEngine(depth_limit=depth, time_limit=seconds)
            move, score = engine.get_best_move(board, with_evaluation=True)
            captures = [m for m in board.legal_moves if m.captured_list]
            if captures and not move.captured_list:  # English forces the capture
                move, score = forced(board, captures, depth, seconds)
            say(f"info depth={depth} score={score:.2f} nodes={engine.nodes}")
            say(f"done move={hub_move(move)}")
        elif word == "quit":
            break


if __name__ == "__main__":
    main()
