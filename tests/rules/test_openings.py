"""Opening names (replay/reference/openings.tsv, docs/openings.md): every line replays, has a public
source and a position of its own; games of the real archives get their names, checked
against an independent count that reads the move text with a regular expression and never
touches the board."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from pdn.game import Game
from replay.archive.walk import walk_main_line
from replay.record.board import Board
from replay.reference.openings import Opening, all_openings, named_positions, opening_of
from replay.rules.variants import ENGLISH, INTERNATIONAL, RUSSIAN, Variant

NUMBER = re.compile(r"\d+\.")
ENGLISH_MOVE = re.compile(r"\d+(?:[-x]\d+)+")  # 11-15, 15x22, 26x17x10
RUSSIAN_SHORT_MOVE = re.compile(r"\b([a-h]):?([a-h][1-8])\b")  # cd4, d:b6 (file, landing)


def names(games: list[Game], variant: Variant) -> list[str | None]:
    """The name of each game, by the positions its main line reaches."""
    named = []
    for game in games:
        line = walk_main_line(game, variant)
        opening = opening_of(line.positions, line.variant)
        named.append(opening.name if opening is not None else None)
    return named


def english_squares(text: str) -> list[tuple[str, str]]:
    """(from, to) of each move of English numeric move text, first and last square."""
    squares = []
    for move in ENGLISH_MOVE.findall(NUMBER.sub(" ", text)):
        parts = re.split(r"[-x]", move)
        squares.append((parts[0], parts[-1]))
    return squares


def russian_squares(text: str) -> list[tuple[str, str]]:
    """(origin file, landing square) of each move of Russian short move text."""
    return RUSSIAN_SHORT_MOVE.findall(NUMBER.sub(" ", text))


def by_prefix(moves: list[tuple[str, str]], entries: list[tuple[Opening, list]]
              ) -> Opening | None:
    """The longest entry whose moves the game's moves start with, in the same order."""
    best = None
    for opening, line in entries:
        if moves[:len(line)] == line and (best is None or len(line) > len(best[1])):
            best = (opening, line)
    return best[0] if best else None


def check_against_prefixes(records: list[str], named: list[str | None],
                           parse: Callable[[str], list], variant: Variant) -> int:
    """Every game whose move text starts with an entry's moves is named after that entry
    or a longer one it goes on to reach; returns how many games are named only by a
    transposition (or a longer entry), which the prefix count cannot see."""
    entries = [(opening, parse(opening.moves)) for opening in named_positions(
        variant.name).values()]
    plies = {opening.name: opening.plies for opening, _ in entries}
    assert len(records) == len(named)
    transposed = 0
    for record, name in zip(records, named, strict=True):
        prefix = by_prefix(parse(record), entries)
        if prefix is not None:
            assert name is not None and plies[name] >= prefix.plies, (record[:200], name)
            if plies[name] == prefix.plies:
                assert name == prefix.name, (record[:200], name)
        transposed += name is not None and (prefix is None or name != prefix.name)
    return transposed


def movetexts(path: Path, encoding: str = "utf-8") -> list[str]:
    """The move text of each game of a file, cut at each [Event tag, comments removed."""
    text = path.read_text(encoding=encoding, errors="replace")
    records = re.split(r"\n(?=\[Event )", text.strip())
    bodies = []
    for record in records:
        body = "\n".join(line for line in record.splitlines() if not line.startswith("["))
        body = re.sub(r"\{[^}]*\}", " ", body)
        bodies.append(re.sub(r"(1-0|0-1|1/2-1/2|\*)\s*$", " ", body.strip()))
    return bodies


def test_every_entry_replays_has_a_source_and_a_position_of_its_own():
    entries = all_openings()
    counts = Counter(entry.variant for entry in entries)
    assert set(counts) == {"english", "russian", "international"}
    assert all(re.search(r"https?://", entry.source) for entry in entries)
    # named_positions replays each line on load and refuses two names for one position;
    # the table has as many positions as lines.
    table = Path(__file__).resolve().parents[2] / "replay" / "reference" / "openings.tsv"
    lines = [line for line in table.read_text(encoding="utf-8").splitlines()
             if line and not line.startswith(("#", "name\t"))]
    assert len(entries) == len(lines)


def test_an_illegal_or_contradictory_line_cannot_enter_the_table(tmp_path, monkeypatch):
    from replay.record.lines import MoveLineError
    from replay.reference import openings

    table = tmp_path / "openings.tsv"
    monkeypatch.setattr(openings, "TABLE", table)
    table.write_text("A\tenglish\t1.11-15 15-19\thttps://example.org\n", encoding="utf-8")
    openings.named_positions.cache_clear()
    try:
        with pytest.raises(MoveLineError):  # Black cannot move twice
            openings.named_positions("english")
        table.write_text("A\tenglish\t1.11-15 23-19 2.8-11 22-17\thttps://example.org\n"
                         "B\tenglish\t1.11-15 22-17 2.8-11 23-19\thttps://example.org\n",
                         encoding="utf-8")
        openings.named_positions.cache_clear()
        with pytest.raises(ValueError, match="one position, two names"):
            openings.named_positions("english")
    finally:
        openings.named_positions.cache_clear()


def test_a_transposition_gets_the_name():
    # The Checker Maven (docs/openings.md): the Switcher 11-15 21-17 9-13 also comes
    # about from the Edinburgh, 9-13 21-17 11-15.
    board = Board(ENGLISH)
    positions = [board.position]
    for move in ("9-13", "21-17", "11-15"):
        board.push(board.parse(move))
        positions.append(board.position)
    assert opening_of(positions[:2], ENGLISH).name == "Edinburgh"
    assert opening_of(positions, ENGLISH).name == "Switcher"
    # Тычок's order of the exchanges with 4...ef4 5.g:e5 cb6 reaches the Жертва Кукуева
    # position of 1.cd4 fg5 (Wikipedia (ru), «Тычок»).
    board = Board(RUSSIAN)
    positions = [board.position]
    for move in ("c3-b4", "f6-e5", "b4-c5", "d6:b4", "a3:c5", "b6:d4", "e3:c5", "e5-f4",
                 "g3:e5", "c7-b6"):
        board.push(board.parse(move))
        positions.append(board.position)
    assert opening_of(positions[:8], RUSSIAN).name == "Тычок"
    assert opening_of(positions, RUSSIAN).name == "Жертва Кукуева"


def test_oca_games_are_named_as_their_move_text_says(shared_data, archive):
    """Every OCA 2.0 game: the name by position agrees with a regular expression on the
    move text wherever that text starts with an entry's moves; the rest are transpositions
    the regular expression cannot see, and some exist."""
    path = shared_data / "english" / "OCA_2.0.pdn"
    games = archive(path)
    named = names(games, ENGLISH)
    transposed = check_against_prefixes(movetexts(path, "latin-1"), named,
                                         english_squares, ENGLISH)
    assert 0 < transposed < len(games) // 10
    counts = Counter(named)
    # Every English name of a single first move names games, and most games get a name.
    for first in ("Edinburgh", "Double Corner", "Denny", "Kelso", "Bristol", "Dundee"):
        assert counts[first] > 0
    assert counts[None] < len(games) // 10
    # 11-15 22-17 8-11 23-19 9-13 is the Laird and Lady (11-15 23-19 8-11 22-17 9-13).
    swapped = [name for text, name in zip(movetexts(path, "latin-1"), named, strict=True)
               if english_squares(text)[:5] == [("11", "15"), ("22", "17"), ("8", "11"),
                                                 ("23", "19"), ("9", "13")]]
    assert "Laird and Lady" in swapped
    assert set(swapped) <= {"Laird and Lady", "Laird and Lady Refused", "Black Doctor"}


def test_russian_world_championship_games_are_named_as_their_move_text_says(shared_data,
                                                                         archive):
    """WC 1998 writes short moves (file and landing square, ``ed4 dc5``), the notation of
    the Russian entries, so the same regular-expression check applies."""
    path = shared_data / "games-checkers" / "russian" / "World_Championship_1998.pdn"
    games = archive(path)
    named = names(games, RUSSIAN)
    check_against_prefixes(movetexts(path), named, russian_squares, RUSSIAN)
    counts = Counter(named)
    assert sum(count for name, count in counts.items() if name) > len(games) // 4
    # Тычок and Жертва Кукуева are reached by either order of the exchanges.
    assert counts["Жертва Кукуева"] > 0


def test_international_games_get_the_names_a_source_gives(shared_data, archive):
    path = shared_data / "games-checkers" / "internt" / "wk2003.pdn"
    named = names(archive(path), INTERNATIONAL)
    assert {"Chefneux opening", "The Fox"} <= set(named)
