"""SIGTERM ends a command as Ctrl-C does: cleanly.

By default SIGTERM kills Python at once, so nothing in ``finally`` runs: the ``.part`` file
of an output being written stays beside it, a spool folder stays in the temporary folder,
and worker processes are not stopped. Turned into ``SystemExit`` (status 143, 128 + the
signal's number, as shells report a process SIGTERM ended), it unwinds the command like
Ctrl-C's ``KeyboardInterrupt``: outputs are left as they were, temporary files removed,
workers stopped. A second SIGTERM while that runs kills at once.
"""

from __future__ import annotations

import signal
import sys

TERMINATED = 128 + signal.SIGTERM


def exit_on_sigterm() -> None:
    """From now on, SIGTERM raises ``SystemExit(TERMINATED)`` in the main thread."""
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    print("terminated", file=sys.stderr)
    raise SystemExit(TERMINATED)
