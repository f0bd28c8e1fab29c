"""The arbiter's report as PDF: its HTML printed on A4 by headless Chromium
(``--print-to-pdf``), the page per problem game its print stylesheet asks for."""

from __future__ import annotations

import os
import shutil
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
        try:
            done = subprocess.run(command, capture_output=True, text=True,
                                  timeout=PRINT_SECONDS, check=False)
        except (OSError, subprocess.TimeoutExpired) as error:
            raise PdfError(f"{Path(browser).name} did not print the report: {error}") from None
        if not printed.is_file() or not printed.stat().st_size:
            detail = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])
            raise PdfError(f"{Path(browser).name} did not print the report: {detail[-1]}")
        with atomic_writer(path, binary=True) as stream, printed.open("rb") as source:
            shutil.copyfileobj(source, stream)
