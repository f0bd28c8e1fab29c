"""What ``pdn show``, ``search``, ``explore`` and ``filter`` refuse of a position or a line of
moves, what ``pdn analyse`` says of an engine that fails, what SQLite says of a database it
cannot read, and the progress bars' labels, in Russian and Thai as the catalogs say, asked
by ``--lang`` and by the locale variables, on real archives; what machines read (``--json``,
the exit status) the same in every language (the checks of tests/test_catalogs.py)."""

from __future__ import annotations

import os
import pty
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from support.engines import fake_engine, hostile_engine
from test_catalogs import ROOT, SCORESHEET, TRANSLATED, _no_english, _pdn

from pdn.i18n import catalog

EVENT = "games-checkers/russian/World_Championship_1998.pdn"
INTERNATIONAL = ROOT / "samples" / "international" / "sample_game.pdn"
RUSSIAN_SHORT = ROOT / "samples" / "russian" / "ivanov_petrov_short.pdn"


def _runs(language: str, *args: str) -> list[subprocess.CompletedProcess]:
    """The command in ``language``, asked by ``--lang`` and by ``LANG``."""
    return [_pdn(args[0], "--lang", language, *args[1:]),
            _pdn(*args, lang_env=f"{language}_XX.UTF-8")]


def _said(run: subprocess.CompletedProcess, *names) -> list[tuple[str, list]]:
    """The English words of what a run says on stderr, the names given aside."""
    return _no_english(subprocess.CompletedProcess(run.args, run.returncode, "", run.stderr),
                       *names)


# ---- the record: a position of a game, a line of moves -------------------------------------

@pytest.mark.parametrize("language", TRANSLATED)
def test_show_refuses_a_move_or_ply_beyond_the_game_in_the_users_language(language,
                                                                          shared_data):
    source = shared_data / EVENT
    words = catalog(language)
    say = words.gettext
    plies = say("{count} plies").format(count=41)  # the first game replays 41 plies
    cases = [(("show", str(source), "--move", "99b"),
              say("the game has no move {move}: it replays {plies}").format(move="99b",
                                                                            plies=plies),
              "the game has no move 99b"),
             (("show", str(source), "--ply", "999"),
              say("ply {ply} is out of range: the game replays {plies}").format(ply=999,
                                                                                plies=plies),
              "ply 999 is out of range"),
             (("show", str(source), "--move", "12"),
              say("'{text}' is not a move: write the number and w or b, as in 12b").format(
                  text="12"), "'12' is not a move")]
    for args, translated, english in cases:
        assert english in _pdn(*args).stderr
        for run in _runs(language, *args):
            assert (run.returncode, run.stdout) == (2, "")
            assert translated in run.stderr and english not in run.stderr
            assert _said(run, source) == []
            assert say("game {number}").format(number=1) in run.stderr


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_game_that_stops_replaying_says_why_in_the_users_language(language):
    # the scoresheet stops at its second ply: capture is compulsory
    say = catalog(language).gettext
    for run in _runs(language, "show", str(SCORESHEET), "--move", "99b"):
        assert run.returncode == 2
        assert say("{plies} (stopped by an error at line {line}: {reason})").format(
            plies=say("{count} plies").format(count=2), line=12,
            reason=say("capture is compulsory: {moves}").format(moves="d4:b6")
        ) in run.stderr
        assert "stopped by an error" not in run.stderr and _said(run, SCORESHEET) == []


@pytest.fixture(scope="module")
def database(tmp_path_factory, shared_data) -> Path:
    """The 1998 world championship indexed."""
    path = tmp_path_factory.mktemp("index") / "games.sqlite"
    run = _pdn("index", str(shared_data / EVENT), "-o", str(path))
    assert run.returncode == 0, run.stderr
    return path


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_bad_line_of_moves_is_refused_in_the_users_language(language, database,
                                                              shared_data, tmp_path):
    say = catalog(language).gettext
    cases = [(("search", str(database), "--moves", "1.cd4 xx9"),
              say("--moves '{text}' is not a sequence of moves: {reason}").split(":")[0]
              .format(text="1.cd4 xx9"), "is not a sequence of moves"),
             (("search", str(database), "--moves", "1.cd5"),
              say("--moves '{text}' is not legal in {variant}: {reason}").split(":")[0]
              .format(text="1.cd5", variant="russian"), "is not legal in russian"),
             (("explore", str(database), "--moves", "1.cd4 ab9"),
              say("move {number} ({side}) '{move}': {reason}").format(
                  number=1, side=say("Black"), move="ab9",
                  reason=say("legal moves: {moves}").format(moves="x")).split(":")[0],
              "move 1 (Black)")]
    for args, translated, english in cases:
        assert english in _pdn(*args).stderr
        for run in _runs(language, *args):
            assert (run.returncode, run.stdout) == (2, "")
            assert translated in run.stderr and english not in run.stderr
            assert _said(run, database) == []
    # filter (no --lang) tries every variant: each that refuses the line says why
    source = shared_data / EVENT
    args = ("filter", str(source), "--moves", "1.cd4 fg5 gh4 gh6", "-o", str(tmp_path / "o"))
    english = _pdn(*args)
    assert "is legal in no variant the games may be in" in english.stderr
    run = _pdn(*args, lang_env=f"{language}_XX.UTF-8")
    assert run.returncode == english.returncode == 2
    assert say("in {variants}: move {number} ({side}) '{move}': {reason}").split(":")[0].format(
        variants="russian, brazilian, czech") in run.stderr
    assert _said(run, source, tmp_path) == []


# ---- analyse: an engine that does not start, dies, stays silent or answers nonsense -------

def _dying_engine(folder: Path) -> list[str]:
    """An engine that says a word on stderr and exits with status 3 as it starts (what it
    said follows in the message when its stderr was read before the exit was seen)."""
    script = folder / "dying.py"
    script.write_text("import sys\nsys.stderr.write('E42\\n')\nsys.exit(3)\n",
                      encoding="utf-8")
    return [sys.executable, str(script)]


@pytest.mark.parametrize("language", TRANSLATED)
def test_analyse_says_an_engines_failure_to_start_in_the_users_language(language, tmp_path):
    words = catalog(language)
    say = words.gettext
    liar = fake_engine(tmp_path, "liar", {
        "hub": ["id name=liar", "wait"], "init": ["ready"],
        "go": ["info depth=1 score=0.00 pv=32-28", "done move=32-29"]})
    dying = _dying_engine(tmp_path)
    name = Path(sys.executable).name
    cases = [("no-such-engine hub", say("cannot start {command}: {reason}").format(
                  command="no-such-engine hub", reason=say("No such file or directory"))),
             (" ".join(liar), say("{engine} sent {text}, an illegal move in {fen}").split(
                 "{text}")[0].format(engine="liar")),
             (" ".join(dying), say("engine {name} exited with code {number}").format(
                 name=name, number=3))]
    for command, translated in cases:
        args = ("analyse", str(INTERNATIONAL), "-o", str(tmp_path / "out.pdn"),
                "--engine-cmd", command, "--depth", "1", "--timeout", "20")
        english = _pdn(*args)
        assert english.returncode == 2 and _said(english, INTERNATIONAL, tmp_path)
        for run in _runs(language, *args):
            assert (run.returncode, run.stdout) == (2, "")
            assert translated in run.stderr, (translated, run.stderr)
            assert _said(run, INTERNATIONAL, tmp_path, *command.split()) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_analyses_lines_say_an_engines_failure_in_the_users_language_and_json_stays(
        language, tmp_path):
    # the engine answers the probe's search of the start, then, in the run, the first two
    # positions of the international game and nothing more; it declares no variant: the
    # Russian game is refused, noted in the line that names it (--timeout also bounds the
    # start-up: generous on a loaded machine)
    say = catalog(language).gettext
    engine = " ".join(hostile_engine(tmp_path, "e", "silent", good=2))
    outputs = {}
    for lang in ("en", language):
        out = tmp_path / f"{lang}.pdn"
        run = _pdn("analyse", str(INTERNATIONAL), str(RUSSIAN_SHORT), "-o", str(out),
                   "--engine-cmd", engine, "--depth", "1", "--timeout", "5", "--json",
                   lang_env=f"{lang}_XX.UTF-8")
        outputs[lang] = run.returncode, run.stdout
        if lang == "en":
            assert "engine hostile did not answer within 5 s" in run.stderr
            assert "not analysed: engine hostile does not play russian" in run.stderr
            continue
        assert say("engine {name} did not answer within {seconds} s").format(
            name="hostile", seconds="5") in run.stderr
        assert say("not analysed: {reason}").format(reason=say(
            "engine {name} does not play {variant} (it plays International draughts only: "
            "it declares no variant)").format(name="hostile", variant="russian")
        ) in run.stderr
        assert _said(run, INTERNATIONAL, RUSSIAN_SHORT, out) == []
    assert outputs["en"] == outputs[language] and outputs["en"][0] == 1


# ---- SQLite's words ------------------------------------------------------------------------

@pytest.mark.parametrize("language", TRANSLATED)
def test_a_database_another_program_holds_is_said_so_in_the_users_language(
        language, database, tmp_path):
    # another program's write transaction on the database: SQLite waits, then gives up
    locked = tmp_path / "locked.sqlite"
    locked.write_bytes(database.read_bytes())
    holder = sqlite3.connect(locked, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("UPDATE meta SET value = value")
        say = catalog(language).gettext
        expected = say("{file}: cannot read the database: {reason}").format(
            file=locked, reason=say("another program is using the database: try again once "
                                    "it is done ({error})").format(error="database is locked"))
        english = _pdn("search", str(locked), "--player", "Guba")
        assert "another program is using the database" in english.stderr
        assert "not a game database" not in english.stderr
        runs = [_pdn("search", "--lang", language, str(locked), "--player", "Guba"),
                _pdn("explore", str(locked), lang_env=f"{language}_XX.UTF-8")]
        for run in runs:
            assert (run.returncode, run.stdout) == (2, "")
            assert run.stderr.strip() == f"{say('error')}: {expected}"
            assert _said(run, locked, "(database is locked)") == []
    finally:
        holder.close()


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_damaged_database_is_said_so_in_the_users_language(language, database, tmp_path):
    damaged = tmp_path / "damaged.sqlite"
    data = bytearray(database.read_bytes())
    data[4096:] = b"\xff" * (len(data) - 4096)  # the header page kept, every other page lost
    damaged.write_bytes(bytes(data))
    say = catalog(language).gettext
    reason = say("the database file is damaged ({error})").format(
        error="database disk image is malformed")
    for run in _runs(language, "search", str(damaged), "--player", "Guba"):
        assert (run.returncode, run.stdout) == (2, "")
        assert run.stderr.strip() == f"{say('error')}: " + say(
            "{file}: cannot read the database: {reason}").format(file=damaged, reason=reason)
    # a file that is no database at all, given to index to write into
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"not a database at all" * 100)
    run = _pdn("index", "--lang", language, str(SCORESHEET), "-o", str(garbage))
    assert run.returncode == 2
    assert say("the file is not an SQLite database ({error})").format(
        error="file is not a database") in run.stderr
    assert _said(run, garbage, SCORESHEET, "(file is not a database)") == []


def test_sqlite_reasons_are_chosen_by_sqlites_result_code_not_its_words():
    from replay.database.sqlite_reasons import EXPLAINED, OTHER, sqlite_reason

    error = sqlite3.OperationalError("words SQLite might change")
    error.sqlite_errorname = "SQLITE_IOERR_SHORT_READ"  # an extended code: its primary's
    assert sqlite_reason(error) == EXPLAINED["SQLITE_IOERR"].format(error=error)
    error.sqlite_errorname = "SQLITE_SCHEMA"
    assert sqlite_reason(error) == OTHER.format(error=error)
    own = sqlite3.DatabaseError("a game's variant 'x' is none this toolkit plays")
    assert sqlite_reason(own) == str(own)  # raised by us: no result code, said as it is


# ---- the progress bars' labels (drawn on a terminal only) ----------------------------------

def _on_terminal(*args: str, lang_env: str) -> tuple[int, str]:
    """``pdn ARGS`` with its stderr on a pseudo-terminal (where the progress bar is drawn):
    its exit status and what it drew there."""
    main, side = pty.openpty()
    env = {"PATH": "/usr/bin:/bin", "LANG": lang_env, "LC_ALL": "", "LC_MESSAGES": "",
           "COLUMNS": "120"}
    process = subprocess.Popen([str(Path(sys.executable).with_name("pdn")), *args],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=side, env=env, cwd=ROOT)
    os.close(side)
    drawn = bytearray()
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal's other side closed: the command ended
            break
        if not chunk:
            break
        drawn += chunk
    os.close(main)
    return process.wait(), drawn.decode("utf-8", "replace")


@pytest.mark.parametrize("language", TRANSLATED)
def test_stats_and_clean_label_their_progress_bars_in_the_users_language(
        language, shared_data, tmp_path):
    source = shared_data / EVENT
    say = catalog(language).gettext
    runs = {"tabulating": ("stats", str(source), "-t", "games", "-o", str(tmp_path / "g.csv")),
            "cleaning": ("clean", str(source), "-o", str(tmp_path / "c.pdn"), "--changes",
                         str(tmp_path / "changes.txt"))}
    for label, args in runs.items():
        status, english = _on_terminal(*args, lang_env="en_US.UTF-8")
        assert status == 0 and f"{label} " in english  # the bar is drawn, in English
        status, drawn = _on_terminal(*args, lang_env=f"{language}_XX.UTF-8")
        assert status == 0
        assert say(label) != label and f"{say(label)} " in drawn
        assert label not in drawn
