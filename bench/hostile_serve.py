"""Hostile requests to ``pdn serve``, measured, not tested: each is sent to a server on the
loopback address holding a two-game file, and its answer, wall seconds and the server's CPU
seconds are printed, then whether every page still answers 200.

    .venv/bin/python bench/hostile_serve.py [--half-sent 900]

The cases: a JSON text holding a lone surrogate; /api/check of 1 MiB of one-move games; the
page of a 3.9 MB one-line game (two kings shuffling, bench/hostile.py's); 3,000 games glued
on one line; a client leaving mid-body; and ``--half-sent`` connections that send part of
their headers and wait (the server closes them after its header timeout, 10 s).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile import shuffling_kings

PDN = [sys.executable, "-c", "from pdn.cli.app import main; main()"]
GAMES = '[Event "a"]\n[White "A"]\n[Black "B"]\n1. 32-28 19-23 1-0\n\n' * 2
PAGES = ("/", "/api/games", "/event", "/new", "/games/1", "/download/1")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def request(url: str, path: str, body: bytes | None = None,
            kind: str = "application/json") -> tuple[int, bytes]:
    sent = urllib.request.Request(url.rstrip("/") + path, body,
                                  headers={"Content-Type": kind} if body else {})
    try:
        with urllib.request.urlopen(sent, timeout=600) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def measured(pid: int, name: str, send) -> None:
    cpu, wall = cpu_seconds(pid), time.monotonic()
    status, body = send()
    print(f"{name:<40} {status:>6} {time.monotonic() - wall:>8.2f} "
          f"{cpu_seconds(pid) - cpu:>8.2f}  {body[:70].decode(errors='replace')}")


def half_sent(port: int, count: int) -> None:
    clients = []
    start = time.monotonic()
    for _ in range(count):
        client = socket.create_connection(("127.0.0.1", port), timeout=120)
        client.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode())
        clients.append(client)
    closed = timed_out = 0
    for client in clients:
        try:
            answer = b"".join(iter(lambda c=client: c.recv(4096), b""))
            closed += 1
            timed_out += answer.startswith(b"HTTP/1.1 408")
        except OSError:
            pass
        client.close()
    print(f"{count} half-sent requests: {closed} closed by the server ({timed_out} with 408), "
          f"the last after {time.monotonic() - start:.1f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half-sent", type=int, default=900)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryFile("w+") as log:
        path = Path(folder) / "round.pdn"
        path.write_text(GAMES, encoding="utf-8")
        server = subprocess.Popen([*PDN, "serve", str(path), "--port", "0"],
                                  stdout=subprocess.PIPE, stderr=log, text=True)
        try:
            url = server.stdout.readline().strip()
            port = int(url.rsplit(":", 1)[1].strip("/"))
            pid = server.pid
            print(f"{'request':<40} {'status':>6} {'wall s':>8} {'CPU s':>8}  answer")
            measured(pid, "upload, a lone surrogate", lambda: request(
                url, "/api/upload", b'{"name": "x.pdn", "text": "[White \\"\\udcfc\\"]\\n\\n'
                b'1. 32-28 *\\n"}'))
            one_move = ("1. 32-28 *\n\n" * ((1 << 20) // 12 - 10)).encode()
            measured(pid, "check, 1 MiB of one-move games",
                     lambda: request(url, "/api/check", one_move, "text/plain"))
            long_game = json.dumps({"name": "long.pdn", "text": shuffling_kings(3_900_000)})
            status, body = request(url, "/api/upload", long_game.encode())
            number = json.loads(body)["games"][0] if status == 200 else 0
            measured(pid, "page of a 3.9 MB game", lambda: request(url, f"/games/{number}"))
            glued = " ".join(f'[Event "g{n}"] 1. 32-28 *' for n in range(3000))
            measured(pid, "upload, 3,000 games glued on one line", lambda: request(
                url, "/api/upload", json.dumps({"name": "g.pdn", "text": glued}).encode()))
            with socket.create_connection(("127.0.0.1", port)) as client:
                client.sendall(f"POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                               f"Content-Type: application/json\r\nContent-Length: 100000"
                               f"\r\n\r\n{{\"text\": ".encode())
            half_sent(port, args.half_sent)
            answered = {page: request(url, page)[0] for page in PAGES}
            print("every page after:", answered)
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
        log.seek(0)
        messages = log.read()
        print("tracebacks on the server's standard error:", messages.count("Traceback"))
    return 0 if set(answered.values()) == {200} and "Traceback" not in messages else 1


if __name__ == "__main__":
    raise SystemExit(main())
