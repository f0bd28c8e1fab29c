"""Faults of inputs and processes: a file name that holds a line break is a path, input
without game boundaries costs linear time and bounded memory, worker processes end with a
killed parent, SIGTERM cleans up, and two ``pdn index`` runs on one new database both work.

Real files, real processes: the commands run as child processes and are killed with real
signals; whether their workers are gone is read in ``/proc`` (Linux).
"""

from __future__ import annotations

import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

import pdn.chunks as chunks
from pdn.chunks import block_chunks, split_blocks, split_chunks
from pdn.reader import PdnText, read_games
from replay.run.reading import read_games as parallel_read_games

runner = CliRunner()
MAIN = "from pdn.cli.app import main; main()"  # the console script's entry, SIGTERM included
LINUX = sys.platform.startswith("linux")


def _real_games(shared_data: Path, count: int = 3) -> str:
    """The first ``count`` games of a public archive, as their text in the file."""
    path = shared_data / "international" / "fmjd_wk2007_all_games.pdn"
    with open(path, encoding="utf-8") as handle:
        return "".join([chunk.text for chunk in split_chunks(handle)][:count])


# ---- 2. a path is a path, whatever its name holds ------------------------------------------


@pytest.fixture
def broken_name(shared_data: Path, tmp_path: Path) -> Path:
    path = tmp_path / "a\nb.pdn"
    path.write_text(_real_games(shared_data), encoding="utf-8")
    return path


def test_merge_of_a_file_named_with_a_line_break_writes_its_games(broken_name, tmp_path):
    out = tmp_path / "m.pdn"
    result = runner.invoke(app, ["merge", str(broken_name), "-o", str(out)])
    assert result.exit_code == 0, result.output
    written = list(read_games(out))
    assert [g.tags["White"] for g in written] == [
        g.tags["White"] for g in read_games(broken_name)]
    assert len(written) == 3 and "a\nb" not in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("command", [["stats"], ["validate"], ["validate", "--jobs", "2"],
                                     ["cat"], ["info"], ["convert", "-o", "{out}"],
                                     ["dedupe", "-o", "{out}"], ["index", "-o", "{db}"]])
def test_every_command_reads_a_file_named_with_a_line_break(broken_name, tmp_path, command):
    args = [part.format(out=tmp_path / "o.pdn", db=tmp_path / "o.db") for part in command]
    result = runner.invoke(app, [*args, str(broken_name)])
    assert result.exit_code == 0, result.output
    assert "unexpected 'a'" not in result.output  # its name read as PDN text
    if command == ["stats"]:
        assert "3 games in 1 file" in result.output
    if command[0] == "validate":
        assert "3 games: 3 valid" in result.output


def test_the_library_tells_paths_and_texts_apart_by_type(broken_name, tmp_path, monkeypatch):
    assert len(list(read_games(broken_name))) == 3  # a Path: the file
    monkeypatch.chdir(tmp_path)
    (tmp_path / "1. 32-28 *").write_text("1. 33-28 *", encoding="utf-8")
    [game] = read_games(PdnText("1. 32-28 *"))  # the text, though a file has it as name
    assert game.moves.plies[0].record.text == "32-28"
    # the documented API: a str with a record suffix, or an existing file, is a path
    [from_str] = read_games("1. 32-28 *")
    assert from_str.moves.plies[0].record.text == "33-28"


# ---- 3. input without game boundaries --------------------------------------------------------

GOOD = '[Event "a"]\n1. 32-28 19-23 1-0\n\n'


def _work(monkeypatch, text: str, size: int) -> tuple[int, int]:
    """The characters ``split_blocks`` searched and joined over ``text`` (pieces of about
    ``size``), and the most it held at once."""
    counted = {"work": 0, "held": 0}
    sure_end, likely_end = chunks._sure_end, chunks._likely_end

    def counting_sure_end(pending, start, *, after_result):
        counted["work"] += len(pending) - max(start - 1, 0)
        if after_result:  # once per read: the join of what is held
            counted["work"] += len(pending)
            counted["held"] = max(counted["held"], len(pending))
        return sure_end(pending, start, after_result=after_result)

    def counting_likely_end(pending, start, end=None):
        counted["work"] += min(len(pending), end or len(pending)) - max(start - 1, 0)
        return likely_end(pending, start, end)

    monkeypatch.setattr(chunks, "_sure_end", counting_sure_end)
    monkeypatch.setattr(chunks, "_likely_end", counting_likely_end)
    for _ in split_blocks(io.StringIO(text), size):
        pass
    return counted["work"], counted["held"]


@pytest.mark.parametrize("unit", ["\0", "1. 32-28 18-23\n", "x\n\n", "{ comment\n",
                                  "1. 32-28 1-0\n"])
def test_blocks_of_input_without_boundaries_cost_linear_work(monkeypatch, unit):
    """Work counted on inputs 1, 2, 4 and 8 times as large grows as they do (it grew with
    the square of the size: each read joined and searched all that was held), and what is
    held stays under ``block_limit``."""
    monkeypatch.setattr(chunks, "GAME_LIMIT", 1 << 14)
    size = 1 << 10
    base = 1 << 18
    works = []
    for factor in (1, 2, 4, 8):
        text = unit * (base * factor // len(unit))
        work, held = _work(monkeypatch, text, size)
        assert held <= chunks.block_limit(size) + size
        works.append(work / len(text))
    assert max(works) <= 1.25 * works[0] + 2, works  # per character: flat, not growing


def test_a_game_over_the_limit_is_an_error_and_the_games_around_it_are_read(monkeypatch):
    monkeypatch.setattr(chunks, "GAME_LIMIT", 1 << 12)
    big = '[Event "big"]\n' + "1. 32-28 18-23 " * 1000 + "\n1-0\n\n"
    endless = "0" * 20_000  # one line longer than a game may be
    text = GOOD + big + GOOD.replace('"a"', '"b"') + endless + "\n\n" + GOOD.replace(
        '"a"', '"c"')
    for workers in (1, 2):
        games = list(parallel_read_games(io.StringIO(text), workers=workers))
        assert [g.tags.get("Event") for g in games] == ["a", "big", "b", None, "c"]
        assert [[d.code for d in g.errors] for g in games] == [[], ["too-large"], [], [
            "too-large"], []]
        message = games[1].errors[0].message
        assert message.startswith("the game at 4:1 holds 15,019 characters") and "4,096" in message
        assert games[3].line == 11 and games[4].line == 13
        assert games[4].moves.plies[0].record.line == 14


def test_blank_lines_past_the_limit_are_no_game(monkeypatch):
    monkeypatch.setattr(chunks, "GAME_LIMIT", 1 << 10)
    text = GOOD + "\n" * 5000 + GOOD
    assert [len(g.errors) for g in read_games(PdnText(text))] == [0, 0]


def test_blocks_past_the_limit_are_cut_where_a_game_per_line_ends(monkeypatch):
    """A game per line with no tags has no sure end; past the limit a block ends before the
    next game's line, so each game is still read whole."""
    monkeypatch.setattr(chunks, "GAME_LIMIT", 1 << 10)
    lines = [f"1. 32-28 18-23 2. 3{n % 10}-{n % 9 + 20} * \n" for n in range(2000)]
    text = "".join(lines)
    blocks = list(split_blocks(io.StringIO(text), 64))
    assert len(blocks) > 10
    assert [c.text for b in blocks for c in block_chunks(b)] == lines
    assert all(b.text.endswith("* \n") for b in blocks)


def test_reading_a_file_of_zeros_keeps_memory_bounded(tmp_path: Path):
    """200 MB of zeros between two games, read under an address-space limit 300 MB above
    what the reader takes loaded: the reader once held the whole line, and more."""
    path = tmp_path / "zeros.pdn"
    with open(path, "wb") as handle:
        handle.write(GOOD.encode())
        for _ in range(200):
            handle.write(b"\0" * (1 << 20))
        handle.write(b"\n\n" + GOOD.encode())
    script = f"""
import resource
from pathlib import Path
from pdn.reader import read_games
size = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (size + (300 << 20), resource.RLIM_INFINITY))
games = list(read_games(Path({str(path)!r})))
print([(g.tags.get("Event"), [d.code for d in g.errors]) for g in games])
"""
    if not LINUX:
        pytest.skip("reads /proc")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[('a', []), (None, ['too-large']), ('a', [])]"


ARCHIVE_COMMANDS = [["merge", "-o", "{out}"], ["filter", "--player", "x", "--invert", "-o",
                    "{out}"], ["dedupe", "-o", "{out}"], ["clean", "-o", "{out}"],
                    ["split", "--by", "count:10", "-o", "{dir}"], ["merge", "-o", "{out}",
                                                                    "--rejects", "{rej}"]]


@pytest.mark.parametrize("command", ARCHIVE_COMMANDS)
def test_archive_tools_never_write_a_game_over_the_limit_emptier(monkeypatch, tmp_path, command):
    """A game over the limit was written as its bare tags, moves gone, with exit 0: now it
    is left out (named, exit 1), and the games around it are written whole."""
    monkeypatch.setattr(chunks, "GAME_LIMIT", 1 << 12)
    big = '[Event "big"]\n[Site "' + "x" * 5000 + '"]\n1. 32-28 18-23 1-0\n\n'
    source = tmp_path / "in.pdn"
    other = '[Event "b"]\n1. 33-28 19-23 1-0\n\n'
    source.write_text(GOOD + big + other, encoding="utf-8")
    places = {"out": tmp_path / "o.pdn", "dir": tmp_path / "split", "rej": tmp_path / "r.pdn"}
    args = [part.format(**places) for part in command]
    result = runner.invoke(app, [*args, "--jobs", "1", str(source)])
    assert result.exit_code == 1, result.output
    assert "game 2: unreadable, left out of" in result.output
    assert "1 game too large to read left out" in result.output
    if "--rejects" in args:  # named, left out of --rejects as its help and docs/archive.md say
        assert "left out of --rejects" in result.output
        assert "left out" in " ".join(runner.invoke(app, [args[0], "--help"]).output.split())
    written = "".join(path.read_text(encoding="utf-8") for path in
                      [places["out"], places["rej"], *places["dir"].glob("*.pdn")]
                      if path.exists())
    assert "big" not in written
    assert sorted(g.tags["Event"] for g in read_games(PdnText(written))) == ["a", "b"]


def test_index_leaves_out_a_game_over_the_limit(monkeypatch, tmp_path):
    monkeypatch.setattr(chunks, "GAME_LIMIT", 1 << 12)
    big = '[Event "big"]\n[Site "' + "x" * 5000 + '"]\n1. 32-28 18-23 1-0\n\n'
    source = tmp_path / "in.pdn"
    source.write_text(GOOD + big + GOOD, encoding="utf-8")
    result = runner.invoke(app, ["index", "--jobs", "1", "-o", str(tmp_path / "g.db"),
                                 str(source)])
    assert result.exit_code == 1, result.output
    assert "game 2: unreadable, left out of the index" in result.output
    with sqlite3.connect(tmp_path / "g.db") as connection:
        assert connection.execute("SELECT game_index, event FROM games ORDER BY game_index"
                                  ).fetchall() == [(1, "a"), (3, "a")]


@pytest.mark.parametrize("middle", [
    '[Event "' + '\\"' * 2_000_000 + "\n",                          # a tag left open
    '[Event "x"]\n1. 32-28 (' + "a note " * 600_000 + ") 19-23 *\n\n",  # a long comment
    '[Event "x"]\n[Site "' + "x" * 4_000_000 + '\n y"]\n1. 32-28 *\n\n',  # a tag on two lines
], ids=["open-tag", "paren-comment", "tag-over-lines"])
def test_a_long_line_costs_a_small_multiple_of_its_text(tmp_path: Path, middle: str):
    """Some 4 MB on one line, read under an address-space limit of 60 MB above what the
    reader takes loaded: Python's re kept a backtracking entry per character where the
    patterns repeat alternatives (600 MB for the tag left open)."""
    if not LINUX:
        pytest.skip("reads /proc")
    path = tmp_path / "long.pdn"
    path.write_text(GOOD + middle + GOOD, encoding="utf-8")
    script = f"""
import resource
from pathlib import Path
from pdn.reader import read_games
read_games  # loaded before the limit, as the grammar is by the first game
list(read_games(Path({str(path)!r})))
size = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (size + (60 << 20), resource.RLIM_INFINITY))
games = list(read_games(Path({str(path)!r})))
print([g.tags.get("Event") for g in games])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("['a', ") and done.stdout.strip().endswith("'a']")


@pytest.mark.parametrize("value", ["\\" * 64, '\\"' * 4000, '\\"\\' * 2000, '\\\\"' * 2000])
def test_a_tag_left_open_on_a_hostile_line_spoils_only_its_game(value):
    """A tag value left open on a line of backslashes (or of escaped quotes) is a syntax
    error of its game. The tag's regular expressions once tried every way of reading each
    backslash as an escape or as itself: 64 backslashes took longer than the age of the
    universe, 32,000 escaped quotes 38 s (bench/hostile.py measures the time now)."""
    text = GOOD + '[Event "' + value + "\n1. 32-28 *\n\n" + GOOD
    games = list(read_games(text))
    assert [(g.tags.get("Event"), [d.code for d in g.errors]) for g in games] == [
        ("a", []), (None, ["syntax"]), ("a", [])]


# ---- 4. workers end with their parent; SIGTERM cleans up -----------------------------------


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            state = _state(int(entry.name))
            if state and state[1] == pid and state[0] != "Z":
                found.add(int(entry.name))
    return found


def _state(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent id, None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def _gone(pids: set[int], seconds: float = 20) -> bool:
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        if all((s := _state(p)) is None or s[0] == "Z" for p in pids):
            return True
        time.sleep(0.1)
    return False


COMMANDS = {
    "convert": ["convert", "{oca}", "--jobs", "2", "-o", "{out}/c.pdn"],
    "stats": ["stats", "{oca}", "--jobs", "2", "-t", "moves", "-o", "{out}/m.csv"],
    "dedupe": ["dedupe", "{oca}", "--jobs", "2", "-o", "{out}/d.pdn"],
    "index": ["index", "{oca}", "--jobs", "2", "-o", "{out}/i.db"],
}


@pytest.mark.skipif(not LINUX, reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_workers_end_when_their_parent_is_killed(shared_data, tmp_path, name, sig):
    out = tmp_path / "out"
    out.mkdir()
    spool = tmp_path / "tmp"
    spool.mkdir()
    args = [a.format(oca=shared_data / "english" / "OCA_2.0.pdn", out=out)
            for a in COMMANDS[name]]
    parent = subprocess.Popen([sys.executable, "-c", MAIN, *args], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, env={**os.environ, "TMPDIR": str(spool)})
    try:
        stop = time.monotonic() + 120
        while len(workers := _children(parent.pid)) < 2 and time.monotonic() < stop:
            assert parent.poll() is None, parent.stderr.read().decode()[-2000:]
            time.sleep(0.1)
        assert len(workers) >= 2
        time.sleep(1)  # at work
        parent.send_signal(sig)
        code = parent.wait(60)
        assert _gone(workers), [_state(p) for p in workers]
    finally:
        if parent.poll() is None:
            parent.kill()
    if sig == signal.SIGTERM:  # cleaned up as Ctrl-C does: no half output, no spool
        assert code == 128 + signal.SIGTERM, parent.stderr.read().decode()[-2000:]
        assert [p.name for p in out.iterdir() if p.name.endswith(".part")] == []
        assert list(spool.iterdir()) == []


# ---- 8. two pdn index on one new database ----------------------------------------------------


def _index(database: Path, source: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", MAIN, "index", str(source), "-o",
                             str(database)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)


def _games(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT count(*) FROM games").fetchone()[0]


@pytest.mark.parametrize("attempt", range(3))
def test_two_index_runs_creating_one_database_both_index(shared_data, tmp_path, attempt):
    database = tmp_path / "games.db"
    sources = [shared_data / "international" / "wiersma_turbodambase_export.pdn",
               shared_data / "international" / "mobydam_book"]
    sources[1] = sorted(sources[1].glob("*.pdn"))[0]
    runs = [_index(database, source) for source in sources]
    outputs = [run.communicate(timeout=300)[0] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    assert "already exists" not in "".join(outputs) and "schema" not in "".join(outputs)
    alone = tmp_path / "alone.db"
    for source in sources:
        assert _index(alone, source).wait(300) == 0
    assert _games(database) == _games(alone)


def test_an_index_run_waits_for_the_one_writing_the_database(shared_data, tmp_path):
    from replay.database.lock import index_lock

    database = tmp_path / "games.db"
    source = shared_data / "international" / "wiersma_turbodambase_export.pdn"
    with index_lock(database, note=lambda _: None):
        run = _index(database, source)
        time.sleep(5)
        assert run.poll() is None  # waiting
    output = run.communicate(timeout=300)[0]
    assert run.returncode == 0, output
    assert f"{database}: busy: another pdn index is writing it; waiting" in output
    assert _games(database) == 34


@pytest.mark.parametrize("encoding", ["utf-16", "punycode", "undefined"])
@pytest.mark.parametrize("command", [["validate"], ["convert", "-o", "{out}"], ["info"]])
def test_an_encoding_that_cannot_decode_the_file_is_a_read_error(tmp_path, encoding, command):
    """UTF-16 without its BOM, punycode and "undefined" raise a codec's own UnicodeError,
    which validate and convert let through as a traceback."""
    source = tmp_path / "g.pdn"
    source.write_text(GOOD, encoding="utf-8")
    args = [part.format(out=tmp_path / "o.pdn") for part in command]
    result = runner.invoke(app, [*args, str(source), "--encoding", encoding])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert f"not {encoding} text" in result.output or "could not be read" in result.output


@pytest.mark.parametrize("command", [["info"], ["validate"], ["stats"], ["cat"],
                                     ["convert", "-o", "{out}"], ["merge", "-o", "{out}"],
                                     ["view", "-o", "{out}"], ["standings"], ["show"]])
def test_an_input_name_too_long_is_a_usage_error(tmp_path, command):
    """A 300-byte name component (ENAMETOOLONG) gave a traceback on every command."""
    args = [part.format(out=tmp_path / "o.out") for part in command]
    result = runner.invoke(app, [*args, str(tmp_path / ("a" * 300 + ".pdn"))])
    assert result.exit_code == 2, result.output
    assert "File name too long" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
