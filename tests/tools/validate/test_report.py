"""The arbiter's report (``pdn validate --report``): the summary of the problem games first,
a section per problem game with the written move (red) and the move meant (green) on its
diagram, the valid games only in a closing table, a print stylesheet for A4, and PDF through
headless Chromium."""

import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.rules.variants import INTERNATIONAL, RUSSIAN
from replay.validate.report import html_report, markdown_report
from replay.validate.report_pdf import find_browser
from replay.validate.reports import report_game

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[3] / "samples"
ERRORS = SAMPLES / "russian" / "scoresheet_with_errors.pdn"  # game 1 invalid, 2 incomplete
NS = "{http://www.w3.org/2000/svg}"
# White writes 2. b2-c3 where d4:b6 is compulsory (b6 left empty by 1... b6-c5)
SLIP = "1. c3-d4 b6-c5 2. b2-c3 *"
VALID_GAME = "1. c3-d4 f6-g5 2. b2-c3 *"


def reports(*texts: str, variant=RUSSIAN, suggest: bool = False) -> list:
    return [report_game(game, variant, suggest=suggest)
            for text in texts for game in read_games(text)]


def test_the_summary_table_lists_exactly_the_problem_games_worst_first_with_links():
    found = reports(VALID_GAME, "1. c3-d4 f6-g5 2. - *", SLIP, VALID_GAME)
    page = html_report(found)
    summary = page.split('<table id="summary">')[1].split("</table>")[0]
    rows = re.findall(r'<tr class="(\w+)" data-game="(\d+)"><td><a href="#game-(\d+)"',
                      summary)
    assert rows == [("invalid", "3", "3"), ("incomplete", "2", "2")]  # invalid before lost
    assert page.index('<table id="summary">') < page.index('id="game-3"')
    sections = re.findall(r'<section class="game (\w+)" id="game-(\d+)">', page)
    assert sections == [("invalid", "3"), ("incomplete", "2")]  # no section for a valid game
    valid = page.split('<section id="valid">')[1]
    assert "Valid games (2)" in valid and valid.count("<tr><td>") == 2


def test_a_report_of_valid_games_says_so_without_a_summary_table():
    page = html_report(reports(VALID_GAME))
    assert 'id="summary"' not in page and "Every game replays on the rules." in page


def test_the_result_note_keeps_its_parentheses_in_html_and_markdown():
    (report,) = reports(SLIP)
    wanted = "undetermined (the record does not replay to its end)"
    assert f"— {wanted}" in html_report([report]) and f"— {wanted}" in markdown_report([report])


def arrows(page: str) -> dict[str, list]:
    """The arrows of the page's first diagram by class: the colour and the route's ends."""
    svg = ET.fromstring(re.search(r"<svg.*?</svg>", page, re.S).group())
    found = {}
    for group in svg.iter(f"{NS}g"):
        kind = group.get("class")
        if kind in ("written", "meant"):
            line = group.find(f"{NS}polyline")
            found.setdefault(kind, []).append((line.get("stroke"), line.get("points")))
    return found


def test_the_diagram_draws_the_written_move_red_and_the_compulsory_capture_green():
    (report,) = reports(SLIP)
    drawn = arrows(html_report([report]))
    assert [colour for colour, _ in drawn["written"]] == ["#c62828"]
    assert [colour for colour, _ in drawn["meant"]] == ["#1b6e3a"]
    markdown = markdown_report([report])
    assert "  - written: b2-c3" in markdown and "  - meant: d4:b6" in markdown


def test_the_diagram_draws_the_suggested_move_green_where_the_slip_is():
    # bas080/dammen's invalid game in small: White's move is missing, 39x28 mends it
    (report,) = reports('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 '
                        "4. 18-22 *", variant=INTERNATIONAL, suggest=True)
    assert report.status == "invalid" and report.suggestions
    best = report.suggestions[0]["text"].split()[-1]
    markdown = markdown_report([report])
    assert f"  - meant: {best}" in markdown, markdown
    assert "before the error, where the slip happened" in markdown


def test_legal_moves_are_listed_in_square_order_under_each_diagram():
    (report,) = reports("1. c3-d4 f6-g5 2. a3-c5 *")
    markdown = markdown_report([report])
    listed = re.search(r"legal moves: (.*)", markdown.split("before the error")[1]).group(1)
    origins = [RUSSIAN.geometry.square(move[:2]) for move in listed.split()]
    assert origins == sorted(origins) and len(set(origins)) > 3


def test_the_print_stylesheet_sets_a4_and_a_page_per_problem_game():
    page = html_report(reports(SLIP))
    assert "@page{size:A4" in page
    printed = page.split("@media print{")[1]
    assert "section.game{break-before:page" in printed and "break-inside:avoid" in printed


def test_report_pdf_is_printed_by_chromium_or_refused_with_exit_2(tmp_path, monkeypatch):
    pdf = tmp_path / "report.pdf"
    monkeypatch.setenv("PDN_CHROMIUM", "no-such-browser")
    refused = runner.invoke(app, ["validate", str(ERRORS), "--report", str(pdf)])
    assert refused.exit_code == 2 and "needs Chromium" in refused.stderr and not pdf.exists()
    monkeypatch.delenv("PDN_CHROMIUM")
    if find_browser() is None:
        pytest.skip("no Chromium to print the PDF")
    result = runner.invoke(app, ["validate", str(ERRORS), "--report", str(pdf)])
    assert result.exit_code == 1, result.output
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF")
    # the summary, then a page for each of the two problem games
    assert len(re.findall(rb"/Type\s*/Page[^s]", data)) == 3
    assert not list(tmp_path.glob(".report.pdf.*"))  # written atomically, nothing left


def _browser_processes(pids_file: Path) -> list[int]:
    return [int(pid) for pid in pids_file.read_text().split()] if pids_file.exists() else []


@pytest.mark.parametrize("browser", ["fake", "chromium"])
def test_after_kill_9_of_pdn_validate_the_browser_is_gone_within_seconds(tmp_path, browser):
    """After ``kill -9`` of ``pdn validate --report x.pdf`` Chromium lived on 30-60 s: it
    and its whole process group now go with pdn (replay.run.children). The fake browser
    hangs with a child of its own; the real one is caught while it prints."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the processes are read from /proc")
    pids_file = tmp_path / "browser.pids"
    env = dict(os.environ)
    if browser == "fake":
        fake = tmp_path / "fake-chromium"
        fake.write_text(f"""#!{sys.executable}
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
with open({str(pids_file)!r}, "a") as pids:
    pids.write(f"{{os.getpid()}} {{child.pid}}\\n")
time.sleep(600)
""", encoding="utf-8")
        fake.chmod(0o755)
        env["PDN_CHROMIUM"] = str(fake)
    elif find_browser() is None:
        pytest.skip("no Chromium")
    command = [sys.executable, "-c", "from pdn.cli.app import main; main()", "validate",
               str(ERRORS), "--report", str(tmp_path / "report.pdf")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=env)
    deadline = time.monotonic() + 60
    try:
        while not (pids := _browser_pids(process.pid, pids_file, browser)):
            assert time.monotonic() < deadline and process.poll() is None, "no browser ran"
            time.sleep(0.02)
    finally:
        process.kill()
        process.wait()
    deadline = time.monotonic() + 60  # a guard against a hang, not a measure of speed
    while [pid for pid in pids if _alive(pid)]:
        assert time.monotonic() < deadline, "the browser outlived pdn"
        time.sleep(0.05)


def _browser_pids(parent: int, pids_file: Path, browser: str) -> list[int]:
    """The fake browser's processes (it writes them), or the real one's (pdn's children and
    their group)."""
    if browser == "fake":
        return _browser_processes(pids_file)
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == parent and "chrom" in Path(stat.parent / "comm").read_text():
            found.append(int(stat.parent.name))
    if not found:
        return []
    group = found[0]
    for stat in Path("/proc").glob("[0-9]*/stat"):  # its helpers: its process group
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) == group and int(stat.parent.name) != group:
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"
