"""The standings as people read them, on the 2007 World Championship (FMJD tie-breaks:
wins, direct encounter, classification; see test_standings.py for the event): tie-break
columns on their row's line and in its type, the Classification explained and shown whole
where the terminal has room for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import ROOT, require

from replay.tournament import read_event, standings
from replay.tournament.pages import CLASSIFICATION_NOTE, standings_html

WC2007 = Path("international/fmjd_wk2007_all_games.pdn")
# Ndjofang's results against the players not level with him on 19 points, from the top down
NDJOFANG = "1 1 0 1 1 0 1 0 1 2 1 1 0 2 2 2 1 1"


def terminal(path: Path, columns: int) -> str:
    """``pdn standings`` as a terminal of ``columns`` shows it (rich reads COLUMNS)."""
    done = subprocess.run([sys.executable, "-c", "from pdn.cli.app import main; main()",
                           "standings", str(path)],
                          capture_output=True, text=True, cwd=ROOT,
                          env={"COLUMNS": str(columns), "PATH": "/usr/bin:/bin",
                               "PDN_PURE_PYTHON": "1", "TERM": "dumb"})
    return done.stdout


def test_the_terminal_shows_the_classification_whole_where_it_fits(shared_data):
    wide = terminal(shared_data / WC2007, 200)
    row = next(line for line in wide.splitlines() if "Ndjofang" in line)
    assert row.rstrip(" │").endswith(NDJOFANG), row
    assert " ".join(CLASSIFICATION_NOTE.split()[:6]) in " ".join(wide.split())
    narrow = terminal(shared_data / WC2007, 80)
    lines = narrow.splitlines()
    assert all(len(line) <= 80 for line in lines), narrow
    header = next(line for line in lines if "Player" in line)
    assert all(name in header for name in ("Pts", "Wins", "Direct")), header  # never squeezed
    row = next(line for line in lines if "Ndjofang" in line)
    assert "│  19 │ 19 │ 4 │ 11 │  4 │" in row and row.rstrip(" │").endswith("…"), row


def test_the_page_puts_tie_breaks_on_their_row_in_the_rows_type_and_explains_them(
        archive, shared_data, tmp_path):
    from support.webdriver import Browser, chromium_session

    page = tmp_path / "standings.html"
    page.write_text(standings_html(standings(read_event(archive(shared_data / WC2007)))),
                    encoding="utf-8")
    measure = """
        const row = [...document.querySelectorAll('#standings tbody tr')]
            .find(tr => tr.textContent.includes('Ndjofang'));
        const cells = [...row.cells];
        const box = cell => {
            const range = document.createRange(); range.selectNodeContents(cell);
            const r = range.getBoundingClientRect(); return [r.top, r.bottom]; };
        return {sizes: cells.map(c => getComputedStyle(c).fontSize),
                texts: cells.map(c => c.textContent),
                tops: cells.map(box).map(b => b[0]), bottoms: cells.map(box).map(b => b[1]),
                note: (document.getElementById('classification') || {}).textContent,
                page: document.documentElement.scrollWidth, width: window.innerWidth};"""
    with chromium_session(tmp_path / "profile") as browser:
        require(isinstance(browser, Browser), str(browser))
        shown = {}
        for width in (1280, 400):
            browser.resize(width, 900)
            browser.open(page.as_uri())
            shown[width] = browser.run(measure)
            browser.screenshot(tmp_path / f"standings-{width}.png")
    for width, row in shown.items():
        assert len(set(row["sizes"])) == 1, (width, row["sizes"])  # one type for the row
        written = [k for k, text in enumerate(row["texts"]) if text]
        assert max(row["tops"][k] for k in written) - min(row["tops"][k] for k in written) < 1
        assert row["texts"][-1] == NDJOFANG
        assert row["note"] == CLASSIFICATION_NOTE
        assert row["page"] <= row["width"]  # a phone scrolls the table, not the page
