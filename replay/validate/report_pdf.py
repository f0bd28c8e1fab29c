"""The arbiter's report as PDF: its HTML printed on A4 by headless Chromium
(``--print-to-pdf``), the page per problem game its print stylesheet asks for."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

from replay.run.output import atomic_writer

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PRINT_SECONDS = 300


class PdfError(RuntimeError):
    """The report could not be printed to PDF (no browser, or the browser failed)."""


def find_browser() -> str | None:
    """The headless browser that prints PDF (Chromium or Chrome), None when none is
    installed; the ``PDN_CHROMIUM`` environment variable names another."""
    named = os.environ.get("PDN_CHROMIUM")
    if named is not None:
        return shutil.which(named)
    return next(filter(None, map(shutil.which, BROWSERS)), None)


def write_pdf(html: str, path: str | os.PathLike) -> None:
    """Print a self-contained HTML page to a PDF file, replacing ``path`` atomically;
    raises PdfError when no browser prints it."""
    browser = find_browser()
    if browser is None:
        raise PdfError("--report FILE.pdf needs Chromium (or Chrome) to print the report: "
                       "install it, or write .html and print that from a browser")
    with tempfile.TemporaryDirectory(prefix="pdn-report-") as folder:
        page, printed = Path(folder) / "report.html", Path(folder) / "report.pdf"
        page.write_text(html, encoding="utf-8")
        command = [browser, "--headless", "--no-sandbox", "--disable-gpu",
                   "--disable-dev-shm-usage", "--no-first-run", "--no-pdf-header-footer",
                   f"--user-data-dir={Path(folder) / 'profile'}",
                   f"--print-to-pdf={printed}", page.as_uri()]
        stderr, returncode = _run(command)
        if not printed.is_file() or not printed.stat().st_size:
            detail = (stderr.strip().splitlines() or [f"exit status {returncode}"])
            raise PdfError(f"{Path(browser).name} did not print the report: {detail[-1]}")
        with atomic_writer(path, binary=True) as stream, printed.open("rb") as source:
            shutil.copyfileobj(source, stream)


def _run(command: list[str]) -> tuple[str, int]:
    """Run the browser to its end (at most ``PRINT_SECONDS``): its stderr and exit status.
    It never outlives us (``replay.run.children``: after ``kill -9`` of pdn it lived on for
    30-60 s), and its whole process group goes when it ends, fails or is stopped."""
    from replay.run.children import popen_bound, release

    try:
        process = popen_bound(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, errors="replace")
    except OSError as error:
        raise PdfError(f"{Path(command[0]).name} did not print the report: {error}") from None
    try:
        _, stderr = process.communicate(timeout=PRINT_SECONDS)
    except subprocess.TimeoutExpired:
        raise PdfError(f"{Path(command[0]).name} did not print the report within "
                       f"{PRINT_SECONDS} s") from None
    finally:  # its helpers too (a renderer, a GPU process), whatever happened
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        release(process)
    return stderr, process.returncode
