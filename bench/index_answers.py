"""Whether two databases of one archive answer alike: ``pdn search`` and ``pdn explore`` (the
explorer's table and its ``--book``) run as whole commands on each, their outputs compared.

    .venv/bin/python bench/index_answers.py OLD.db NEW.db [--old-pdn /other/tree/.venv/bin/pdn]

Made to check a change of how ``pdn index`` writes a database (a new schema, a faster load)
against a database the previous version wrote: ``--old-pdn`` runs that version's ``pdn`` on
OLD.db (a database of an older schema is refused by this version's). The positions are OCA
2.0's (the start, the most played positions at a few plies, read from NEW.db); the criteria
cover every way a search or the explorer reads the database: by key, by pattern planes, by
material at the end and at any ply, by moves, by player (the explorer then reads the games).
Prints one line per question and the number that differ; exit status 1 when any does.
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

PDN = Path(sys.executable).parent / "pdn"
PLIES = (4, 10, 20, 30)  # a most played position at each of these plies
SEARCHES = (
    ("--pattern", "any(14,15)=bk 1-4=empty"),
    ("--pattern", "22=wm 11=bm"),
    ("--material", "W:2K B:1K"),
    ("--material", "W:3M B:3M", "--material-any-ply"),
    ("--moves", "11-15 23-19"),
    ("--moves", "9-14 22-18 5-9"),
    ("--player", "Tinsley"),
    ("--player", "Oldbury", "--date-from", "1900"),
)
EXPLORES = ((), ("--moves", "11-15 23-19"), ("--moves", "11-15 23-19", "--player", "Tinsley"),
            ("--moves", "9-14", "--date-from", "1950"))


def positions(database: Path) -> list[str]:
    """The FEN of the most played position at each of ``PLIES`` (ties: the smallest key)."""
    connection = sqlite3.connect(database)
    try:
        return [connection.execute(
            "SELECT p.fen FROM (SELECT position_key, COUNT(*) AS games FROM game_positions "
            "WHERE ply = ? GROUP BY position_key ORDER BY games DESC, position_key LIMIT 1) "
            "AS top JOIN positions p USING (position_key)", (ply,)).fetchone()[0]
            for ply in PLIES]
    finally:
        connection.close()


def questions(database: Path) -> list[tuple[str, ...]]:
    """Every command to put to both databases (the database itself left out)."""
    found: list[tuple[str, ...]] = []
    for fen in positions(database):
        found.append(("search", "--position", fen, "--format", "json"))
        found.append(("explore", "--position", fen, "--json"))
        found.append(("explore", "--position", fen, "--json", "--player", "Tinsley"))
    found += [("search", *criteria, "--format", "json") for criteria in SEARCHES]
    found += [("explore", *criteria, "--json") for criteria in EXPLORES]
    found += [("explore", "--book", "{book}", "--depth", "6"),
              ("explore", "--moves", "11-15", "--book", "{book}", "--depth", "4",
               "--min-games", "3")]
    return found


def answer(pdn: str, database: Path, question: tuple[str, ...]) -> str:
    """A command's exit status, output and, for ``--book``, the book it wrote."""
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "book.pdn"
        args = [part.replace("{book}", str(book)) for part in question]
        done = subprocess.run([pdn, args[0], str(database), *args[1:]], capture_output=True,
                              text=True, check=False)
        written = book.read_text(encoding="utf-8") if book.exists() else ""
    told = (done.stdout + done.stderr).replace(str(book), "{book}")  # a folder of its own
    return f"{done.returncode}\n{told}{written}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--old-pdn", default=str(PDN), help="the pdn that reads OLD")
    parser.add_argument("--new-pdn", default=str(PDN), help="the pdn that reads NEW")
    options = parser.parse_args()
    differ = 0
    for question in questions(options.new):
        old = answer(options.old_pdn, options.old, question)
        new = answer(options.new_pdn, options.new, question)
        same = old == new
        differ += not same
        lines = new.count("\n") - 1
        print(f"{'same' if same else 'DIFFERENT':9} {lines:6} lines  pdn {' '.join(question)}")
    print(f"{differ} of {len(questions(options.new))} answers differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
