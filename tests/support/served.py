"""``pdn serve`` started for a test on the loopback address and an ephemeral port (``--port
0``), its address read from the first line it prints, and stopped (SIGTERM) after."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

PDN = [sys.executable, "-c", "from pdn.cli.app import main; main()"]


@dataclass
class Served:
    """A running server: its address (``http://127.0.0.1:PORT/``), process and the file
    its messages go to."""

    url: str
    process: subprocess.Popen
    log: IO[str] | None = None

    def messages(self) -> str:
        """What the server has printed on its standard error so far."""
        assert self.log is not None
        self.log.seek(0)
        return self.log.read()

    def request(self, path: str, body: bytes | dict | None = None, *,
                headers: dict[str, str] | None = None, method: str | None = None
                ) -> tuple[int, dict[str, str], bytes]:
        """The status, headers and body of a request (an HTTP error is an answer too)."""
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        sent = {"Content-Type": "application/json"} if isinstance(body, dict) else {}
        request = urllib.request.Request(self.url.rstrip("/") + path, data, method=method,
                                         headers={**sent, **(headers or {})})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def json(self, path: str, body: bytes | dict | None = None, **options) -> tuple[int, dict]:
        status, _, raw = self.request(path, body, **options)
        return status, json.loads(raw)


@contextmanager
def served(*arguments: str | Path, cwd: Path | None = None) -> Iterator[Served]:
    """``pdn serve ARGUMENTS --port 0`` until the block ends, then SIGTERM and its exit; its
    messages go to a temporary file, never left to fill a pipe."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen([*PDN, "serve", *map(str, arguments), "--port", "0"],
                                   stdout=subprocess.PIPE, stderr=log, text=True, env=env,
                                   cwd=cwd)
        try:
            line = process.stdout.readline().strip()
            if not line.startswith("http://"):
                process.kill()
                process.wait()
                log.seek(0)
                raise RuntimeError(f"pdn serve did not start: {line} {log.read()}")
            yield Served(line, process, log)
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
