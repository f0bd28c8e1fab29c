"""The desk behind ``pdn serve`` without the server: its edits on real games with slips
made on purpose, its typed games, its refusals and writing back."""

from __future__ import annotations

import codecs
import copy
import random
from pathlib import Path

import pytest
from support.slips import clean_games, make_slip

from pdn.reader import PdnText, read_games
from pdn.writer import write_game
from replay.record.replayer import replay_game
from replay.rules.variants import ENGLISH, RUSSIAN
from replay.serve.desk import Desk, DeskError, typed_game
from replay.validate.repair import repair_game, suggest, sure_repair

ARCHIVE = "games-checkers/russian/World_Championship_1998.pdn"


@pytest.mark.parametrize("kind", ["missing", "extra", "swap", "exchange", "column"])
def test_a_suggestion_applied_replays_as_the_repair_and_changes_only_the_moves_it_edits(
        shared_data: Path, tmp_path: Path, kind: str):
    rng = random.Random(39)
    slipped = []
    for game, replayed in clean_games(shared_data / ARCHIVE, RUSSIAN, first=12):
        broken = make_slip(game, replayed, kind, rng)
        if broken is not None:
            broken.tags["GameType"] = "25"
            slipped.append(broken)
    path = tmp_path / "slipped.pdn"
    path.write_text("".join(write_game(game) + "\n\n" for game in slipped), encoding="utf-8")
    desk = Desk()
    desk.add_file(str(path))
    mended = 0
    for number, game in enumerate(read_games(path), 1):
        found = suggest(game, RUSSIAN)
        chosen = sure_repair(found)
        if chosen is None:
            continue
        expected = copy.deepcopy(game)
        assert repair_game(expected, RUSSIAN).mend == chosen.mend
        before = desk.game(number).text
        edited = desk.apply_suggestion(number, found.index(chosen))
        assert str(edited.row["status"]) == "valid" and edited.edited
        assert (replay_game(edited.record(), RUSSIAN).moves
                == replay_game(expected, RUSSIAN).moves)
        written = {ply.record.text for ply in game.moves.plies}
        typed = {ply.record.text for ply in expected.moves.plies}
        lines, edited_lines = before.split("\n"), edited.text.split("\n")
        assert len(lines) == len(edited_lines), "nothing re-wrapped"
        changed = [(old, new) for old, new in zip(lines, edited_lines, strict=True) if old != new]
        assert 1 <= len(changed) <= 2, "only the lines of the moves edited change"
        for old, new in changed:  # in them, every word but the moves is kept, in order
            assert ([word for word in old.split() if word not in written]
                    == [word for word in new.split() if word not in typed])
        mended += 1
    assert mended >= 5
    untouched = [game.text for game in desk.games if not game.edited]
    assert all(text in path.read_text(encoding="utf-8") for text in untouched)


def test_a_typed_english_game_is_numbered_and_its_legal_moves_listed_as_the_replayer_does():
    typed = typed_game("english", ["11-15", "23-19", "8-11", "22-17", "15-24"])
    assert typed.accepted == ["11-15", "23-19", "8-11", "22-17"]
    assert typed.error is not None and typed.error.startswith("15-24:")
    listed = typed.error.split("legal moves: ")[1].split()
    assert typed.legal == listed
    game = next(read_games(PdnText(typed.pdn)))
    replayed = replay_game(game)
    assert (replayed.variant, str(replayed.status), len(replayed.moves)) == (ENGLISH,
                                                                            "valid", 4)


@pytest.mark.parametrize("edit, reason", [
    (lambda desk: desk.set_text(1, "1. c3-d4 *\n\n1. c3-d4 *\n"), "holds 2 games"),
    (lambda desk: desk.set_tag(1, "Bad Name", "x"), "not a tag name"),
    (lambda desk: desk.set_tag(1, "White", 'A "quoted" name'), "cannot hold quotes"),
    (lambda desk: desk.set_move(1, 9, "c3-d4"), "has no ply 10"),
    (lambda desk: desk.set_move(1, 0, "c3 d4"), "is not one move"),
    (lambda desk: desk.apply_suggestion(1, 0), "has no suggestion 1"),
    (lambda desk: desk.game(2), "there is no game 2"),
    (lambda desk: typed_game("nonsense", []), "unknown variant"),
])
def test_refusals_say_why_and_change_nothing(edit, reason):
    desk = Desk()
    desk.add_text("t.pdn", '[GameType "25"]\n\n1. c3-d4 f6-g5 *\n')
    before = desk.game(1).text
    with pytest.raises(DeskError, match=reason):
        edit(desk)
    assert desk.game(1).text == before and not desk.game(1).edited


def test_writing_back_keeps_the_first_original(tmp_path: Path):
    path = tmp_path / "r.pdn"
    original = '{a file}\n[GameType "25"]\n\n1. c3-d4 f6-g5 *\n'
    path.write_text(original, encoding="utf-8")
    desk = Desk()
    document = desk.add_file(str(path))
    desk.set_move(1, 1, "f6-e5")
    assert desk.write_back(document).read_text(encoding="utf-8") == original
    desk.set_move(1, 1, "b6-a5")
    desk.write_back(document)
    assert path.with_name("r.pdn.orig").read_text(encoding="utf-8") == original
    assert path.read_text(encoding="utf-8") == original.replace("f6-g5", "b6-a5")
    uploaded = desk.add_text("u.pdn", "1. c3-d4 *\n")
    with pytest.raises(DeskError, match="download it instead"):
        desk.write_back(uploaded)


# -- files in their encodings -----------------------------------------------------------------

TWO_GAMES = ('[Event "Tournoi"]\n[White "{name}"]\n\n1. 32-28 {{page\x0cbreak}} 19-23 *\n\n'
             '[Event "Tournoi"]\n[White "B"]\n\n1. 33-28 *\n')


@pytest.mark.parametrize("codec, bom, newline, name", [
    ("utf-8", b"", "\n", "Müller"),
    ("utf-8", codecs.BOM_UTF8, "\r\n", "Müller"),
    ("latin-1", b"", "\r\n", "Bertè"),
    ("latin-1", b"", "\r", "Bertè"),
    ("cp1251", b"", "\n", "Ренжин Алексей"),
    ("utf-16-le", codecs.BOM_UTF16_LE, "\r\n", "王"),
    ("utf-16-be", codecs.BOM_UTF16_BE, "\n", "王"),
    ("utf-32-le", codecs.BOM_UTF32_LE, "\n", "王"),
], ids=["utf-8", "utf-8 BOM CRLF", "latin-1 CRLF", "latin-1 CR", "cp1251", "utf-16-le",
        "utf-16-be", "utf-32-le"])
def test_a_file_is_given_back_byte_for_byte_and_an_edit_in_its_own_encoding(
        tmp_path: Path, codec: str, bom: bytes, newline: str, name: str):
    text = TWO_GAMES.format(name=name).replace("\n", newline)
    raw = bom + text.encode(codec)
    path = tmp_path / "t.pdn"
    path.write_bytes(raw)
    desk = Desk()
    document = desk.add_file(str(path))
    assert document.encoded() == raw
    assert desk.game(2).text.startswith('[Event "Tournoi"]')  # a form feed is no line end
    desk.set_tag(2, "Round", "2")
    first = raw[:raw.index('[Event "Tournoi"]'.encode(codec), len(bom) + 4)]
    edited = document.encoded()
    assert edited.startswith(first)  # game 1 byte for byte
    assert edited[len(first):].decode(codec).startswith('[Event "Tournoi"]')
    desk.write_back(document)
    assert path.read_bytes() == edited
    assert [game.tags.get("Round") for game in read_games(path)] == [None, "2"]
    assert [game.tags["White"] for game in read_games(path)] == [name, "B"]


@pytest.mark.parametrize("archive", ["games-checkers/italian/ci98-perani.pdn",
                                     "games-checkers/internt/nk2003-amsterdam.pdn"])
def test_a_latin1_archive_is_written_back_in_latin1_and_refuses_what_latin1_cannot_hold(
        shared_data: Path, tmp_path: Path, archive: str):
    raw = (shared_data / archive).read_bytes()
    path = tmp_path / "archive.pdn"
    path.write_bytes(raw)
    desk = Desk()
    document = desk.add_file(str(path))
    assert document.encoding == "latin-1" and document.encoded() == raw
    with pytest.raises(DeskError, match="cannot be written in latin-1") as refused:
        desk.set_tag(1, "Site", "Москва 王")
    assert refused.value.status == 422 and not desk.game(1).edited
    desk.set_tag(2, "Site", "Liège")
    desk.write_back(document)
    written = path.read_bytes()
    assert written.startswith(document.prefix_raw + document.games[0].raw)
    assert written.endswith(b"".join(game.raw for game in document.games[2:]))
    games = list(read_games(path))
    assert games[1].tags["Site"] == "Liège" and len(games) == len(document.games)


def test_a_damaged_utf16_file_is_not_written_back(tmp_path: Path):
    path = tmp_path / "t.pdn"
    path.write_bytes(codecs.BOM_UTF16_LE + TWO_GAMES.format(name="A").encode("utf-16-le")
                     + b"\x00")  # a byte short of a character
    desk = Desk()
    document = desk.add_file(str(path))
    desk.set_tag(1, "Round", "1")
    with pytest.raises(DeskError, match="writing it back would change them") as refused:
        desk.write_back(document)
    assert refused.value.status == 409
    assert not path.with_name("t.pdn.orig").exists()


@pytest.mark.parametrize("archive, glued", [
    ("tests/wiegerw_pdn/succeed/Tricks traps and shots.pdn", 67),  # "0-1[Event ..."
    ("international/brunogui/48th Polish Team Championship.pdn", None),  # a lone "[" line
    ("games-checkers/internt/Cannes_Open_Tournament_2002.pdn", None),
])
def test_every_game_of_a_real_archive_reads_alone_as_its_report_and_the_file_comes_back_whole(
        shared_data: Path, tmp_path: Path, archive: str, glued: int | None):
    raw = (shared_data / archive).read_bytes()
    path = tmp_path / "archive.pdn"
    path.write_bytes(raw)
    desk = Desk()
    document = desk.add_file(str(path))
    assert document.encoded() == raw
    for game in desk.games:
        record = game.record()
        assert (record.tags.get("White") or None, record.tags.get("Black") or None) == (
            game.report.white, game.report.black)
    if glued is not None:  # the game before the glued one edited: the next one untouched
        assert desk.game(glued).text.startswith("[Event")
        assert not desk.game(glued - 1).text.endswith("\n")
        desk.set_tag(glued - 1, "Round", "1")
        desk.write_back(document)
        games = list(read_games(path))
        assert games[glued - 2].tags["Round"] == "1"
        assert [game.tags.get("White") or None for game in games] == [
            game.report.white for game in desk.games]
