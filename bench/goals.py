"""The speed goals beside dame-rs and py-draughts, in one run, on one core.

    .venv/bin/python bench/goals.py [--games 20000] [--repeat 3] [--core 0] [--no-peers]
        [--tools]

This process pins itself to one core (``--core``, as ``taskset -c 0`` does) before it starts
anything, so every child process -- ours, dame-rs's, py-draughts's -- runs on that core. The
machine may be shared: every figure is given in CPU seconds (what the process itself spent,
``getrusage``) and wall seconds, the rounds alternate ours and the peers', and the best of
``--repeat`` rounds is kept; the ratios compare figures of the same round kind. Goals:

1. ``pdn validate --jobs 1 --variant international`` (the whole command, start-up included)
   on random International games (bench/validate.py's generator, seed 2026), beside dame-rs
   (PyPI ``dame-rs``, a Rust core: one ``Board()`` per game and ``Board.push(text)`` per move,
   the games cut and their move tokens found with a regular expression, also timed as a whole
   process): at least 1.5x dame-rs.
2. ``pdn validate --jobs 1 --variant russian`` on random Russian games beside py-draughts
   ``from_pdn`` (bench/peers.py; the CPU seconds of its whole child process): at least 10x.
3. Perft from the start position, International depth 8 and Russian depth 10, counted in bulk
   at the last ply (the length of the move list), by the native core where it is built
   (``replay.rules.native``), beside dame-rs's ``perft`` and py-draughts's bulk perft (the CPU
   seconds of its whole child process): at least 100 M nodes/s (5x dame-rs).
4. ``pdn validate --jobs 1`` on OCA 2.0 (22,621 English games, every move resolved): <= 0.8 s
   CPU, the whole process.
5. ``pdn index --jobs 1`` on OCA 2.0, the whole process: <= 5 s CPU.
6. ``pdn --help``: < 0.2 s CPU.
7. The tools on OCA 2.0, each a whole process with ``--jobs 1``, beside ``pdn validate``
   (CPU seconds, peak memory, and how many validations each costs): ``pdn convert --to
   full`` and ``--to numeric`` <= 2.5 s CPU; ``pdn stats -t moves -o moves.csv`` <= 3 s;
   ``pdn stats`` (the summary), ``pdn stats -t games -o games.csv`` and ``pdn split`` <= 2 s.

The Russian row also gives ``pdn validate`` with its default jobs (goal: 15x py-draughts):
that one alone runs on every core this process may use (its wall seconds beside
py-draughts's, which uses one core).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import jobs as jobs_bench  # noqa: E402
import peers  # noqa: E402
import validate as validate_bench  # noqa: E402

OUT = ROOT / "bench" / "out"
DATA = Path(os.environ.get("PDN_SHARED_DATA", ROOT.parent / "shared" / "data"))
OCA = DATA / "english" / "OCA_2.0.pdn"
PERFT = {"international": 8, "russian": 10}
PEER_PERFT = {"international": 7, "russian": 8}  # py-draughts's depths: a few seconds each
PDN = Path(sys.executable).with_name("pdn")

# A child that replays every game of a PDN file with dame-rs and prints its move count.
DAME_REPLAY = r'''
import re, sys, dame


def cell(n):  # an International square number as (row, col) from the top left
    row = (n - 1) // 5
    return row, 2 * ((n - 1) % 5) + (1 if row % 2 == 0 else 0)


def between(a, b, c):  # c strictly inside the diagonal segment a-b
    (r0, c0), (r1, c1), (r, c) = cell(a), cell(b), cell(c)
    return (abs(r - r0) == abs(c - c0) and abs(r1 - r) == abs(c1 - c)
            and min(r0, r1) < r < max(r0, r1))


def push(board, text):
    """dame-rs wants the captured squares where a capture is ambiguous; a landing path (ours)
    picks the legal move whose every capture lies on one of its legs."""
    try:
        board.push(text)
    except dame.IllegalMoveError:
        path = [int(square) for square in text.split("x")]
        for move in board.legal_moves:
            if (move.from_square, move.to_square) == (path[0], path[-1]) and all(
                    any(between(a, b, c) for a, b in zip(path, path[1:]))
                    for c in move.captured):
                board.push(move)
                return
        raise


text = open(sys.argv[1], encoding="utf-8").read()
token = re.compile(r"\d+(?:[-x]\d+)+")
moves = 0
for game in text.split("[Event ")[1:]:
    board = dame.Board()
    for move in token.findall(game[game.index("\n\n"):]):
        if not board.legal_moves:  # dame-rs ends a game its draw rules end (two lone kings)
            break
        push(board, move)
        moves += 1
print(moves)
'''

# A child that times one perft (only the count, the board built) and prints nodes, seconds.
OUR_PERFT = r'''
import sys, time
from replay.record.board import Board
from replay.rules.perft import perft
from replay.rules.variants import get_variant
board = Board(get_variant(sys.argv[1]))
start = time.process_time()
nodes = perft(board.generator, board.position, int(sys.argv[2]))
print(nodes, time.process_time() - start)
'''
DAME_PERFT = r'''
import sys, time, dame
board = dame.Board()
start = time.process_time()
nodes = dame.perft(board, int(sys.argv[2]))
print(nodes, time.process_time() - start)
'''


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(command: list[str]) -> tuple[str, float, float]:
    """A whole child process: its output, CPU seconds and wall seconds."""
    cpu, wall = children_cpu(), time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall, cpu = time.perf_counter() - wall, children_cpu() - cpu
    if proc.returncode not in (0, 1):  # validate exits 1 when a game is invalid
        raise RuntimeError(f"{' '.join(command)}: exit {proc.returncode}: {proc.stderr[-500:]}")
    return proc.stdout, cpu, wall


def games_file(variant: str, count: int) -> Path:
    """bench/validate.py's random games, written once per variant and count."""
    path = OUT / f"goals_{variant}_{count}.pdn"
    if not path.is_file():
        OUT.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(validate_bench.random_games(variant, count)), encoding="utf-8")
    return path


def validate_cpu(path: Path, variant: str | None, jobs: str = "1") -> tuple[int, float, float]:
    """``pdn validate --jobs 1`` (or ``jobs``) as a whole process: moves replayed, CPU and
    wall seconds."""
    command = [str(PDN), "validate", "--jobs", jobs, "--json", str(path)]
    if variant:
        command[2:2] = ["--variant", variant]
    out, cpu, wall = run(command)
    return _moves(out), cpu, wall


def all_cores() -> set[int]:
    """The cores this machine offers (this process is pinned to one)."""
    return set(range(os.cpu_count() or 1))


def default_jobs_wall(path: Path, core: int) -> float:
    """The wall seconds of ``pdn validate --jobs 0`` (all cores), best of one round: the
    process's affinity is widened for the child, then pinned again."""
    os.sched_setaffinity(0, all_cores())
    try:
        return validate_cpu(path, "russian", "0")[2]
    finally:
        os.sched_setaffinity(0, {core})


def _moves(out: str) -> int:
    """The plies of every game in ``pdn validate --json``'s output (a game per line)."""
    return sum(json.loads(row).get("plies", 0) for row in out.splitlines()
               if row.startswith("{"))


# The tools of goal 7: a name, the arguments after ``pdn`` (``{oca}``: the file, ``{out}``: a
# fresh output folder of the round) and the goal in CPU seconds.
TOOLS = (
    ("convert --to full -o", ["convert", "--jobs", "1", "--to", "full", "{oca}", "-o",
                              "{out}/full.pdn"], 2.5),
    ("convert --to numeric -o", ["convert", "--jobs", "1", "--to", "numeric", "{oca}", "-o",
                                 "{out}/numeric.pdn"], 2.5),
    ("stats -t moves -o moves.csv", ["stats", "--jobs", "1", "-t", "moves", "{oca}", "-o",
                                     "{out}/moves.csv"], 3.0),
    ("stats -t games -o games.csv", ["stats", "--jobs", "1", "-t", "games", "{oca}", "-o",
                                     "{out}/games.csv"], 2.0),
    ("stats (summary)", ["stats", "--jobs", "1", "{oca}"], 2.0),
    ("split -o dir", ["split", "--jobs", "1", "{oca}", "-o", "{out}/split"], 2.0),
    ("dedupe -o", ["dedupe", "--jobs", "1", "{oca}", "-o", "{out}/dedupe.pdn"], 2.0),
)


def tool_run(arguments: list[str]) -> tuple[float, float]:
    """One whole ``pdn`` process, its output thrown away: CPU seconds (user + system, its
    own and its workers') and its own peak memory in MB (``VmHWM``, not the ``ru_maxrss``
    of ``wait4``, which a child inherits from this bench across ``exec``: see
    ``bench/jobs.py``)."""
    with tempfile.TemporaryDirectory() as out:
        words = [word.format(oca=OCA, out=out) for word in arguments]
        measured = jobs_bench.measure(words)
    if measured["code"] not in (0, 1):
        raise RuntimeError(f"pdn {' '.join(words)}: exit {measured['code']}")
    return measured["main"] + measured["workers"], measured["main_mb"]


def tools_beside_validate(repeat: int) -> None:
    """Goal 7: every tool's CPU seconds and peak memory beside ``pdn validate``'s."""
    validate = min(tool_run(["validate", "--jobs", "1", "--json", "{oca}"])
                   for _ in range(repeat))
    print("7. the tools, --jobs 1, OCA 2.0, beside validate (best CPU of the rounds)")
    line("pdn validate --json", f"{validate[0]:6.2f} s CPU  {validate[1]:5.0f} MB peak")
    for name, arguments, goal in TOOLS:
        cpu, peak = min(tool_run(arguments) for _ in range(repeat))
        verdict = "met" if cpu <= goal else "NOT met"
        line(f"pdn {name}", f"{cpu:6.2f} s CPU  {peak:5.0f} MB peak  "
             f"{cpu / validate[0]:4.1f}x validate  (goal <= {goal} s: {verdict})")


def best(rounds: list[tuple]) -> tuple:
    return min(rounds, key=lambda r: r[1])


def line(label: str, text: str) -> None:
    print(f"  {label:<44}{text}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--core", type=int, default=0)
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--tools", action="store_true",
                        help="goal 7 alone: the tools on OCA 2.0 beside validate")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.core})  # inherited by every child process
    from pdn import compiled

    print(f"build: {compiled.build()}; one core ({args.core}); best of {args.repeat}; "
          f"load average {os.getloadavg()[0]:.1f}")
    if args.tools:
        if not OCA.is_file():
            print(f"7. OCA 2.0: not found at {OCA}")
            return 1
        tools_beside_validate(args.repeat)
        return 0
    py = sys.executable
    try:
        import dame  # noqa: F401
        has_dame = not args.no_peers
    except ImportError:
        has_dame = False

    # 1. International validate beside dame-rs
    path = games_file("international", args.games)
    ours, theirs = [], []
    for _ in range(args.repeat):
        ours.append(validate_cpu(path, "international"))
        if has_dame:
            out, cpu, wall = run([py, "-c", DAME_REPLAY, str(path)])
            theirs.append((int(out.strip()), cpu, wall))
    moves, cpu, wall = best(ours)
    print(f"1. validate --jobs 1, International, {args.games:,} games, {moves:,} moves "
          "(goal: >= 1.5x dame-rs)")
    line("pdn validate", f"{cpu:6.2f} s CPU ({wall:6.2f} s wall)  {moves / cpu:>11,.0f} moves/s")
    if theirs:
        dame_moves, dame_cpu, dame_wall = best(theirs)
        line("dame-rs Board.push", f"{dame_cpu:6.2f} s CPU ({dame_wall:6.2f} s wall)  "
             f"{dame_moves / dame_cpu:>11,.0f} moves/s")
        line("ours / dame-rs", f"{(moves / cpu) / (dame_moves / dame_cpu):.2f}x")

    # 2. Russian validate beside py-draughts
    path = games_file("russian", args.games)
    ours = [validate_cpu(path, "russian") for _ in range(args.repeat)]
    moves, cpu, wall = best(ours)
    print(f"2. validate --jobs 1, Russian, {args.games:,} games, {moves:,} moves "
          "(goal: >= 10x py-draughts)")
    line("pdn validate", f"{cpu:6.2f} s CPU ({wall:6.2f} s wall)  {moves / cpu:>11,.0f} moves/s"
         f" ({moves / wall:,.0f} wall)")
    if not args.no_peers:
        rounds = []
        for _ in range(args.repeat):
            before = children_cpu()
            fast = peers.py_draughts_replay(path, "russian")
            rounds.append((fast, children_cpu() - before))
        fast, their_cpu = min(rounds, key=lambda r: r[1])
        if fast.get("available") and fast.get("moves"):
            # its whole child process's CPU seconds, as ours (its own timer is a wall clock)
            rate = fast["moves"] / their_cpu
            line("py-draughts from_pdn", f"{their_cpu:6.2f} s CPU (its timer "
                 f"{fast['seconds']:6.2f} s wall)  {rate:>11,.0f} moves/s")
            line("ours / py-draughts", f"{(moves / cpu) / rate:.2f}x")
            if hasattr(os, "sched_setaffinity"):
                wall = min(default_jobs_wall(path, args.core) for _ in range(args.repeat))
                line(f"pdn validate, default jobs ({len(all_cores())} cores)",
                     f"{wall:6.2f} s wall  {moves / wall:>11,.0f} moves/s, "
                     f"{(moves / wall) / rate:.2f}x py-draughts (goal: >= 15x)")
        else:
            line("py-draughts", f"n/a ({fast.get('error')})")

    # 3. Perft
    print("3. perft, bulk-counted at the last ply (goal: >= 100 M nodes/s, 5x dame-rs)")
    for variant, depth in PERFT.items():
        rounds = []
        for _ in range(args.repeat):
            out, _, _ = run([py, "-c", OUR_PERFT, variant, str(depth)])
            nodes, seconds = out.split()
            rounds.append((int(nodes), float(seconds)))
        nodes, seconds = best(rounds)
        cells = [f"ours {nodes / seconds / 1e6:5.2f} M/s"]
        if has_dame and variant == "international":
            dame_rounds = []
            for _ in range(args.repeat):
                out, _, _ = run([py, "-c", DAME_PERFT, variant, str(depth)])
                dame_nodes, dame_seconds = out.split()
                dame_rounds.append((int(dame_nodes), float(dame_seconds)))
            dame_nodes, dame_seconds = best(dame_rounds)
            cells.append(f"dame-rs {dame_nodes / dame_seconds / 1e6:5.2f} M/s"
                         + ("" if dame_nodes == nodes else f" (counts {dame_nodes:,}!)"))
        if not args.no_peers:
            before = children_cpu()
            other = peers.py_draughts_perft(variant, PEER_PERFT[variant])
            their_cpu = children_cpu() - before  # the whole child, start-up included
            if other.get("available") and other.get("nodes"):
                cells.append(f"py-draughts {other['nodes'] / their_cpu / 1e6:5.2f} M/s "
                             f"(depth {PEER_PERFT[variant]})")
        line(f"{variant} depth {depth}, {nodes:,} nodes", "  ".join(cells))

    # 4. OCA 2.0
    if OCA.is_file():
        rounds = [validate_cpu(OCA, None) for _ in range(args.repeat)]
        moves, cpu, wall = best(rounds)
        print("4. validate --jobs 1, OCA 2.0 (every move resolved; goal: <= 0.8 s CPU)")
        line("pdn validate", f"{cpu:6.2f} s CPU ({wall:6.2f} s wall), {moves:,} moves")
        with tempfile.TemporaryDirectory() as folder:
            rounds = []
            for _ in range(args.repeat):
                database = Path(folder) / "oca.db"
                database.unlink(missing_ok=True)
                rounds.append(run([str(PDN), "index", "--jobs", "1", str(OCA), "-o",
                                   str(database)]))
        _, cpu, wall = best(rounds)
        print("5. index --jobs 1, OCA 2.0 (goal: <= 5 s CPU)")
        line("pdn index", f"{cpu:6.2f} s CPU ({wall:6.2f} s wall)")
    else:
        print(f"4-5. OCA 2.0: not found at {OCA}")
    _, cpu, wall = best([run([str(PDN), "--help"]) for _ in range(max(args.repeat, 3))])
    print("6. pdn --help (goal: < 0.2 s CPU)")
    line("pdn --help", f"{cpu:6.2f} s CPU ({wall:6.2f} s wall)")
    if OCA.is_file():
        tools_beside_validate(args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
