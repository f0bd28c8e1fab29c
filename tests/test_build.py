"""The two builds of the rules core (pdn.compiled): the mypyc-compiled modules where they were
built, pure Python where asked for, both with the same results; a compiled module never hides
an edit of its source; replayed games still cross to worker processes."""

from __future__ import annotations

import importlib
import json
import os
import pickle
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from conftest import ROOT, require

from pdn import compiled
from pdn.reader import read_games
from replay.record.board import Board
from replay.record.replayer import replay_game

SAMPLES = ROOT / "samples"


def core_modules() -> list:
    return [importlib.import_module(name) for name in compiled.COMPILED]


def test_the_core_runs_the_build_the_environment_asks_for():
    built = compiled.loaded_build(core_modules())
    if compiled.wants_pure():
        assert built == "pure Python" and compiled.build() == "pure Python"
        return
    # The compiled build is the default where a C compiler is at hand: under CI it must be there.
    require(built == "compiled", "the mypyc-compiled rules core (make .venv/bin/pdn)")
    assert compiled.build() == "compiled"


def pdn_command(*args: str, pure: bool = False) -> str:
    """What ``pdn ARGS`` prints in a new process (on the pure-Python build if ``pure``)."""
    env = {**os.environ, compiled.PURE_VARIABLE: "1"} if pure else None
    return subprocess.run([sys.executable, "-c", "from pdn.cli.app import main; main()", *args],
                          capture_output=True, text=True, env=env, cwd=ROOT).stdout


def test_pdn_version_names_the_build():
    assert pdn_command("--version").startswith("pdn-toolkit ")
    assert f"(rules core: {compiled.build()})" in pdn_command("--version")
    assert "(rules core: pure Python)" in pdn_command("--version", pure=True)


@pytest.mark.parametrize("args", [
    ("validate", "samples", "--warnings", "--json", "--jobs", "1"),
    ("perft", "--variant", "international", "--depth", "4", "--divide"),
    ("perft", "--variant", "frisian", "--depth", "5", "--divide"),
])
def test_pure_and_default_builds_give_the_same_output(args: tuple[str, ...]):
    here, pure = pdn_command(*args), pdn_command(*args, pure=True)
    assert here and here == pure


def fake_tree(tmp_path: Path, source: str) -> Path:
    """A folder laid out like an install: replay/rules/movegen.py, its extension, the digests."""
    (tmp_path / "replay" / "rules").mkdir(parents=True)
    (tmp_path / "pdn").mkdir()
    (tmp_path / "replay" / "rules" / "movegen.py").write_text(source)
    (tmp_path / "replay" / "rules" / f"movegen{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    return tmp_path


def test_a_compiled_module_older_than_its_source_is_stale(tmp_path: Path):
    root = fake_tree(tmp_path, "X = 1\n")
    digests = {"replay.rules.movegen": compiled.digest(root / "replay" / "rules" / "movegen.py")}
    (root / "pdn" / compiled.MANIFEST).write_text(json.dumps({"sources": digests}))
    assert compiled.stale_modules(root, ["replay.rules.movegen"]) == []
    (root / "replay" / "rules" / "movegen.py").write_text("X = 2\n")
    assert compiled.stale_modules(root, ["replay.rules.movegen"]) == ["replay.rules.movegen"]


def test_extensions_without_recorded_digests_are_stale(tmp_path: Path):
    root = fake_tree(tmp_path, "X = 1\n")
    assert compiled.stale_modules(root, ["replay.rules.movegen"]) == ["replay.rules.movegen"]


def test_a_pure_tree_has_nothing_stale(tmp_path: Path):
    (tmp_path / "replay" / "rules").mkdir(parents=True)
    (tmp_path / "replay" / "rules" / "movegen.py").write_text("X = 1\n")
    assert compiled.stale_modules(tmp_path, ["replay.rules.movegen"]) == []


def test_an_edited_source_runs_pure_with_a_warning(tmp_path: Path):
    """The check at import: a copy of the package whose compiled movegen no longer matches its
    source imports every core module from its .py file and says why."""
    if compiled.build() != "compiled":
        pytest.skip("needs the compiled build")
    copy = tmp_path / "tree"
    copy.mkdir()
    for package in ("pdn", "replay"):
        subprocess.run(["cp", "-r", str(ROOT / package), str(copy / package)], check=True)
    for library in ROOT.glob("*__mypyc*"):  # the compiled modules' one shared library
        subprocess.run(["cp", str(library), str(copy)], check=True)
    with (copy / "replay" / "rules" / "movegen.py").open("a") as source:
        source.write("\n# edited after the build\n")
    probe = ("import replay.rules.movegen, replay.rules.position, pdn.compiled as c; "
             "print(c.build(), replay.rules.movegen.__file__.endswith('.py'), "
             "replay.rules.position.__file__.endswith('.py'))")
    # -c puts the copy (the working folder) first on the path, ahead of the installed tree.
    env = {key: value for key, value in os.environ.items() if key != compiled.PURE_VARIABLE}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=copy, env=env)
    assert done.stdout.split() == ["pure", "Python", "True", "True"], done.stderr
    assert "no longer match their source (replay.rules.movegen)" in done.stderr


def test_a_venv_that_cannot_import_the_compiled_library_runs_pure():
    """A second venv over the same working tree (``make test-pure``'s) lacks the library."""
    if compiled.build() != "compiled":
        pytest.skip("needs the compiled build")
    library = compiled.manifest()["library"]
    probe = ("import sys, importlib.util as u; real = u.find_spec; "
             f"u.find_spec = lambda name, *a: None if name == {library!r} else real(name, *a); "
             "import pdn.compiled as c, replay.rules.movegen as m; "
             "print(c.build(), m.__file__.endswith('.py'))")
    env = {key: value for key, value in os.environ.items() if key != compiled.PURE_VARIABLE}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    assert done.stdout.split() == ["pure", "Python", "True"], done.stderr
    assert f"library {library} is not importable" in done.stderr


def test_boards_moves_and_replayed_games_cross_to_worker_processes():
    game = next(read_games(SAMPLES / "russian" / "ivanov_petrov_short.pdn"))
    tree = replay_game(game)
    copy = pickle.loads(pickle.dumps(tree))
    assert copy.moves == tree.moves and [str(m) for m in copy.moves] == [
        str(m) for m in tree.moves]
    assert copy.final == tree.final and copy.status == tree.status
    board = Board(variant="frisian")  # its positions remember king moves (RestrictedPosition)
    for _ in range(3):
        board.push(board.legal_moves()[-1])
    position, move = pickle.loads(pickle.dumps((board.position, board.move_stack[-1])))
    assert position == board.position and type(position) is type(board.position)
    assert position.streaks == board.position.streaks
    assert move == board.move_stack[-1] and str(move) == str(board.move_stack[-1])


def test_an_edited_native_source_is_stale(tmp_path: Path):
    """The native core's C source has its digest recorded too; an edit is seen."""
    (tmp_path / "pdn").mkdir()
    source = tmp_path / compiled.NATIVE_SOURCE
    source.parent.mkdir(parents=True)
    source.write_text("int x;\n")
    (tmp_path / "pdn" / compiled.MANIFEST).write_text(
        json.dumps({"native": compiled.digest(source)}))
    assert not compiled.native_is_stale(tmp_path)
    source.write_text("int y;\n")
    assert compiled.native_is_stale(tmp_path)


@pytest.mark.parametrize("edited", compiled.NATIVE_SOURCES[1:])
def test_an_edited_engine_or_database_source_is_stale_too(tmp_path: Path, edited: str):
    """The engine's ``_search.c`` and the database's ``_positions.c``, built on the rules
    core's ``_native.c``, are in its digest: an edit of either is seen as well."""
    (tmp_path / "pdn").mkdir()
    for name in compiled.NATIVE_SOURCES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(f"/* {name} */\n")
    (tmp_path / "pdn" / compiled.MANIFEST).write_text(
        json.dumps({"native": compiled.native_digest(tmp_path)}))
    assert not compiled.native_is_stale(tmp_path)
    (tmp_path / edited).write_text("int edited;\n")
    assert compiled.native_is_stale(tmp_path)


def test_each_native_source_builds_the_extension_of_its_own_folder():
    """The engine's C is the engine's extension, the database's the database's: none is
    compiled into a lower floor's module (tests/test_layers.py checks what each includes)."""
    for module, source in compiled.NATIVE_EXTENSIONS.items():
        assert Path(source).with_suffix("").parts == tuple(module.split("."))
        assert (ROOT / source).is_file()


def test_every_native_part_is_built_beside_the_rules_core():
    """Where the rules core is used, the engine's and the database's extensions are there
    too: a build that lost one would fall back to Python unseen."""
    from replay.rules import native

    if compiled.wants_pure():  # the pure build: no native part is used, none half
        assert not native.available()
        assert all(native.extension(module) is None for module in compiled.NATIVE_EXTENSIONS)
        return
    require(native.available(), "the native rules core (pip install -e .)")
    assert all(native.extension(module) is not None for module in compiled.NATIVE_EXTENSIONS)


def test_the_pure_build_leaves_the_native_core_alone():
    probe = "import replay.rules.native as n, replay.rules.perft; print(n.available())"
    pure = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, compiled.PURE_VARIABLE: "1"})
    assert pure.stdout.split() == ["False"], pure.stderr
    if compiled.wants_pure():
        return
    here = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT)
    require(here.stdout.split() == ["True"], "the native rules core (pip install -e .)")
