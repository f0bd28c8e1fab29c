"""The two builds side by side: the rules core compiled with mypyc and pure Python, with
py-draughts beside them, in one run.

    .venv/bin/python bench/builds.py [--games 20000] [--no-peers]

Each build runs in a child process of its own (``PDN_PURE_PYTHON=1`` for the pure one) and
says which build it is (``pdn.compiled``), so a figure is never credited to the wrong build.
Measured for each: ``validate_sources`` (what ``pdn validate`` runs) on random legal Russian
games (bench/validate.py's generator, seed 2026), with the default worker processes and with
one; perft from the start position, Russian and International, bulk-counted at the last ply;
reading OCA 2.0 (22,621 English games) on one core. py-draughts runs in its own venv
(bench/peers.py): ``from_pdn`` on the same games and its bulk perft. The machine is shared:
every figure carries the CPU seconds it took and the load average when it ended.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import peers  # noqa: E402
import validate as validate_bench  # noqa: E402

OUT = ROOT / "bench" / "out"
OCA = ROOT.parent / "shared" / "data" / "english" / "OCA_2.0.pdn"
PERFT = {"russian": 8, "international": 7}


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (worker processes)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(work) -> dict:
    """Run ``work()`` (it returns a count): count, wall and CPU seconds, load average."""
    start, cpu = time.perf_counter(), cpu_seconds()
    count = work()
    return {"count": count, "seconds": time.perf_counter() - start,
            "cpu": cpu_seconds() - cpu, "load": os.getloadavg()[0]}


def measure(games_path: Path) -> dict:
    """Every figure of the build this process runs (the child's side)."""
    from pdn import compiled
    from pdn.reader import read_games
    from replay.record.board import Board
    from replay.rules.perft import perft
    from replay.rules.variants import get_variant
    from replay.validate.reports import validate_sources

    russian = get_variant("russian")
    results: dict = {"build": compiled.build()}
    for label, jobs in (("validate", 0), ("validate --jobs 1", 1)):
        results[label] = timed(lambda jobs=jobs: sum(
            report.plies for report in validate_sources([str(games_path)], russian, jobs=jobs)))
    for name, depth in PERFT.items():
        board = Board(variant=name)
        results[f"perft {name} {depth}"] = timed(
            lambda board=board, depth=depth: perft(board.generator, board.position, depth))
    if OCA.is_file():
        results["read OCA 2.0, 1 process"] = timed(
            lambda: sum(1 for _ in read_games(OCA)))
    return results


def child(pure: bool, games_path: Path) -> dict:
    env = {**os.environ, "PDN_PURE_PYTHON": "1" if pure else ""}
    done = subprocess.run([sys.executable, __file__, "--measure", str(games_path)], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def per_second(result: dict) -> float:
    return result["count"] / result["seconds"]


def rate(result: dict, unit: str) -> str:
    cpu = (f"{result['cpu']:.2f} s CPU = {result['count'] / result['cpu']:,.0f}/CPU-s"
           if result.get("cpu") else "CPU not measured")
    return (f"{per_second(result):>12,.0f} {unit}/s  ({result['seconds']:.2f} s, {cpu}, "
            f"load {result['load']:.1f})")


def peer_figures(games_path: Path) -> dict[str, dict]:
    """py-draughts on the same games and perfts (its timed regions: bench/peers.py)."""
    texts = re.split(r"\n(?=\[Event )", games_path.read_text(encoding="utf-8"))
    figures = {}
    replay = peers.py_draughts_replay(variant="russian", texts=texts)
    if replay.get("moves_per_s"):
        figures["validate"] = {"count": replay["moves_per_s"] * replay["seconds"],
                               "seconds": replay["seconds"], "load": os.getloadavg()[0]}
    for name, depth in PERFT.items():
        result = peers.py_draughts_perft(name, depth)
        if result.get("nodes"):
            figures[f"perft {name} {depth}"] = {"count": result["nodes"],
                                                "seconds": result["seconds"],
                                                "load": os.getloadavg()[0]}
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # a child's run
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    games_path = OUT / f"random_russian_{args.games}.pdn"
    if not games_path.is_file():
        games_path.write_text("\n".join(validate_bench.random_games("russian", args.games)),
                              encoding="utf-8")
    print(f"{os.cpu_count()} cores; {args.games:,} random Russian games; "
          f"OCA 2.0 {'present' if OCA.is_file() else 'absent'}")
    builds = [child(False, games_path), child(True, games_path)]
    peer = {} if args.no_peers else peer_figures(games_path)
    for label in builds[0]:
        if label == "build":
            continue
        unit = ("games" if label.startswith("read") else
                "moves" if label.startswith("validate") else "nodes")
        reference = peer.get(label.replace(" --jobs 1", ""))  # py-draughts has one process
        print(f"== {label}")
        for build in builds:
            ratio = (f"  {per_second(build[label]) / per_second(reference):5.2f}x py-draughts"
                     if reference else "")
            print(f"  {'pdn-toolkit, ' + build['build']:<28}{rate(build[label], unit)}{ratio}")
        if reference:
            print(f"  {'py-draughts':<28}{rate(reference, unit)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
