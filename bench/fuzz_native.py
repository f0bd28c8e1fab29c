"""Fuzz the native rules core's entry points with atheris (``pip install atheris``).

    .venv/bin/python bench/fuzz_native.py -max_total_time=60 [-seed=N]

Each input picks a variant the native core takes, any three 64-bit bitboards, a side, an
origin mask, a depth up to 3 and a few move texts, and calls ``routes``, ``has_capture``,
``perft``, ``replay`` and ``check`` of ``replay.rules._native.Rules`` (``check`` also on one run of
text, which must answer as the tokens the reader splits it into), ``written_squares`` and
``fen``: each must answer or refuse with a
``ValueError`` (a position that is none of this board) or an ``OverflowError`` (more moves
than its buffers hold, which random boards full of kings reach), never crash the interpreter.
Where the bitboards are a position, the capture routes and quiet moves must be the Python
reference's
(``replay.rules.movegen``), as in ``tests/rules/test_native.py``. atheris guides the search by the
coverage of the Python side; the C side is checked by its answers (and by
``make valgrind-native`` for memory errors).
"""

from __future__ import annotations

import contextlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import atheris  # noqa: E402

with atheris.instrument_imports():
    from replay.rules import native
    from replay.rules.movegen import generator_for
    from replay.rules.native import rules_for
    from replay.rules.position import Position
    from replay.rules.variants import VARIANTS

RUN_SPLIT = re.compile(r"(?:[0-9]+\.+[ \t\n]*)?[^ \t\n]+")  # pdn.plain's split of a run

NATIVE = [v for v in VARIANTS if rules_for(v) is not None]
MASK = (1 << 64) - 1


def fields(move) -> tuple:
    return move.origin, move.path, move.captures, move.promotes, move.captured_mask


def one(data: bytes) -> None:
    fuzz = atheris.FuzzedDataProvider(data)
    variant = NATIVE[fuzz.ConsumeIntInRange(0, len(NATIVE) - 1)]
    rules = rules_for(variant)
    core = rules._core
    white, black, kings = (fuzz.ConsumeIntInRange(0, MASK) for _ in range(3))
    if fuzz.ConsumeBool():  # most inputs: a position of the board
        board = generator_for(variant).board_mask
        white &= board
        black &= board & ~white
        kings &= white | black
    turn = fuzz.ConsumeIntInRange(-1, 2)
    origins = fuzz.ConsumeIntInRange(0, MASK)
    depth = fuzz.ConsumeIntInRange(0, 3)
    texts = [fuzz.ConsumeUnicodeNoSurrogates(12) for _ in range(fuzz.ConsumeIntInRange(0, 4))]
    try:
        core.routes(white, black, kings, turn, origins, 0)
    except (ValueError, OverflowError):  # no position, or more routes than a buffer holds
        return
    core.has_capture(white, black, kings, turn)
    if variant.max_king_moves == 0:
        position = Position(white, black, kings, turn)
        generator = generator_for(variant)
        own, opp = (white, black) if turn == 0 else (black, white)
        native_captures, native_quiet = rules.routes(position, origins)
        assert [fields(m) for m in native_captures] == [
            fields(m) for m in generator.captures(own, opp, kings, turn, origins)]
        assert [fields(m) for m in native_quiet] == [
            fields(m) for m in generator.quiet_moves(own, opp, kings, turn)]
    with contextlib.suppress(OverflowError):  # more moves than a buffer: Python counts
        core.perft(white, black, kings, turn, None, depth, fuzz.ConsumeBool())
    run = fuzz.ConsumeUnicode(64)  # one run of moves as text, surrogates and NUL included
    if rules.replays:
        core.replay(white, black, kings, turn, texts)
        numbers = (fuzz.ConsumeIntInRange(0, 1 << 40), fuzz.ConsumeIntInRange(0, 1),
                   fuzz.ConsumeIntInRange(0, 1), fuzz.ConsumeIntInRange(0, 6),
                   fuzz.ConsumeIntInRange(0, MASK))
        core.check(white, black, kings, turn, texts, *numbers)
        with contextlib.suppress(ValueError):  # a run is split as the reader splits it
            assert core.check(white, black, kings, turn, run, *numbers) == core.check(
                white, black, kings, turn, RUN_SPLIT.findall(run), *numbers)
    squares = native._module().written_squares(run, fuzz.ConsumeIntInRange(-1, 20))
    assert squares is None or len(squares) == 4
    names = tuple(fuzz.ConsumeUnicode(3) for _ in range(fuzz.ConsumeIntInRange(0, 8)))
    with contextlib.suppress(ValueError):
        native._module().fen(white, black, kings, turn & 1, fuzz.ConsumeBytes(len(names)), names)


def main() -> None:
    atheris.Setup(sys.argv, one)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
