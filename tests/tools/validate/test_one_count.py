"""One file, one count: on ``english/tinsley.pdn`` (724 games of Marion Tinsley; two records
end in words run into a move, ``8-11Redoversteppedth``, and one plays 32-28 with no black
piece on 32) ``pdn validate``, ``pdn view`` and ``pdn stats`` count the same games invalid
and unreadable; and the arbiter's report shows their three-digit numbers on one line, at a
desktop's width and a phone's."""

from __future__ import annotations

from pathlib import Path

from conftest import require
from pdn.cli.app import app
from typer.testing import CliRunner

TINSLEY = Path("english/tinsley.pdn")


def test_validate_view_and_stats_count_the_same_games(shared_data, tmp_path):
    runner = CliRunner()
    source = str(shared_data / TINSLEY)
    validated = runner.invoke(app, ["validate", source])
    viewed = runner.invoke(app, ["view", source, "-o", str(tmp_path / "v.html")])
    tabulated = runner.invoke(app, ["stats", source, "-o", str(tmp_path / "s.csv")])
    assert "721 valid, 1 invalid, 2 unreadable" in validated.stderr, validated.stderr
    for result in (viewed, tabulated):
        assert "games that do not replay: 1 invalid, 2 unreadable" in result.stderr
    assert validated.exit_code == viewed.exit_code == tabulated.exit_code == 1


def test_the_reports_game_numbers_stay_on_one_line(shared_data, tmp_path):
    from support.webdriver import Browser, chromium_session

    page = tmp_path / "report.html"
    done = CliRunner().invoke(app, ["validate", str(shared_data / TINSLEY), "--report",
                                    str(page)])
    assert done.exit_code == 1, done.output
    with chromium_session(tmp_path / "profile") as browser:
        require(isinstance(browser, Browser), str(browser))
        for width in (1280, 400):
            browser.resize(width, 900)
            browser.open(page.as_uri())
            numbers = browser.run("""return [...document.querySelectorAll(
                '#summary tbody td:first-child')].map((td) => [td.textContent,
                new Set([...td.querySelector('a').getClientRects()].map(
                    (r) => Math.round(r.top))).size]);""")
            browser.screenshot(tmp_path / f"report-{width}.png")
            assert sorted(numbers) == [["541", 1], ["623", 1], ["693", 1]], (width, numbers)
