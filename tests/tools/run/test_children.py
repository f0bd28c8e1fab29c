"""``replay.run.children``: a program we start never outlives us. The kernel's death signal
is Linux's; the guard is the fallback everywhere on POSIX, and the only one that ends the
child's whole process group: tested here on its own, its pipe closed as our death closes it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest
from support.engines import all_gone

from replay.run.children import popen_bound, release

pytestmark = [pytest.mark.skipif(os.name != "posix", reason="the guard is POSIX's"),
              pytest.mark.usefixtures("no_engine_outlives_a_test")]

# a program that starts a child in its process group, prints both ids, then waits
PARENT_AND_CHILD = ("import subprocess, sys, time; "
                    "c = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); "
                    "print(c.pid, flush=True); time.sleep(600)")


def _started() -> tuple[subprocess.Popen, list[int]]:
    process = popen_bound([sys.executable, "-c", PARENT_AND_CHILD], stdout=subprocess.PIPE,
                          text=True)
    child = int(process.stdout.readline())
    return process, [process.pid, child]


def test_the_guard_kills_the_whole_group_when_its_pipe_closes_without_a_word():
    process, pids = _started()
    guard = process.guard
    assert guard is not None
    guard.stdin.close()  # what our death does
    guard.wait(timeout=10)
    process.wait(timeout=10)  # ours to reap (a dead pdn's would go to init)
    process.stdout.close()
    assert all_gone(pids)


def test_released_the_guard_goes_and_kills_nothing():
    process, pids = _started()
    guard = process.guard
    process.terminate()  # the program alone: its child lives on, in the group
    process.wait(timeout=10)
    process.stdout.close()
    release(process)
    assert guard.returncode == 0 and process.guard is None
    try:
        assert not all_gone(pids[1:], within=0.5)  # told "done": the group was left alone
    finally:
        os.kill(pids[1], 9)


def test_a_child_started_from_a_thread_outlives_that_thread():
    # pdn serve starts engines from the threads that answer requests; they end when idle
    started: list[tuple[subprocess.Popen, list[int]]] = []
    thread = threading.Thread(target=lambda: started.append(_started()))
    thread.start()
    thread.join()
    process, pids = started[0]
    try:
        assert not all_gone(pids[:1], within=1.0)  # the engine itself, not only its child
    finally:
        process.kill()
        process.wait(timeout=10)
        process.stdout.close()
        os.kill(pids[1], 9)
        release(process)
