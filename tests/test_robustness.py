"""Robustness: hostile or broken input never crashes a command, never hangs, never
loses a game; reading stays linear; outputs are written atomically and never over an input.

Every ``pdn`` command that reads input is run on each hostile file of the issue's list, in
this process through typer's CliRunner under an alarm: no traceback, no hang, and the exit
status the README documents (0 done, 1 invalid records, 2 unreadable input).
"""

from __future__ import annotations

import os
import random
import re
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pdn.cli.app import app
from support.damage import ARCHIVES, MUTATIONS, check_games_kept, mutate, valid_games
from typer.testing import CliRunner

from pdn.lexer import MAX_NESTING
from pdn.reader import read_games
from replay.rules.variants import RUSSIAN
from replay.run.output import atomic_writer

runner = CliRunner()
GOOD = '[Event "good"]\n[GameType "25"]\n1. c3-d4 f6-g5 2. b2-c3 g7-f6 1-0\n\n'
SECONDS = 60  # a command that spends longer in CPU on these small files hangs


# ---- the hostile files -----------------------------------------------------------------------


def _nested(depth: int) -> str:
    return "1. c3-d4 " + "(1. a3-b4 " * depth + ")" * depth + " *"


HOSTILE: dict[str, Callable[[], bytes]] = {
    "random": lambda: random.Random(8).randbytes(20_000),
    "invalid-utf8": lambda: (GOOD + '[Event "\udcff"]\n1. c3-d4 \udcc3( *\n\n' + GOOD).encode(
        "utf-8", "surrogateescape"),
    "nul": lambda: (GOOD + '[Event "a\0b"]\n1. c3\0-d4 *\n\0\0\n\n' + GOOD).encode(),
    "truncated": lambda: (GOOD * 3).encode()[:len(GOOD) * 2 + 30],
    "comment-10mb": lambda: (GOOD + '[Event "c"]\n1. c3-d4 {' + "words " * 1_700_000
                             + "} f6-g5 *\n\n" + GOOD).encode(),
    "line-1mb": lambda: (GOOD + '[Event "l"]\n' + "1. c3-d4 f6-g5 2. d4-c5 b6xd4 " * 35_000
                         + "*\n\n" + GOOD).encode(),
    "nested-variations": lambda: (GOOD + '[Event "n"]\n' + _nested(10_000) + "\n\n"
                                  + GOOD).encode(),
    "nested-tag-brackets": lambda: (GOOD + '[Event "' + "[" * 10_000 + "]" * 10_000 + '"]\n'
                                    "1. c3-d4 *\n\n[Site " + "[" * 10_000 + "]" * 10_000
                                    + "\n1. c3-d4 *\n\n" + GOOD).encode(),
    "digits-1000": lambda: (GOOD + '[Event "d"]\n[PlyCount "' + "9" * 1000 + '"]\n[FEN "W:W'
                            + "9" * 1000 + ":B1:F" + "9" * 5000 + '"]\n' + "1" * 1000
                            + ". c3-d4 $" + "7" * 1000 + " " + "1" * 1000 + "-" + "2" * 1000
                            + " *\n\n" + GOOD).encode(),
    "off-the-board": lambda: (GOOD + '[Event "o"]\n1. a9-k12 99-100 *\n\n[Event "p"]\n'
                              '[GameType "20"]\n1. 51-60 *\n\n[Event "q"]\n'
                              '[FEN "W:W99,100:B0"]\n1. 1-5 *\n\n' + GOOD).encode(),
    "empty": lambda: b"",
    "gametype-digits": lambda: (GOOD + '[Event "t"]\n[GameType "' + "2" * 100_000 + '"]\n'
                                "1. c3-d4 f6-g5 *\n\n" + GOOD).encode(),
    "glued-games": lambda: ('[Event "g"] [GameType "25"] 1. c3-d4 f6-g5 * ' * 2_000
                            + "\n\n" + GOOD).encode(),
}

# validate's exit status for each file: 1 where the reader gives up on a game (the game is
# reported unreadable, the others still replayed) or a game fails to replay, 0 where every
# game replays. Each worked out by hand from the file's text above:
VALIDATE_STATUS = {
    "random": 1,  # random bytes are no PDN game at all
    "invalid-utf8": 1,  # the lone byte 0xC3, read as Latin-1 'Ã', is no move
    "nul": 1,  # 'c3\0-d4' is no move
    "truncated": 0,  # two whole games, then a third cut after its tags: incomplete, not invalid
    "comment-10mb": 0,  # a long comment between two legal moves
    "line-1mb": 1,  # '2. d4-c5 b6xd4' repeated: the second '1. c3-d4' finds c3 empty
    "nested-variations": 1,  # 10,000 deep, past MAX_NESTING
    "nested-tag-brackets": 1,  # '[Site [[[…' is a tag never closed on its line
    "digits-1000": 1,  # '111…-222…', squares of 1000 digits, is no move
    "off-the-board": 1,  # reads, but a9, k12, 99 and 51 are no squares of the board
    "empty": 2,  # no game at all: said so, as for an input that cannot be decoded
    "gametype-digits": 0,  # the GameType is ignored with a warning, the game replays
    "glued-games": 0,  # 2,000 games on one line, each a legal opening
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    for name, make in HOSTILE.items():
        (folder / f"{name}.pdn").write_bytes(make())
    return folder


def commands(source: str, out: Path) -> dict[str, list[str]]:
    """Every command that reads input, writing under ``out``."""
    return {
        "validate": ["validate", source], "convert": ["convert", source, "-o", str(out / "c")],
        "stats": ["stats", source, "-o", str(out / "s.csv")], "info": ["info", source],
        "cat": ["cat", source], "show": ["show", source], "view": ["view", source, "-o",
                                                               str(out / "v.html")],
        "filter": ["filter", source, "-o", str(out / "f"), "--player", "x"],
        "dedupe": ["dedupe", source, "-o", str(out / "d")],
        "split": ["split", source, "-o", str(out / "parts")],
        "merge": ["merge", source, "-o", str(out / "m")],
        "clean": ["clean", source, "-o", str(out / "cl")],
        "moves": ["moves", "--fen-file", source],
    }


@contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """Fail instead of hanging: after ``seconds`` of this process's CPU time (a loop that never
    ends), or ten times as many on the clock (a wait that never ends). CPU time, not the clock,
    so that a loaded machine, which only slows the command down, never fails it."""
    def expire(signum, frame):
        spent = (f"{seconds} s of CPU time" if signum == signal.SIGPROF
                 else f"{10 * seconds} s on the clock")
        raise TimeoutError(f"no answer in {spent}: the command hangs")

    previous = {number: signal.signal(number, expire)
                for number in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.alarm(10 * seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.alarm(0)
        for number, handler in previous.items():
            signal.signal(number, handler)


def invoke(args: list[str]):
    """Run a command; it must end in time, without an exception escaping it."""
    with deadline(SECONDS):
        result = runner.invoke(app, args)
    assert "Traceback" not in result.output, result.output[-3000:]
    assert "internal error" not in result.output, result.output[-3000:]  # a bug, not bad input
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    return result


@pytest.mark.parametrize("command", sorted(commands("x", Path())))
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_no_hostile_file_crashes_or_hangs_a_command(hostile: Path, tmp_path: Path, name: str,
                                                    command: str):
    source = str(hostile / f"{name}.pdn")
    result = invoke(commands(source, tmp_path)[command])
    assert result.exit_code in (0, 1, 2), result.output[-2000:]
    if command == "validate":
        assert result.exit_code == VALIDATE_STATUS[name], result.output[-2000:]
    if name == "empty" and command != "moves":
        assert result.exit_code == 2 and "no games: the file is empty" in result.output
    elif result.exit_code == 2 and command not in ("moves", "show", "view"):
        # the error names the file, and the line and column of the game it gave up on
        assert re.search(re.escape(source) + r":\d+(:\d+)?:", result.output), result.output


@pytest.mark.parametrize("name", sorted(set(HOSTILE) - {"empty", "random"}))
def test_the_good_games_around_hostile_ones_stay_valid(hostile: Path, name: str):
    """GOOD opens and closes every hostile file: both are reported valid."""
    output = invoke(["validate", str(hostile / f"{name}.pdn"), "--json"]).output
    valid = re.findall(r'"status": "valid"', output)
    assert len(valid) >= 2, output[-2000:]


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_no_hostile_file_makes_the_reader_fail_inside(hostile: Path, name: str):
    """Hostile input is rejected as bad input (syntax and the like), never by an exception
    the reader did not expect (an ``internal-error``, a bug of ours)."""
    codes = {d.code for g in read_games(hostile / f"{name}.pdn") for d in g.diagnostics}
    assert "internal-error" not in codes, codes


class _FailingParser:
    """The real parser, but failing on a game that holds ``boom`` as a bug would."""

    def __init__(self, parser) -> None:
        self.parser = parser

    def parse(self, text: str):
        if "boom" in text:
            raise KeyError("boom")
        return self.parser.parse(text)


def test_an_unexpected_exception_is_an_internal_error_not_bad_input(
        monkeypatch: pytest.MonkeyPatch):
    import pdn.reader as reader

    parser, transformer = reader.load_parser()
    monkeypatch.setattr(reader, "load_parser", lambda: (_FailingParser(parser), transformer))
    monkeypatch.setattr(reader, "FAST_PATH", False)  # the parser's failure is the point
    games = list(read_games(GOOD + '[Event "boom"]\n1. c3-d4 *\n\n' + GOOD))
    assert [g.tags.get("Event") for g in games] == ["good", "boom", "good"]
    assert [d.code for g in games for d in g.diagnostics] == ["internal-error"]
    message = games[1].diagnostics[0].message
    assert "KeyError" in message and "bug of pdn-toolkit" in message, message
    assert games[1].diagnostics[0].line == 5  # GOOD is four lines long: 'boom' starts on 5


def test_the_damage_check_of_the_fuzzer_fails_on_an_internal_error(
        monkeypatch: pytest.MonkeyPatch):
    import pdn.reader as reader

    parser, transformer = reader.load_parser()
    monkeypatch.setattr(reader, "load_parser", lambda: (_FailingParser(parser), transformer))
    monkeypatch.setattr(reader, "FAST_PATH", False)  # the parser's failure is the point
    good = GOOD.strip().encode()
    check_games_kept([good], b'[Event "x"]\n1. c3-d4 *', [good], RUSSIAN)  # passes...
    with pytest.raises(AssertionError, match="internal error"):  # ...but not on a bug
        check_games_kept([good], b'[Event "boom"]\n1. c3-d4 *', [good], RUSSIAN)


def test_a_file_cut_off_after_the_tags_of_its_last_game_is_incomplete(hostile: Path):
    """The hostile 'truncated' file ends in the tags of a third game: two valid games and one
    incomplete one, with a warning saying where (GOOD is four lines, so the third game starts
    on line 9)."""
    output = invoke(["validate", str(hostile / "truncated.pdn"), "--json"]).output
    assert re.findall(r'"status": "(\w+)"', output) == ["valid", "valid", "incomplete"]
    assert '"code": "cut-off"' in output and '"line": 9' in output


def test_deep_variations_are_refused_with_their_place_and_shallower_ones_read():
    deep = next(read_games('[Event "x"]\n' + _nested(MAX_NESTING + 1) + "\n"))
    assert "nested more than 100 deep" in deep.errors[0].message
    assert (deep.errors[0].line, deep.errors[0].column) == (2, 10 + 10 * MAX_NESTING)
    game = next(read_games('[Event "x"]\n' + _nested(MAX_NESTING) + "\n"))
    assert not game.errors


def test_the_deepest_readable_game_goes_through_every_command(tmp_path: Path):
    """Writer, converter, viewer, cleaner and deduplicator walk the tree without a
    RecursionError at the deepest nesting the reader accepts."""
    source = tmp_path / "deep.pdn"
    source.write_text(GOOD + '[Event "deep"]\n' + _nested(MAX_NESTING) + "\n\n" + GOOD)
    for command, args in commands(str(source), tmp_path / "out").items():
        if command != "moves":
            assert invoke(args).exit_code == 0, command


def test_a_tag_with_a_quote_left_open_reads_with_a_warning(shared_data: Path):
    """WC 1998 writes [Round "11.1]: read to the ']' of the line, with a located warning."""
    game = next(read_games('[Event "x"]\n[Round "11.1]\n[White "A"]\n1. c3-d4 *\n'))
    assert (game.tags["Round"], game.tags["White"], game.errors) == ("11.1", "A", [])
    assert "2:1: the quote is not closed" in game.diagnostics[0].message
    path = shared_data / "games-checkers/russian/World_Championship_1998.pdn"
    assert not [g for g in read_games(path) if g.errors]


# ---- unreadable files in a directory ---------------------------------------------------------


def _unreadable_file(folder: Path) -> Path:
    """A record file this process cannot read: mode 000, or as root (who reads anything) a
    link to /proc/self/mem, whose first page is never mapped (reading it fails with EIO)."""
    path = folder / "locked.pdn"
    if os.geteuid() != 0:
        path.write_text(GOOD)
        path.chmod(0)
        return path
    if not Path("/proc/self/mem").exists():
        pytest.skip("root without /proc: no file is unreadable")
    path.symlink_to("/proc/self/mem")
    return path


@pytest.fixture
def folder_with_unreadable_files(tmp_path: Path) -> tuple[Path, list[Path]]:
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "a-good.pdn").write_text(GOOD * 2)
    (folder / "dangling.pdn").symlink_to(folder / "missing.pdn")
    return folder, [_unreadable_file(folder), folder / "dangling.pdn"]


@pytest.mark.parametrize("command", ["validate", "convert", "stats", "filter", "dedupe",
                                     "split", "merge", "clean"])
def test_a_folder_with_unreadable_files_exits_2_naming_them(
        folder_with_unreadable_files: tuple[Path, list[Path]], tmp_path: Path, command: str):
    folder, bad = folder_with_unreadable_files
    result = invoke(commands(str(folder), tmp_path)[command])
    assert result.exit_code == 2, result.output
    assert any(str(path) in result.output for path in bad), result.output
    if command in ("validate", "convert"):  # these go on with the other files
        assert all(str(path) in result.output for path in bad), result.output
        assert "2 valid" in result.output or "2 converted" in result.output


@pytest.mark.parametrize("command", ["info", "cat", "show", "view"])
def test_an_unreadable_file_exits_2_naming_it(
        folder_with_unreadable_files: tuple[Path, list[Path]], tmp_path: Path, command: str):
    _, bad = folder_with_unreadable_files
    result = invoke(commands(str(bad[0]), tmp_path)[command])
    assert result.exit_code == 2 and str(bad[0]) in result.output, result.output


# ---- one broken game among good ones ---------------------------------------------------------


BROKEN = '[Event "broken"]\n1. c3-d4 f6-g5 (2. b2-c3 {never closed\n\n'


def test_n_good_games_around_a_broken_one_give_n_valid_and_one_error(tmp_path: Path):
    source = tmp_path / "games.pdn"
    source.write_text(GOOD * 3 + BROKEN + GOOD * 2)
    result = invoke(["validate", str(source)])
    assert result.exit_code == 1 and "6 games: 5 valid, 1 unreadable" in result.output
    assert f"{source}:14:26:" in result.output  # the comment never closed
    result = invoke(["convert", str(source), "-o", str(tmp_path / "out.pdn")])
    assert result.exit_code == 1 and "5 converted, 1 unreadable" in result.output
    assert len(list(read_games(tmp_path / "out.pdn"))) == 5
    result = invoke(["stats", str(source), "-t", "games", "-o", str(tmp_path / "g.csv")])
    rows = (tmp_path / "g.csv").read_text().splitlines()[1:]
    assert len(rows) == 6 and sum(",valid," in row for row in rows) == 5
    result = invoke(["merge", str(source), "-o", str(tmp_path / "all.pdn")])
    assert result.exit_code == 1 and "never closed" in (tmp_path / "all.pdn").read_text()


@pytest.mark.parametrize("broken", [
    '{Event "a"]\n[Site "b"]\n1. c3-d4 *\n',  # "[" flipped to "{": a comment left open
    '[Event "a"]\n[Site "b"]\n[Ro\n',  # a head cut short
    "[\n",  # a lone bracket before the next game
    '[Event "a"]\n1. c3-d4 {a comment\n} *\n. f6-g5 *\n',  # movetext cut after a comment
], ids=["open-comment", "cut-head", "lone-bracket", "after-a-comment"])
def test_a_broken_game_does_not_take_the_next_one_with_it(broken: str):
    """Found by bench/fuzz.py and in brunogui's 48th Polish Team Championship: GOOD before
    and after the broken game both read."""
    games = list(read_games(GOOD + broken + GOOD))
    assert [g.tags.get("Event") for g in games if not g.errors][-1] == "good"
    assert sum(1 for g in games if g.tags.get("Event") == "good" and not g.errors) == 2


# ---- real archives, damaged ------------------------------------------------------------------


@cache
def _real_games(root: Path) -> list[list[bytes]]:
    return [valid_games(root, archive, 12) for archive in ARCHIVES]


@pytest.fixture
def real_games(shared_data: Path) -> list[list[bytes]]:
    """Twelve valid games of each archive of ``tests.damage.ARCHIVES``."""
    return _real_games(shared_data)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(archive=st.integers(0, len(ARCHIVES) - 1), before=st.integers(0, 3),
       after=st.integers(0, 3), kind=st.sampled_from(MUTATIONS), where=st.floats(0, 1),
       size=st.integers(1, 400), byte=st.integers(0, 255))
def test_a_damaged_real_game_never_escapes_nor_hides_its_neighbours(
        real_games: list[list[bytes]], archive: int, before: int, after: int, kind: str,
        where: float, size: int, byte: int):
    games = real_games[archive]
    damaged = mutate(games[before], kind, where, size, byte)
    check_games_kept(games[:before], damaged, games[before + 1:before + 1 + after],
                     ARCHIVES[archive].variant)


# ---- many games -------------------------------------------------------------------------------
# That reading time grows linearly is measured by bench/linear.py: a wall-clock bound in a test
# on a shared machine proves nothing either way.


def test_many_tiny_games_through_validate(tmp_path: Path):
    source = tmp_path / "tiny.pdn"
    source.write_text('[Event "x"]\n[GameType "25"]\n1. c3-d4 f6-g5 *\n\n' * 20_000)
    result = invoke(["validate", str(source), "-j", "1"])
    assert result.exit_code == 0 and "20,000 games: 20,000 valid" in result.output


# ---- output safety ---------------------------------------------------------------------------


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_an_interrupted_atomic_write_leaves_the_old_file_and_no_temporary(tmp_path: Path):
    target = tmp_path / "out.pdn"
    target.write_text("old")
    with pytest.raises(KeyboardInterrupt), atomic_writer(target) as stream:
        stream.write("half")
        raise KeyboardInterrupt
    assert target.read_text() == "old" and _leftovers(tmp_path) == []


@pytest.mark.parametrize("command", ["convert", "merge", "split"])
def test_ctrl_c_while_writing_leaves_no_half_written_output(tmp_path: Path, command: str,
                                                            monkeypatch: pytest.MonkeyPatch):
    import replay.archive.run as archive_run
    import replay.convert.games as convert

    source = tmp_path / "in.pdn"
    source.write_text(GOOD * 5)
    out = tmp_path / "out"
    out.mkdir()
    target = out / "result.pdn"
    target.write_text("old")
    calls = []

    def interrupted(real):
        def wrapper(*args, **kwargs):
            calls.append(1)
            if len(calls) == 3:
                raise KeyboardInterrupt
            return real(*args, **kwargs)
        return wrapper

    # every game goes through convert_plainly (a plain one is written there, by the native
    # core where it is built), the others through render too
    monkeypatch.setattr(convert, "convert_plainly", interrupted(convert.convert_plainly))
    monkeypatch.setattr(archive_run, "game_text", interrupted(archive_run.game_text))
    args = {"convert": ["convert", str(source), "-o", str(target)],
            "merge": ["merge", str(source), "-o", str(target), "-j", "1"],
            "split": ["split", str(source), "-o", str(out), "--by", "count:1", "-j", "1"]}
    with deadline(SECONDS):
        result = runner.invoke(app, args[command])
    assert result.exit_code != 0 and len(calls) == 3
    assert target.read_text() == "old" and _leftovers(out) == []
    assert sorted(p.name for p in out.iterdir()) == ["result.pdn"]


@pytest.mark.parametrize("command", ["convert", "stats", "view", "filter", "dedupe", "merge",
                                     "clean"])
def test_an_output_equal_to_an_input_is_refused(tmp_path: Path, command: str):
    source = tmp_path / "games.csv" if command == "stats" else tmp_path / "games.pdn"
    source.write_text(GOOD)
    args = commands(str(source), tmp_path)[command]
    args[args.index("-o") + 1] = str(source)
    result = invoke(args)
    assert result.exit_code == 2 and "refusing to write" in result.output, result.output
    assert source.read_text() == GOOD
