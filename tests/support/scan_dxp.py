"""Scan 2.0 as a DXP engine for the tests: a folder of its own with a modified ``scan.ini``
(the built ``scan`` and its ``data/`` linked in), the process started and, whatever happens,
ended; and the check that no engine process is left."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

SCAN_INI = """\
book = true
book-margin = 2
threads = 1
tt-size = 20
bb-size = 4

dxp-server = {server}
dxp-host = 127.0.0.1
dxp-port = {port}
dxp-initiator = {initiator}
dxp-time = 0
dxp-moves = 150
dxp-board = false
dxp-search = false
"""  # dxp-time 0: Scan searches to its minimum depth (12) per move, a fraction of a second


def free_port() -> int:
    """A TCP port nobody listens on now (Scan binds without SO_REUSEADDR: never reuse one)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def scan_folder(scan_dir: Path, into: Path, *, port: int, server: bool,
                initiator: bool) -> Path:
    """A folder where ``./scan dxp`` runs with our scan.ini (the built one is not touched)."""
    folder = into / f"scan-dxp-{port}"
    folder.mkdir()
    (folder / "scan").symlink_to(scan_dir / "scan")
    (folder / "data").symlink_to(scan_dir / "data")
    (folder / "scan.ini").write_text(SCAN_INI.format(
        server=str(server).lower(), initiator=str(initiator).lower(), port=port))
    return folder


@contextlib.contextmanager
def scan_dxp(folder: Path, delay: float = 0) -> Iterator[subprocess.Popen]:
    """``./scan dxp`` running in ``folder`` (started after ``delay`` seconds, for a Scan that
    connects to a listener not yet open); ended (killed if it will not stop) on leaving, and
    checked gone."""
    log = open(folder / "scan.log", "w")  # noqa: SIM115 - closed below, after the process
    command = ["sh", "-c", f"sleep {delay}; exec ./scan dxp"] if delay else ["./scan", "dxp"]
    process = subprocess.Popen(command, cwd=folder, stdout=log,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        yield process
    finally:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        log.close()
        assert not Path(f"/proc/{process.pid}").exists() or _is_other(process.pid, folder)


def _is_other(pid: int, folder: Path) -> bool:
    """A reused pid that belongs to another program."""
    try:
        return Path(os.readlink(f"/proc/{pid}/cwd")) != folder.resolve()
    except OSError:
        return True


def processes_in(folder: Path) -> list[int]:
    """The pids of the processes whose working directory is ``folder`` (engines left
    running), from /proc."""
    found = []
    target = folder.resolve()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if Path(os.readlink(entry / "cwd")) == target:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found
