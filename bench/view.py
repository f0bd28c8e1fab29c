"""Viewer size and opening time: real archives written as viewer pages (``pdn view``), their
bytes per game and per 60 plies, then each page opened in headless Chromium at a far game.

    .venv/bin/python bench/view.py [--data ../shared/data] [--jobs 2] [--runs 3]

For each archive: the seconds to read, replay and write the page (``--jobs`` processes), the
page's size, its games and main-line plies, bytes per game and per 60 plies (the page's bytes
spread over its plies). Then, where Debian's chromium and chromium-driver are installed, the
page is opened ``--runs`` times at ``#game=N&ply=10`` (N: game 20,000 of OCA 2.0, else the
last game): the seconds until the navigation returns (the page loaded and its script showed
that position; the board's ``data-game`` and ``data-ply`` are checked), the page's own load
time from the Navigation Timing API, and the seconds a search of the game list takes. The
median of the runs is printed. Figures go to ``bench/out/view.json`` too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

ARCHIVES = [  # (path in the shared data, the game to open: 0 for the last)
    ("english/OCA_2.0.pdn", 20_000),
    ("games-checkers/russian/World_Championship_1998.pdn", 0),
    ("english/tinsley.pdn", 0),
    ("international/fmjd_wk2007_all_games.pdn", 0),
]
OUT = ROOT / "bench" / "out"


def write_page(source: Path, target: Path, jobs: int) -> dict:
    """Write the viewer page of an archive; its size, games, plies and the seconds taken."""
    from replay.run.output import atomic_writer
    from replay.viewer.page import ViewerPage, archive_entries

    started = time.perf_counter()
    with atomic_writer(target) as stream:
        page = ViewerPage(stream, title=source.name)
        for key, entry, kind, _ in archive_entries(source, jobs=jobs):
            page.add(key, entry, kind)
        page.close()
    seconds = time.perf_counter() - started
    size = target.stat().st_size
    plies = main_line_plies(target)
    return {"archive": source.name, "seconds": seconds, "bytes": size, "games": page.count,
            "plies": plies, "bytes_per_game": size / page.count,
            "bytes_per_60_plies": size / plies * 60}


def main_line_plies(page: Path) -> int:
    """The moves of every game's main line that replay, counted from the page's own data."""
    text = page.read_text(encoding="utf-8")
    start = text.index('<script id="data" type="application/json">') + 42
    data = json.loads(text[start:text.index("</script>", start)])
    plies = 0
    for game in data["games"]:
        depth = 0
        for token in game[8].split():
            depth += (token == "(") - (token == ")")
            plies += depth == 0 and token[0] not in "()#~^{"
    return plies


def open_page(browser, page: Path, game: int, runs: int) -> dict:
    """Median seconds to open a page at a game and ply, its own load time, a search's time."""
    url, navigations, loads, searches = f"{page.as_uri()}#game={game}&ply=10", [], [], []
    for _ in range(runs):
        browser.open("about:blank")
        started = time.perf_counter()
        browser.open(url, timeout=300)
        navigations.append(time.perf_counter() - started)
        shown = browser.run("""const d = document.getElementById('board').dataset;
            return [Number(d.game), Number(d.ply),
                    performance.getEntriesByType('navigation')[0].loadEventEnd];""")
        if shown[:2] != [game - 1, 10]:
            raise RuntimeError(f"{page.name}: the page shows game {shown[0] + 1} at ply "
                               f"{shown[1]}, not game {game} at ply 10")
        loads.append(shown[2] / 1000)
        started = time.perf_counter()
        browser.type("#search", "a")
        searches.append(time.perf_counter() - started)
    return {"open_seconds": statistics.median(navigations),
            "load_event_seconds": statistics.median(loads),
            "search_seconds": statistics.median(searches)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from support.webdriver import chromium_session

    rows = []
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'archive':<34} {'write s':>7} {'MB':>6} {'games':>6} {'plies':>9} "
              f"{'B/game':>7} {'B/60 plies':>10}")
        for name, game in ARCHIVES:
            source = Path(args.data) / name
            row = write_page(source, Path(folder) / f"{source.stem}.html", args.jobs)
            row["open_game"] = game or row["games"]
            rows.append(row)
            print(f"{row['archive']:<34} {row['seconds']:7.1f} {row['bytes'] / 1e6:6.2f} "
                  f"{row['games']:6} {row['plies']:9,} {row['bytes_per_game']:7.0f} "
                  f"{row['bytes_per_60_plies']:10.0f}")
        total = sum(r["bytes"] for r in rows) / sum(r["plies"] for r in rows) * 60
        print(f"all archives: {total:.0f} bytes per 60 plies")
        with chromium_session(Path(folder) / "profile") as browser:
            if isinstance(browser, str):
                print(f"no opening times: {browser} not available")
            else:
                print(f"\n{'archive':<34} {'game':>6} {'open s':>7} {'load s':>7} "
                      f"{'search s':>8}  (median of {args.runs})")
                for row in rows:
                    page = Path(folder) / f"{Path(row['archive']).stem}.html"
                    row.update(open_page(browser, page, row["open_game"], args.runs))
                    print(f"{row['archive']:<34} {row['open_game']:6} "
                          f"{row['open_seconds']:7.2f} {row['load_event_seconds']:7.2f} "
                          f"{row['search_seconds']:8.2f}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "view.json").write_text(json.dumps(rows, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
