"""Real draughts engines for the engine tests: Scan 2.0 built from ``../shared/engines``
(first Hub protocol and DXP) and dame-rs's ``dame hub`` (second Hub protocol).

Neither is copied into the project: Scan is built from its source into a temporary folder
once per test session, dame-rs comes from PyPI (``make test-deps``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

SCAN_SOURCE_NAME = Path("engines") / "scan-2.0"


def build_scan(source: Path, into: Path) -> Path:
    """Build Scan 2.0 in ``into`` and return the folder that holds ``scan`` beside its
    ``scan.ini`` and ``data/`` (Scan reads them from its working directory)."""
    folder = into / "scan-2.0"
    shutil.copytree(source, folder)
    subprocess.run(["make", "-C", "src", "-j2"], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    shutil.move(folder / "src" / "scan", folder / "scan")
    return folder


def find_dame() -> str | None:
    """The ``dame`` command of dame-rs: beside this Python, else on the PATH."""
    dame = Path(sys.executable).with_name("dame")
    return str(dame) if dame.exists() else shutil.which("dame")
