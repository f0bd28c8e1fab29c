"""Diagrams: SVG that is valid XML and shows the right pieces on the right squares in
every board shape, text diagrams, and ``pdn show``. Positions are read back from the SVG itself:
which square rectangle a piece's centre lies in, and what the coordinates say."""

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import read_games
from replay.record.board import Board
from replay.record.diagram import Arrow, board_svg, text_diagram
from replay.record.plies import board_after, plies_to_move
from replay.record.replayer import replay_game
from replay.rules.variants import (
    CANADIAN,
    ENGLISH,
    INTERNATIONAL,
    RUSSIAN,
    SPANISH,
    TURKISH,
    VARIANTS,
    Variant,
)

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
GAME = SAMPLES / "russian" / "ivanov_petrov_full.pdn"
NS = "{http://www.w3.org/2000/svg}"
runner = CliRunner()


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def squares_of(root: ET.Element) -> dict[str, tuple[float, float, set[str]]]:
    """Square name -> (x, y) of its rectangle's top-left corner and its classes."""
    return {rect.get("data-square"): (float(rect.get("x")), float(rect.get("y")), classes(rect))
            for rect in root.iter(f"{NS}rect") if "square" in classes(rect)}


def square_under(root: ET.Element, x: float, y: float) -> str:
    """The square whose rectangle contains the point (x, y)."""
    for rect in root.iter(f"{NS}rect"):
        if "square" in classes(rect):
            left, top = float(rect.get("x")), float(rect.get("y"))
            size = float(rect.get("width"))
            if left <= x < left + size and top <= y < top + size:
                return rect.get("data-square")
    raise AssertionError(f"no square at {x},{y}")


def pieces_of(root: ET.Element) -> dict[str, str]:
    """Square -> piece code (w W b B), found by where each piece's disc is drawn."""
    found = {}
    for group in root.iter(f"{NS}g"):
        kind = classes(group)
        if "piece" in kind:
            disc = group.find(f"{NS}circle")
            square = square_under(root, float(disc.get("cx")), float(disc.get("cy")))
            code = "w" if "white" in kind else "b"
            found[square] = code.upper() if "king" in kind else code
            assert ("king" in kind) == (group.find(f"{NS}polygon") is not None)  # the crown
    return found


def texts(root: ET.Element, kind: str) -> list[ET.Element]:
    return [text for text in root.iter(f"{NS}text") if kind in classes(text)]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def expected_pieces(board: Board) -> dict[str, str]:
    geo = board.variant.geometry
    return {geo.name(square): piece for square, piece in board.setup().pieces.items()}


def test_russian_start_position_has_twelve_men_a_side_on_the_dark_squares_of_rows_1_to_3():
    root = parse(board_svg(Board(RUSSIAN)))
    pieces = pieces_of(root)
    white = {square for square, piece in pieces.items() if piece == "w"}
    black = {square for square, piece in pieces.items() if piece == "b"}
    assert white == {"a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"}
    assert black == {"b6", "d6", "f6", "h6", "a7", "c7", "e7", "g7", "b8", "d8", "f8", "h8"}
    squares = squares_of(root)
    assert "playable" in squares["a1"][2] and "unplayable" in squares["b1"][2]


def test_alphanumeric_coordinates_are_files_along_the_bottom_and_ranks_up_the_left():
    root = parse(board_svg(Board(RUSSIAN)))
    files = texts(root, "file")
    ranks = texts(root, "rank")
    assert [f.text for f in sorted(files, key=lambda t: float(t.get("x")))] == list("abcdefgh")
    assert [r.text for r in sorted(ranks, key=lambda t: -float(t.get("y")))] == [
        str(n) for n in range(1, 9)]
    a_label = next(f for f in files if f.text == "a")
    assert square_under(root, float(a_label.get("x")), squares_of(root)["a1"][1] + 1) == "a1"


def test_flipped_board_puts_a1_at_the_top_right_and_turns_the_coordinates():
    normal, flipped = parse(board_svg(Board())), parse(board_svg(Board(), flipped=True))
    a1, h8 = squares_of(flipped)["a1"], squares_of(flipped)["h8"]
    assert a1[0] > h8[0] and a1[1] < h8[1]
    assert squares_of(normal)["a1"][1] > squares_of(normal)["h8"][1]
    files = sorted(texts(flipped, "file"), key=lambda t: float(t.get("x")))
    assert [f.text for f in files] == list("hgfedcba")
    assert pieces_of(flipped) == pieces_of(normal)


def test_a_king_is_drawn_with_a_crown_on_its_square():
    board = Board.from_fen("B:WKd4,c3:BKh8,a7", RUSSIAN)
    pieces = pieces_of(parse(board_svg(board)))
    assert pieces == {"d4": "W", "c3": "w", "h8": "B", "a7": "b"}


def empty(variant: Variant) -> Board:
    """A board of the variant without pieces: every square shows its number."""
    return Board.from_fen("W:W:B", variant)


def test_international_board_numbers_squares_1_to_50_with_1_on_b10_and_46_on_a1():
    root = parse(board_svg(empty(INTERNATIONAL)))
    numbers = {text.text: text for text in texts(root, "number")}
    assert sorted(numbers, key=int) == [str(n) for n in range(1, 51)]
    geometry = INTERNATIONAL.geometry

    def square_of(number: str) -> str:
        text = numbers[number]
        return square_under(root, float(text.get("x")), float(text.get("y")) - 1)

    assert square_of("1") == "b10" and square_of("5") == "j10"
    assert square_of("46") == "a1" and square_of("50") == "i1"
    assert not texts(root, "file")
    root = parse(board_svg(Board(INTERNATIONAL)))
    pieces = pieces_of(root)
    assert len(pieces) == 40
    assert {INTERNATIONAL.gametype.notation.name(geometry.square(sq))
            for sq, p in pieces.items() if p == "w"} == {str(n) for n in range(31, 51)}


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_every_variant_start_position_is_drawn_piece_for_piece(variant: Variant):
    board = Board(variant)
    root = parse(board_svg(board))
    geo = variant.geometry
    assert len(squares_of(root)) == geo.width * geo.height
    playable = [sq for sq, (_, _, kind) in squares_of(root).items() if "playable" in kind]
    assert len(playable) == len(geo.playable)
    assert pieces_of(root) == expected_pieces(board)


def test_numbers_are_printed_on_the_empty_squares_only_as_books_print_them():
    root = parse(board_svg(Board(INTERNATIONAL)))  # men on 1-20 and 31-50
    numbers = {text.text: square_under(root, float(text.get("x")), float(text.get("y")) - 1)
               for text in texts(root, "number")}
    assert sorted(numbers, key=int) == [str(n) for n in range(21, 31)]
    assert not set(numbers.values()) & set(pieces_of(root))
    replayed = replay_game(next(read_games('[GameType "20"]\n1. 32-28 19-23 2. 28x19 *')),
                           INTERNATIONAL)
    board = board_after(replayed, 3)  # 28x19 took the man on 23: a faded man, no number
    shown = {text.text for text in texts(parse(board_svg(
        board, last_move=board.move_stack[-1])), "number")}
    assert shown == {"21", "22", "24", "25", "26", "27", "28", "29", "30", "32"}


def test_spanish_board_leaves_a1_unplayable_and_numbers_from_h1():
    root = parse(board_svg(empty(SPANISH)))
    assert "unplayable" in squares_of(root)["a1"][2]
    one = next(text for text in texts(root, "number") if text.text == "1")
    assert square_under(root, float(one.get("x")), float(one.get("y")) - 1) == "h1"


def test_english_numbering_puts_square_1_on_b8_where_black_starts():
    root = parse(board_svg(empty(ENGLISH)))
    one = next(text for text in texts(root, "number") if text.text == "1")
    assert square_under(root, float(one.get("x")), float(one.get("y")) - 1) == "b8"
    assert pieces_of(parse(board_svg(Board(ENGLISH))))["b8"] == "b"


def test_turkish_board_uses_every_square_and_canadian_is_12_by_12():
    turkish = parse(board_svg(Board(TURKISH)))
    assert all("playable" in kind for _, _, kind in squares_of(turkish).values())
    assert len(pieces_of(turkish)) == 32
    canadian = parse(board_svg(empty(CANADIAN)))
    assert len(squares_of(canadian)) == 144 and len(texts(canadian, "number")) == 72


def test_last_move_is_an_arrow_along_the_capture_route_with_the_taken_pieces_crossed():
    replayed = replay_game(next(read_games(GAME)), RUSSIAN)
    board = board_after(replayed, 10)  # 5... c7:e5:c3:e1:h4, four men taken, crowned on e1
    root = parse(board_svg(board, last_move=board.move_stack[-1]))
    arrow = next(g for g in root.iter(f"{NS}g") if "last-move" in classes(g))
    points = [tuple(map(float, p.split(","))) for p in
              arrow.find(f"{NS}polyline").get("points").split()]
    assert [square_under(root, x, y) for x, y in points[:-1]] == ["c7", "e5", "c3", "e1"]
    tip = arrow.find(f"{NS}polygon").get("points").split()[0]
    assert square_under(root, *map(float, tip.split(","))) == "h4"
    crossed = {g.get("data-square") for g in root.iter(f"{NS}g") if "captured" in classes(g)}
    assert crossed == {"d6", "d4", "d2", "g3"}
    assert pieces_of(root)["h4"] == "B"


def test_a_board_shows_itself_in_jupyter_as_svg():
    root = parse(Board(INTERNATIONAL)._repr_svg_())
    assert len(pieces_of(root)) == 40 and root.get("width") == "360"


def test_side_to_move_is_marked_beside_the_board_and_explained_under_it():
    root = parse(board_svg(Board.from_fen("B:Wc3:Bd6")))
    (mark,) = [c for c in root.iter(f"{NS}circle") if "turn" in classes(c)]
    assert "black" in classes(mark)
    (legend,) = [g for g in root.iter(f"{NS}g") if "turn-legend" in classes(g)]
    assert legend.find(f"{NS}text").text == "Black to move"
    frame_bottom = max(float(r.get("y")) + float(r.get("height"))
                       for r in root.iter(f"{NS}rect") if "square" in classes(r))
    assert float(legend.find(f"{NS}circle").get("cy")) > frame_bottom + 12  # under the letters
    white = parse(board_svg(Board.from_fen("W:Wc3:Bd6")))
    assert "White to move" in {t.text for t in white.iter(f"{NS}text")}


def test_more_arrows_draw_a_move_written_and_the_one_meant_in_their_colours():
    board = Board.from_fen("W:Wd4,b2:Bc5", RUSSIAN)
    square = RUSSIAN.geometry.square
    root = parse(board_svg(board, arrows=[
        Arrow([square("b2"), square("c3")], "#c62828", "written"),
        Arrow([square("d4"), square("b6")], "#1b6e3a", "meant")]))
    drawn = {classes(g).pop(): g for g in root.iter(f"{NS}g")
             if classes(g) & {"written", "meant"}}
    assert drawn["written"].find(f"{NS}polyline").get("stroke") == "#c62828"
    assert drawn["meant"].find(f"{NS}polygon").get("fill") == "#1b6e3a"
    tip = drawn["meant"].find(f"{NS}polygon").get("points").split()[0]
    assert square_under(root, *map(float, tip.split(","))) == "b6"


def test_text_diagram_shows_men_kings_coordinates_and_side_to_move():
    text = text_diagram(Board.from_fen("B:WKd4,c3:Bh8"))
    lines = text.splitlines()
    assert lines[0] == "8 │   ·   ·   ·   ⛂ │ 8"
    assert lines[4] == "4 │   ·   ⛁   ·   · │ 4"
    assert lines[5].startswith("3 │ ·   ⛀")
    assert lines[8].split() == list("abcdefgh")
    assert lines[-1] == "Black to move"
    assert str(Board.from_fen("B:WKd4,c3:Bh8")).splitlines()[4] == "4 |   .   W   .   . | 4"


def test_text_diagram_of_a_numeric_board_frames_rows_with_their_square_numbers():
    lines = text_diagram(Board(INTERNATIONAL), flipped=True).splitlines()
    assert lines[0].split()[0] == "50" and lines[0].split()[-1] == "46"
    assert lines[-1] == "White to move"


def test_a_move_number_and_side_give_the_ply_count_and_the_board_after_it():
    replayed = replay_game(next(read_games(GAME)), RUSSIAN)
    assert plies_to_move(replayed, "1w") == 1 and plies_to_move(replayed, "5b") == 10
    with pytest.raises(ValueError, match="no move 6w"):
        plies_to_move(replayed, "6w")
    with pytest.raises(ValueError, match="as in 12b"):
        plies_to_move(replayed, "12")
    board = Board(RUSSIAN)
    for text in ("e3-d4", "d6-c5", "f2-e3"):
        board.push(board.parse(text))
    assert board_after(replayed, 3).fen() == board.fen()
    with pytest.raises(ValueError, match="out of range"):
        board_after(replayed, 11)


def test_show_prints_a_text_diagram_of_the_position_after_a_move():
    result = runner.invoke(app, ["show", str(GAME), "--move", "4w"])
    assert result.exit_code == 0, result.output
    assert "after 4. b4:d6 (ply 7 of 10)" in result.stdout
    assert "Black to move" in result.stdout
    replayed = replay_game(next(read_games(GAME)), RUSSIAN)
    assert f"FEN {board_after(replayed, 7).fen()}" in result.stdout


def test_show_writes_a_valid_svg_of_the_final_position(tmp_path: Path):
    out = tmp_path / "final.svg"
    result = runner.invoke(app, ["show", str(GAME), "--svg", str(out), "--flip"])
    assert result.exit_code == 0, result.output
    root = parse(out.read_text(encoding="utf-8"))
    replayed = replay_game(next(read_games(GAME)), RUSSIAN)
    assert pieces_of(root) == expected_pieces(replayed.final_board())
    assert any("last-move" in classes(g) for g in root.iter(f"{NS}g"))


def test_show_draws_a_fen_on_any_board(tmp_path: Path):
    out = tmp_path / "fen.svg"
    result = runner.invoke(app, ["show", "--fen", "W:WK46,31:B5", "--variant", "international",
                                 "--svg", str(out)])
    assert result.exit_code == 0, result.output
    assert pieces_of(parse(out.read_text(encoding="utf-8"))) == {"a1": "W", "b4": "w",
                                                                 "j10": "b"}


def test_show_writes_a_png_when_cairosvg_is_installed(tmp_path: Path):
    pytest.importorskip("cairosvg")
    out = tmp_path / "final.png"
    result = runner.invoke(app, ["show", str(GAME), "--png", str(out), "--size", "200"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"\x89PNG")


def test_show_explains_how_to_get_png_output_without_cairosvg(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    result = runner.invoke(app, ["show", str(GAME), "--png", str(tmp_path / "x.png")])
    assert result.exit_code == 2
    assert "pdn-toolkit[png]" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(("arguments", "message"), [
    (["--fen", "W:Wz9"], "square 'z9' is not on a"),
    ([str(GAME), "--ply", "11"], "ply 11 is out of range"),
    ([str(GAME), "--move", "12"], "as in 12b"),
    ([str(GAME), "--game", "2"], "has 1 game"),
    ([str(GAME), "--fen", "W:Wc3:Bd6"], "either a PDN FILE or --fen"),
    (["missing.pdn"], "no such file"),
    ([str(GAME), "--svg", str(GAME)], "it is also an input"),
    ([str(SAMPLES / "russian" / "scoresheet_with_errors.pdn"), "--ply", "3"],
     "capture is compulsory"),
])
def test_show_rejects_bad_input_with_a_clear_message_and_exit_2(arguments: list[str],
                                                                message: str):
    result = runner.invoke(app, ["show", *arguments])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert result.exception is None or isinstance(result.exception, SystemExit)
