"""pydraughts' opening ballots (``draughts/ballot_files/*.json``) checked on our reader and rules.

Each file maps a key to a FEN (``all``) and lists the keys ``Ballots`` deals (``standard``, and
``lost`` for ballots known to lose). Every entry of every file is checked, none sampled:

- English 2-, 3-, 4- and 5-move ballots (``"001 09-13 21-17 05-09"``): the moves replay from
  the start of English checkers, read as PDN with GameType 21, and reach the FEN. PDN's English
  (``21,B,8,8,N1,0``) has Black on 1-12 moving first, and pydraughts' FEN calls the side on
  1-12 Black too, so the FENs compare as written, side to move included.
- English 11-man ballots (``"1. Remove 11 and 28; 8-11 24-19"``): the men on the two squares
  named (one of each side) are taken off the start, then the moves replay from there.
- Russian and Brazilian ballots in short notation (``"XIII-21: cd4 fe5 df6 ge5 bc3"``, captures
  without a mark), and the 150 basic positions (``"1-I cd4 ba5 dc5"``, and ``"5-VII Free"``,
  the start itself), which replay under both variants. The keys are the IDF Drawing Table 64's
  codes with the two parts swapped (its 1-II is pydraughts' II-1; lidraughts' copy of the
  table, Mind-Sports-Games/strategygames ``DrawTablesIDF.scala``, has both the moves and the
  FENs).
- Relocation ballots (``"VIII-1: a3-g5 d6-c5"``) are not moves: that table's other kind of
  starting position, where before play White's man from a3 is set on g5 and Black's from d6 on
  c5 (lidraughts lists them with no moves and the FEN of the start so changed); ``---`` is a
  side's relocation left out. Checked: each origin holds that side's man at the start, each
  destination is a playing square left empty once the origins are vacated, and the FEN is the
  start with those men moved. The side to move counts the parts as plies (the table's
  ``a1-a5`` alone leaves Black to move, as the lone move ``ab4`` does): two parts, White.
- Italian 11-man ballots: the keys are bare numbers, so there is nothing to replay. Checked what
  all 2,400 positions share: each reads on the Italian board (``22,W,8,8,N2,1``), White to move,
  no kings, and each side's men are the start's less one man, with at most one legal move of
  one of them made from there.
- The lists: ``standard`` and ``lost`` together name each key of ``all`` exactly once.

Where pydraughts' data is wrong, ``PEER_DATA_WRONG`` says so and the tests expect exactly
those entries (docs/testing.md, "Peers' data we found wrong", lists them with the reasons).
The peer lives in its own venv (``bench/peers.py``); without it the tests skip, and fail under
``CI=true``. Only its data files are read; its code is run for nothing but its location.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT, require

from pdn.fen import Setup, format_fen, parse_fen
from pdn.reader import read_games
from replay.record.board import Board
from replay.record.replayer import VALID, replay_game
from replay.rules.position import Position, position_from_setup, start_position
from replay.rules.variants import Variant, get_variant

sys.path.insert(0, str(ROOT / "bench"))
import peers

ENGLISH_MOVES = ("2move_english.json", "3move_english.json", "4move_english.json",
                 "5move_english.json")
ELEVEN_ENGLISH, ELEVEN_ITALIAN = "11_english.json", "11_italian.json"
RUSSIAN, BRAZILIAN, BASIC = "russian.json", "brazilian.json", "150russian_and_brazilian.json"
FILES = {*ENGLISH_MOVES, ELEVEN_ENGLISH, ELEVEN_ITALIAN, RUSSIAN, BRAZILIAN, BASIC}

ENGLISH_KEY = re.compile(r"\d+:? ((?:\d+[-x]\d+)(?: \d+[-x]\d+)*)")
ELEVEN_KEY = re.compile(r"\d+\. Remove (\d+) and (\d+); ((?:\d+[-x]\d+)(?: \d+[-x]\d+)*)")
IDF_KEY = re.compile(r"(?:[IVXL]+-\d+:|\d+-[IVXL]+) (.+)")
SHORT_MOVE = re.compile(r"[a-h][a-h][1-8]")
RELOCATION = re.compile(r"([a-h][1-8])-([a-h][1-8])|---")

# (file, key) -> what is wrong with the entry; docs/testing.md has the same list.
LIST_SLIPS = ("in no list", "listed twice")  # slips of the lists, not of the entry itself
PEER_DATA_WRONG = {
    ("3move_english.json", "013 09-13 23-18 10-14"): "listed twice",
    ("5move_english.json", "1617: 10-15 21-17 6-10 23-19 11-16"): "in no list",
    (RUSSIAN, "XXVII-9: gh4 ba5 hg3 ab6 ef4 dc5"): "side to move",
    (BRAZILIAN, "XXVII-9: gh4 ba5 hg3 ab6 ef4 dc5"): "side to move",
    (RUSSIAN, "XX-18: e3-a5 e7-g5"): "side to move",
    (BRAZILIAN, "XX-18: e3-a5 e7-g5"): "side to move",
    (BASIC, "2-IV ef4 fe5 ab4"): "pieces",
}


@dataclass(frozen=True)
class Ballot:
    """One entry: its key, the FEN pydraughts gives, the moves, and the FEN play starts from
    (None: the variant's start)."""

    key: str
    fen: str
    moves: tuple[str, ...]
    start_fen: str | None = None


def wrong(file: str) -> dict[str, str]:
    """The entries of one file that ``PEER_DATA_WRONG`` names for what they hold (their
    FEN or their key), the lists' slips left out."""
    return {key: why for (name, key), why in PEER_DATA_WRONG.items()
            if name == file and why not in LIST_SLIPS}


def peer_package() -> Path:
    """The folder of the ``draughts`` package in the pydraughts venv."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    done = subprocess.run(
        [str(peers.PYDRAUGHTS.python), "-I", "-c",
         "import draughts, os; print(os.path.dirname(draughts.__file__))"],
        capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return Path(done.stdout.strip())


@pytest.fixture(scope="module")
def ballots() -> dict[str, dict]:
    """Every ballot file of the installed pydraughts, by file name."""
    require(peers.installed(peers.PYDRAUGHTS), f"the peer {peers.PYDRAUGHTS.name} (make test-deps)")
    folder = peer_package() / "ballot_files"
    return {path.name: json.loads(path.read_text()) for path in sorted(folder.glob("*.json"))}


def english_ballots(data: dict) -> list[Ballot]:
    """The 2- to 5-move ballots: moves from the start."""
    found = []
    for key, fen in data["all"].items():
        match = ENGLISH_KEY.fullmatch(key)
        assert match, f"not an English ballot key: {key!r}"
        found.append(Ballot(key, fen, tuple(match.group(1).split())))
    return found


def eleven_man_ballots(data: dict) -> list[Ballot]:
    """The 11-man ballots, each starting from the start less the two men its key removes."""
    variant = get_variant("english")
    notation = variant.gametype.notation
    start = Board(variant, start_position(variant)).setup()
    found = []
    for key, fen in data["all"].items():
        match = ELEVEN_KEY.fullmatch(key)
        assert match, f"not an 11-man ballot key: {key!r}"
        removed = {notation.square(match.group(1)), notation.square(match.group(2))}
        assert sorted(start.pieces.get(square, "") for square in removed) == ["b", "w"], key
        setup = Setup(start.white_to_move,
                      {sq: piece for sq, piece in start.pieces.items() if sq not in removed})
        found.append(Ballot(key, fen, tuple(match.group(3).split()), format_fen(setup, notation)))
    return found


def idf_parts(key: str) -> list[str]:
    """What an IDF ballot's key says after its code: moves, relocations or ``Free``."""
    match = IDF_KEY.fullmatch(key)
    assert match, f"not an IDF ballot key: {key!r}"
    return match.group(1).split()


def is_relocation(parts: list[str]) -> bool:
    """Whether a key relocates men (``a3-g5 d6-c5``) rather than playing moves; a key that is
    neither fails the test."""
    if all(RELOCATION.fullmatch(part) for part in parts) and len(parts) <= 2:
        return True
    assert parts == ["Free"] or all(SHORT_MOVE.fullmatch(part) for part in parts), parts
    return False


def short_notation_ballots(data: dict) -> list[Ballot]:
    """The Russian or Brazilian ballots played from the start, relocations left out."""
    found = []
    for key, fen in data["all"].items():
        parts = idf_parts(key)
        if not is_relocation(parts):
            found.append(Ballot(key, fen, tuple(part for part in parts if part != "Free")))
    return found


def movetext(moves: tuple[str, ...]) -> str:
    """The moves with move numbers, as PDN writes them."""
    return " ".join(f"{n // 2 + 1}. {' '.join(moves[n:n + 2])}" for n in range(0, len(moves), 2))


def replay_findings(variant: Variant, entries: list[Ballot]) -> dict[str, str]:
    """Replay every ballot from its start, read as PDN with the variant's GameType; the ones
    that do not reach their FEN, with what differs (a move, the pieces or the side to move)."""
    texts = []
    for ballot in entries:
        fen = f'[FEN "{ballot.start_fen}"]\n' if ballot.start_fen else ""
        texts.append(f'[GameType "{variant.gametype.number}"]\n{fen}\n{movetext(ballot.moves)} *')
    findings = {}
    for ballot, game in zip(entries, read_games("\n\n".join(texts)), strict=True):
        replayed = replay_game(game)
        if replayed.status != VALID or replayed.plies != len(ballot.moves):
            problem = (replayed.errors or replayed.warnings or [None])[0]
            findings[ballot.key] = f"move {problem.token}: {problem.message}" if problem else (
                f"{replayed.plies} of {len(ballot.moves)} moves read")
            continue
        stated = position_from_setup(parse_fen(ballot.fen, variant.gametype.notation))
        if replayed.final != stated:
            findings[ballot.key] = "pieces" if not same_pieces(replayed.final, stated) else (
                "side to move")
    return findings


def same_pieces(one: Position | None, other: Position) -> bool:
    return one is not None and (one.white, one.black, one.kings) == (
        other.white, other.black, other.kings)


def test_the_ballot_files_are_the_ones_checked(ballots: dict[str, dict]):
    assert set(ballots) == FILES


@pytest.mark.parametrize("file", [*ENGLISH_MOVES, ELEVEN_ENGLISH])
def test_english_ballots_replay_to_their_fen(ballots: dict[str, dict], file: str):
    data = ballots[file]
    entries = eleven_man_ballots(data) if file == ELEVEN_ENGLISH else english_ballots(data)
    assert len(entries) == len(data["all"])
    found = replay_findings(get_variant("english"), entries)
    assert found == wrong(file)


@pytest.mark.parametrize(("file", "variant"), [(RUSSIAN, "russian"), (BRAZILIAN, "brazilian"),
                                               (BASIC, "russian"), (BASIC, "brazilian")])
def test_russian_and_brazilian_ballots_replay_to_their_fen(ballots: dict[str, dict], file: str,
                                                          variant: str):
    entries = short_notation_ballots(ballots[file])
    assert entries
    found = replay_findings(get_variant(variant), entries)
    expected = {key: why for key, why in wrong(file).items()
                if not is_relocation(idf_parts(key))}
    assert found == expected


def relocated(variant: Variant, parts: list[str]) -> tuple[Setup | None, str]:
    """The start with the men the parts name set on their new squares (White's part first),
    or None and why that cannot be done."""
    notation = variant.gametype.notation
    start = Board(variant, start_position(variant)).setup()
    pieces, placed = dict(start.pieces), []
    for part, man in zip(parts, "wb", strict=False):
        if part == "---":
            continue
        origin, destination = (notation.square(name) for name in part.split("-"))
        if pieces.pop(origin, None) != man:
            return None, f"no {man} man on {part[:2]} at the start"
        placed.append((destination, man))
    for destination, man in placed:
        if destination in pieces:
            return None, f"{notation.name(destination)} is not empty"
        pieces[destination] = man
    return Setup(len(parts) % 2 == 0, pieces), ""


@pytest.mark.parametrize(("file", "variant"), [(RUSSIAN, "russian"), (BRAZILIAN, "brazilian")])
def test_relocation_ballots_are_the_start_with_the_named_men_moved(
        ballots: dict[str, dict], file: str, variant: str):
    rules = get_variant(variant)
    notation = rules.gametype.notation
    found, checked = {}, 0
    for key, fen in ballots[file]["all"].items():
        parts = idf_parts(key)
        if not is_relocation(parts):
            continue
        checked += 1
        setup, why = relocated(rules, parts)
        stated = parse_fen(fen, notation)
        if setup is None:
            found[key] = why
        elif stated.pieces != setup.pieces:
            found[key] = "pieces"
        elif stated.white_to_move != setup.white_to_move:
            found[key] = "side to move"
    assert checked > 300
    assert found == {key: why for key, why in wrong(file).items()
                     if is_relocation(idf_parts(key))}


def side_men(variant: Variant, man: str) -> set[frozenset[int]]:
    """Every set of one side's men that the start less one of them, with at most one legal
    move of that side made from there, leaves."""
    start = Board(variant, start_position(variant)).setup()
    own = {square for square, piece in start.pieces.items() if piece == man}
    found = set()
    for removed in own:
        pieces = {sq: piece for sq, piece in start.pieces.items() if sq != removed}
        board = Board(variant, position_from_setup(Setup(man == "w", pieces)))
        found.add(frozenset(own - {removed}))
        for move in board.legal_moves():
            found.add(frozenset((own - {removed, move.origin}) | {move.destination}))
    return found


def test_italian_eleven_man_ballots_are_the_start_less_one_man_each_and_one_move_at_most(
        ballots: dict[str, dict]):
    italian = get_variant("italian")
    white_men, black_men = side_men(italian, "w"), side_men(italian, "b")
    positions = ballots[ELEVEN_ITALIAN]["all"]
    assert len(positions) == 2400
    for key, fen in positions.items():
        setup = parse_fen(fen, italian.gametype.notation)
        assert setup.white_to_move, key
        assert Counter(setup.pieces.values()) == {"w": 11, "b": 11}, key
        white = frozenset(sq for sq, piece in setup.pieces.items() if piece == "w")
        black = frozenset(sq for sq, piece in setup.pieces.items() if piece == "b")
        assert white in white_men and black in black_men, (key, fen)


def test_standard_and_lost_name_every_ballot_once(ballots: dict[str, dict]):
    found = {}
    for file, data in ballots.items():
        listed = Counter(data["standard"] + data.get("lost", []))
        assert set(listed) <= set(data["all"]), file
        for key in data["all"]:
            if listed[key] != 1:
                found[file, key] = "in no list" if not listed[key] else "listed twice"
    assert found == {entry: why for entry, why in PEER_DATA_WRONG.items() if why in LIST_SLIPS}


def test_brazilian_table_leaves_out_the_russian_ballots_brazilian_rules_forbid(
        ballots: dict[str, dict]):
    russian = short_notation_ballots(ballots[RUSSIAN])
    illegal = set(replay_findings(get_variant("brazilian"), russian)) - set(wrong(RUSSIAN))
    assert illegal
    assert not illegal & set(ballots[BRAZILIAN]["all"])


def test_the_testing_doc_lists_the_wrong_entries():
    section = (ROOT / "docs" / "testing.md").read_text().partition(
        "## Peers' data we found wrong")[2].partition("\n## ")[0]
    assert section
    for file, key in PEER_DATA_WRONG:
        assert file in section and key in section, (file, key)
