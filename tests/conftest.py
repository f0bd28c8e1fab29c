"""Shared test fixtures: where the public archives live (``../shared/data``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("PDN_SHARED_DATA", ROOT.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder of real archives; the test is skipped where it is absent (a fresh clone)."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA


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
