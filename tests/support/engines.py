"""Real draughts engines for the engine tests: Scan 2.0 built from ``../shared/engines``
(first Hub protocol and DXP), dame-rs's ``dame hub`` (second Hub protocol) and our own
built-in engine's Hub server (``pdn engine hub``, replay.engine.server), which the Hub
client's tests drive as they drive the other two.

Neither is copied into the project: Scan is built from its source into a temporary folder
once per test session, dame-rs comes from PyPI (``make test-deps``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SCAN_SOURCE_NAME = Path("engines") / "scan-2.0"


def build_scan(source: Path, into: Path) -> Path:
    """Build Scan 2.0 in ``into`` and return the folder that holds ``scan`` beside its
    ``scan.ini`` and ``data/`` (Scan reads them from its working directory)."""
    folder = into / "scan-2.0"
    shutil.copytree(source, folder)
    subprocess.run(["make", "-C", "src", "-j2"], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shutil.move(folder / "src" / "scan", folder / "scan")
    return folder


def find_dame() -> str | None:
    """The ``dame`` command of dame-rs: beside this Python, else on the PATH."""
    dame = Path(sys.executable).with_name("dame")
    return str(dame) if dame.exists() else shutil.which("dame")


def child_processes() -> list[str]:
    """This process's children, living or zombie, from ``/proc`` (``pid comm state``): an
    engine a test started must be gone, reaped, when the test ends."""
    import os

    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces, so split after its parenthesis
        head, _, rest = text.rpartition(")")
        fields = rest.split()
        if len(fields) > 1 and int(fields[1]) == os.getpid():
            children.append(f"{head.split(' (', 1)[0]} {head.split(' (', 1)[-1]} {fields[0]}")
    return children


def fake_engine(folder: Path, name: str, answers: dict[str, list[str]],
                banner: tuple[str, ...] = ()) -> list[str]:
    """A tiny Hub engine for tests: a Python script in ``folder`` that answers each command
    (the first word of a line) with the lines ``answers`` gives it; ``quit`` ends it. Returns
    its command line."""
    script = folder / f"{name}.py"
    script.write_text(
        "import sys\n"
        f"ANSWERS = {answers!r}\n"
        f"for line in {list(banner)!r}:\n"
        "    print(line, flush=True)\n"
        "for line in sys.stdin:\n"
        "    word = line.split()[0] if line.split() else ''\n"
        "    if word == 'quit':\n"
        "        break\n"
        "    for answer in ANSWERS.get(word, []):\n"
        "        print(answer, flush=True)\n", encoding="utf-8")
    return [sys.executable, str(script)]


HOSTILE = ("flood", "silent", "huge-line", "huge-stderr")


def hostile_engine(folder: Path, name: str, behaviour: str, good: int = 0) -> list[str]:
    """A second-protocol Hub engine that answers its first ``good`` searches (32-28 for
    White, 19-23 for Black: legal moves of the first two plies of a game) and then, at every
    search, does what no engine should (``HOSTILE``): ``flood`` writes ``info`` lines without
    end and never ``done``, ``silent`` says nothing, ``huge-line`` writes one endless line,
    ``huge-stderr`` one endless line on stderr. It ignores SIGTERM and starts a child in its
    process group; both process ids go, a line per start, to ``folder/name.pids``. Returns
    its command line."""
    script = folder / f"{name}.py"
    script.write_text(f"""import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open({str(folder / f"{name}.pids")!r}, "a") as pids:
    pids.write(f"{{os.getpid()}} {{child.pid}}\\n")
searches, white = 0, True
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "quit":
        break
    if word == "hub":
        print("id name=hostile", "wait", sep="\\n", flush=True)
    elif word == "init":
        print("ready", flush=True)
    elif word == "pos":
        white = line.split("pos=")[1][0] == "W"
    elif word == "go":
        searches += 1
        if searches <= {good}:
            move = "32-28" if white else "19-23"
            print(f"info depth=1 score=0.00 pv={{move}}", f"done move={{move}}", sep="\\n",
                  flush=True)
        elif {behaviour!r} == "flood":
            while True:
                sys.stdout.write("info depth=1 nodes=1\\n" * 1000)
        elif {behaviour!r} == "huge-line":
            while True:
                sys.stdout.write("x" * 65536)
        elif {behaviour!r} == "huge-stderr":
            while True:
                sys.stderr.write("y" * 65536)
        else:
            time.sleep(600)
""", encoding="utf-8")
    return [sys.executable, str(script)]


def started_processes(folder: Path, name: str) -> list[int]:
    """The process ids a ``hostile_engine`` wrote: each start's engine and its child."""
    path = folder / f"{name}.pids"
    return [int(pid) for pid in path.read_text().split()] if path.exists() else []


def all_gone(pids: list[int], within: float = 5.0) -> bool:
    """Whether every process of ``pids`` has ended, waiting up to ``within`` seconds (a
    SIGKILL is delivered at once but acted on when the process is next scheduled)."""
    import time

    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie does not count: it has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@dataclass(frozen=True)
class Spec:
    """How to start one real engine, and a depth at which it reports evaluations (Scan 2.0
    prints ``info`` from depth 12 on)."""

    command: list[str]
    cwd: Path | None
    options: dict[str, object]
    depth: int
    generation: int
    name: str = "dame"                # what its name starts with
    foreign: str = "frisian"          # a variant it does not play


ENGINE_NAMES = ("scan", "dame", "builtin")


def engine_spec(request, name: str) -> Spec:
    """The ``Spec`` of a real engine, from the session's fixtures (``scan_dir``: Scan 2.0
    with a 16 MiB hash instead of scan.ini's 256 MiB; ``dame_command``)."""
    if name == "scan":
        return Spec(["./scan", "hub"], request.getfixturevalue("scan_dir"), {"tt-size": 20},
                    12, 1, "Scan 2.0")
    if name == "builtin":
        return Spec(request.getfixturevalue("builtin_command"), None, {}, 5, 2, "pdn builtin",
                    "canadian")
    return Spec(request.getfixturevalue("dame_command"), None, {"hash": 16}, 5, 2)


def start(spec: Spec, **kwargs):
    """A running engine of a ``Spec`` (``popen_hub``)."""
    from replay.engine.hub import popen_hub

    return popen_hub(spec.command, cwd=spec.cwd, options=spec.options, **kwargs)


def stateful_engine(folder: Path, name: str) -> list[str]:
    """A second-protocol Hub engine whose every search plays the first legal move and
    scores the position by how many searches it made since it started or was last told
    ``new-game``: an engine that carries state from game to game, as a transposition table
    does. Returns its command line."""
    script = folder / f"{name}.py"
    script.write_text("""import sys
from replay.record.board import Board
from replay.engine.hub import move_text, parse_pairs
from replay.engine.server import read_position

board, searches = Board(variant="international"), 0
for line in sys.stdin:
    word, _, rest = line.strip().partition(" ")
    if word == "quit":
        break
    if word == "hub":
        print("id name=stateful", "wait", sep="\\n", flush=True)
    elif word == "init":
        print("ready", flush=True)
    elif word == "new-game":
        searches = 0
    elif word == "pos":
        pairs = parse_pairs(rest)
        board = Board(variant="international")
        board = Board(board.variant, read_position(board, pairs["pos"]))
    elif word == "go":
        searches += 1
        move = move_text(board, board.legal_moves()[0])
        print(f"info depth=1 score={searches / 100:.2f} pv={move}", f"done move={move}",
              sep="\\n", flush=True)
""", encoding="utf-8")
    return [sys.executable, str(script)]
