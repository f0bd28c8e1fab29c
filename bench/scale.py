"""Scale: peak memory, time and CPU of whole commands on a generated archive of many games.

    .venv/bin/python bench/scale.py [--games 1000000] [--configs local:2,dask:1,dask:2]
        [--commands stats-moves,stats-games,validate,stats-games-dataset,dedupe,...]

The archive is made in a temporary folder for the run and deleted after (never committed):
real games (OCA 2.0, English) repeated, and random legal English games made on the fly
(``--random`` distinct ones, spread through the archive) so that not every game is a copy.
Each command runs as ``pdn ...`` in a fresh interpreter, once per configuration (an engine
and its worker processes: ``local:2`` is ``--runner local --jobs 2``, ``dask:1`` a
LocalCluster of one worker). The figures are its wall seconds, games per second, the CPU
seconds of the process and its workers, the peak memory of the main process (the client,
``ru_maxrss``) and of its largest worker process, and the load average when it ended (the
machine may be shared: read the wall figures beside it). The ``-dataset`` commands write
their output as a dataset folder written by the workers (``replay.run.dataset``); ``dedupe`` finds
the copies of the real games (the random ones repeat too) on the workers of a cluster.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

OCA = ROOT.parent / "shared" / "data" / "english" / "OCA_2.0.pdn"
COMMANDS = {
    "stats-moves": ["stats", "{archive}", "--variant", "english", "-t", "moves",
                    "-o", "{out}/moves.parquet"],
    "stats-games": ["stats", "{archive}", "--variant", "english", "-t", "games",
                    "-o", "{out}/games.parquet"],
    "validate": ["validate", "{archive}", "--variant", "english", "--json"],
    "stats-moves-dataset": ["stats", "{archive}", "--variant", "english", "-t", "moves",
                            "-o", "{out}/moves/"],
    "stats-games-dataset": ["stats", "{archive}", "--variant", "english", "-t", "games",
                            "-o", "{out}/games/"],
    "validate-dataset": ["validate", "{archive}", "--variant", "english", "--json",
                         "-o", "{out}/reports/"],
    "dedupe": ["dedupe", "{archive}", "--variant", "english", "-o", "{out}/kept.pdn",
               "--report", "{out}/copies.csv"],
}


def make_archive(path: Path, games: int, distinct_random: int) -> int:
    """Write ``games`` games: OCA 2.0 repeated, with random games between the copies; the
    bytes written."""
    from validate import random_games

    from pdn.reader import iter_chunks

    real = [chunk.text.rstrip("\n") + "\n\n" for chunk in iter_chunks(OCA)]
    made = [text + "\n" for text in random_games("english", distinct_random, seed=7)]
    written = 0
    with open(path, "w", encoding="utf-8") as out:
        count = 0
        while count < games:
            for text in real:
                if count >= games:
                    break
                written += out.write(text)
                count += 1
                if count % 10 == 0 and count < games:
                    written += out.write(made[(count // 10) % len(made)])
                    count += 1
    return written


def run_command(args: list[str]) -> dict:
    """Run ``pdn args`` in this interpreter; the figures of this process and its workers."""
    from pdn.cli.app import app
    from typer.main import get_command

    started = time.perf_counter()
    try:
        get_command(app).main(args, standalone_mode=False)
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    seconds = time.perf_counter() - started
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    return {"seconds": seconds, "exit": code, "main_mb": own.ru_maxrss / 1024,
            "worker_mb": children.ru_maxrss / 1024, "cpu": cpu, "load": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--random", type=int, default=1_000, help="distinct random games")
    parser.add_argument("--configs", default="local:2",
                        help="engine:workers, comma-separated (local:2,dask:1,dask:2)")
    parser.add_argument("--commands", default="stats-moves,stats-games,validate")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        with open(sys.stdout.fileno(), "w", closefd=False) as real_stdout:
            sys.stdout = open("/dev/null", "w")  # noqa: SIM115 - the command's own output
            figures = run_command(json.loads(args.one))
            real_stdout.write(json.dumps(figures) + "\n")
        return
    with tempfile.TemporaryDirectory(prefix="pdn-scale-") as folder:
        archive = Path(folder) / "archive.pdn"
        started = time.perf_counter()
        size = make_archive(archive, args.games, args.random)
        print(f"{args.games:,} games, {size / 1e6:,.0f} MB, made in "
              f"{time.perf_counter() - started:.0f} s; {os.cpu_count()} cores")
        print(f"{'command':<20} {'config':<8} {'seconds':>8} {'games/s':>8} {'CPU s':>7} "
              f"{'main MB':>8} {'worker MB':>9} {'load':>5} {'exit':>4}")
        for config in args.configs.split(","):
            engine, _, workers = config.partition(":")
            for name in args.commands.split(","):
                out = Path(folder) / "out"
                out.mkdir()
                command = [part.format(archive=archive, out=out) for part in COMMANDS[name]]
                command += ["--jobs", workers or "2", "--runner", engine]
                output = subprocess.run([sys.executable, __file__, "--one",
                                         json.dumps(command)],
                                        check=True, capture_output=True, text=True).stdout
                shutil.rmtree(out)
                run = json.loads(output.strip().splitlines()[-1])
                print(f"{name:<20} {config:<8} {run['seconds']:>8.1f} "
                      f"{args.games / run['seconds']:>8,.0f} {run['cpu']:>7.0f} "
                      f"{run['main_mb']:>8.0f} {run['worker_mb']:>9.0f} {run['load']:>5.1f} "
                      f"{run['exit']:>4}", flush=True)


if __name__ == "__main__":
    main()
