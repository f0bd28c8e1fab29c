"""Validation speed: read + replay of random legal games, ours beside py-draughts and pydraughts.

    .venv/bin/python bench/validate.py [--games 2000] [--variants russian,international]

The games are random legal playouts made by our engine with a fixed seed, written in full
notation (numeric for International) with minimal capture paths, so that every peer can read
them; pydraughts gets the same games in the numeric Russian notation it accepts (see
``PYDRAUGHTS_GAMETYPES``). Timed for us: reading the PDN file and replaying every move
(``validate_sources``), in one process and in worker processes. The peers' timed regions are
described in bench/peers.py.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import peers  # noqa: E402

from pdn.fen import parse_fen  # noqa: E402
from pdn.gametype import GameType, parse_gametype  # noqa: E402
from pdn.reader import read_games  # noqa: E402
from replay.record.board import Board  # noqa: E402
from replay.record.notation import full_text, route_squares  # noqa: E402
from replay.rules.move import Move  # noqa: E402
from replay.rules.variants import get_variant  # noqa: E402
from replay.validate.reports import report_games, validate_sources  # noqa: E402

OUT = ROOT / "bench" / "out"
PYDRAUGHTS_GAMES = 100

# pydraughts 0.6.7 cannot take our Russian text: ``Move(board, pdn_move=m)`` (draughts/core/
# variant.py, ``Move._to_board``) turns letters into numbers with ``convert._algebraic_to_number``
# and then splits the move on "-" or else on "x" only, so a capture written "f4:h6" (the PDN 3.0
# Russian separator, which we write) becomes the key "15:24" and raises KeyError; quiet
# "c3-d4" and "f4xh6" do work. Its Russian squares are numbered 1-32 from a1 along each rank,
# White's side first: a1=1, c1=2, e1=3, g1=4, b2=5, ..., h8=32 (``_numeric_to_algebraic_square``
# with 4 squares a row; its ``Board('russian').legal_moves()`` at the start are 9-13 ... 12-16).
# In our GameType codes that is "25,W,8,8,N0,0" (numeric, corner 0 seen from White) -- NOT the
# numbering ``full_text(numeric=True)`` falls back to for Russian (corner 1 seen from Black,
# b8=1). An ambiguous capture must list every landing square: with more than two squares it
# is looked up among its routes' complete step lists, so PDN 3.0's canonical path would only
# match where it happens to be the same. So pydraughts gets the same games with that GameType
# tag, numbers in that numbering, "x" for captures and the landing squares where our minimal
# form needs a path. Checked with throwaway scripts in the pydraughts venv: (1) the 100 games
# this script hands pydraughts (seed 2026, 4,477 plies) and 30 games of another seed (1,465
# plies, 81 multi-captures, 43 king captures) pushed move by move, the piece placement read
# from its ``board.fen`` after every ply compared with ours square by square (men and kings):
# every move accepted, every position identical; (2) 375 ambiguous king captures from random
# king-against-men positions and 6 ambiguous man captures from random games, written this way
# and pushed: all accepted, each giving our position. (3) Every run, ``pydraughts_games`` has
# our validator replay the copy under its GameType tag and requires the same status, plies
# and final position as the algebraic game.
PYDRAUGHTS_GAMETYPES: dict[str, GameType] = {"russian": parse_gametype("25,W,8,8,N0,0")}


def pydraughts_text(gametype: GameType) -> Callable[[Board, Move], str]:
    """A move writer for pydraughts: numbers of ``gametype``, "x" for captures, every landing
    square where an origin and destination do not fix the move."""
    numbering = gametype.notation.numbering
    assert numbering is not None

    def text(board: Board, move: Move) -> str:
        squares = route_squares(board, move)
        if len(squares) > 2:
            squares = [move.origin, *move.path]
        return ("x" if move.captures else "-").join(numbering.name(sq) for sq in squares)

    return text


def random_games(variant_name: str, count: int, seed: int = 2026, max_plies: int = 120,
                 notation: Callable[[Board, Move], str] = full_text,
                 gametype: str | None = None) -> list[str]:
    """PDN texts of random legal games, each move written by ``notation(board, move)``.

    The games depend only on the variant, ``seed`` and ``max_plies``: game k is the same
    whatever ``count``, ``notation`` and ``gametype`` (the GameType tag, else the variant's
    type number).
    """
    variant = get_variant(variant_name)
    rng = random.Random(seed)
    texts = []
    for number in range(1, count + 1):
        board = Board(variant)
        tokens = []
        for ply in range(rng.randint(20, max_plies)):
            moves = board.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            text = notation(board, move)
            tokens.append(f"{ply // 2 + 1}. {text}" if ply % 2 == 0 else text)
            board.push(move)
        tags = (f'[Event "random {number}"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n'
                f'[GameType "{gametype or variant.gametype.number}"]\n\n')
        texts.append(tags + " ".join(tokens) + " *\n")
    return texts


def pydraughts_games(variant_name: str, texts: list[str]) -> list[str]:
    """The first ``PYDRAUGHTS_GAMES`` of ``texts`` as pydraughts is given them: the same games
    rewritten for it where our notation does not suit it (Russian), else the texts as they
    are. Untimed: our validator replays both copies and they must agree game by game (status,
    plies, final position)."""
    head = texts[:PYDRAUGHTS_GAMES]
    gametype = PYDRAUGHTS_GAMETYPES.get(variant_name)
    if gametype is None:
        return head
    copy = random_games(variant_name, len(head), notation=pydraughts_text(gametype),
                        gametype=gametype.tag())
    variant = get_variant(variant_name)
    for number, (mine, theirs) in enumerate(zip(report_games(read_games("\n".join(head)), variant),
                                                report_games(read_games("\n".join(copy)), variant),
                                                strict=True), 1):
        same = (mine.status == theirs.status and mine.plies == theirs.plies
                and parse_fen(mine.final_fen, variant.gametype.notation).pieces
                == parse_fen(theirs.final_fen, gametype.notation).pieces)
        if not same:
            raise AssertionError(f"{variant_name} game {number}: the pydraughts copy differs")
    return copy


def ours(path: Path, variant_name: str, jobs: int) -> tuple[int, int, float]:
    variant = get_variant(variant_name)
    start = time.perf_counter()
    games = moves = 0
    for report in validate_sources([str(path)], variant, jobs=jobs):
        assert not isinstance(report, str), report
        games += report.status == "valid"
        moves += report.plies
    return games, moves, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--variants", default="russian,international")
    parser.add_argument("--no-peers", action="store_true")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for name in args.variants.split(","):
        texts = random_games(name, args.games)
        path = OUT / f"random_{name}.pdn"
        path.write_text("\n".join(texts), encoding="utf-8")
        print(f"== {name}: {len(texts)} random games ({path.stat().st_size / 1e6:.1f} MB)")
        rows = []
        for jobs in (1, 2):
            valid, moves, seconds = ours(path, name, jobs)
            rows.append((f"pdn-toolkit, {jobs} process{'es' if jobs > 1 else ''}",
                         moves / seconds, f"{valid}/{len(texts)} valid"))
        if not args.no_peers:
            fast = peers.py_draughts_replay(variant=name, texts=texts)
            if fast.get("available") and "moves_per_s" in fast:
                rows.append(("py-draughts from_pdn", fast["moves_per_s"],
                             f"{fast['games_accepted']}/{len(texts)} accepted"))
            slow_texts = pydraughts_games(name, texts)
            slow = peers.pydraughts_replay(variant=name, texts=slow_texts,
                                           max_games=len(slow_texts))
            if slow.get("available") and "moves_per_s" in slow:
                rows.append((f"pydraughts ({len(slow_texts)} games)", slow["moves_per_s"],
                             f"{slow['games_accepted']}/{len(slow_texts)} accepted"))
        reference = next((rate for label, rate, _ in rows if label.startswith("py-draughts")),
                         None)
        for label, rate, note in rows:
            ratio = f"{rate / reference:5.2f}x" if reference else ""
            print(f"  {label:<28}{rate:>12,.0f} moves/s  {ratio:>7}  {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
