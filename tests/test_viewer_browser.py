"""The viewer in a real headless browser (issue 9): keys, clicks and what the board then shows.

Chromium is driven through ChromeDriver's W3C WebDriver protocol, plain JSON over HTTP, with a
small client on the standard library. The tests skip where Debian's ``chromium`` and
``chromium-driver`` are not installed (``.ci/run`` installs them). A screenshot of the page is
kept in ``bench/out/viewer_browser.png`` (git-ignored) as a test artifact.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pdn.reader import read_games
from replay.diagram import board_after
from replay.replayer import replay_game
from replay.variants import RUSSIAN
from replay.viewer import viewer_html

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "samples" / "russian" / "ivanov_petrov_full.pdn"
ERRORS = ROOT / "samples" / "russian" / "scoresheet_with_errors.pdn"
ARTIFACTS = ROOT / "bench" / "out"
CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser"))), None)
CHROMEDRIVER = shutil.which("chromedriver")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--window-size=1200,800"]
KEYS = {"ArrowRight": "\ue014", "ArrowLeft": "\ue012", "ArrowUp": "\ue013",
        "ArrowDown": "\ue015", "Home": "\ue011", "End": "\ue010"}
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C key of an element reference

pytestmark = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER),
                                reason="needs Debian's chromium and chromium-driver")


class WebDriverError(RuntimeError):
    """A WebDriver command that failed, with the driver's message."""


class Browser:
    """One WebDriver session: load pages, press keys, click, run scripts, take screenshots."""

    def __init__(self, endpoint: str, profile: Path) -> None:
        self.endpoint = endpoint
        options = {"binary": CHROMIUM, "args": [*CHROMIUM_FLAGS, f"--user-data-dir={profile}"]}
        capabilities = {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": options}}
        session = self.command("POST", "/session", {"capabilities": capabilities})
        self.session = f"/session/{session['sessionId']}"

    def command(self, method: str, path: str, body: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.endpoint + path, data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            raise WebDriverError(json.load(error)["value"].get("message", str(error))) from None

    def open(self, url: str) -> None:
        self.command("POST", f"{self.session}/url", {"url": url})

    def press(self, key: str, times: int = 1) -> None:
        code = KEYS[key]
        strokes = [{"type": kind, "value": code} for _ in range(times)
                   for kind in ("keyDown", "keyUp")]
        self.command("POST", f"{self.session}/actions",
                     {"actions": [{"type": "key", "id": "keyboard", "actions": strokes}]})

    def click(self, css: str) -> None:
        found = self.command("POST", f"{self.session}/element",
                             {"using": "css selector", "value": css})
        self.command("POST", f"{self.session}/element/{found[ELEMENT]}/click", {})

    def run(self, script: str):
        return self.command("POST", f"{self.session}/execute/sync",
                            {"script": script, "args": []})

    def board(self) -> dict:
        """What the board shows: the data attributes and the pieces drawn, by kind."""
        return self.run("""
            const board = document.getElementById("board");
            const count = (css) => board.querySelectorAll(css).length;
            return {fen: board.dataset.fen, ply: Number(board.dataset.ply),
                    white: count(".piece.white"), black: count(".piece.black"),
                    kings: count(".piece.king"), arrows: count(".last-move"),
                    crosses: count(".captured"),
                    error: document.getElementById("error").textContent,
                    notes: document.getElementById("notes").textContent};""")

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self.command("GET", f"{self.session}/screenshot")))

    def close(self) -> None:
        self.command("DELETE", self.session)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_ready(endpoint: str, driver: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and driver.poll() is None:
        try:
            with urllib.request.urlopen(endpoint + "/status", timeout=2) as response:
                if json.load(response)["value"].get("ready"):
                    return
        except OSError:
            time.sleep(0.2)
    pytest.skip("chromedriver did not start")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    port = _free_port()
    endpoint = f"http://127.0.0.1:{port}"
    driver = subprocess.Popen([CHROMEDRIVER, f"--port={port}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        _wait_ready(endpoint, driver)
        try:
            session = Browser(endpoint, tmp_path_factory.mktemp("chromium-profile"))
        except WebDriverError as error:
            pytest.skip(f"chromium does not start under chromedriver: {error}")
        yield session
        session.close()
    finally:
        driver.terminate()
        driver.wait(timeout=10)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """file:// URLs of freshly written viewer pages."""
    folder = tmp_path_factory.mktemp("viewer")
    urls = {}
    for name, source in (("game", GAME), ("errors", ERRORS)):
        page = folder / f"{name}.html"
        games = [replay_game(game, RUSSIAN) for game in read_games(source)]
        page.write_text(viewer_html(games), encoding="utf-8")
        urls[name] = page.as_uri()
    return urls


@pytest.fixture(scope="module")
def replayed():
    return replay_game(next(read_games(GAME)), RUSSIAN)


@pytest.mark.parametrize("plies", [0, 1, 4, 7, 10])
def test_right_arrow_n_times_shows_the_position_after_n_plies(browser: Browser, pages, replayed,
                                                              plies: int):
    browser.open(pages["game"])
    browser.press("ArrowRight", plies)
    shown = browser.board()
    expected = board_after(replayed, plies)
    assert (shown["fen"], shown["ply"]) == (expected.fen(), plies)
    pieces = expected.setup().pieces.values()
    assert shown["white"] == sum(piece in "wW" for piece in pieces)
    assert shown["black"] == sum(piece in "bB" for piece in pieces)
    assert shown["kings"] == sum(piece in "WB" for piece in pieces)
    assert shown["arrows"] == (1 if plies else 0)


def test_last_position_shows_the_capture_its_comment_and_a_screenshot(browser: Browser, pages,
                                                                       replayed):
    browser.open(pages["game"])
    browser.press("ArrowRight", 12)  # two presses past the end change nothing
    shown = browser.board()
    assert shown["fen"] == replayed.final_board().fen()
    assert shown["crosses"] == 4 and shown["kings"] == 1
    assert "Black takes four men" in shown["notes"]
    browser.screenshot(ARTIFACTS / "viewer_browser.png")
    assert (ARTIFACTS / "viewer_browser.png").read_bytes().startswith(b"\x89PNG")


def test_left_arrow_and_home_go_back(browser: Browser, pages, replayed):
    browser.open(pages["game"])
    browser.press("End")
    browser.press("ArrowLeft", 3)
    assert browser.board()["fen"] == board_after(replayed, 7).fen()
    browser.press("Home")
    assert browser.board()["ply"] == 0


def test_clicking_a_move_shows_the_position_after_it(browser: Browser, pages, replayed):
    browser.open(pages["game"])
    browser.click('.moves:not([hidden]) .move[data-node="4"]')
    assert browser.board()["fen"] == board_after(replayed, 4).fen()


def test_a_failed_move_is_shown_in_red_with_its_message(browser: Browser, pages):
    browser.open(pages["errors"])
    browser.press("End")
    shown = browser.board()
    assert "capture is compulsory" in shown["error"]
    colour = browser.run("""return getComputedStyle(
        document.querySelector('.moves:not([hidden]) .move.error')).color""")
    assert colour in ("rgb(198, 40, 40)", "rgb(255, 255, 255)")  # red, white on red if current


def test_the_fragment_opens_a_game_of_the_list_at_a_ply(browser: Browser, pages):
    browser.open(pages["errors"] + "#game=2&ply=3")
    shown = browser.board()
    title = browser.run("return document.getElementById('title').textContent")
    assert title.startswith("Popov, Pyotr – Volkov, Oleg") and shown["ply"] == 3
    browser.click('#games li[data-game="0"]')
    assert browser.board()["ply"] == 0
    assert browser.run("return document.getElementById('title').textContent").startswith(
        "Smirnov")
