"""The viewer in a real headless browser: keys, clicks and what the board then shows.

Chromium is driven through ChromeDriver's W3C WebDriver protocol, plain JSON over HTTP, with a
small client on the standard library. What the board shows is read from the page as drawn:
each piece of the SVG is placed on the square whose drawn area holds its centre, and that is
compared with the positions of an independent replay (the engine's ``resolve`` and ``Board``,
not the viewer, the diagram code or the replayer), at every ply of real games with captures,
promotions and variations. Where Debian's ``chromium`` and ``chromium-driver`` are missing the
tests skip, and under ``CI=true`` fail (``.ci/run`` installs them). A screenshot of the page is
kept in ``bench/out/viewer_browser.png`` (git-ignored) as a test artifact.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import SHARED_DATA, require
from pdn.cli.app import app
from support.webdriver import Browser
from typer.testing import CliRunner

from pdn.game import Game
from pdn.model import Line
from pdn.reader import read_games
from replay.record.board import Board
from replay.record.notation import full_text
from replay.record.replayer import replay_game
from replay.record.resolve import resolve
from replay.rules.variants import (
    FIRST_KING_WINS,
    INTERNATIONAL,
    RUSSIAN,
    Variant,
    get_variant,
    variant_names,
)
from replay.viewer.page import viewer_html

ROOT = Path(__file__).resolve().parents[3]
GAME = ROOT / "samples" / "russian" / "ivanov_petrov_full.pdn"
ERRORS = ROOT / "samples" / "russian" / "scoresheet_with_errors.pdn"
# Real games with captures, promotions and variations (file in the shared data, game index):
# NK 2003 round 1 game 3 (106 plies, 20 variations, 2 crownings) and game 1 of the 2024
# women's world title match (133 plies, a variation, 3 crownings); International draughts.
REAL_GAMES = [("tests/wiegerw_pdn/succeed/nk ronde 01.pdn", 3),
              ("international/brunogui/World Title Match Women 2024.pdn", 1)]
# The big real archive: 22,621 English games (OCA 2.0), opened at a far game from the address.
OCA = SHARED_DATA / "english" / "OCA_2.0.pdn"
FAR_GAME = 20_000
ARTIFACTS = ROOT / "bench" / "out"

# The pieces the board draws, each as [square, code]: the square (its data-square name) whose
# drawn rectangle holds the centre of the drawn piece; code w/b for men, W/B for kings.
DRAWN = """
const board = document.getElementById("board");
const squares = [...board.querySelectorAll(".square[data-square]")].map(
    (el) => [el.dataset.square, el.getBoundingClientRect()]);
return [...board.querySelectorAll(".piece")].map((piece) => {
  const r = piece.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hits = squares.filter(([, s]) => s.left <= x && x < s.right && s.top <= y && y < s.bottom);
  const side = piece.classList.contains("white") ? "w" : "b";
  return [hits.length === 1 ? hits[0][0] : `nowhere ${x},${y}`,
          piece.classList.contains("king") ? side.toUpperCase() : side];
}).sort();
"""
# Every move of the open game's move list, in the order written, clicked in turn: its text,
# the pieces then drawn, the FEN the board states and the move of the label above the notes
# (the start position first, with the text "start").
EVERY_MOVE = "const drawn = () => {" + DRAWN + """};
const board = document.getElementById("board"), current = document.getElementById("current");
const shown = [["start", drawn(), board.dataset.fen, ""]];
for (const move of document.querySelectorAll(".moves:not([hidden]) .move")) {
  move.click();
  shown.push([move.textContent, drawn(), board.dataset.fen,
              current.textContent.split(" ").slice(1).join(" ")]);
}
return shown;
"""


def drawn(browser: Browser) -> list[list[str]]:
    """The pieces the board draws, as sorted [square, code] pairs (see DRAWN)."""
    return browser.run(DRAWN)


def board_state(browser: Browser) -> dict:
    """What the board shows: the data attributes and the pieces drawn, by kind."""
    return browser.run("""
        const board = document.getElementById("board");
        const count = (css) => board.querySelectorAll(css).length;
        return {fen: board.dataset.fen, ply: Number(board.dataset.ply),
                game: Number(board.dataset.game),
                white: count(".piece.white"), black: count(".piece.black"),
                kings: count(".piece.king"), arrows: count(".last-move"),
                crosses: count(".captured"),
                label: document.getElementById("current").textContent,
                title: document.getElementById("title").textContent,
                error: document.getElementById("error").textContent,
                notes: document.getElementById("notes").textContent};""")


def pieces(board: Board) -> list[list[str]]:
    """A position as the page should draw it: sorted [square name, code] pairs."""
    geometry = board.variant.geometry
    return sorted([geometry.name(square), piece] for square, piece in board.setup().pieces.items())


def positions_as_written(line: Line, board: Board) -> list[list]:
    """Every move of a line and of its variations in the order the record writes them, with
    the position after it: replayed by the engine alone (``resolve`` then ``Board.push``)."""
    shown = []
    for ply in line.plies:
        before = board.copy()
        move = resolve(board, ply.record).move
        assert move is not None, ply.record.text
        label = full_text(board, move, "turns")
        board.push(move)
        shown.append([ply.record.text, pieces(board), board.fen(), label])
        for variation in ply.variations:  # a variation replaces this ply: played from before
            shown += positions_as_written(variation, before.copy())
    return shown


def independent_replay(game: Game, variant) -> list[list]:
    assert "FEN" not in game.tags  # these games start from the initial position
    board = Board(variant)
    return [["start", pieces(board), board.fen(), ""],
            *positions_as_written(game.moves, board)]


@pytest.fixture(scope="module")
def real_games(shared_data: Path) -> list[Game]:
    games = []
    for path, index in REAL_GAMES:
        games.append(next(g for g in read_games(shared_data / path) if g.index == index))
    return games


def page(folder: Path, name: str, games: list) -> str:
    """The file:// URL of a freshly written viewer page of ``games`` (replayed)."""
    path = folder / f"{name}.html"
    path.write_text(viewer_html(games), encoding="utf-8")
    return path.as_uri()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Viewer pages of the bundled samples."""
    folder = tmp_path_factory.mktemp("viewer")
    return {name: page(folder, name, [replay_game(g, RUSSIAN) for g in read_games(source)])
            for name, source in (("game", GAME), ("errors", ERRORS))}


@pytest.fixture(scope="module")
def sample() -> list[list]:
    """The sample game's start and the position after each of its 10 plies (no variation)."""
    return independent_replay(next(read_games(GAME)), RUSSIAN)


def test_every_move_of_real_games_draws_the_position_an_independent_replay_gives(
        browser: Browser, real_games: list[Game], tmp_path: Path):
    browser.open(page(tmp_path, "real", [replay_game(g, INTERNATIONAL) for g in real_games]))
    for number, game in enumerate(real_games):
        browser.click(f'#games li[data-game="{number}"]')
        expected = independent_replay(game, INTERNATIONAL)
        shown = browser.run(EVERY_MOVE)
        assert len(shown) == len(expected) > 100
        for ply, (seen, wanted) in enumerate(zip(shown, expected, strict=True)):
            assert seen[0].rstrip("!?") == wanted[0], (game.index, ply)  # '49-43?': its mark
            assert seen[1:] == wanted[1:], (game.index, ply, wanted[0])
        kings = {code for _, drawn, *_ in shown for _, code in drawn}
        assert {"W", "B"} & kings  # the games crown men: kings are drawn, and checked


@pytest.mark.parametrize("plies", [0, 1, 4, 7, 10])
def test_right_arrow_n_times_draws_the_position_after_n_plies(browser: Browser, pages, sample,
                                                              plies: int):
    browser.open(pages["game"])
    browser.press("ArrowRight", plies)
    assert drawn(browser) == sample[plies][1]
    shown = board_state(browser)
    assert shown["ply"] == plies and shown["arrows"] == (1 if plies else 0)


def test_last_position_shows_the_capture_its_comment_and_a_screenshot(browser: Browser, pages,
                                                                       sample):
    browser.open(pages["game"])
    browser.press("ArrowRight", 12)  # two presses past the end change nothing
    assert drawn(browser) == sample[10][1]
    shown = board_state(browser)
    # 5... c7:e5:c3:e1:h4 takes four men and crowns on e1 (a Russian rules article's worked example)
    assert shown["crosses"] == 4 and shown["kings"] == 1
    assert "Black takes four men" in shown["notes"]
    browser.screenshot(ARTIFACTS / "viewer_browser.png")
    assert (ARTIFACTS / "viewer_browser.png").read_bytes().startswith(b"\x89PNG")


def test_left_arrow_and_home_go_back(browser: Browser, pages, sample):
    browser.open(pages["game"])
    browser.press("End")
    browser.press("ArrowLeft", 3)
    assert drawn(browser) == sample[7][1]
    browser.press("Home")
    assert drawn(browser) == sample[0][1] and board_state(browser)["ply"] == 0


def test_clicking_a_move_shows_the_position_after_it(browser: Browser, pages, sample):
    browser.open(pages["game"])
    browser.click('.moves:not([hidden]) .move[data-node="4"]')
    assert drawn(browser) == sample[4][1]


def test_a_failed_move_is_shown_in_red_with_its_message(browser: Browser, pages):
    browser.open(pages["errors"])
    browser.press("End")
    shown = board_state(browser)
    assert "capture is compulsory" in shown["error"]
    colour = browser.run("""return getComputedStyle(
        document.querySelector('.moves:not([hidden]) .move.error')).color""")
    assert colour in ("rgb(198, 40, 40)", "rgb(255, 255, 255)")  # red, white on red if current


def test_the_fragment_opens_a_game_of_the_list_at_a_ply(browser: Browser, pages):
    browser.open(pages["errors"] + "#game=2&ply=3")
    shown = board_state(browser)
    title = browser.run("return document.getElementById('title').textContent")
    assert title.startswith("Popov, Pyotr – Volkov, Oleg") and shown["ply"] == 3
    browser.click('#games li[data-game="0"]')
    assert board_state(browser)["ply"] == 0
    assert browser.run("return document.getElementById('title').textContent").startswith(
        "Smirnov")


def played_game(variant: Variant, seed: int, plies: int = 120) -> str:
    """A game the engine plays with random legal moves, as PDN with full capture paths; it
    stops where the game is over (no move, or the first king of Breakthrough)."""
    chooser, board, moves = random.Random(seed), Board(variant), []
    while len(moves) < plies and (legal := board.legal_moves()):
        move = chooser.choice(legal)
        moves.append(board.move_text(move, full_path=True))
        board.push(move)
        if move.promotes and variant.win_rule == FIRST_KING_WINS:
            break
    return f'[White "{variant.name}"][Black "engine {seed}"]\n{" ".join(moves)} *\n\n'


@pytest.fixture(scope="module")
def variant_games() -> list[tuple[Variant, Game]]:
    """A random game of every variant, each played from its start position."""
    return [(variant, next(read_games(played_game(variant, seed))))
            for seed, variant in enumerate(map(get_variant, variant_names()))]


@pytest.mark.parametrize("flipped", [False, True])
def test_every_variant_and_board_size_draws_each_move_as_an_independent_replay(
        browser: Browser, variant_games, tmp_path: Path, flipped: bool):
    games = [replay_game(game, override=variant) for variant, game in variant_games]
    path = tmp_path / "variants.html"
    path.write_text(viewer_html(games, flipped=flipped), encoding="utf-8")
    kings = set()
    for number, (variant, game) in enumerate(variant_games):
        browser.open(f"{path.as_uri()}#game={number + 1}")
        expected = independent_replay(game, variant)
        shown = browser.run(EVERY_MOVE)
        assert len(shown) == len(expected) > 20, variant.name
        for ply, (seen, wanted) in enumerate(zip(shown, expected, strict=True)):
            assert seen == wanted, (variant.name, flipped, ply)
        kings |= {code for _, drawn, *_ in shown for _, code in drawn}
        # the squares are drawn in internal order, from White's near corner: at the bottom,
        # or at the top of a flipped board
        white_below = browser.run("""const squares = document.querySelectorAll('#board .square');
            return squares[0].getBoundingClientRect().top >
                   squares[squares.length - 1].getBoundingClientRect().top;""")
        assert white_below is not flipped, variant.name
    assert {"W", "B"} <= kings  # random games crown men: kings are drawn, and checked


@pytest.fixture(scope="module")
def oca(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
        ) -> tuple[str, list[Game]]:
    """The viewer page ``pdn view`` writes of OCA 2.0 (its file:// URL), and its games."""
    require(OCA.is_file(), f"the OCA 2.0 archive ({OCA})")
    games = request.getfixturevalue("archive")(OCA)
    path = tmp_path_factory.mktemp("oca") / "oca.html"
    result = CliRunner().invoke(app, ["view", str(OCA), "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path.as_uri(), games


def test_a_far_game_of_a_big_archive_opens_from_the_address_at_a_ply(browser: Browser, oca):
    url, games = oca
    game = games[FAR_GAME - 1]
    assert len(games) == 22_621 and game.index == FAR_GAME
    browser.open(f"{url}#game={FAR_GAME}&ply=10", timeout=300)
    expected = independent_replay(game, get_variant("english"))
    shown = board_state(browser)
    assert (shown["game"], shown["ply"]) == (FAR_GAME - 1, 10)
    assert shown["title"].startswith(f"{game.tags['White']} – {game.tags['Black']}")
    assert [drawn(browser), shown["fen"]] == expected[10][1:3]
    browser.press("End")
    assert drawn(browser) == expected[-1][1] and len(expected) > 20


def test_the_game_list_of_a_big_archive_draws_the_rows_in_view_and_searches(
        browser: Browser, oca):
    url, games = oca
    browser.open(f"{url}#game={FAR_GAME}", timeout=300)
    rows = browser.run("""return [...document.querySelectorAll('#rows li')].map(
        (li) => [Number(li.dataset.game), li.classList.contains('current'),
                 li.getBoundingClientRect().top, li.getBoundingClientRect().bottom]);""")
    assert 5 < len(rows) < 60  # of 22,621 games, the rows in view and a few more
    assert [number for number, current, *_ in rows if current] == [FAR_GAME - 1]
    player = games[FAR_GAME - 1].tags["Black"]
    browser.type("#search", player)
    wanted = [game.index - 1 for game in games
              if player.lower() in " ".join(game.tags.get(tag, "") for tag in (
                  "White", "Black", "Event", "Site", "Date", "Round")).lower()]
    count = browser.run("return document.getElementById('count').textContent")
    assert count == f"{len(wanted)} of 22621 games" and 1 < len(wanted) < 22_621
    listed = browser.run("""return [...document.querySelectorAll('#rows li')].map(
        (li) => Number(li.dataset.game));""")
    assert listed == wanted[:len(listed)] and len(listed) >= min(len(wanted), 10)
    browser.click(f'#rows li[data-game="{wanted[0]}"]')
    assert board_state(browser)["game"] == wanted[0]


def test_a_lidraughts_game_shows_its_clocks_as_times_beside_the_moves(browser: Browser,
                                                                       shared_data: Path,
                                                                       tmp_path: Path):
    source = shared_data / "lidraughts_sample" / "lidraughts_export_sample.pdn"
    games = [replay_game(game, INTERNATIONAL) for game in read_games(source)]
    browser.open(page(tmp_path, "lidraughts", games))
    shown = browser.run("""
        const list = document.getElementById("moves");
        return {text: list.textContent,
                moves: list.querySelectorAll(".move").length,
                clocks: [...list.querySelectorAll(".move")].map((move) => {
                  const next = move.nextElementSibling;
                  return next && next.classList.contains("clock") ? next.textContent : null;
                }),
                visible: getComputedStyle(list.querySelector(".clock")).display};""")
    assert "[%clock" not in shown["text"] and "%clock" not in shown["text"]
    assert shown["moves"] == 301 and shown["visible"] != "none"
    assert shown["clocks"][:4] == ["10:00", "10:00", "9:57", "9:58"]
    assert all(clock is not None and clock.count(":") == 1 for clock in shown["clocks"])
    browser.click('.moves:not([hidden]) .move[data-node="301"]')
    assert board_state(browser)["notes"] == "Black resigns."
