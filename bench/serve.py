"""A bounded load test of ``pdn serve`` on the loopback address: CLIENTS threads each send
REQUESTS requests, a fixed mix of pages, API reads, checks of posted text and uploads, to a
server holding a real archive, and every answer must be 200.

    .venv/bin/python bench/serve.py [--data ../shared/data] [--clients 20] [--requests 200]

The server runs on core 0 and the clients on core 1 (``taskset``, where it exists), so the
figures are those of one server process on one core. Printed and written to
``bench/out/serve.json``: requests, errors, requests per second, and the latency (p50, p95,
p99, max) overall and per kind of request.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = "games-checkers/internt/wk2003.pdn"  # 190 games of the 2003 world championship
OUT = ROOT / "bench" / "out"
# (kind, weight): what a client asks, in these proportions
MIX = [("game page", 25), ("game row", 25), ("check", 20), ("desk page", 10),
       ("all rows", 10), ("upload", 5), ("static", 5)]


def start(archive: Path) -> tuple[subprocess.Popen, str, int]:
    pinned = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    process = subprocess.Popen(
        [*pinned, sys.executable, "-c", "from pdn.cli.app import main; main()", "serve",
         str(archive), "--port", "0"], stdout=subprocess.PIPE, text=True)
    url = process.stdout.readline().strip()
    host, port = url.split("//")[1].strip("/").split(":")
    return process, host, int(port)


def client(host: str, port: int, seed: int, count: int, games: int, texts: list[str],
           results: list) -> None:
    chooser = random.Random(seed)
    kinds = [kind for kind, _ in MIX]
    weights = [weight for _, weight in MIX]
    connection = http.client.HTTPConnection(host, port, timeout=120)
    for _ in range(count):
        kind = chooser.choices(kinds, weights)[0]
        number = chooser.randint(1, games)
        method, path, body = "GET", "", None
        if kind == "game page":
            path = f"/games/{number}"
        elif kind == "game row":
            path = f"/api/games/{number}"
        elif kind == "check":
            method, path, body = "POST", "/api/check", texts[number - 1].encode()
        elif kind == "desk page":
            path = "/"
        elif kind == "all rows":
            path = "/api/games"
        elif kind == "upload":
            method, path = "POST", "/api/upload"
            body = json.dumps({"name": f"upload-{seed}.pdn", "text": texts[number - 1]}).encode()
        else:
            path = "/static/viewer.js"
        started = time.perf_counter()
        connection.request(method, path, body, {"Content-Type": "application/json"
                                                if kind == "upload" else "text/plain"})
        response = connection.getresponse()
        response.read()
        results.append((kind, response.status, time.perf_counter() - started))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def figures(latencies: list[float]) -> dict:
    return {"requests": len(latencies),
            **{name: round(1000 * percentile(latencies, share), 1)
               for name, share in (("p50_ms", 0.50), ("p95_ms", 0.95), ("p99_ms", 0.99))},
            "max_ms": round(1000 * max(latencies), 1),
            "mean_ms": round(1000 * statistics.fmean(latencies), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=200)
    options = parser.parse_args()
    archive = options.data / ARCHIVE
    sys.path.insert(0, str(ROOT))
    from pdn.reader import PdnText, read_games

    text = archive.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines(keepends=True)
    starts = [game.line - 1 for game in read_games(PdnText(text))]
    texts = ["".join(lines[a:b]) for a, b in zip(starts, [*starts[1:], len(lines)],
                                                  strict=True)]
    if hasattr(os, "sched_setaffinity") and os.cpu_count() and os.cpu_count() > 1:
        os.sched_setaffinity(0, {1})
    process, host, port = start(archive)
    results: list = []
    try:
        threads = [threading.Thread(target=client, args=(host, port, seed, options.requests,
                                                         len(texts), texts, results))
                   for seed in range(options.clients)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    errors = [r for r in results if r[1] != 200]
    report = {"archive": ARCHIVE, "games": len(texts), "clients": options.clients,
              "requests_per_client": options.requests, "errors": len(errors),
              "seconds": round(seconds, 1), "requests_per_second": round(len(results) / seconds),
              "load": os.getloadavg()[0], "overall": figures([r[2] for r in results]),
              "by_kind": {kind: figures([r[2] for r in results if r[0] == kind])
                          for kind, _ in MIX}}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "serve.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(json.dumps(report, indent=1))
    if errors or process.returncode != 0:
        sys.exit(f"{len(errors)} requests failed; the server exited {process.returncode}")


if __name__ == "__main__":
    main()
