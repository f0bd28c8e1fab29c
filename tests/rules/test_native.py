"""The native rules core (replay.rules.native, replay/rules/_native.c) against the Python core, the
reference: the same capture routes and quiet moves in the same order, the same legal moves and
positions after them, the same perft counts (the published tables of docs/rules.md too), and
the same moves for every text it replays (on hypothesis-made positions of every variant it
takes, and on every game of ../shared/data). No input may crash the interpreter.

``PDN_FULL_DATA=1`` replays every game of ../shared/data (a few minutes); otherwise the first
games of each file.
"""

from __future__ import annotations

import itertools
import json
import os
import re
from pathlib import Path

import pytest
from conftest import SHARED_DATA, require
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.positions import positions

from pdn import compiled
from pdn.fen import parse_fen
from pdn.reader import read_games
from replay.record.board import Board
from replay.record.replayer import _native_moves, replay_game
from replay.record.resolve import Resolution, plain_mover, record_of_text, resolve
from replay.rules import native
from replay.rules.move import Move
from replay.rules.movegen import WHITE, generator_for
from replay.rules.native import MAX_SQUARES, available, main_line_tokens, rules_for
from replay.rules.perft import python_perft
from replay.rules.position import (
    Position,
    RestrictedPosition,
    for_variant,
    position_from_setup,
    start_position,
)
from replay.rules.variants import VARIANTS, Variant, get_variant
from replay.validate.reports import report_games


def test_the_native_core_is_there_where_it_was_built():
    if compiled.wants_pure():
        assert not available()
        return
    require(available(), "the native rules core (pip install -e . with a C compiler)")


if not available():
    pytest.skip("the native rules core is not built here", allow_module_level=True)

NATIVE = [v for v in VARIANTS if rules_for(v) is not None]
LEFT = [v.name for v in VARIANTS if rules_for(v) is None]


def test_only_boards_past_64_squares_are_left_to_python():
    assert LEFT == ["canadian"]
    assert generator_for(get_variant("canadian")).size > MAX_SQUARES


PLY_MOVES = 2048  # moves the native core holds for one position (PLYMOVES in _native.c)


def fields(move: Move) -> tuple:
    return move.origin, move.path, move.captures, move.promotes, move.captured_mask


def sides(position: Position) -> tuple[int, int, int, int]:
    if position.turn == WHITE:
        return position.white, position.black, position.kings, WHITE
    return position.black, position.white, position.kings, position.turn


def unfiltered_captures(variant: Variant, position: Position) -> int:
    """How many capture routes the native core lists before the precedence rule chooses
    among them (its buffer holds them all: Frisian's most valuable captures are chosen from
    every capture of every piece)."""
    free = generator_for(variant.with_options(precedence="free"))
    return len(free.captures(*sides(position)))


CASES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("variant", NATIVE, ids=lambda v: v.name)
@CASES
@given(data=st.data())
def test_routes_and_quiet_moves_are_the_references(variant: Variant, data: st.DataObject):
    position = data.draw(positions(variant))
    origins = data.draw(st.sampled_from((-1, 1 << variant.geometry.playable[3], 0)))
    native = rules_for(variant)
    generator = generator_for(variant)
    frozen = position.frozen_kings(variant.max_king_moves)
    reference = (generator.captures(*sides(position), origins),
                 generator.quiet_moves(*sides(position), frozen))
    try:
        captures, quiet = native.routes(position, origins)
    except OverflowError:  # only where a list is longer than the native buffers
        assert max(len(reference[1]), unfiltered_captures(variant, position)) > PLY_MOVES
        return
    assert [fields(m) for m in captures] == [fields(m) for m in reference[0]]
    assert [fields(m) for m in quiet] == [fields(m) for m in reference[1]]
    assert native.has_capture(position) == generator.has_capture(*sides(position))


def test_a_perft_that_overflows_one_ply_on_is_counted_by_the_reference():
    """A Frisian king facing nine men (found by the property test below): each of Black's
    moves is legal natively, but after one of them the king's captures, all listed before
    the most valuable are chosen, outgrow the native buffer. The native perft says so, and
    ``replay.rules.perft.perft`` counts that position in Python."""
    from replay.rules.perft import perft

    variant = get_variant("frysk")
    position = RestrictedPosition(white=1 << 32, black=6049814298624, kings=1 << 32, turn=1,
                                  streaks=((-1, 0), (-1, 0)))
    native, board = rules_for(variant), Board(variant, position)
    assert len(native.legal_moves(position)) == len(board.legal_moves()) == 15
    with pytest.raises(OverflowError):
        native.perft(position, 2)
    assert sum(_overflows(native, board, move) for move in board.legal_moves()) == 1
    generator = generator_for(variant)
    assert perft(generator, position, 2) == python_perft(generator, position, 2)


def test_routes_overflow_on_the_captures_listed_before_the_most_valuable_are_chosen():
    """A Frisian king facing many men (found by the property test below): 264 captures are
    allowed, chosen from 2,274 that the native core lists first; more than its buffer holds,
    so it says so, and the board's moves come from the reference."""
    variant = get_variant("frisian")
    position = RestrictedPosition(white=142592916062216, black=1 << 48, kings=1 << 48,
                                  turn=1, streaks=((-1, 0), (-1, 0)))
    with pytest.raises(OverflowError):
        rules_for(variant).routes(position)
    assert unfiltered_captures(variant, position) == 2274 > PLY_MOVES
    assert len(generator_for(variant).captures(*sides(position))) == 264
    assert len(Board(variant, position).legal_moves()) > 0


def _overflows(native, board: Board, move: Move) -> bool:
    """Whether the native core cannot list the moves of the position after ``move`` (a
    variant that picks among captures by their value lists them all first: Frisian)."""
    after = board.copy()
    after.push(move)
    try:
        native.legal_moves(after.position)
    except OverflowError:
        return True
    return False


@pytest.mark.parametrize("variant", NATIVE, ids=lambda v: v.name)
@CASES
@given(data=st.data())
def test_legal_moves_positions_and_perft_are_the_references(variant: Variant,
                                                            data: st.DataObject):
    position = data.draw(positions(variant))
    native = rules_for(variant)
    board = Board(variant, position)
    try:
        legal = native.legal_moves(position)
    except OverflowError:  # only where a list is longer than the native buffers
        assert max(len(board.capture_routes()), len(board.legal_moves()),
                   unfiltered_captures(variant, position)) > PLY_MOVES
        return
    assert [fields(m) for m in legal] == [fields(m) for m in board.legal_moves()]
    generator = generator_for(variant)
    for keep in (False, True):
        try:
            counted = native.perft(position, 2, keep)
        except OverflowError:  # only where a position one ply on overflows the buffers too
            assert any(_overflows(native, board, move) for move in board.legal_moves())
            break
        assert counted == python_perft(generator, position, 2, keep)
    if variant.max_king_moves:
        return
    # each legal move written in full replays to the reference's position
    for move in legal[:6]:
        line = native.replay_line(position, [board.move_text(move, full_path=True)])
        resolution = reference(board, board.move_text(move, full_path=True))
        if line.plies:
            assert fields(line.moves[0]) == fields(resolution.move)
            assert line.final == position.play(resolution.move)
        else:
            assert resolution.move is None or resolution.warning or not native.replays


def reference(board: Board, text: str) -> Resolution:
    """What the replayer makes of a text: its fast path's move, else ``resolve``'s answer."""
    record = record_of_text(text)
    move = plain_mover(board)(record)
    return resolve(board, record) if move is None else Resolution(move)


def square_texts(variant: Variant) -> st.SearchStrategy[str]:
    names = sorted(variant.gametype.notation.known_squares)
    return st.sampled_from([*names, "0", "99", "z9", "a0", "c33", ""])


@st.composite
def move_texts(draw: st.DrawFn, variant: Variant) -> str:
    squares = draw(st.lists(square_texts(variant), min_size=1, max_size=5))
    separators = draw(st.lists(st.sampled_from(["-", "x", ":", "", "X", "×", " "]),
                               min_size=len(squares), max_size=len(squares)))
    return "".join(s + sep for s, sep in zip(squares, separators, strict=True))[:-1] or "x"


@pytest.mark.parametrize("variant", NATIVE, ids=lambda v: v.name)
@CASES
@given(data=st.data())
def test_a_text_replayed_means_what_the_reference_resolves(variant: Variant,
                                                           data: st.DataObject):
    """Any text: the native replay takes it only where the reference finds the same one move
    and nothing to say about it; everything else it leaves to Python."""
    native = rules_for(variant)
    if not native.replays:
        return
    position = data.draw(positions(variant))
    text = data.draw(move_texts(variant))
    line = native.replay_line(position, [text])
    if not line.plies:
        return
    try:
        resolution = reference(Board(variant, position), text)
    except ValueError:  # no move in any notation: the native replay must not take it either
        resolution = Resolution(None)
    assert resolution.move is not None and not resolution.warning
    assert fields(line.moves[0]) == fields(resolution.move)
    assert line.final == position.play(resolution.move)


@settings(max_examples=300, deadline=None)
@given(white=st.integers(0, (1 << 64) - 1), black=st.integers(0, (1 << 64) - 1),
       kings=st.integers(0, (1 << 64) - 1), turn=st.integers(-1, 2),
       texts=st.lists(st.text(max_size=12), max_size=4),
       name=st.sampled_from([v.name for v in NATIVE]))
def test_any_bitboards_and_texts_are_refused_or_answered(white, black, kings, turn, texts, name):
    """Bitboards off the board, overlapping sides, a side that is no side, any text: a
    ValueError or an answer, never a crash."""
    core = rules_for(get_variant(name))._core
    try:
        core.routes(white, black, kings, turn, -1 & ((1 << 64) - 1), 0)
        core.perft(white, black, kings, turn, None, 2, False)
        if rules_for(get_variant(name)).replays:
            core.replay(white, black, kings, turn, texts)
            core.check(white, black, kings, turn, texts, 1, turn & 1, turn & 1, 6, white)
    except ValueError:
        pass


def test_bad_arguments_raise_errors_not_crashes():
    core = rules_for(get_variant("russian"))._core
    board = generator_for(get_variant("russian")).board_mask
    for call in (lambda: core.routes(1 << 70, 0, 0, 0, 0, 0),
                 lambda: core.routes(-1, 0, 0, 0, 0, 0),
                 lambda: core.perft(0, 0, 0, 0, None, 100, False),
                 lambda: core.perft(0, 0, 0, 0, ((99, 1), (-1, 0)), 2, False),
                 lambda: core.perft(0, 0, 0, 0, "streaks", 2, False),
                 lambda: core.replay(0, 0, 0, 0, 12),
                 lambda: core.check(0, 0, 0, 0, [], 1, 0, 0, 99, 0),
                 lambda: core.check(0, 0, 0, 0, [], 1, 2, 0, 0, 0),
                 lambda: core.check(0, 0, 0, 0, 12, 1, 0, 0, 0, 0),
                 lambda: core.check(0, 0, 0, 0, []),
                 lambda: core.perft(board, board, 0, 0, None, 1, False)):
        with pytest.raises((ValueError, TypeError, OverflowError)):
            call()
    assert core.replay(1, 0, 0, 0, [None, b"11-15"])[2] == 1  # stops at what is no text
    start = start_position(get_variant("russian"))
    where = (start.white, start.black, start.kings, start.turn, ["c3-d4"])
    with pytest.raises(TypeError):
        core.replay(*where, "no factory", None)
    with pytest.raises(ZeroDivisionError):  # a factory's error comes back, nothing leaks
        core.replay(*where, lambda *fields: 1 / 0, None)
    with pytest.raises((KeyError, ValueError)):
        type(core)({"size": 99})
    with pytest.raises((KeyError, ValueError, TypeError)):
        type(core)({})


# Published counts (docs/rules.md; tests/rules/test_perft.py holds the shallower ones).
DEEP = [("international", 8, 6483961), ("russian", 9, 4570586), ("english", 9, 3963680),
        ("thai", 7, 1820189), ("frisian", 7, 540126)]


@pytest.mark.parametrize(("name", "depth", "count"), DEEP)
def test_native_perft_matches_the_published_tables(name, depth, count):
    variant = get_variant(name)
    assert rules_for(variant).perft(start_position(variant), depth) == count


@pytest.mark.parametrize("variant", NATIVE, ids=lambda v: v.name)
def test_native_perft_is_the_python_perft_from_the_start(variant: Variant):
    generator, position = generator_for(variant), start_position(variant)
    for keep in (False, True):
        assert [rules_for(variant).perft(position, d, keep) for d in range(1, 5)] == [
            python_perft(generator, position, d, keep) for d in range(1, 5)]


def data_files() -> list[Path]:
    if not SHARED_DATA.is_dir():
        return []
    return sorted(SHARED_DATA.rglob("*.pdn"))


FULL = os.environ.get("PDN_FULL_DATA", "") not in ("", "0")
SAMPLE = 25  # games per file in the normal run


@pytest.mark.parametrize("path", data_files(), ids=lambda p: str(p.relative_to(SHARED_DATA)))
def test_every_game_replays_natively_as_the_reference_does(path: Path):
    """Each game's main line: every move the native replay takes is the reference's, with its
    route, and a line it replays to the end ends in the reference's final position."""
    for count, game in enumerate(read_games(path)):
        if not FULL and count >= SAMPLE:
            break
        replayed = python_replay(game)
        native = rules_for(replayed.variant)
        texts = main_line_tokens(replayed.game)
        if native is None or texts is None or any(e.code == "bad-fen" for e in replayed.errors):
            continue
        line = native.replay_line(for_variant(replayed.start, replayed.variant), texts)
        assert line.plies <= len(replayed.moves), (game.line, line.stop)
        for mine, theirs in zip(line.moves, replayed.moves, strict=False):
            assert fields(mine) == fields(theirs), game.line
        if line.stop == "end" and not replayed.errors:
            assert line.plies == len(replayed.moves)
            assert line.final == replayed.final


def python_replay(game, *args, **options):
    """The reference: ``replay_game`` with the native core left out."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(native, "rules_for", lambda variant: None)
        return replay_game(game, *args, **options)


@pytest.mark.parametrize("path", data_files(), ids=lambda p: str(p.relative_to(SHARED_DATA)))
def test_a_line_checked_natively_keeps_the_references_moves_and_positions(path: Path):
    """A main line the native core replays whole from its move tokens (no ply made): the
    moves and positions made from it when asked are the reference's, as are the final
    position, the draws and the counts."""
    copies = read_games(path)  # each game read twice: its plies stay unmade in one
    for count, game in enumerate(read_games(path)):
        if not FULL and count >= SAMPLE:
            break
        fast = replay_game(game)
        plies = fast.plies
        reference = python_replay(next(copies))
        assert plies == reference.plies == len(fast.moves), game.line
        assert [fields(m) for m in fast.moves] == [fields(m) for m in reference.moves]
        assert fast.positions == reference.positions
        assert fast.final == reference.final and fast.draws == reference.draws
        assert (fast.status, fast.ending, fast.result_check) == (
            reference.status, reference.ending, reference.result_check)
        assert fast.line_counts is None or fast.line_counts == counted_along(reference.moves)


def counted_along(moves: list) -> native.LineCounts:
    """What the statistics count along a line, counted from the reference's moves: the
    moves that capture, the pieces taken, the promotions, the ply of each side's first."""
    first_kings = [0, 0]
    for index, move in enumerate(moves):
        if move.promotes and not first_kings[index % 2]:
            first_kings[index % 2] = index + 1
    return native.LineCounts(sum(bool(move.captures) for move in moves),
                             sum(len(move.captures) for move in moves),
                             sum(bool(move.promotes) for move in moves), tuple(first_kings))


DRAWN = ["russian", "international", "english", "brazilian", "pool", "thai", "italian"]


@pytest.mark.parametrize("name", DRAWN)
@pytest.mark.parametrize("draws", ["own", "house"])
def test_the_native_draw_count_is_the_trackers_on_random_games(name: str, draws: str):
    """Random games from the start and from random endings of a few kings and men, long
    enough to meet the draw rules (repetition, kings only, lone king, balance, the house
    rule): the claims the native check counts are those of ``replay.rules.draws.DrawTracker``,
    ply for ply, and so are the final position and whether moves are left."""
    import random

    from replay.rules.draws import DrawTracker
    from replay.rules.numbering import MoveNumbering
    from replay.rules.variants import with_rules

    variant = get_variant(name)
    if draws == "house":
        variant = with_rules(variant, {"draws": "house"})
    rules = rules_for(variant)
    chooser = random.Random(f"{name}-{draws}")
    met = set()
    for game in range(60):
        start = start_position(variant) if game % 4 == 0 else ending(variant, chooser)
        board = Board(variant, start)
        tracker = DrawTracker(variant, start)
        texts: list[str] = []
        last: dict[int, Move] = {}
        for _ in range(chooser.randrange(60, 400)):
            moves = board.legal_moves()
            if not moves:
                break
            # now and then a king goes back where it came from: repetitions come
            back = [m for m in moves if (turn := board.position.turn) in last
                    and not m.captures and m.origin == last[turn].destination
                    and m.destination == last[turn].origin]
            move = back[0] if back and chooser.random() < 0.6 else chooser.choice(moves)
            last[board.position.turn] = move
            texts.append(board.move_text(move, full_path=True))
            before = board.position
            board.play(move)
            tracker.push(before, move, board.position)
        checked = rules.check_line(start, texts, MoveNumbering.of(None, variant))
        assert checked.stop == "end" and checked.plies == len(texts)
        assert checked.final == board.position
        assert checked.moves_left == bool(board.legal_moves())
        claims = [(*native.DRAW_CLAIMS[code], ply) for code, ply in checked.claims]
        assert claims == [(c.rule, c.description, c.ply) for c in tracker.claims], texts
        met.update(c.rule for c in tracker.claims)
    assert met, "no draw rule met: the games prove nothing"


def ending(variant: Variant, chooser) -> Position:
    """A random ending: one to three kings a side and up to two men, off the crowning rows."""
    geo = variant.geometry
    squares = list(geo.playable)
    chooser.shuffle(squares)
    inner = [s for s in squares if 0 < geo.row_col(s)[0] < geo.height - 1]
    white = black = kings = 0
    for side, count in ((0, chooser.randint(1, 3)), (1, chooser.randint(1, 3))):
        for _ in range(count):
            square = squares.pop()
            kings |= 1 << square
            if side == 0:
                white |= 1 << square
            else:
                black |= 1 << square
        for _ in range(chooser.randint(0, 2) if chooser.random() < 0.5 else 0):
            square = next(s for s in inner if not (white | black) >> s & 1)
            if side == 0:
                white |= 1 << square
            else:
                black |= 1 << square
    return Position(white, black, kings, chooser.randint(0, 1))


def test_a_move_number_the_reference_notes_is_left_to_python():
    """``check`` stops where a number differs from the numbering or names the wrong side:
    the reference warns there (``move-number``, ``move-side``)."""
    from replay.rules.numbering import MoveNumbering

    variant = get_variant("english")
    rules, start = rules_for(variant), start_position(variant)
    numbering = MoveNumbering.of(None, variant)
    assert rules.check_line(start, ["1. 11-15", "23-19", "2. 8-11!"], numbering).stop == "end"
    assert rules.check_line(start, ["1. 11-15", "1... 23-19"], numbering).stop == "end"
    too_long = ["12345678901. 11-15"]  # no number a record means: the reader reports it
    assert rules.check_line(start, too_long, numbering).stop == "number"
    for tokens in (["1. 11-15", "3. 23-19"], ["1... 11-15"], ["1. 11-15", "2. 23-19"]):
        checked = rules.check_line(start, tokens, numbering)
        assert checked.stop == "number", tokens
        reference = python_replay(next(read_games(" ".join(tokens) + " *")), variant)
        assert {w.code for w in reference.warnings} & {"move-number", "move-side"} or \
            reference.errors, tokens


def validate_rows(games: list) -> list[str]:
    return [json.dumps(report.as_dict(), ensure_ascii=False) for report in report_games(games)]


@pytest.mark.parametrize("path", data_files(), ids=lambda p: str(p.relative_to(SHARED_DATA)))
def test_validate_rows_are_the_same_with_and_without_the_native_core(
        path: Path, monkeypatch: pytest.MonkeyPatch):
    """``pdn validate --json``'s rows, byte for byte, whether the main lines are replayed
    natively or by Python alone."""
    games = list(itertools.islice(read_games(path), None if FULL else SAMPLE))
    rows = validate_rows(games)
    with monkeypatch.context() as patch:
        patch.setattr(native, "rules_for", lambda variant: None)
        assert validate_rows(games) == rows


def test_the_fast_path_is_taken():
    """The replayer checks a plain record's main line on the native core without making its
    plies, and makes its moves from the native core when asked."""
    game = next(read_games(SHARED_DATA / "english" / "OCA_2.0.pdn")) if SHARED_DATA.is_dir() \
        else None
    if game is None:
        pytest.skip("../shared/data is not present")
    replayed = replay_game(game)
    assert replayed._tokens is not None and replayed.plies > 0
    assert game.main_line_tokens() is not None  # no ply made
    assert len(replayed.moves) == replayed.plies
    assert len(_native_moves(replayed)) == replayed.plies


def test_draws_met_before_the_last_move_are_told_without_the_plies(
        monkeypatch: pytest.MonkeyPatch):
    """Kings shuffling past the draw rules over several lines: the native replay tells each
    draw where the reference does (line, column, number, side), and makes no ply."""
    shuffle = ["4-8", "29-25", "8-4", "25-29"] * 30
    moves = " ".join(f"{k // 2 + 1}. {shuffle[k]} {shuffle[k + 1]}" + ("\n" if k % 8 == 6 else "")
                     for k in range(0, len(shuffle), 2))
    text = f'[GameType "21"]\n[FEN "B:WK29:BK4"]\n{moves} *\n'
    game = next(read_games(text))
    rows = validate_rows([game])
    assert game.main_line_tokens() is not None  # replayed natively: no ply made
    assert '"draw-repetition"' in rows[0] and '"draw-kings-40"' in rows[0]
    with monkeypatch.context() as patch:
        patch.setattr(native, "rules_for", lambda variant: None)
        assert validate_rows([next(read_games(text))]) == rows


# The reader's split of a plain run into move tokens (pdn.plain's _RECORDS), the reference
# the native core's own split follows (Line.move_run).
RUN_SPLIT = re.compile(r"(?:[0-9]+\.+[ \t\n]*)?[^ \t\n]+")

# Pieces of move runs: records of every shape the core reads or refuses, numbers, blanks,
# and what hostile text holds (NUL, other blanks, non-ASCII, a lone surrogate).
RUN_PIECES = st.sampled_from([
    "11-15", "23x14", "26x17x10x1", "c3-d4", "b6:d4", "c3d4", "h2:c7:a5:e1", "32-28", "19-23",
    "1.", "2...", "12.", "1. ", "3... ", "0.", "007.", "1..", ".", "..", " ", "\t", "\n", "\r",
    "\x00", "\x0b", "\f", "\u00a0", "\u3000", "ё", "×", "\ud800", "\U0001f600", "x", "-", ":",
    "!", "?", "*", "(", ")", "99999999999.", "1-0", "11-15!", "15x24*",
])


@st.composite
def runs(draw: st.DrawFn) -> str:
    """A run of moves as a record may hold one, and any text besides."""
    if draw(st.booleans()):
        return draw(st.text(max_size=60))
    return "".join(draw(st.lists(RUN_PIECES, max_size=30)))


@pytest.mark.parametrize("name", ["english", "russian", "international", "turkish"])
@settings(max_examples=150, deadline=None)
@given(run=runs())
def test_a_run_of_text_is_checked_as_its_split_tokens(name: str, run: str):
    """``check`` and ``replay`` given one run of text (``Line.move_run``) answer exactly as
    given the tokens the reader splits it into; any text, none crashes."""
    from replay.rules.numbering import MoveNumbering

    variant = get_variant(name)
    rules, start = rules_for(variant), start_position(variant)
    numbering = MoveNumbering.of(None, variant)
    tokens = RUN_SPLIT.findall(run)
    assert rules.check_line(start, run, numbering) == rules.check_line(start, tokens, numbering)
    line, split = rules.replay_line(start, run), rules.replay_line(start, tokens)
    assert (line.stop, line.final, [fields(m) for m in line.moves]) == (
        split.stop, split.final, [fields(m) for m in split.moves])


def test_a_huge_hostile_run_is_checked_within_its_bounds():
    """Long texts of every kind: blanks only, one endless token, endless numbers, NUL and
    surrogates, kings shuffling 200,000 plies (a line far past any game): answered as their
    split tokens are, never a crash."""
    from replay.rules.numbering import MoveNumbering

    variant = get_variant("english")
    rules, start = rules_for(variant), start_position(variant)
    numbering = MoveNumbering.of(None, variant)
    for run in (" " * 1_000_000, "1" * 1_000_000, "1." * 500_000, "\x00\ud800" * 100_000,
                "11-15" + "x15" * 200_000, "ё" * 300_000):
        checked = rules.check_line(start, run, numbering)
        assert checked == rules.check_line(start, RUN_SPLIT.findall(run), numbering)
    fen = "B:WK29:BK4"
    kings = position_from_setup(parse_fen(fen, variant.gametype.notation))
    shuffle = "4-8 29-25 8-4 25-29\n" * 50_000
    checked = rules.check_line(kings, shuffle, MoveNumbering.of(fen, variant))
    assert (checked.stop, checked.plies, checked.final) == ("end", 200_000, kings)


@settings(max_examples=300, deadline=None)
@given(run=runs(), plies=st.integers(0, 20))
def test_the_written_squares_of_a_run_are_the_inferences(run: str, plies: int):
    """What the native core reads of a run's first records (``written_squares``) is what
    ``replay.record.inference`` reads from their tokens, or None where a record is not of the
    reader's plain shape; any text, none crashes."""
    from replay.record.inference import _token_squares

    read = native.written_squares(run, plies)
    tokens = RUN_SPLIT.findall(run)[:plies]
    if read is None:
        assert not all(PLAIN_RECORD.fullmatch(token) for token in tokens)
        return
    assert all(PLAIN_RECORD.fullmatch(token) for token in tokens)
    squares = [_token_squares(token) for token in tokens]
    assert read == (max((s.highest_number for s in squares), default=0),
                    max((s.widest_file for s in squares), default=-1),
                    max((s.highest_rank for s in squares), default=0),
                    squares[0].first_move if squares else None)


# One record of the reader's plain shape (pdn.plain's _RECORD, whole).
PLAIN_RECORD = re.compile(r"(?:[1-9][0-9]{0,2}\.(?:\.\.)?[ \t\n]*)?"
                          r"(?:[1-9][0-9]?(?:[-x][1-9][0-9]?)+|[a-h][1-8](?:[-x:][a-h][1-8])+)")


def test_plain_runs_of_real_archives_are_split_as_the_reader_splits_them():
    """``Line.move_run`` of a plain game is the text its ``move_tokens`` are split from."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    seen = 0
    for path in data_files():
        for game in itertools.islice(read_games(path), SAMPLE):
            run = game.moves.move_run()
            if run is not None:
                assert RUN_SPLIT.findall(run) == game.main_line_tokens(), game.line
                seen += 1
    assert seen > 100


FEN_NOTATIONS = [*NATIVE, *(v for v in VARIANTS if rules_for(v) is None)]


@pytest.mark.parametrize("variant", FEN_NOTATIONS, ids=lambda v: v.name)
@CASES
@given(data=st.data())
def test_the_native_fen_is_the_references(variant: Variant, data: st.DataObject):
    """``fast_position_fen`` writes what ``position_fen`` writes, in the variant's notation
    and in English's as online sites write it, on any placement of pieces."""
    from replay.record.inference import ENGLISH_FIRST_MOVER_BOTTOM
    from replay.rules.position import position_fen

    squares = variant.geometry.playable
    pieces = data.draw(st.lists(st.sampled_from("..wWbB"), min_size=len(squares),
                                max_size=len(squares)))
    white = black = kings = 0
    for square, piece in zip(squares, pieces, strict=True):
        white |= (piece in "wW") << square
        black |= (piece in "bB") << square
        kings |= (piece in "WB") << square
    position = Position(white, black, kings, data.draw(st.sampled_from((0, 1))))
    notations = [variant.gametype.notation]
    if variant.name == "english":
        notations.append(ENGLISH_FIRST_MOVER_BOTTOM.gametype.notation)
    for notation in notations:
        assert native.fast_position_fen(position, notation) == position_fen(position, notation)


def test_the_native_fen_refuses_what_is_no_table():
    """A piece off the squares given, a bad table: None or an error, never a crash."""
    fen = native._module().fen
    assert fen(1 << 40, 0, 0, 0, bytes([0, 1]), ("1", "2")) is None
    assert fen(1, 2, 1, 1, bytes([0, 1]), ("1", "2")) == "B:WK1:B2"
    assert fen(-1, 0, 0, 0, b"", ()) is None  # every bit set: none on the squares given
    for args in ((0, 0, 0, 0, bytes([0]), ("1", "2")), (0, 0, 0, 0, bytes([70]), ("1",)),
                 (0, 0, 0, 0, bytes([0]), ("ё",)), (0, 0, 0, 0, bytes([0]), (1,)),
                 (0, 0, 0, 0, "01", ("1", "2"))):
        with pytest.raises((ValueError, TypeError, OverflowError)):
            fen(*args)
    with pytest.raises(TypeError):
        native._module().written_squares(b"11-15", 3)
