"""Converting a plain game without the game tree (``convert_plainly``, the native core's
``Rules.write``) against the tree, the reference: the same PDN text, byte for byte, and the
same report, for every target and path style; on the real archives (the first games of each
file of ../shared/data and samples/, every game with ``PDN_FULL_DATA=1``), on random legal
games of every variant the native core replays, and as ``pdn convert`` writes whole files with
and without the native core."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from itertools import islice
from pathlib import Path

import pytest
from conftest import ROOT, SHARED_DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn.game import Game
from pdn.reader import read_games
from replay.convert.games import (
    Target,
    convert_plainly,
    convert_replayed,
    reading_variant,
    render,
)
from replay.record.board import Board
from replay.record.notation import PATH_STYLES, full_text
from replay.rules import native
from replay.rules.position import Position
from replay.rules.variants import VARIANTS, Variant

FULL = os.environ.get("PDN_FULL_DATA", "") not in ("", "0")
SAMPLE = 60  # games per file in the normal run
TARGETS = [Target("full"), Target("numeric"), Target("pdn"), Target("full", "canonical"),
           Target("full", "turns"), Target("numeric", "all"), Target("full", "minimal", ":"),
           Target("numeric", "minimal", "-"), Target("numeric", numbering="N1")]

if not native.available():
    pytest.skip("the native rules core is not built here", allow_module_level=True)


def _data_files() -> list[Path]:
    roots = [SHARED_DATA, ROOT / "samples"]
    return sorted(path for root in roots if root.is_dir() for path in root.rglob("*.pdn"))


def _compared(game: Game, targets: list[Target], default: Variant | None = None) -> int:
    """How many targets the plain path took for ``game``, each checked against the tree's
    conversion (made afterwards: it builds the plies, after which no run is left)."""
    variant, replayed = reading_variant(game, default)
    plain = [convert_plainly(game, variant, replayed, target) for target in targets]
    for target, taken in zip(targets, plain, strict=True):
        if taken is None:
            continue
        conversion = convert_replayed(game, variant, replayed, target)
        assert conversion.game is not None, (game.index, target)
        text, report = taken
        assert text == render(conversion), (game.source, game.index, target)
        assert report.as_dict() == conversion.report.as_dict(), (game.index, target)
    return sum(taken is not None for taken in plain)


@pytest.mark.parametrize("path", _data_files(), ids=lambda path: path.name)
def test_a_plain_game_of_the_archives_is_converted_as_the_tree_converts_it(path: Path):
    for game in islice(read_games(path), None if FULL else SAMPLE):
        _compared(game, TARGETS)


def test_the_plain_path_takes_the_games_of_a_plain_archive(shared_data: Path):
    """Not a vacuous agreement: nearly every game of OCA 2.0 is plain and taken."""
    games = list(islice(read_games(shared_data / "english" / "OCA_2.0.pdn"), 400))
    taken = sum(_compared(game, [Target("full")]) for game in games)
    assert taken > 0.95 * len(games)


NATIVE = [variant for variant in VARIANTS if (rules := native.rules_for(variant)) is not None
          and rules.replays]


def _random_game(variant: Variant, seed: int, plies: int) -> str:
    """A random legal game written with every landing square (never ambiguous)."""
    rng = random.Random(seed)
    board = Board(variant)
    words = []
    for ply in range(plies):
        moves = board.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        text = full_text(board, move, "all")
        words.append(f"{ply // 2 + 1}. {text}" if ply % 2 == 0 else text)
        board.push(move)
    return f'[GameType "{variant.gametype.tag()}"]\n\n' + " ".join(words) + " *\n"


@pytest.mark.parametrize("variant", NATIVE, ids=lambda variant: variant.name)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), plies=st.integers(1, 160))
def test_a_random_game_is_converted_as_the_tree_converts_it(variant: Variant, seed: int,
                                                           plies: int):
    targets = [Target("pdn", paths) for paths in ("minimal", "canonical")]
    targets += [Target(to, paths) for to in ("full", "numeric") for paths in PATH_STYLES]
    game = next(read_games(_random_game(variant, seed, plies)))
    assert _compared(game, targets, variant) == len(targets)  # every one taken, and checked


def _rules_and_names() -> tuple[native.NativeRules, tuple]:
    from replay.rules.variants import get_variant

    rules = native.rules_for(get_variant("international"))
    assert rules is not None
    names = tuple(str(square) for square in range(rules.generator.size))
    return rules, names


def test_a_record_with_a_mark_after_its_move_is_left_to_the_tree():
    rules, names = _rules_and_names()
    assert rules.write_line(rules.start, "1. 32-28 19-23", names, "x", 0, 1, False, "*")
    assert rules.write_line(rules.start, "1. 32-28! 19-23", names, "x", 0, 1, False, "*") \
        is None
    assert rules.write_line(rules.start, "1. 32-26 19-23", names, "x", 0, 1, False, "*") \
        is None  # no such move: the tree says why


def test_bad_arguments_to_the_native_writer_raise_errors_not_crashes():
    rules, names = _rules_and_names()
    core, start = rules._core, rules.start
    position = (start.white, start.black, start.kings, start.turn)
    with pytest.raises(ValueError):  # one name per internal square
        core.write(*position, "32-28", names[:-1], "x", 0, 1, 0, "*")
    with pytest.raises(ValueError):  # an ASCII separator
        core.write(*position, "32-28", names, "×", 0, 1, 0, "*")
    with pytest.raises(ValueError):  # a known path style
        core.write(*position, "32-28", names, "x", 7, 1, 0, "*")
    with pytest.raises(TypeError):
        core.write(*position, "32-28", names)
    # a name that is no ASCII str: declined, not written
    assert core.write(*position, "32-28", (None,) * len(names), "x", 0, 1, 0, "*") is None
    assert rules.write_line(Position(1 << 63, 0, 0, 0), "32-28", names, "x", 0, 1, False, "*") \
        is None  # a set-up that is no position of this board


def _pdn_convert(path: Path, target: str, *, native_core: bool) -> bytes:
    env = {**os.environ, "PDN_NO_NATIVE": "" if native_core else "1"}
    done = subprocess.run([sys.executable, "-c", "from pdn.cli.app import main; main()",
                           "convert", "--jobs", "1", "--to", target, str(path)],
                          capture_output=True, env=env, check=False)
    assert done.returncode in (0, 1), done.stderr[-500:]
    return done.stdout + done.stderr


@pytest.mark.parametrize("name", ["english/tinsley.pdn", "international/fmjd_wk2007_all_games.pdn",
                                  "lidraughts_sample/lidraughts_export_sample.pdn"])
@pytest.mark.parametrize("target", ["full", "numeric"])
def test_pdn_convert_writes_the_same_bytes_with_and_without_the_native_core(
        shared_data: Path, name: str, target: str):
    path = shared_data / name
    assert _pdn_convert(path, target, native_core=True) == \
        _pdn_convert(path, target, native_core=False)
