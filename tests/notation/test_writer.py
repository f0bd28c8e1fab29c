"""The writer: PDN 3.0 layout, and read -> write -> read round trips (archives, generated)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pdn.game import Game
from pdn.model import Line, MoveRecord, Ply
from pdn.reader import read_games
from pdn.tags import RESULTS
from pdn.writer import LINE_WIDTH, SEVEN_TAGS, format_move, write_game, write_games


def shape(line: Line) -> tuple:
    """A line of play without locations, spacing or move numbers (the writer renumbers)."""
    return (tuple(line.comments), line.setup, tuple(
        (format_move(p.record), tuple(p.nags), tuple(p.comments), p.setup,
         tuple(shape(v) for v in p.variations))
        for p in line.plies))


def canonical(game: Game) -> tuple:
    """What a round trip keeps: tags (the seven filled as PDN 3.0 says: "?", a date
    "????.??.??", a result from the movetext or "*"), the tree, the result."""
    result = game.result if game.result in RESULTS else "*"
    missing = {name: "?" for name in SEVEN_TAGS} | {"Date": "????.??.??", "Result": result}
    tags = missing | game.tags
    tags |= {name: tags[name] or missing[name] for name in SEVEN_TAGS}
    return tags, shape(game.moves), result


def round_trip(games: list[Game]) -> list[Game]:
    return list(read_games("".join(write_games(games))))


# ---- layout ---------------------------------------------------------------------------------

def test_seven_tags_first_then_the_others_in_input_order():
    game = Game(tags={"GameType": "20", "White": "W", "Annotator": "A", "Event": "E"})
    lines = write_game(game).splitlines()
    assert lines[:9] == ['[Event "E"]', '[Site "?"]', '[Date "????.??.??"]', '[Round "?"]',
                         '[White "W"]', '[Black "?"]', '[Result "*"]', '[GameType "20"]',
                         '[Annotator "A"]']


def test_moves_are_normalised_and_numbered():
    game = next(read_games("06-11 1- 7 E3-D4 fb2 b:d6 h2:c7:a5:e1 *"))
    assert write_game(game).splitlines()[-1] == "1. 6-11 1-7 2. e3-d4 fb2 3. b:d6 h2:c7:a5:e1 *"


def test_black_number_after_a_comment_or_variation():
    game = next(read_games("1. 32-28 {c} 19-23 (1... 18-23) 2. 37-32 $2 *"))
    assert write_game(game).splitlines()[-1] == ("1. 32-28 {c} 1... 19-23 (1... 18-23) "
                                                 "2. 37-32 $2 *")


def test_setup_fen_makes_the_first_ply_a_second_player_move():
    game = next(read_games('[FEN "B:W28:B19"]\n[GameType "20"]\n19-23 28x19 *'))
    assert write_game(game).splitlines()[-1] == "1... 19-23 2. 28x19 *"


def test_lines_are_at_most_80_characters_and_output_is_deterministic():
    moves = " ".join(f"{n}. 32-28 {{comment number {n}}} 19-23" for n in range(1, 40))
    game = next(read_games(f'[Event "long"]\n{moves} 1-0'))
    text = write_game(game)
    assert max(len(line) for line in text.splitlines()) <= LINE_WIDTH
    assert text == write_game(next(read_games(text)))


def test_a_comment_holding_a_brace_is_written_as_a_line_comment():
    game = Game(moves=Line(plies=[Ply(MoveRecord("32-28", ("32", "28"), "-"),
                                      comments=["a } b"])]))
    assert "32-28 ;a } b\n" in write_game(game)
    assert canonical(round_trip([game])[0]) == canonical(game)


def test_a_command_in_a_comment_is_never_broken_over_two_lines():
    clock = "[%clock w0:09:57 B0:09:58]"
    moves = " ".join(f"{n}. 32-28 {{[%eval 0.{n}] {clock}}} 19-23 {{{clock}}}"
                     for n in range(1, 30))
    game = next(read_games(f"{moves} *"))
    lines = write_game(game).splitlines()
    assert all(line.count("[%") == line.count("]") for line in lines if "[%" in line)
    again = next(read_games("\n".join(lines)))
    assert [p.comments for p in again.moves.plies] == [p.comments for p in game.moves.plies]
    assert again.moves.plies[4].clock == game.moves.plies[4].clock


def test_tag_values_escape_quotes_and_final_backslashes():
    game = Game(tags={"Site": '"64", 1974', "Comment": "C:\\nemesis\\", "Event": "a\\\\b"})
    assert round_trip([game])[0].tags["Comment"] == "C:\\nemesis\\"
    assert canonical(round_trip([game])[0]) == canonical(game)


# ---- round trips ----------------------------------------------------------------------------

def test_every_archive_game_round_trips(shared_data: Path, archive):
    for path in sorted(p for p in shared_data.rglob("*") if p.suffix in (".pdn", ".phn")):
        games = archive(path)
        again = round_trip(games)
        assert len(again) == len(games), path
        for first, second in zip(games, again, strict=True):
            assert canonical(second) == canonical(first), (path, first.index)


SQUARE_NUMBERS = st.integers(1, 50).map(str)
ALPHA = st.sampled_from([f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)])


@st.composite
def move_records(draw) -> MoveRecord:
    kind = draw(st.sampled_from(["numeric", "alpha", "short", "lost"]))
    strength = draw(st.none() | st.sampled_from(["!", "?", "!!", "??", "!?", "?!", "(!)"]))
    if kind == "lost":
        return MoveRecord("...", placeholder=True, strength=strength)
    if kind == "short":
        square = draw(ALPHA)
        return MoveRecord("", (square,), draw(st.sampled_from(["", "x", ":"])),
                          draw(st.sampled_from("abcdefgh")), strength)
    squares = tuple(draw(st.lists(SQUARE_NUMBERS if kind == "numeric" else ALPHA,
                                  min_size=2, max_size=5, unique=True)))
    separator = draw(st.sampled_from(["-", "x", ":"] + ([""] if kind == "alpha" else [])))
    return MoveRecord("", squares, separator, None, strength)


TIME = st.builds("{}:{:02d}:{:02d}".format, st.integers(0, 2), st.integers(0, 59),
                 st.integers(0, 59))
COMMAND = st.one_of(  # the embedded commands of docs/notation.md, "Clocks and evaluations"
    st.builds("[%clock {}{} {}{}]".format, st.sampled_from("wW"), TIME, st.sampled_from("Bb"),
              TIME),
    st.builds("[%clk {}]".format, TIME), st.builds("[%emt {}]".format, TIME),
    st.builds("[%eval {:.2f}]".format, st.floats(-20, 20)),
    st.builds("[%eval #{}]".format, st.integers(-30, 30)))
WORD = st.text(st.characters(blacklist_categories=["Cc", "Cs", "Zs", "Zl", "Zp"]), min_size=1,
               max_size=8)
COMMENT = st.lists(WORD | COMMAND, max_size=4).map(" ".join)
FEN = st.sampled_from(["W:W31-50:B1-20", "B:W28,K30:B19", "W:Wa1,c1:Bb8"])


def lines(depth: int) -> st.SearchStrategy[Line]:
    variations = st.lists(lines(depth - 1), max_size=2) if depth else st.just([])
    plies = st.builds(Ply, move_records(), nags=st.lists(st.integers(0, 255), max_size=2),
                      comments=st.lists(COMMENT, max_size=2), variations=variations,
                      setup=st.none() | FEN)
    return st.builds(Line, st.lists(plies, min_size=1, max_size=6),
                     comments=st.lists(COMMENT, max_size=1), setup=st.none() | FEN)


TAG_NAME = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,10}", fullmatch=True)
TAG_VALUE = st.text(st.characters(blacklist_categories=["Cc", "Cs", "Zl", "Zp"]), max_size=20)
games = st.builds(Game, tags=st.dictionaries(TAG_NAME, TAG_VALUE, max_size=5), moves=lines(2),
                  result=st.sampled_from(sorted(RESULTS)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(games, min_size=1, max_size=3))
def test_generated_games_round_trip(generated: list[Game]):
    again = round_trip(generated)
    assert [canonical(g) for g in again] == [canonical(g) for g in generated]
    assert not [d for g in again for d in g.errors]
