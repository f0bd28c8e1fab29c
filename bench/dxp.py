"""DXP speed: our message codec beside pydraughts' (its ``DamExchange.parse``), our check of
a DXP move on the board, and whole games against Scan 2.0 over TCP.

    .venv/bin/python bench/dxp.py [--messages 20000] [--scan FOLDER] [--games 4]

``--scan`` is a folder holding a built Scan 2.0 (``scan`` beside ``scan.ini`` and ``data/``;
see tests/support/engines.py); without it the games are left out. pydraughts runs in its own venv
(bench/peers.py). Timed regions: decoding (and for ours, encoding back) the same list of
MOVE and GAMEREQ messages; ``move_from_message`` on every legal move of the positions of
random International games; a game's wall time from GAMEREQ to the last GAMEEND.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers

from replay.engine.dxp import (
    DxpConnection,
    decode,
    encode,
    message_from_move,
    move_from_message,
    play_dxp_game,
    position_text,
)
from replay.engine.play import RandomPlayer
from replay.record.board import Board

_PYDRAUGHTS_PARSE = r'''
from draughts.engines.dxp_communication.dxp_classes import DamExchange
texts = ARGS["texts"]
parser = DamExchange()
t0 = time.perf_counter()
for text in texts:
    parser.parse(text)
dt = time.perf_counter() - t0
emit(messages=len(texts), seconds=dt, messages_per_s=len(texts) / dt)
'''


def sample_messages(count: int, seed: int = 1) -> list[str]:
    """MOVE messages of the moves of random games, and one GAMEREQ with a position each ten."""
    chooser = random.Random(seed)
    texts: list[str] = []
    while len(texts) < count:
        board = Board(variant="international")
        for _ in range(120):
            moves = board.legal_moves()
            if not moves or len(texts) >= count:
                break
            move = chooser.choice(moves)
            texts.append(encode(message_from_move(move, chooser.randint(0, 30))))
            if len(texts) % 10 == 0:
                texts.append(f"R01{'bench':<32}W005075B{position_text(board)}")
            board.push(move)
    return texts[:count]


def ours(texts: list[str]) -> dict:
    began = time.perf_counter()
    messages = [decode(text) for text in texts]
    decoded = time.perf_counter() - began
    for message in messages:
        encode(message)
    encoded = time.perf_counter() - began - decoded
    return {"messages": len(texts), "decode_per_s": len(texts) / decoded,
            "encode_per_s": len(texts) / encoded}


def move_checks(games: int = 20, seed: int = 2) -> dict:
    chooser = random.Random(seed)
    cases = []
    for _ in range(games):
        board = Board(variant="international")
        for _ in range(150):
            moves = board.legal_moves()
            if not moves:
                break
            cases += [(board.copy(), message_from_move(move)) for move in moves]
            board.push(chooser.choice(moves))
    began = time.perf_counter()
    for board, message in cases:
        move_from_message(board, message)
    seconds = time.perf_counter() - began
    return {"moves": len(cases), "seconds": seconds, "moves_per_s": len(cases) / seconds}


def scan_games(folder: Path, games: int, port: int = 27641) -> dict:
    """Random player against Scan (dxp-time 0: depth-12 searches) on one connection."""
    run = folder / "bench-dxp"
    run.mkdir(exist_ok=True)
    for name in ("scan", "data"):
        if not (run / name).exists():
            (run / name).symlink_to(folder / name)
    (run / "scan.ini").write_text(
        f"book = true\nthreads = 1\ntt-size = 20\nbb-size = 4\ndxp-server = true\n"
        f"dxp-host = 127.0.0.1\ndxp-port = {port}\ndxp-initiator = false\ndxp-time = 0\n"
        "dxp-moves = 150\n")
    process = subprocess.Popen(["./scan", "dxp"], cwd=run, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    plies, began = 0, time.perf_counter()
    try:
        with DxpConnection.connect("127.0.0.1", port, connect_timeout=30) as connection:
            for number in range(games):
                record = play_dxp_game(connection, RandomPlayer(number), minutes=0,
                                       player_colour=number % 2, last=number == games - 1)
                plies += len(record.moves)
    finally:
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    seconds = time.perf_counter() - began
    return {"games": games, "plies": plies, "seconds": seconds,
            "seconds_per_game": seconds / games, "ms_per_ply": 1000 * seconds / plies}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--scan", type=Path)
    parser.add_argument("--games", type=int, default=4)
    options = parser.parse_args()
    texts = sample_messages(options.messages)
    mine = ours(texts)
    theirs = peers._run(peers.PYDRAUGHTS, _PYDRAUGHTS_PARSE, {"texts": texts},
                        peers.RUN_TIMEOUT_S)
    print(f"DXP messages decoded ({len(texts)}, MOVE and GAMEREQ)")
    print(f"  pdn-toolkit decode, strict:        {mine['decode_per_s']:>10,.0f} /s "
          f"(encode {mine['encode_per_s']:,.0f} /s)")
    if theirs.get("available") and "messages_per_s" in theirs:
        print(f"  pydraughts {theirs.get('version')} parse, no checks: "
              f"{theirs['messages_per_s']:>10,.0f} /s")
    else:
        print(f"  pydraughts: {theirs.get('error')}")
    checks = move_checks()
    print(f"DXP moves checked on our board: {checks['moves']:,} in {checks['seconds']:.2f} s, "
          f"{checks['moves_per_s']:,.0f} /s")
    if options.scan:
        games = scan_games(options.scan, options.games)
        print(f"random player against Scan 2.0 over DXP: {games['games']} games, "
              f"{games['plies']} plies, {games['seconds_per_game']:.2f} s a game, "
              f"{games['ms_per_ply']:.1f} ms a ply (Scan's search included)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
