"""Programs we start (an engine, a browser) that never outlive us, however we end.

A child started in its own session (so that Ctrl-C at the terminal is ours to answer, and
its whole process group can be stopped at once) is not stopped by the kernel when we are
killed: after ``kill -9`` of pdn a silent engine, or Chromium printing a report, lived on.
Two things end it now:

- on Linux the kernel: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` (prctl(2)), asked in the child
  before the program starts and kept across ``exec``, kills the child when the thread that
  started it ends. That is asked only from the main thread, which lives as long as we do: a
  child started from a worker thread (``pdn serve`` starts its engines from the threads
  that answer requests, and those end when idle) would die with that thread;
- everywhere on POSIX a guard: a tiny Python process, in a session of its own, that reads
  a pipe from us and kills the child's whole process group (the engine's own children, the
  browser's helpers) when the pipe closes without a word, which only our death does.
  ``release`` tells it the child ended (``done``) before the pipe closes, so that it never
  kills a process group whose number came back to another program.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable

from replay.run.workers import PR_SET_PDEATHSIG

# The guard: blocks on its stdin; on end of input without "done", kills the group.
GUARD = """import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
said = sys.stdin.read()
if "done" not in said:
    try:
        os.killpg(int(sys.argv[1]), signal.SIGKILL)
    except OSError:
        pass
"""


def death_signal() -> Callable[[], None] | None:
    """What a child runs before its program on Linux: a request for SIGKILL when the
    thread that started it ends (None elsewhere, and in any thread but the main one, whose
    end is not ours). The C function is looked up here, in the parent: the child only
    calls it."""
    if not sys.platform.startswith("linux"):
        return None
    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None

    def ask() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)

    return ask


def popen_bound(command: list[str], *, guard: bool = True, **options) -> subprocess.Popen:
    """``subprocess.Popen(command, **options)`` in a session of its own, ended with us:
    the kernel's death signal where there is one and, with ``guard``, a guard process
    (``release`` it when the child has ended). Raises OSError as Popen does."""
    process = subprocess.Popen(command, start_new_session=True, preexec_fn=death_signal(),
                               **options)
    process.guard = None  # type: ignore[attr-defined]
    if guard and os.name == "posix":
        # without a guard (it cannot start) the kernel's signal, where there is one, holds
        with contextlib.suppress(OSError):
            process.guard = subprocess.Popen(  # type: ignore[attr-defined]
                [sys.executable, "-I", "-S", "-c", GUARD, str(process.pid)],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True)  # no death signal: it acts when we die
    return process


def release(process: subprocess.Popen) -> None:
    """After ``process`` has ended (been waited for): its guard goes without killing."""
    guard = getattr(process, "guard", None)
    if guard is None:
        return
    process.guard = None  # type: ignore[attr-defined]
    with contextlib.suppress(OSError, ValueError):
        guard.stdin.write(b"done")
    with contextlib.suppress(OSError, ValueError):
        guard.stdin.close()
    try:
        guard.wait(timeout=5)
    except subprocess.TimeoutExpired:
        guard.kill()
        guard.wait()


__all__ = ["death_signal", "popen_bound", "release"]
