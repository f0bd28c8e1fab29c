"""Games whose variant differs from their file's: every game of every file of the public
archives that ``pdn validate`` reads as another variant than most of its file's games, with
the evidence its note gives (docs/inference.md lists and justifies each).

    .venv/bin/python bench/file_variants.py [FOLDER] [--markdown]

FOLDER: ``../shared/data`` by default; every ``.pdn``, ``.phn`` and ``.txt`` file under it
is validated on its own (one process), as ``pdn validate FILE --json`` does.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay.record.agreement import file_variant  # noqa: E402
from replay.validate.reports import GameReport, validate_sources  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
SUFFIXES = (".pdn", ".phn", ".txt")


@dataclass(frozen=True)
class Leaving:
    """A game read as another variant than its file's."""

    file: str
    game: int
    line: int
    variant: str
    file_variant: str
    source: str  # tag / option / inferred
    status: str
    evidence: str


def record_files(folder: Path) -> list[Path]:
    """The record files under ``folder``, in name order."""
    return sorted(path for path in folder.rglob("*")
                  if path.is_file() and path.suffix.lower() in SUFFIXES)


def leaving(path: Path) -> tuple[int, str | None, list[Leaving]]:
    """How many games the file holds, its variant (that of most of its games that tell one:
    a record with no square and no FEN does not) and the games read as another."""
    reports = [report for report in validate_sources([str(path)], jobs=1)
               if isinstance(report, GameReport)]
    votes = Counter(report.variant for report in reports if not report.silent)
    shown = file_variant(votes) or next(iter(votes), None)
    if shown is None:
        return len(reports), None, []
    found = [Leaving(str(path), report.game, report.line, report.variant, shown,
                     report.variant_source, report.status,
                     next((note["message"] for note in report.notes
                           if note["code"] == "variant-inferred"), "GameType tag"))
             for report in reports if report.variant != shown]
    return len(reports), shown, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DATA)
    parser.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = parser.parse_args()
    files = games = 0
    found: list[Leaving] = []
    for path in record_files(args.folder):
        count, _, games_leaving = leaving(path)
        files, games = files + 1, games + count
        found += games_leaving
    if args.markdown:
        print("| file | game (line) | read as | file's | source | status | evidence |")
        print("|---|---|---|---|---|---|---|")
    for item in found:
        name = Path(item.file).relative_to(args.folder) if args.folder in Path(
            item.file).parents else item.file
        if args.markdown:
            print(f"| {name} | {item.game} ({item.line}) | {item.variant} | "
                  f"{item.file_variant} | {item.source} | {item.status} | "
                  f"{item.evidence.replace('|', '/')} |")
        else:
            print(f"{name}:{item.line}: game {item.game}: {item.variant} in a "
                  f"{item.file_variant} file ({item.source}, {item.status}): {item.evidence}")
    print(f"\n{len(found)} of {games} games in {files} files leave their file's variant",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
