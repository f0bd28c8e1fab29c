"""Statistics tables: each table on records written for it, engines that agree,
and the acceptance invariants on the public archives."""

from __future__ import annotations

import importlib.util
import re
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from conftest import require
from pdn.cli.app import app
from typer.testing import CliRunner

from replay.reference.ballots import FMJD_64, fmjd_ballots
from replay.rules.variants import ENGLISH, INTERNATIONAL, RUSSIAN
from replay.stats import stats_tables
from replay.stats.tables import date_parts


def rows(frame: pd.DataFrame) -> list[list]:
    """A frame's values as lists, NA as None (pd.NA does not compare)."""
    return frame.astype(object).where(frame.notna(), None).to_numpy().tolist()


def write(tmp_path: Path, text: str, name: str = "games.pdn") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


RUSSIAN_GAMES = """\
[Event "Cup"]
[Date "2001.05.??"]
[White "Ivanov, A."]
[Black "Petrov, B."]
[WhiteRating "2400"]
[Result "1/2-1/2"]
1. c3-d4 f6-g5 2. d4-c5 b6:d4 1/2-1/2

[Event "Cup"]
[Date "13-01-1996"]
[White "petrov,b."]
[Black "ivanov,   a."]
[Result "0-1"]
[FEN "W:Wc3:Bd4,h8"]
1. c3:e5 h8-g7 0-1

[Event "Cup"]
[White "Ivanov, A."]
[Black "?"]
[Result "1-0"]
[FEN "W:Wc7,e1:Bh6"]
1. c7-d8 h6-g5 2. d8:h4 1-0

[Event "Open"]
[White "Sidorov"]
[Black "Ivanov, A."]
[Result "*"]
1. c3-d5 *
"""


@pytest.fixture
def russian(tmp_path: Path):
    return stats_tables([write(tmp_path, RUSSIAN_GAMES)], RUSSIAN, opening_plies=2)


# ---- one test per table on small records -------------------------------------------------


def test_games_table_has_tags_dates_results_counts_and_validity(russian):
    games = russian.games
    assert list(games["game"]) == [1, 2, 3, 4]
    assert list(games.columns[:10]) == ["file", "game", "line", "Event", "Site", "Date",
                                        "Round", "White", "Black", "Result"]
    assert "WhiteRating" in games and "FEN" in games
    assert games["white_rating"].tolist()[:2] == [2400, pd.NA]
    assert games["year"].tolist()[:3] == [2001, 1996, pd.NA]
    assert games["month"].tolist()[:2] == [5, 1] and pd.isna(games["day"][0])
    assert pd.isna(games["date"][0]) and games["date"][1] == pd.Timestamp("1996-01-13")
    # Russian: White moves first, so the Result tag's first-mover view is White's.
    assert games["result"].tolist() == ["draw", "black", "white", "unknown"]
    assert games["result_first_mover"].tolist() == ["draw", "second", "first", "unknown"]
    assert games["white_score"].tolist()[:3] == [0.5, 0.0, 1.0]
    assert games["plies"].tolist() == [4, 2, 3, 0]
    assert games["captures"].tolist() == [1, 1, 1, 0]
    assert games["promotions"].tolist() == [0, 0, 1, 0]
    assert games["first_king_white"].tolist()[2] == 1
    second = games.iloc[1]
    assert (second["white_men"], second["black_men"], second["black_kings"]) == (1, 1, 0)
    assert games["status"].tolist() == ["valid", "valid", "valid", "invalid"]
    assert games["error"].isna().tolist() == [True, True, True, False]
    assert str(games["variant"].dtype) == "category" and games["variant"].iloc[0] == "russian"


def test_games_ending_follows_the_rules_not_the_result_tag(tmp_path):
    text = '[Result "1-0"]\n[FEN "W:Wc3:Bd4"]\n1. c3:e5 1-0\n'
    games = stats_tables([write(tmp_path, text)], RUSSIAN).games
    assert games["ending"].tolist() == ["no_pieces"]
    assert games["result_check"].tolist() == ["consistent"]


def test_english_result_tag_is_read_from_the_first_movers_view(tmp_path):
    text = '[Result "1-0"]\n1. 11-15 23-18 1-0\n\n[Result "0-1"]\n1. 11-15 0-1\n'
    games = stats_tables([write(tmp_path, text)], ENGLISH).games
    assert games["first_mover"].tolist() == ["black", "black"]
    assert games["result"].tolist() == ["black", "white"]
    assert games["result_first_mover"].tolist() == ["first", "second"]


def test_moves_table_has_one_row_per_ply_in_every_notation(russian):
    moves = russian.moves
    first = moves[moves["game"] == 1]
    assert first["ply"].tolist() == [1, 2, 3, 4]
    assert first["move_number"].tolist() == [1, 1, 2, 2]
    assert first["side"].tolist() == ["white", "black", "white", "black"]
    assert first["move"].tolist() == ["c3-d4", "f6-g5", "d4-c5", "b6:d4"]
    assert first["short"].tolist() == ["cd4", "fg5", "dc5", "b:d4"]
    # 8x8 numbering with square 1 on b8 (as English and numeric Russian engines count).
    assert first["numeric"].tolist() == ["22-18", "11-16", "18-14", "9:18"]
    assert first["captured"].tolist() == [0, 0, 0, 1]
    assert first[["from_square", "to_square"]].iloc[3].tolist() == ["b6", "d4"]
    assert first[["white_men", "black_men"]].iloc[3].tolist() == [11, 12]
    crowning = moves[moves["game"] == 3]
    assert crowning["promotes"].tolist() == [True, False, False]
    assert crowning["piece"].tolist() == ["man", "man", "king"]
    assert len(moves) == russian.games["plies"].sum()


CLOCKED = """\
[GameType "20"]
[TimeControl "600+5"]
[Result "*"]
1. 32-28 {[%clock w0:09:50 B0:10:00]} 19-23 {[%eval -0.25] [%clock W0:09:50 b0:09:40]}
2. 28x19 {Forced. [%clock w0:09:30 B0:09:40]} 14x23 {[%eval #-3]} 3. 37-32 {[%emt 0:00:07]}
18-22 {[%clk 0:09:42]} *

[GameType "20"]
1. 32-28 {a plain comment} 19-23 *
"""


def test_moves_table_reads_clocks_move_times_and_evaluations(tmp_path):
    moves = stats_tables([write(tmp_path, CLOCKED)], INTERNATIONAL).moves
    first = moves[moves["game"] == 1]
    assert rows(first[["clock", "time_used", "eval", "eval_mate"]]) == [
        [590.0, 15.0, None, None],   # 600 s base - 590 + 5 increment
        [580.0, 25.0, -0.25, None],  # Black's own clock, lowercase b
        [570.0, 25.0, None, None],
        [None, None, None, -3],      # no clock: the next difference is unknown
        [None, 7.0, None, None],     # %emt gives the time taken
        [582.0, None, None, None],   # %clk after a move without a clock: no difference
    ]
    assert moves[moves["game"] == 2][["clock", "eval"]].isna().all().all()
    assert {name: str(moves[name].dtype) for name in ("clock", "time_used", "eval",
                                                      "eval_mate")} == {
        "clock": "Float64", "time_used": "Float64", "eval": "Float64", "eval_mate": "Int32"}


def test_lidraughts_clocks_come_out_as_numbers(shared_data):
    samples = shared_data / "lidraughts_sample"
    sources = [str(samples / "lidraughts_export_sample.pdn"),
               str(samples / "lidraughts_ambiguous_capture_sample.pdn")]
    tables = stats_tables(sources, INTERNATIONAL)
    moves = tables.moves
    clocked = moves[moves["file"] == sources[0]]
    assert clocked["clock"].notna().all() and len(clocked) == 301
    assert clocked["clock"].tolist()[:4] == [600.0, 600.0, 597.0, 598.0]
    assert clocked["time_used"].tolist()[:6] == [0.0, 0.0, 3.0, 2.0, 2.0, 0.0]
    # time was given once (65. ... w0:06:25, then 66. ... w0:08:10): only that move is NA
    rose = (clocked["clock"].diff(2) > 0).fillna(False).astype(bool)
    assert clocked["time_used"].isna().tolist() == rose.tolist()
    assert clocked.loc[rose, "ply"].tolist() == [131]
    assert (clocked["time_used"].dropna() >= 0).all() and clocked["clock"].max() <= 600
    unclocked = moves[moves["file"] == sources[1]]
    assert len(unclocked) > 100 and unclocked["clock"].isna().all()


def test_players_match_names_ignoring_case_and_spacing_and_keep_aliases(russian):
    players = russian.players.set_index("player")
    ivanov = players.loc["Ivanov, A."]
    assert ivanov["aliases"] == "Ivanov, A. | ivanov, a."
    assert (ivanov["games"], ivanov["wins"], ivanov["draws"], ivanov["losses"],
            ivanov["unknown"]) == (4, 2, 1, 0, 1)
    assert (ivanov["white_games"], ivanov["black_games"]) == (2, 2)
    assert ivanov["score_pct"] == pytest.approx(250 / 3)
    assert (ivanov["first_year"], ivanov["last_year"], ivanov["events"]) == (1996, 2001, 2)
    assert "?" not in players.index  # unnamed sides are left out
    assert players.loc["Petrov, B.", "aliases"] == "Petrov, B. | petrov,b."


def test_openings_count_sequences_and_split_results(russian):
    openings = russian.openings
    assert openings["plies"].eq(2).all()
    row = openings.set_index("opening").loc["c3-d4 f6-g5"]
    assert (row["games"], row["draw"], row["white_score_pct"]) == (1, 1, 50.0)
    assert len(openings) == 3  # every game of two plies or more; the invalid one has none


def test_russian_openings_are_named_by_the_fmjd_ballot_they_start_with(tmp_path):
    # FMJD Drawing Table 64, ballot 4-IV: cd4 ba5 bc3 de5.
    text = '[Result "*"]\n1. c3-d4 b6-a5 2. b2-c3 d6-e5 3. d4:f6 g7:e5 *\n'
    tables = stats_tables([write(tmp_path, text)], RUSSIAN, opening_plies=4)
    assert tables.games["ballot"].tolist() == ["4-IV"]
    assert tables.openings["ballot"].tolist() == ["4-IV"]
    # 1. cd4 ba5 is the "Кол" (docs/openings.md: Gorodetsky, «Книга о шашках», ch. 7).
    assert tables.games["opening_name"].tolist() == ["Кол"]


def test_every_fmjd_ballot_replays_to_legal_moves():
    assert len(fmjd_ballots()) == len(FMJD_64.strip().splitlines()) == 163


def test_summary_groups_by_file_variant_event_and_year(russian):
    summary = russian.summary
    assert rows(summary[["event", "year", "games"]]) == [
        ["Cup", 1996, 1], ["Cup", 2001, 1], ["Cup", None, 1], ["Open", None, 1]]
    assert summary["valid_share"].tolist() == [1.0, 1.0, 1.0, 0.0]
    assert summary["average_plies"].tolist() == [2.0, 4.0, 3.0, 0.0]


def test_dates_keep_what_partial_and_foreign_forms_know():
    parts = date_parts(pd.Series(["1841.??.??", "1995.11.1", "1-2 June 2002", "2024-12-14",
                                  "?", pd.NA], dtype="string"))
    assert rows(parts[["year", "month", "day"]]) == [
        [1841, None, None], [1995, 11, 1], [2002, 6, 1], [2024, 12, 14],
        [None, None, None], [None, None, None]]


def test_a_full_date_outside_the_datetime_range_keeps_its_parts_and_no_date(tmp_path):
    # pandas' datetime64[ns] holds 1677-09-22 to 2262-04-11: an older game (or a slip such
    # as 2999) used to stop the whole table with OutOfBoundsDatetime
    games = "".join(f'[Date "{date}"]\n[Result "1-0"]\n1. cd4 ba5 1-0\n\n'
                    for date in ("1500.01.01", "1677.09.21", "1677.09.22", "2999.12.31"))
    table = stats_tables([write(tmp_path, games)], RUSSIAN).games
    assert rows(table[["year", "month", "day"]]) == [
        [1500, 1, 1], [1677, 9, 21], [1677, 9, 22], [2999, 12, 31]]
    assert table["date"].isna().tolist() == [True, True, False, True]
    result = CliRunner().invoke(app, ["stats", write(tmp_path, games, "old.pdn")])
    assert result.exit_code == 0 and "1500" in result.output


def test_dtypes_are_stable_on_empty_input(tmp_path):
    empty = stats_tables([write(tmp_path, "")], RUSSIAN)
    full = stats_tables([write(tmp_path, RUSSIAN_GAMES, "full.pdn")], RUSSIAN)
    for name in ("games", "moves", "players", "openings", "summary"):
        kinds = full.table(name).dtypes.astype(str)
        assert empty.table(name).dtypes.astype(str).to_dict() == kinds.reindex(
            empty.table(name).columns).to_dict()
    assert list(empty.moves.columns) == list(full.moves.columns)


# ---- engines -------------------------------------------------------------------------------


def _russian_archive(shared_data: Path) -> list[str]:
    return sorted(str(p) for p in (shared_data / "games-checkers" / "russian").glob("*.pdn"))


def test_local_and_two_processes_give_identical_tables(shared_data):
    sources = _russian_archive(shared_data)  # 667 games: four files, several batches
    local = stats_tables(sources, RUSSIAN)
    pooled = stats_tables(sources, RUSSIAN, jobs=2)
    for name in ("games", "moves", "players", "openings", "summary"):
        pd.testing.assert_frame_equal(local.table(name), pooled.table(name))


def _importable(name: str) -> bool:
    return importlib.util.find_spec(name) is not None


def test_dask_gives_the_same_tables(shared_data):
    require(_importable("distributed"), "dask.distributed (the dask extra)")
    sources = _russian_archive(shared_data)[:1]
    local = stats_tables(sources, RUSSIAN)
    dask = stats_tables(sources, RUSSIAN, jobs=2, engine="dask")
    for name in ("games", "moves", "players"):
        pd.testing.assert_frame_equal(local.table(name), dask.table(name))


def test_dask_distributed_client_gives_the_same_tables(shared_data):
    """With a ``distributed.Client`` open the dask engine runs on its cluster (here an
    in-process one) and gives the tables the local engine gives."""
    require(_importable("distributed"), "dask.distributed (the dask extra)")
    from distributed import Client

    sources = _russian_archive(shared_data)[:1]
    local = stats_tables(sources, RUSSIAN)
    with Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None):
        dask = stats_tables(sources, RUSSIAN, jobs=2, engine="dask")
    for name in ("games", "moves", "players"):
        pd.testing.assert_frame_equal(local.table(name), dask.table(name))


# ---- acceptance: the public archives -------------------------------------------------------

RESULT_TAG = re.compile(r'\[\s*Result\s+"?([^"\]]*?)"?\s*\]')
FIRST_WINS = {"1-0", "2-0", "1:0", "2:0"}
SECOND_WINS = {"0-1", "0-2", "0:1", "0:2"}
DRAWS = {"1/2-1/2", "1-1", "1/2:1/2", "1:1"}


def independent_result_counts(texts: list[str], first: str) -> Counter:
    """Count the non-empty Result tags with a plain regular expression over the files' text
    (not our reader), mapping each to the winner's colour given who moves first (PDN 3.0:
    results are written from the first mover's view). Games without a Result tag take the
    movetext's result and are left out of this comparison."""
    second = "black" if first == "white" else "white"
    counts: Counter = Counter()
    for text in texts:
        for token in (t.strip() for t in RESULT_TAG.findall(text)):
            if not token:
                continue
            counts[first if token in FIRST_WINS else second if token in SECOND_WINS
                   else "draw" if token in DRAWS else "double_forfeit" if token in ("0-0", "0:0")
                   else "unknown"] += 1
    return counts


def check_invariants(tables, texts: list[str], first: str) -> int:
    """Assert the acceptance invariants; return the number of games whose tags were lost."""
    games, moves, players = tables.games, tables.moves, tables.players
    # Result counts equal the independent count of Result tags.
    expected = independent_result_counts(texts, first)
    tagged = games[games["Result"].fillna("").str.strip() != ""]
    counted = tagged["result"].value_counts()
    shortfall = {k: expected[k] - counted.get(k, 0) for k in expected}
    # Where a syntax error cost a game its tags (48th Polish Team Championship: '[[Event',
    # a tag not closed on its line), the regex still sees its Result tag: only such games
    # may make up a difference; without them the counts are equal.
    lost = int((games["Result"].isna() & (games["error"] == "syntax")).sum())
    assert all(n >= 0 for n in shortfall.values())
    assert sum(shortfall.values()) <= lost
    # Players' totals balance: every game counted once per named player.
    named = {side: games[side].str.strip().replace("", pd.NA).dropna()
             .loc[lambda s: ~s.str.match(r"^[\s?*\-.]*$")] for side in ("White", "Black")}
    assert players["white_games"].sum() == len(named["White"])
    assert players["black_games"].sum() == len(named["Black"])
    assert (players["games"] == players["white_games"] + players["black_games"]).all()
    assert (players["games"] == players[["wins", "draws", "losses", "unknown"]].sum(axis=1)
            ).all()
    both = games.loc[named["White"].index.intersection(named["Black"].index)]
    decisive = both["result"].isin(["white", "black"]).sum()
    assert players["wins"].sum() == decisive + _one_named_winners(games, named)
    # The moves table has one row per replayed ply, numbered 1..plies in every game.
    assert len(moves) == games["plies"].sum()
    last = moves.groupby("game", observed=True)["ply"].agg(["max", "count"])
    per_game = games.set_index("game")["plies"]
    if games["file"].nunique() == 1:
        played = per_game[per_game > 0]
        assert (last["max"].reindex(played.index) == played).all()
        assert (last["count"].reindex(played.index) == played).all()
    return lost


def _one_named_winners(games: pd.DataFrame, named: dict[str, pd.Series]) -> int:
    """Decisive games where only the winner's name is known."""
    white_only = named["White"].index.difference(named["Black"].index)
    black_only = named["Black"].index.difference(named["White"].index)
    return int((games.loc[white_only, "result"] == "white").sum()
               + (games.loc[black_only, "result"] == "black").sum())


def sample_games(text: str, every: int) -> str:
    """Every ``every``-th game of a file, cut at its ``[Event`` lines by a plain regex."""
    games = re.split(r"(?m)^(?=\[Event )", text)
    return "".join(game for index, game in enumerate(games) if index % every == 0)


def test_oca_invariants_on_a_sample(shared_data, tmp_path):
    """OCA 2.0 (English, no GameType; results from Black's, the first mover's, view).
    Sampled to every 8th game (~2,800 of 22,621) to keep the suite fast; bench/stats.py runs
    the whole file."""
    text = (shared_data / "english" / "OCA_2.0.pdn").read_text(encoding="latin-1")
    sample = write(tmp_path, sample_games(text, 8), "oca_sample.pdn")
    tables = stats_tables([sample], ENGLISH, jobs=2)
    assert len(tables.games) > 2800
    lost = check_invariants(tables, [Path(sample).read_text(encoding="latin-1")],
                            first="black")
    assert lost == 0


def test_russian_archive_invariants(shared_data):
    sources = _russian_archive(shared_data)
    tables = stats_tables(sources, RUSSIAN, jobs=2)
    texts = [Path(s).read_text(encoding="latin-1") for s in sources]
    assert len(tables.games) == 667
    for source, text in zip(sources, texts, strict=True):
        one = stats_tables([source], RUSSIAN)
        check_invariants(one, [text], first="white")
    assert check_invariants(tables, texts, first="white") == 0


def test_international_archive_invariants(shared_data):
    folder = shared_data / "international"
    sources = sorted(str(p) for p in folder.rglob("*.pdn"))
    tables = stats_tables(sources, INTERNATIONAL, jobs=2)
    texts = [Path(s).read_text(encoding="latin-1") for s in sources]
    assert set(tables.games["variant"].astype(str)) <= {"international", "russian",
                                                         "brazilian", "english"}
    check_invariants(tables, texts, first="white")


# ---- command line --------------------------------------------------------------------------


def test_cli_writes_each_format_atomically_and_shows_a_table(tmp_path):
    source = write(tmp_path, RUSSIAN_GAMES)
    runner = CliRunner()
    for name in ("games.csv", "games.parquet", "games.jsonl"):
        result = runner.invoke(app, ["stats", source, "-t", "games", "-o",
                                     str(tmp_path / name), "-j", "1"])
        assert result.exit_code == 1, result.output  # the fourth game is invalid
        assert "games that do not replay: 1 invalid" in result.stderr
    assert pd.read_csv(tmp_path / "games.csv")["plies"].tolist() == [4, 2, 3, 0]
    assert pd.read_parquet(tmp_path / "games.parquet")["result"].tolist()[0] == "draw"
    assert len(pd.read_json(tmp_path / "games.jsonl", lines=True)) == 4
    assert not list(tmp_path.glob(".*.part"))
    shown = runner.invoke(app, ["stats", source, "-t", "players", "-j", "1"])
    assert shown.exit_code == 1 and "Ivanov" in shown.output


def test_cli_plot_is_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    source = write(tmp_path, RUSSIAN_GAMES)
    result = CliRunner().invoke(app, ["stats", source, "--plot", str(tmp_path / "s.png"),
                                      "-j", "1"])
    assert result.exit_code == 1, result.output  # written, though one game is invalid
    assert (tmp_path / "s.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_says_clearly_when_dask_is_missing(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name == "dask" or name.startswith("dask."):
            raise ImportError("no dask here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    result = CliRunner().invoke(app, ["stats", write(tmp_path, RUSSIAN_GAMES),
                                      "--runner", "dask"])
    assert result.exit_code == 2
    assert "dask" in result.output


def test_move_texts_equal_the_full_legal_move_reference(shared_data, tmp_path):
    """The moves table writes texts without listing every legal move: each column must be
    what full_text / short_text give when the whole legal-move list is at hand."""
    from pdn.reader import read_games
    from pdn.writer import write_games
    from replay.record.board import Board
    from replay.record.notation import full_text, is_ambiguous, short_text
    from replay.record.replayer import replay_game

    files = [(shared_data / "games-checkers" / "russian" / "World_Championship_1998.pdn",
              RUSSIAN), (shared_data / "english" / "OCA_2.0.pdn", ENGLISH),
             (shared_data / "international" / "fmjd_wk2007_all_games.pdn", INTERNATIONAL)]
    checked: Counter = Counter()
    for path, variant in files:
        games = [game for _, game in zip(range(150), read_games(path), strict=False)]
        sample = write(tmp_path, "".join(write_games(games)), path.name)
        table = stats_tables([sample], variant, jobs=1).moves.itertuples(index=False)
        for game in read_games(sample):
            replayed = replay_game(game, variant)
            board = Board(replayed.variant, replayed.start)
            for move in replayed.moves:
                row = next(table)
                legal = board.legal_moves()
                assert is_ambiguous(board, move) == is_ambiguous(board, move, legal)
                assert row.move == full_text(board, move)
                assert row.numeric == full_text(board, move, numeric=True)
                assert row.short == short_text(board, move, legal)
                checked[len(move.captures) > 1] += 1
                board.push(move)
    assert checked[True] > 50 and checked[False] > 5000  # multiple captures were met
