"""Faults of outputs: devices, links and folders as targets, full and read-only disks, outputs
over inputs or over each other, Ctrl-C while a Parquet table is written, injection into
reports and spreadsheets, and the smaller faults of the same audit (docs/testing.md,
"Faults: outputs", lists what is guaranteed and what is not).

Real things throughout: devices made with ``os.mknod`` in a temporary folder (as root),
real symbolic links and FIFOs, a real file-size limit (``RLIMIT_FSIZE``) in a child process,
a real tmpfs where the sandbox lets a test mount one, a real SIGINT to a real child.
"""

from __future__ import annotations

import codecs
import csv
import gc
import os
import re
import resource
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest
from pdn.cli.app import app
from pdn.cli.common import ExitCode
from pdn.cli.options import JOBS_PER_CORE, MAX_JOBS, capped_jobs
from typer.testing import CliRunner

from pdn.reader import detect_encoding, read_games
from replay.archive.run import file_name
from replay.run import output
from replay.run.output import OutputError, WriteError, atomic_writer, check_outputs, output_target
from replay.run.spreadsheet import safe_cell, safe_frame

runner = CliRunner()
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="mknod needs root")
GAME = """\
[Event "{event}"]
[White "Ivanov"]
[Black "Petrov"]
[GameType "25"]
[Result "1-0"]
1. c3-d4 f6-g5 2. g3-f4 g7-f6 1-0

"""
UNREADABLE = '[Event "unreadable"]\n1. c3-d4 f6-g5 (2. b2-c3 {never closed\n\n'
CHILD = [sys.executable, "-c", "from pdn.cli.app import main; main()"]


def games(count: int = 3) -> str:
    return "".join(GAME.format(event=f"Event {n}") for n in range(count))


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with ``g.pdn`` (three games), ``two.pdn`` (a game twice) and
    ``mixed.pdn`` (a game and an unreadable one)."""
    (tmp_path / "g.pdn").write_text(games())
    (tmp_path / "mixed.pdn").write_text(games(1) + UNREADABLE)
    (tmp_path / "two.pdn").write_text(GAME.format(event="twice") * 2)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    return runner.invoke(app, list(args))


def leftovers(folder: Path) -> list[str]:
    """Temporary files an output left behind."""
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith(".part")
                  or p.name.startswith((".split-", ".pdn-")))


# Every output option of every command that writes a file, as (name, arguments with {out}
# for the output path, the suffix the output needs).
OUTPUTS = [
    ("convert -o", ["convert", "g.pdn", "-o", "{out}"], ".pdn"),
    ("merge -o", ["merge", "g.pdn", "-o", "{out}"], ".pdn"),
    ("filter -o", ["filter", "g.pdn", "-o", "{out}"], ".pdn"),
    ("filter --rejects", ["filter", "mixed.pdn", "-o", "/dev/null", "--rejects", "{out}"],
     ".pdn"),
    ("dedupe -o", ["dedupe", "two.pdn", "-o", "{out}"], ".pdn"),
    ("dedupe --report", ["dedupe", "two.pdn", "-o", "/dev/null", "--report", "{out}"], ".csv"),
    ("clean -o", ["clean", "g.pdn", "-o", "{out}"], ".pdn"),
    ("clean --changes", ["clean", "g.pdn", "-o", "/dev/null", "--changes", "{out}"], ".txt"),
    ("stats -o csv", ["stats", "g.pdn", "-t", "games", "-o", "{out}"], ".csv"),
    ("stats -o parquet", ["stats", "g.pdn", "-t", "moves", "-o", "{out}"], ".parquet"),
    ("stats -o jsonl", ["stats", "g.pdn", "-t", "moves", "-o", "{out}"], ".jsonl"),
    ("stats --plot", ["stats", "g.pdn", "--plot", "{out}"], ".svg"),
    ("validate --report md", ["validate", "g.pdn", "--report", "{out}"], ".md"),
    ("validate --report html", ["validate", "g.pdn", "--report", "{out}"], ".html"),
    ("view -o", ["view", "g.pdn", "-o", "{out}"], ".html"),
    ("show --svg", ["show", "g.pdn", "--svg", "{out}"], ".svg"),
    ("show --png", ["show", "g.pdn", "--png", "{out}"], ".png"),
]
NAMES = [name for name, _, _ in OUTPUTS]


def arguments(template: list[str], out: str | Path) -> list[str]:
    return [part.replace("{out}", str(out)) for part in template]


def expected_exit(name: str) -> int:
    """A run writing --rejects has an unreadable game (exit 1); the others exit 0."""
    return ExitCode.SOME_GAMES if "rejects" in name else ExitCode.OK


def needs_extra(name: str) -> None:
    if "parquet" in name:
        pytest.importorskip("pyarrow")
    if "plot" in name:
        pytest.importorskip("matplotlib")
    if "png" in name:
        pytest.importorskip("cairosvg")


# ---- 1. a device, a FIFO or a link is never renamed over ----------------------------------


@ROOT_ONLY
@pytest.mark.parametrize(("name", "template", "suffix"), OUTPUTS, ids=NAMES)
def test_a_device_output_is_written_in_place_and_stays_a_device(folder, name, template,
                                                                 suffix):
    needs_extra(name)
    device = folder / f"null{suffix}"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's numbers
    result = run(*arguments(template, device))
    assert result.exit_code == expected_exit(name), result.output
    assert stat.S_ISCHR(device.lstat().st_mode), f"{name} replaced the device"
    assert leftovers(folder) == []


@ROOT_ONLY
@pytest.mark.parametrize(("name", "template", "suffix"), OUTPUTS, ids=NAMES)
def test_a_full_device_says_cannot_write_and_stays_a_device(folder, name, template, suffix):
    needs_extra(name)
    device = folder / f"full{suffix}"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # /dev/full: ENOSPC
    result = run(*arguments(template, device))
    assert result.exit_code == ExitCode.USAGE, result.output
    assert f"{device}: cannot write: No space left on device" in result.output
    assert "Traceback" not in result.output
    assert stat.S_ISCHR(device.lstat().st_mode)


def test_a_fifo_is_streamed_into_and_stays_a_fifo(folder):
    fifo = folder / "pipe.pdn"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    result = run("convert", "g.pdn", "-o", str(fifo))
    reader.join(30)
    assert result.exit_code == 0, result.output
    assert received and received[0].count(b"[Event ") == 3
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and leftovers(folder) == []


@pytest.mark.parametrize(("name", "template", "suffix"), OUTPUTS, ids=NAMES)
def test_an_output_replaced_keeps_its_mode(folder, name, template, suffix):
    """Atomic replacement turned an existing 0600 output into 0644."""
    needs_extra(name)
    out = folder / f"kept{suffix}"
    out.write_text("old")
    out.chmod(0o600)
    result = run(*arguments(template, out))
    assert result.exit_code == expected_exit(name), result.output
    assert out.read_bytes() != b"old"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600


@pytest.mark.parametrize(("name", "template", "suffix"), OUTPUTS, ids=NAMES)
def test_a_link_is_followed_and_kept(folder, name, template, suffix):
    needs_extra(name)
    (folder / "real").mkdir()
    target = folder / "real" / f"out{suffix}"
    target.write_text("old")
    link = folder / f"link{suffix}"
    link.symlink_to(Path("real") / target.name)
    result = run(*arguments(template, link))
    assert result.exit_code == expected_exit(name), result.output
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / target.name)
    assert target.is_file() and target.read_bytes() not in (b"", b"old")
    assert leftovers(folder) == []


def test_a_dangling_link_makes_its_target(folder):
    (folder / "link.pdn").symlink_to("made.pdn")
    assert run("convert", "g.pdn", "-o", "link.pdn").exit_code == 0
    assert (folder / "link.pdn").is_symlink()
    assert (folder / "made.pdn").read_text().count("[Event ") == 3


def test_a_loop_of_links_as_output_is_an_error(folder):
    (folder / "a.pdn").symlink_to("b.pdn")
    (folder / "b.pdn").symlink_to("a.pdn")
    result = run("convert", "g.pdn", "-o", "a.pdn")
    assert result.exit_code == ExitCode.USAGE
    assert "a.pdn: cannot write: Too many levels of symbolic links" in result.output


def child(*args: str, **options) -> subprocess.CompletedProcess:
    if "stdout" not in options:
        options.setdefault("capture_output", True)
    return subprocess.run([*CHILD, *args], timeout=300, **options)


def test_dev_stdout_is_the_callers_stdout_not_a_file_made_in_its_place(folder):
    piped = child("convert", "g.pdn", "-o", "/dev/stdout")
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.count(b"[Event ") == 3
    log = folder / "log.txt"
    log.write_text("kept\n")
    with log.open("a") as appended:  # `>> log.txt`: what the log held stays
        assert child("convert", "g.pdn", "-o", "/dev/stdout", stdout=appended,
                     stderr=subprocess.PIPE).returncode == 0
    text = log.read_text()
    assert text.startswith("kept\n") and text.count("[Event ") == 3
    assert os.path.islink("/dev/stdout") or not Path("/dev/stdout").exists()


def test_the_one_rule_says_how_each_kind_is_written(tmp_path):
    regular = tmp_path / "file.pdn"
    regular.write_text("x")
    (tmp_path / "link.pdn").symlink_to(regular)
    assert output_target(regular).in_place is False
    assert output_target(tmp_path / "new.pdn") == output_target(tmp_path / "new.pdn")
    assert output_target(tmp_path / "link.pdn").path == regular
    assert output_target("/dev/null").in_place is True
    assert output_target("/dev/stdout").descriptor is True
    with pytest.raises(OutputError, match="is a folder"):
        output_target(tmp_path)


# ---- 5. clear errors, never a traceback ---------------------------------------------------


FILE_ONLY = [output for output in OUTPUTS if not output[0].startswith("stats -o")]


@pytest.mark.parametrize(("name", "template", "suffix"), FILE_ONLY,
                         ids=[name for name, _, _ in FILE_ONLY])
def test_an_output_that_is_a_folder_is_refused_before_any_work(folder, name, template,
                                                               suffix):
    """(``stats -o`` writes a Parquet dataset into a folder it is given, by design.)"""
    needs_extra(name)
    taken = folder / f"taken{suffix}"
    taken.mkdir()
    result = run(*arguments(template, taken))
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "is a folder, not a file" in result.output, result.output
    assert "Traceback" not in result.output and taken.is_dir()


def test_split_into_a_file_is_refused(folder):
    result = run("split", "g.pdn", "-o", "two.pdn")
    assert result.exit_code == ExitCode.USAGE and "not a folder" in result.output


@pytest.mark.parametrize("syncfs", [True, False], ids=["one-syncfs", "fsync-each-file"])
def test_split_moves_its_files_into_place_as_an_atomic_write_would(folder, monkeypatch, syncfs):
    """A file replaced keeps its mode, a symbolic link keeps pointing at the file it names
    (which takes the games), a new file has the mode the umask gives, nothing is left behind;
    the files are put on disk by one ``syncfs`` of their folder where the system has it, else
    by a ``fsync`` each."""
    if syncfs and output._syncfs() is None:
        pytest.skip("this system has no syncfs")
    if not syncfs:
        monkeypatch.setattr(output, "_syncfs", lambda: None)
    fsyncs = []
    monkeypatch.setattr(os, "fsync", lambda handle, sync=os.fsync: fsyncs.append(handle) or
                        sync(handle))
    parts = folder / "parts"
    parts.mkdir()
    (parts / "Event_0.pdn").write_text("old")
    (parts / "Event_0.pdn").chmod(0o640)
    (folder / "real.pdn").write_text("old")
    (parts / "Event_1.pdn").symlink_to(folder / "real.pdn")
    result = run("split", "g.pdn", "-o", "parts", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE((parts / "Event_0.pdn").stat().st_mode) == 0o640
    assert (parts / "Event_1.pdn").is_symlink()
    assert (folder / "real.pdn").read_text().startswith('[Event "Event 1"]')
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((parts / "Event_2.pdn").stat().st_mode) == 0o666 & ~umask
    assert [game.tags["Event"] for name in ("Event_0", "Event_1", "Event_2")
            for game in read_games(parts / f"{name}.pdn")] == ["Event 0", "Event 1", "Event 2"]
    assert sorted(path.name for path in parts.iterdir()) == [
        "Event_0.pdn", "Event_1.pdn", "Event_2.pdn"]
    assert len(fsyncs) == (0 if syncfs else 3)


LOOP_COMMANDS = [["convert", "loop", "-o", "x.pdn"], ["merge", "loop", "-o", "m.pdn"],
                 ["filter", "loop", "-o", "f.pdn"], ["dedupe", "loop", "-o", "d.pdn"],
                 ["clean", "loop", "-o", "c.pdn"], ["split", "loop", "-o", "parts"],
                 ["stats", "loop"], ["validate", "loop"], ["info", "loop"], ["cat", "loop"],
                 ["view", "loop", "-o", "v.html"], ["index", "loop", "-o", "games.db"]]


@pytest.mark.parametrize("command", LOOP_COMMANDS, ids=[c[0] for c in LOOP_COMMANDS])
def test_a_loop_of_links_in_an_input_folder_is_named_not_a_traceback(folder, command):
    (folder / "loop").mkdir()
    (folder / "loop" / "game.pdn").write_text(games(1))
    (folder / "loop" / "a.pdn").symlink_to("b.pdn")
    (folder / "loop" / "b.pdn").symlink_to("a.pdn")
    (folder / "loop" / "up").symlink_to("..")  # a folder loop: not followed
    result = run(*command)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.output
    assert "Traceback" not in result.output and "RuntimeError" not in result.output
    assert "Too many levels of symbolic links" in result.output
    assert result.exit_code in (ExitCode.SOME_GAMES, ExitCode.USAGE)


def limited(limit: int):
    """In the child: a file-size limit of ``limit`` bytes (a write past it fails EFBIG)."""
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


LIMITED = [*OUTPUTS,
           ("split -o", ["split", "g.pdn", "-o", "{out}", "--by", "count:1"], ""),
           ("validate --json -o DIR/", ["validate", "g.pdn", "--json", "-o", "{out}/"], ""),
           ("stats -o DIR/", ["stats", "g.pdn", "-t", "moves", "-o", "{out}/"], "")]


@pytest.mark.parametrize(("name", "template", "suffix"), LIMITED, ids=[n for n, _, _ in LIMITED])
def test_a_full_disk_says_cannot_write_and_leaves_the_old_output(folder, shared_data, name,
                                                                 template, suffix):
    """The disk is full (a file-size limit of 600 bytes, EFBIG, in a child): a clear error
    naming the output, exit 2, no temporary file left, an old output as it was. The input
    is a real archive (190 games), twice over for dedupe."""
    needs_extra(name)
    archive = (shared_data / "international" / "fmjd_wk2007_all_games.pdn").read_bytes()
    (folder / "g.pdn").write_bytes(archive)
    (folder / "two.pdn").write_bytes(archive + b"\n\n" + archive)
    (folder / "mixed.pdn").write_text((games(1) + UNREADABLE) * 30)
    out = folder / f"out{suffix}"
    if suffix:
        out.write_text("old")
    result = child(*arguments(template, out), preexec_fn=limited(600), text=True)
    assert result.returncode == ExitCode.USAGE, result.stderr
    assert "cannot write: File too large" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "cannot read" not in result.stderr
    assert leftovers(folder) == []
    if suffix:
        assert out.read_text() == "old"
    else:
        assert not (out / "_SUCCESS").exists()


@pytest.fixture
def small_tmpfs(tmp_path: Path):
    """A real 64 KiB tmpfs, where the sandbox lets a test mount one (else skipped)."""
    point = tmp_path / "disk"
    point.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(point)],
                             capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield point
    finally:
        subprocess.run(["umount", str(point)], check=False)


def test_a_real_full_tmpfs_says_no_space_and_keeps_the_old_output(folder, small_tmpfs):
    (folder / "big.pdn").write_text(games(2000))
    old = small_tmpfs / "out.pdn"
    old.write_text("old")
    result = run("convert", "big.pdn", "-o", str(old))
    assert result.exit_code == ExitCode.USAGE
    assert f"{old}: cannot write: No space left on device" in result.output
    assert old.read_text() == "old" and sorted(os.listdir(small_tmpfs)) == ["out.pdn"]


def test_split_by_variant_with_an_unreadable_game(folder):
    (folder / "mixed.pdn").write_text(games(2) + UNREADABLE)
    result = run("split", "mixed.pdn", "--by", "variant", "-o", "parts")
    assert result.exit_code == ExitCode.SOME_GAMES, result.output
    # one file, one variant (docs/inference.md): the game the reader gave up on goes with
    # its file's games, written as it is
    assert sorted(os.listdir(folder / "parts")) == ["russian.pdn"]
    assert "{never closed" in (folder / "parts" / "russian.pdn").read_text()


@pytest.mark.parametrize("count", ["99999999999999999999", "9" * 5000, "73"])
def test_material_past_any_board_is_a_usage_error(folder, count):
    assert run("index", "g.pdn", "-o", "games.db").exit_code == 0
    for command in (["filter", "g.pdn"], ["search", "games.db"]):
        result = run(*command, "--material", f"W:{count}K")
        assert result.exit_code == ExitCode.USAGE, result.output
        assert "no board holds more than 72 pieces" in result.output


@pytest.mark.parametrize("where", ["move number", "black move number", "NAG"])
def test_a_number_of_thousands_of_digits_is_a_syntax_error_with_its_place(where):
    digits = "9" * 5000
    movetext = {"move number": f"{digits}. c3-d4 *",
                "black move number": f"1. c3-d4 f6-g5\n{digits}... g3-f4 *",
                "NAG": f"1. c3-d4 ${digits} f6-g5 *"}[where]
    (game,) = read_games('[Event "x"]\n' + movetext)
    (problem,) = game.errors
    assert problem.code == "syntax" and "5,000 digits" in problem.message
    assert problem.line >= 2


def test_ctrl_c_while_writing_parquet_prints_no_ignored_exception(folder, shared_data):
    """A real SIGINT to a real ``pdn stats -t moves -o f.parquet``, sent once its Parquet
    writer has written (row groups of one part each, so that it starts at once). Each row
    group is followed by a pause: the parts of a file come at its end, when its variant is
    settled, and without it a loaded machine could see the run finish before the signal."""
    pytest.importorskip("pyarrow")
    script = ("import sys, time, replay.stats.writer as w; w.ROW_GROUP_BYTES = 1\n"
              "flush = w.TableWriter._flush\n"
              "def paused(self):\n    flush(self)\n    time.sleep(60)\n"
              "w.TableWriter._flush = paused\n"
              "from pdn.cli.app import main; sys.argv[0] = 'pdn'; main()")
    source = shared_data / "english" / "OCA_2.0.pdn"
    process = subprocess.Popen([sys.executable, "-c", script, "stats", str(source), "-t",
                                "moves", "-o", "f.parquet", "-j", "1"],
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        parts = list(folder.glob(".f.parquet.*.part"))
        if parts and parts[0].stat().st_size > 0:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=60)
    assert process.returncode != 0
    assert "Exception ignored" not in errors and "Traceback" not in errors, errors
    assert leftovers(folder) == [] and not (folder / "f.parquet").exists()


def test_a_parquet_writer_interrupted_closes_before_its_stream(tmp_path):
    pytest.importorskip("pyarrow")
    import replay.stats.writer as writer

    ignored: list = []
    previous, sys.unraisablehook = sys.unraisablehook, ignored.append
    try:
        table = writer.TableWriter(tmp_path / "t.parquet")
        with pytest.raises(KeyboardInterrupt), table as out:
            out.write(pd.DataFrame({"a": range(3)}))
            out._flush()  # the writer is open, a row group written
            raise KeyboardInterrupt
        del table
        gc.collect()
    finally:
        sys.unraisablehook = previous
    assert ignored == [] and os.listdir(tmp_path) == []


# ---- 6. injection ---------------------------------------------------------------------


HOSTILE_EVENT = '<img src=x onerror=alert(1)> [click](javascript:alert(2)) `x` *b*'


def test_the_markdown_report_shows_tags_and_names_as_text(folder):
    name = "<b>games<b>[x](javascript:y).pdn"
    (folder / name).write_text(GAME.format(event=HOSTILE_EVENT) + UNREADABLE
                               + '[Event "<script>alert(3)</script>"]\n1. c3-d4 f6-e5 *\n\n')
    result = run("validate", name, "--report", "report.md")
    assert result.exit_code == ExitCode.SOME_GAMES, result.output
    report = (folder / "report.md").read_text()
    assert "<img" not in report and "<script" not in report and "<b>" not in report
    assert not re.search(r"(?<!\\)\]\(javascript", report)  # no link of the record's
    assert "&lt;script&gt;alert(3)&lt;/script&gt;" in report and "&lt;b&gt;games" in report
    assert r"\[x\](javascript:y)" in report and r"\`x\`" in report


FORMULAS = {"Event": "=cmd|' /C calc'!A0", "Site": "+1+2",
            "White": "@SUM(A1)", "Black": "-2+3", "Round": "\tindented"}


def formula_game() -> str:
    tags = "".join(f'[{tag} "{value}"]\n' for tag, value in FORMULAS.items())
    return tags + '[GameType "25"]\n1. c3-d4 f6-g5 1-0\n\n'


def spreadsheet_rows(path: Path, delimiter: str = ",") -> list[dict[str, str]]:
    with path.open(newline="") as stream:
        return list(csv.DictReader(stream, delimiter=delimiter))


def test_csv_cells_a_spreadsheet_would_run_are_quoted(folder):
    (folder / "f.pdn").write_text(formula_game() * 2)
    assert run("stats", "f.pdn", "-t", "games", "-o", "games.csv").exit_code == 0
    row = spreadsheet_rows(folder / "games.csv")[0]
    for tag, value in FORMULAS.items():
        assert row[tag] == "'" + value, tag
    assert row["game"] == "1" and row["plies"] == "2"  # numbers stay numbers
    assert run("dedupe", "f.pdn", "-o", "/dev/null", "--report", "dupes.csv").exit_code == 0
    reported = spreadsheet_rows(folder / "dupes.csv")
    assert {r["white"] for r in reported} == {"'@SUM(A1)"}
    assert {r["event"] for r in reported} == {"'" + FORMULAS["Event"]}


def test_tab_separated_outputs_quote_formulas_too(folder):
    (folder / "f.pdn").write_text(formula_game())
    shown = child("stats", "f.pdn", "-t", "games", text=True)
    assert "\t'@SUM(A1)\t'-2+3\t" in shown.stdout
    assert run("index", "f.pdn", "-o", "f.db").exit_code == 0
    found = run("search", "f.db", "--player", "@SUM(A1)", "-f", "table")
    assert "\t'@SUM(A1)\t'-2+3\t" in found.output


@pytest.mark.parametrize("times", [1, 40])  # cell by cell (few rows), and vectorised
def test_safe_cells_leave_numbers_and_plain_text_alone(times):
    assert safe_cell("=1+1") == "'=1+1" and safe_cell("\r=x") == "'\r=x"
    assert [safe_cell(v) for v in ("-1", "-0.5", "+3", "1e-3", -1, -2.5, None, "Ivanov")] == \
        ["-1", "-0.5", "+3", "1e-3", -1, -2.5, None, "Ivanov"]
    frame = pd.DataFrame({"n": [-1, 2] * times, "x": [-0.5, 1.0] * times,
                          "name": ["-cmd", "ok"] * times,
                          "kind": pd.Categorical(["@a", "b"] * times),
                          "none": [None, "=z"] * times})
    safe = safe_frame(frame)
    assert safe["n"].tolist() == [-1, 2] * times and safe["n"].dtype == frame["n"].dtype
    assert safe["x"].tolist() == [-0.5, 1.0] * times
    assert safe["name"].tolist() == ["'-cmd", "ok"] * times
    assert safe["kind"].tolist() == ["'@a", "b"] * times
    assert safe["none"].tolist()[1] == "'=z" and frame["name"].tolist() == ["-cmd", "ok"] * times


# ---- 7. secondary outputs over inputs or over each other -------------------------------


OVERLAPS = [
    (["validate", "games.md", "--report", "games.md"], "games.md", "it is also an input"),
    (["stats", "x.svg", "--plot", "x.svg"], "x.svg", "it is also an input"),
    (["stats", "x.svg", "--plot", "./x.svg"], "x.svg", "it is also an input"),
    (["clean", "g.pdn", "-o", "o.pdn", "--changes", "o.pdn"], None, "are the same file"),
    (["clean", "g.pdn", "-o", "o.pdn", "--changes", "./sub/../o.pdn"], None,
     "are the same file"),
    (["dedupe", "g.pdn", "-o", "o.pdn", "--report", "o.pdn"], None, "are the same file"),
    (["filter", "g.pdn", "-o", "o.pdn", "--rejects", "o.pdn"], None, "are the same file"),
    (["filter", "g.pdn", "-o", "o.pdn", "--rejects", "g.pdn"], "g.pdn", "also an input"),
    (["merge", "g.pdn", "-o", "hard.pdn"], "g.pdn", "it is also an input"),
    (["convert", "g.pdn", "-o", "link.pdn"], "g.pdn", "it is also an input"),
    (["show", "g.pdn", "--svg", "a.svg", "--png", "a.svg"], None, "are the same file"),
    (["show", "g.pdn", "--svg", "g.pdn"], "g.pdn", "it is also an input"),
    (["view", "g.pdn", "-o", "g.pdn"], "g.pdn", "it is also an input"),
]


@pytest.mark.parametrize(("command", "kept", "message"), OVERLAPS,
                         ids=[" ".join(c) for c, _, _ in OVERLAPS])
def test_no_output_is_written_over_an_input_or_another_output(folder, command, kept,
                                                              message):
    (folder / "sub").mkdir()
    for name in ("games.md", "x.svg"):
        (folder / name).write_text(games(1))
    os.link(folder / "g.pdn", folder / "hard.pdn")
    (folder / "link.pdn").symlink_to("g.pdn")
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    result = run(*command)
    assert result.exit_code == ExitCode.USAGE and message in result.output, result.output
    after = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    assert after == before  # nothing written at all
    if kept is not None:
        assert (folder / kept).read_text().count("[Event ") >= 1


def test_two_outputs_may_share_a_device(folder):
    result = run("clean", "g.pdn", "-o", "/dev/null", "--changes", "/dev/null")
    assert result.exit_code == 0, result.output


def test_check_outputs_names_the_options(tmp_path):
    (tmp_path / "in.pdn").write_text("x")
    with pytest.raises(OutputError, match=r"-o .*out.pdn and --changes .*out.pdn"):
        check_outputs({"-o": tmp_path / "out.pdn", "--changes": tmp_path / "out.pdn"})
    with pytest.raises(OutputError, match=r"\(--report\): it is also an input"):
        check_outputs({"--report": tmp_path / "in.pdn"}, [str(tmp_path / "in.pdn")])
    check_outputs({"-o": "-", "--rejects": None, "--changes": tmp_path / "c.txt"},
                  ["-", str(tmp_path / "in.pdn")])


# ---- 9. smaller faults ----------------------------------------------------------------


WIDE = [("utf-16-le", codecs.BOM_UTF16_LE), ("utf-16-be", codecs.BOM_UTF16_BE),
        ("utf-32-le", codecs.BOM_UTF32_LE), ("utf-32-be", codecs.BOM_UTF32_BE)]


@pytest.mark.parametrize(("encoding", "bom"), WIDE, ids=[e for e, _ in WIDE])
def test_utf16_and_utf32_with_a_byte_order_mark_read_as_utf8_does(tmp_path, shared_data,
                                                                  archive, encoding, bom):
    original = shared_data / "international" / "fmjd_wk2007_all_games.pdn"
    wide = tmp_path / "wide.pdn"
    wide.write_bytes(bom + original.read_text(encoding="utf-8").encode(encoding))
    assert detect_encoding(wide.read_bytes()[:4096]) == encoding[:6]
    expected = archive(original)
    read = list(read_games(wide))
    assert [g.tags for g in read] == [g.tags for g in expected]
    assert [len(g.moves.plies) for g in read] == [len(g.moves.plies) for g in expected]
    assert not any(g.errors for g in read)


def test_show_of_an_unreadable_game_is_an_error_not_a_start_position(folder):
    (folder / "bad.pdn").write_text(UNREADABLE)
    result = run("show", "bad.pdn")
    assert result.exit_code == ExitCode.SOME_GAMES
    assert "bad.pdn:2: game 1 cannot be read: " in result.output
    assert "FEN" not in result.output and "comment opened but never closed" in result.output


def test_convert_says_each_reading_error_once(folder):
    (folder / "bad.pdn").write_text(games(1) + UNREADABLE)
    result = run("convert", "bad.pdn", "-o", "out.pdn")
    lines = [line for line in result.output.splitlines() if "bad.pdn:" in line]
    assert len(lines) == 1 and ": error:" in lines[0], result.output


def test_png_size_has_an_upper_bound(folder):
    result = run("show", "g.pdn", "--png", "big.png", "--size", "40000")
    assert result.exit_code == ExitCode.USAGE and "4096" in result.output
    assert not (folder / "big.png").exists()


def test_jobs_are_capped_at_four_per_core_and_the_help_says_so(folder):
    assert JOBS_PER_CORE * (os.cpu_count() or 1) == MAX_JOBS
    assert capped_jobs(MAX_JOBS) == MAX_JOBS and capped_jobs(MAX_JOBS * 10) == MAX_JOBS
    result = run("validate", "g.pdn", "-j", str(MAX_JOBS * 10))
    assert result.exit_code == 0 and f"lowered to {MAX_JOBS}" in result.output
    shown = child("validate", "--help", text=True, env={**os.environ, "COLUMNS": "200"})
    assert re.search(r"at most 4\s+per core", shown.stdout, re.IGNORECASE), shown.stdout


@pytest.mark.parametrize("event", ["CON", "nul", "Com1", "lpt9.x", "aux.txt", "PRN"])
def test_split_never_names_a_file_after_a_windows_device(folder, event):
    (folder / "w.pdn").write_text(GAME.format(event=event))
    assert run("split", "w.pdn", "-o", "parts").exit_code == 0
    (made,) = os.listdir(folder / "parts")
    assert made == f"_{event}.pdn"
    assert file_name("CONSOLE", {}) == "CONSOLE.pdn"  # only the device names themselves


def test_a_write_error_is_worded_as_writing(tmp_path):
    with pytest.raises(WriteError) as raised, atomic_writer("/dev/full") as stream:
        stream.write("x" * 100_000)
    assert str(raised.value) == "/dev/full: cannot write: No space left on device"


def test_split_names_no_file_after_a_superscript_device_an_option_or_a_case_twin():
    """split wrote COM¹.pdn (a Windows device too), -rf.pdn and --help.pdn (options to other
    tools), and names differing only by case, one file on a case-insensitive disk."""
    taken: dict[str, str] = {}
    names = [file_name(key, taken) for key in ["COM\u00b9", "lpt\u00b3", "-rf", "--help",
                                                "Smith", "smith", "SMITH"]]
    assert names == ["_COM\u00b9.pdn", "_lpt\u00b3.pdn", "_-rf.pdn", "_--help.pdn",
                     "Smith.pdn", "smith-2.pdn", "SMITH-3.pdn"]


def test_split_names_files_alike_with_the_names_given_kept_casefolded():
    """The split keeps the names given in a set (not rebuilt for each new key): the same
    names, case twins apart."""
    keys = ["Smith", "smith", "SMITH", "Smith", "Jones", "JONES", "smith-2", "Smith-2"]
    taken: dict[str, str] = {}
    kept: dict[str, str] = {}
    used: set[str] = set()
    assert [file_name(key, kept, used) for key in keys] == [
        file_name(key, taken) for key in keys] == [
        "Smith.pdn", "smith-2.pdn", "SMITH-3.pdn", "Smith.pdn", "Jones.pdn", "JONES-2.pdn",
        "smith-2-2.pdn", "Smith-2-3.pdn"]
    assert used == {name.casefold() for name in taken.values()}


# ---- temporaries of processes killed with SIGKILL -------------------------------------------

def _dead_pid() -> int:
    """The id of a process that has ended (and been waited for)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_part_names_its_process_and_the_parts_of_dead_processes_are_cleared(tmp_path):
    """kill -9 leaves .NAME.xxxx.part beside the target; a later run to the same folder
    removes it, and only parts whose process is gone."""
    living = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        dead = tmp_path / f".out.pdn.{_dead_pid()}.abcd_123.part"
        alive = tmp_path / f".out.pdn.{living.pid}.abcd_123.part"
        unnamed = tmp_path / ".out.pdn.abcd_123.part"  # no process named: not ours to judge
        other = tmp_path / "notes.1.abcdefgh.part"  # not a hidden temporary of ours
        for path in (dead, alive, unnamed, other):
            path.write_text("half")
        with atomic_writer(tmp_path / "out.pdn") as stream:
            stream.write("whole")
            parts = leftovers(tmp_path)
        assert not dead.exists()
        assert alive.exists() and unnamed.exists() and other.exists()
        ours = set(parts) - {alive.name, unnamed.name, other.name}
        assert len(ours) == 1 and re.fullmatch(rf"\.out\.pdn\.{os.getpid()}\.\w{{8}}\.part",
                                               ours.pop())
        assert (tmp_path / "out.pdn").read_text() == "whole"
    finally:
        living.kill()
        living.wait()


@pytest.mark.parametrize("command", ["convert", "merge", "clean"])
def test_a_run_after_kill_9_leaves_no_part_behind(tmp_path, command):
    """The command is killed while its output is being written (its input, stdin, held
    open), then run again to the same target: no part is left."""
    target = tmp_path / "out.pdn"
    args = {"convert": ["convert", "-", "-o", str(target)],
            "merge": ["merge", "-", "-o", str(target)],
            "clean": ["clean", "-", "-o", str(target)]}[command]
    child = subprocess.Popen([*CHILD, *args], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, cwd=tmp_path)
    try:
        child.stdin.write(games(200).encode())
        child.stdin.flush()
        for _ in range(600):  # the part appears once the output is opened
            if leftovers(tmp_path):
                break
            time.sleep(0.1)
        assert leftovers(tmp_path), "the command made no part to kill it over"
    finally:
        child.kill()
        child.wait()
    assert leftovers(tmp_path)  # what kill -9 leaves
    source = tmp_path / "g.pdn"
    source.write_text(games())
    result = run(*[str(source) if arg == "-" else arg for arg in args])
    assert result.exit_code == 0, result.output
    assert leftovers(tmp_path) == []
    assert target.exists()


@pytest.mark.parametrize("device", ["/dev/full", "/dev/null"])
def test_index_refuses_a_device_as_its_database(tmp_path, device):
    """pdn index -o /dev/full left /dev/full-journal behind (SQLite's journal beside it)."""
    journal = Path(f"{device}-journal")
    had_journal = journal.exists()
    (tmp_path / "g.pdn").write_text(games())
    result = run("index", str(tmp_path / "g.pdn"), "-o", device)
    assert result.exit_code == ExitCode.USAGE
    assert "a database is a file of its own" in " ".join(result.output.split())
    assert journal.exists() == had_journal
