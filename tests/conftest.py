"""Shared test fixtures: where the public archives live (``../shared/data``), and their games
read once per test session."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.engines import SCAN_SOURCE_NAME, build_scan, child_processes, find_dame

from pdn import compiled
from pdn.game import Game
from pdn.reader import read_games

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("PDN_SHARED_DATA", ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder of real archives; the test is skipped where it is absent (a fresh clone)."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA


@pytest.fixture(scope="session")
def archive(shared_data: Path) -> Callable[[Path], list[Game]]:
    """``archive(path)``: every game of an archive file, read once per test session and
    shared by the tests that read it (which must not change them)."""
    cache: dict[Path, list[Game]] = {}

    def games(path: Path) -> list[Game]:
        if path not in cache:
            cache[path] = list(read_games(path))
        return cache[path]

    return games


UNDER_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require(available: bool, what: str) -> None:
    """Skip a test whose real component (a browser, a peer library, dask.distributed) is
    missing on a developer's machine; under CI (``CI=true``) the same absence FAILS the test,
    so a green CI never hides a check that did not run."""
    if available:
        return
    if UNDER_CI:
        pytest.fail(f"{what} is missing under CI, where this test must run", pytrace=False)
    pytest.skip(f"{what} is not available")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator:
    """Headless Chromium driven over WebDriver (``support.webdriver``), one per test module,
    left at its default size; ``require``'s rule where it cannot start."""
    from support.webdriver import Browser, chromium_session

    with chromium_session(tmp_path_factory.mktemp("chromium-profile")) as session:
        require(isinstance(session, Browser), str(session))
        yield session
        session.resize(1200, 800)


def pytest_configure(config: pytest.Config) -> None:
    """A module of the rules core that runs compiled (``pdn.compiled``) is an extension
    module, whose doctests pytest cannot collect from its source: they run in the pure-Python
    build's suite (``make test-pure``) instead."""
    if compiled.build() == "compiled":
        sources = [str(compiled.source_path(module)) for module in compiled.COMPILED]
        config.option.ignore = [*(config.option.ignore or []), *sources]


@pytest.fixture(scope="session")
def scan_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A freshly built Scan 2.0 (from ``../shared/engines``): run ``./scan hub`` or
    ``./scan dxp`` in this folder, which holds its ``scan.ini`` and ``data/``."""
    source = SHARED_DATA.parent / SCAN_SOURCE_NAME
    require(source.is_dir(), "the Scan 2.0 source in ../shared/engines")
    require(shutil.which("make") is not None and shutil.which("g++") is not None,
            "make and g++ (to build Scan 2.0)")
    return build_scan(source, tmp_path_factory.mktemp("engines"))


@pytest.fixture(scope="session")
def dame_command() -> list[str]:
    """The command line of dame-rs's Hub engine, which speaks the second Hub protocol."""
    dame = find_dame()
    require(dame is not None, "dame-rs (pip install dame-rs; make test-deps)")
    return [str(dame), "hub"]


@pytest.fixture(scope="session")
def builtin_command() -> list[str]:
    """The command line of the built-in engine's Hub server (``pdn engine hub``), which runs
    on the native rules core."""
    from replay.engine.server import builtin_command
    from replay.rules.native import available

    require(available(), "the native rules core (the built-in engine runs on it)")
    return builtin_command()


@pytest.fixture
def no_engine_outlives_a_test():
    """Fails the test that leaves a child process (an engine) behind, living or a zombie."""
    before = set(child_processes())
    yield
    left = [child for child in child_processes() if child not in before]
    assert not left, f"processes left behind: {left}"
