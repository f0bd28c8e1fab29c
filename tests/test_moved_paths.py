"""The old import paths of the modules that moved into replay/rules, replay/record and
replay/reference work for one release, with a DeprecationWarning that
names the new home; a pickle that names an old path loads."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys

import pytest

import replay  # installs the finder of old paths
from replay._moved import MOVED
from replay.rules.move import Move


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_imports_with_a_warning_naming_the_new_home(old):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} has moved to {MOVED[old][0]}"):
        module = importlib.import_module(old)
    home = importlib.import_module(MOVED[old][0])
    public = [name for name in vars(home) if not name.startswith("_")]
    assert public and all(getattr(module, name) is getattr(home, name) for name in public)


def test_the_board_of_the_old_path_is_the_friendly_board_beside_the_positions():
    sys.modules.pop("replay.board", None)
    with pytest.warns(DeprecationWarning):
        from replay.board import Board, Position, start_position
    assert Board is replay.Board and Board(variant="russian").parse("cd4")
    assert isinstance(start_position(replay.get_variant("russian")), Position)


def test_the_warning_points_at_the_importer():
    shown = subprocess.run([sys.executable, "-W", "always::DeprecationWarning", "-c",
                            "import replay\nfrom replay.perft import perft"],
                           capture_output=True, text=True, check=True)
    assert "<string>:2: DeprecationWarning: replay.perft has moved to replay.rules.perft" \
        in shown.stderr


def test_a_pickle_naming_an_old_path_loads():
    made = pickle.dumps(Move(22, (18,)), protocol=0)
    assert b"replay.rules.move" in made
    old = made.replace(b"replay.rules.move", b"replay.move")
    sys.modules.pop("replay.move", None)
    with pytest.warns(DeprecationWarning):
        assert pickle.loads(old) == Move(22, (18,))


def test_an_old_path_wins_over_an_extension_left_beside_it(tmp_path, monkeypatch):
    """A stale in-place build's ``replay/perft.*.so`` would shadow the moved module."""
    stale = tmp_path / "replay"
    stale.mkdir()
    (stale / "perft.py").write_text("raise AssertionError('the stale module was imported')\n")
    monkeypatch.setattr(replay, "__path__", [str(stale), *replay.__path__])
    sys.modules.pop("replay.perft", None)
    with pytest.warns(DeprecationWarning):
        module = importlib.import_module("replay.perft")
    assert module.perft is importlib.import_module("replay.rules.perft").perft


def test_a_new_path_is_not_an_old_one():
    assert all(not name.startswith(("replay.rules.", "replay.record.", "replay.reference."))
               for name in MOVED)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("replay.no_such_module")
