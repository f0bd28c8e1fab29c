"""A small WebDriver client on the standard library, for the viewer's browser test and
``bench/view.py``: Chromium driven by ChromeDriver through the W3C protocol (plain JSON over
HTTP). ``chromium_session(profile)`` starts both and yields a ``Browser``, or None where
Debian's ``chromium`` and ``chromium-driver`` are missing or do not start."""

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
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = next(filter(None, map(shutil.which, ("chromium", "chromium-browser"))), None)
CHROMEDRIVER = shutil.which("chromedriver")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--window-size=1200,800"]
KEYS = {"ArrowRight": "\ue014", "ArrowLeft": "\ue012", "ArrowUp": "\ue013",
        "ArrowDown": "\ue015", "Home": "\ue011", "End": "\ue010", "PageUp": "\ue00e",
        "PageDown": "\ue00f"}
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C key of an element reference


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

    def command(self, method: str, path: str, body: dict | None = None, timeout: float = 60):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.endpoint + path, data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            raise WebDriverError(json.load(error)["value"].get("message", str(error))) from None

    def open(self, url: str, timeout: float = 60) -> None:
        """Load a page; returns when the new page (not the one it replaces, which may still
        take keys for a moment, lost with it) has loaded and its scripts have run."""
        # by way of an empty page, so that an address differing only in its #fragment
        # loads the page again, as opening it afresh does
        self.command("POST", f"{self.session}/url", {"url": "about:blank"}, timeout)
        self.run("window.replacedPage = true;")
        self.command("POST", f"{self.session}/url", {"url": url}, timeout)
        deadline = time.monotonic() + timeout
        while not self.run('return !window.replacedPage && document.readyState === "complete";'):
            if time.monotonic() > deadline:
                raise WebDriverError(f"{url}: the page did not finish loading")
            time.sleep(0.05)

    def press(self, key: str, times: int = 1) -> None:
        code = KEYS[key]
        strokes = [{"type": kind, "value": code} for _ in range(times)
                   for kind in ("keyDown", "keyUp")]
        self.command("POST", f"{self.session}/actions",
                     {"actions": [{"type": "key", "id": "keyboard", "actions": strokes}]})

    def type(self, css: str, text: str) -> None:
        """Type text into an input element."""
        self.command("POST", f"{self.session}/element/{self._find(css)}/value", {"text": text})

    def click(self, css: str) -> None:
        self.command("POST", f"{self.session}/element/{self._find(css)}/click", {})

    def drag(self, start: str, end: str, pointer: str = "mouse") -> None:
        """Press on one element, move to another and let go, with a ``mouse``, ``pen`` or
        ``touch`` pointer (W3C actions: the browser sends its pointer events)."""
        self.gesture(pointer, ("down", start), ("up", end))

    def tap(self, css: str, pointer: str = "touch") -> None:
        """Press and let go on an element with a pointer (a finger by default)."""
        self.gesture(pointer, ("down", css), ("up", css))

    def gesture(self, pointer: str, *steps: tuple[str, str]) -> None:
        """Pointer steps, each ``("down" | "up", css)``: move onto the element, then press
        or let go. The elements are all found before the first step."""
        found = [(kind, self._find(css)) for kind, css in steps]
        actions = []
        for kind, element in found:
            actions.append({"type": "pointerMove", "duration": 100, "x": 0, "y": 0,
                            "origin": {ELEMENT: element}})
            actions.append({"type": "pointerDown" if kind == "down" else "pointerUp",
                            "button": 0})
        self.command("POST", f"{self.session}/actions", {"actions": [
            {"type": "pointer", "id": pointer, "parameters": {"pointerType": pointer},
             "actions": actions}]})
        self.command("DELETE", f"{self.session}/actions")

    def _find(self, css: str) -> str:
        found = self.command("POST", f"{self.session}/element",
                             {"using": "css selector", "value": css})
        return found[ELEMENT]

    def run(self, script: str):
        return self.command("POST", f"{self.session}/execute/sync",
                            {"script": script, "args": []})

    def resize(self, width: int, height: int) -> None:
        """Set the window's size in pixels (a desktop, or a phone's width)."""
        self.command("POST", f"{self.session}/window/rect", {"width": width, "height": height})

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self.command("GET", f"{self.session}/screenshot")))

    def close(self) -> None:
        self.command("DELETE", self.session)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _ready(endpoint: str, driver: subprocess.Popen) -> bool:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and driver.poll() is None:
        try:
            with urllib.request.urlopen(endpoint + "/status", timeout=2) as response:
                if json.load(response)["value"].get("ready"):
                    return True
        except OSError:
            time.sleep(0.2)
    return False


@contextmanager
def chromium_session(profile: Path) -> Iterator[Browser | str]:
    """A browser session, or the reason there is none (a string)."""
    if not (CHROMIUM and CHROMEDRIVER):
        yield "Debian's chromium and chromium-driver"
        return
    port = _free_port()
    endpoint = f"http://127.0.0.1:{port}"
    driver = subprocess.Popen([CHROMEDRIVER, f"--port={port}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        if not _ready(endpoint, driver):
            yield "chromedriver (it did not start)"
            return
        try:
            session = Browser(endpoint, profile)
        except WebDriverError as error:
            yield f"chromium under chromedriver (it did not start: {error})"
            return
        try:
            yield session
        finally:
            session.close()
    finally:
        driver.terminate()
        driver.wait(timeout=10)


def wait_for(browser: Browser, script: str, timeout: float = 30):
    """The first true value of a script, run until then (a page loading may refuse it)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = browser.run(script)
        except WebDriverError:
            value = None
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"never true: {script}")
