"""The derived tables: games' dates, ratings and result views; players, openings (the
summary's counts are ``replay.stats.counts``).

All vectorised over the games table (one row per game), which stays small next to the
moves table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from pdn.i18n import N_
from pdn.writer import SEVEN_TAGS
from replay.archive.tags import date_parts_plain
from replay.reference.ballots import ballot_of
from replay.stats.schema import (
    DERIVED_COLUMNS,
    GAME_COLUMN_ORDER,
    MOVE_DTYPES,
    READINGS,
    REPLAY_COLUMNS,
    RESULTS,
    STRING,
)

# The full dates a ``datetime64[ns]`` holds (1677-09-22 to 2262-04-11), as YYYYMMDD numbers;
# a full date outside keeps its year, month and day, its ``date`` left empty.
_DATE_RANGE = tuple(int(bound.strftime("%Y%m%d"))
                    for bound in (pd.Timestamp.min.ceil("D"), pd.Timestamp.max.floor("D")))


def date_parts(dates: pd.Series) -> pd.DataFrame:
    """``date`` (full dates only), ``year``, ``month``, ``day`` (nullable: partial dates keep
    what they know) from Date tags in the forms archives use, each read by
    ``replay.archive.tags.date_parts_plain``.

    >>> date_parts(pd.Series(["1841.??.??", "13-01-1996", "1-2 June 2002", "0000.00.00"],
    ...                      dtype="string"))[["year", "month", "day"]].to_numpy().tolist()
    [[1841, <NA>, <NA>], [1996, 1, 13], [2002, 6, 1], [<NA>, <NA>, <NA>]]
    >>> date_parts(pd.Series(["1500.01.01", "1677.09.22"], dtype="string")).date.tolist()
    [NaT, Timestamp('1677-09-22 00:00:00')]
    """
    # each date read once: an archive's games share few dates (OCA 2.0: 22,621 games, a
    # few thousand dates)
    codes, distinct = pd.factorize(dates.astype(STRING))
    parts = [date_parts_plain(text) for text in distinct] + [(None, None, None)]
    codes[codes < 0] = len(distinct)  # a missing date: the parts of none, appended
    year, month, day = (pd.Series([known[index] for known in parts], dtype="Int64")
                        for index in range(3))
    full = (year * 10_000 + month * 100 + day).between(*_DATE_RANGE).fillna(False)
    date = pd.Series(pd.NaT, index=range(len(parts)), dtype="datetime64[ns]")
    if full.any():
        date[full] = pd.to_datetime(pd.DataFrame({
            "year": year[full].astype(int), "month": month[full].astype(int),
            "day": day[full].astype(int)}), errors="coerce")
    frame = pd.DataFrame({"date": date, "year": year, "month": month, "day": day})
    return frame.iloc[codes].set_axis(dates.index)


def _rating(games: pd.DataFrame, side: str) -> pd.Series:
    """The first number of a side's rating tag (``WhiteRating``, else lidraughts' Elo)."""
    rating = pd.Series(pd.NA, index=games.index, dtype=STRING)
    for tag in (f"{side}Rating", f"{side}Elo"):
        if tag in games:
            rating = rating.fillna(games[tag])
    return pd.to_numeric(rating.str.extract(r"^\s*(\d{1,5})", expand=False),
                         errors="coerce").astype("Int64")


class ReadingVotes:
    """Per file, how many decided games where Black moves first read their result for the
    first mover and how many for the colour, gathered part by part (partial counts add up),
    counted from the column's codes (a crosstab per part cost pandas more than counting)."""

    def __init__(self) -> None:
        self.counts: dict[str, np.ndarray] = {}

    @classmethod
    def of(cls, games: pd.DataFrame) -> ReadingVotes:
        """The votes of a whole games table, per its ``file`` column."""
        votes = cls()
        for file, part in games.groupby("file", observed=True, sort=False):
            votes.add(str(file), part)
        return votes

    def add(self, source: str, games: pd.DataFrame) -> None:
        """Count the votes of a part of ``source``'s games (a typed frame)."""
        codes = games["result_reading"].cat.codes.to_numpy()
        self.add_counts(source, np.bincount(codes[codes >= 0], minlength=len(READINGS)))

    def add_counts(self, source: str, votes: np.ndarray | tuple[int, int]) -> None:
        """Add ``source``'s votes counted elsewhere (first mover, colour)."""
        votes = np.asarray(votes, dtype=np.int64)
        if votes.any():
            held = self.counts.get(source)
            self.counts[source] = votes if held is None else held + votes

    def readings(self) -> pd.Series | None:
        """Each file's reading (``file_readings``); None before any game voted."""
        if not self.counts:
            return None
        return file_readings(pd.DataFrame.from_dict(self.counts, orient="index",
                                                    columns=list(READINGS)))


def file_readings(votes: pd.DataFrame) -> pd.Series:
    """Each file's reading by the majority of its votes (NA where they tie)."""
    first, colour = votes["first-mover"], votes["colour"]
    by_file = pd.Series(pd.NA, index=votes.index, dtype=object)
    by_file[first > colour] = "first-mover"
    by_file[colour > first] = "colour"
    return by_file


def settle_readings(games: pd.DataFrame, readings: pd.Series | None = None) -> None:
    """Where Black moves first, read each file's results the way its decided games do (see
    ``replay.record.replayer.file_reading``): settle their result checks, and where the file's
    results name the colour (``1-0``: White won), turn the first mover's reading round.
    ``readings``: each file's reading when the games are a part of their files."""
    own = games["result_reading"].astype(object)
    if own.isna().all():
        return
    by_file = ReadingVotes.of(games).readings() if readings is None else readings
    reading = games["file"].astype(object).map(by_file)
    pending = own.notna()
    check = games["result_check"].astype(object)
    check[pending & reading.isna()] = "undetermined"
    check[pending & reading.notna() & (own == reading)] = "consistent"
    check[pending & reading.notna() & (own != reading)] = "inconsistent"
    games["result_check"] = check
    turned = ((reading == "colour") & (games["first_mover"].astype(object) == "black")
              & games["result"].astype(object).isin(("white", "black")))
    games.loc[turned, "result"] = games.loc[turned, "result"].astype(object).map(
        {"white": "black", "black": "white"})


def finish_games(games: pd.DataFrame, readings: pd.Series | None = None) -> pd.DataFrame:
    """Add the columns derived from tags and results, and put every column in its place
    (``readings``: as for ``settle_readings``)."""
    settle_readings(games, readings)
    tags = list(dict.fromkeys([*SEVEN_TAGS, *(c for c in games.columns
                                              if c not in REPLAY_COLUMNS and c != "file")]))
    # One array per tag, built once from one block of texts: pandas costs ~0.1 ms per
    # column in each operation on the whole frame (a game may have 200,000 distinct tags).
    texts = games.reindex(columns=tags).to_numpy(dtype=object)
    typed = {tag: pd.array(texts[:, index], dtype=STRING) for index, tag in enumerate(tags)}
    read = pd.DataFrame({tag: typed[tag] for tag in ("Date", "WhiteRating", "WhiteElo",
                                                     "BlackRating", "BlackElo") if tag in typed},
                        index=games.index)
    derived = date_parts(read["Date"])
    derived["white_rating"] = _rating(read, "White")
    derived["black_rating"] = _rating(read, "Black")
    first = games["first_mover"].astype(str)
    result = games["result"].astype(str)
    first_view = result.where(~result.isin(("white", "black")),
                              (result == first).map({True: "first", False: "second"}))
    derived["result_first_mover"] = first_view
    derived["white_score"] = result.map({"white": 1.0, "black": 0.0, "draw": 0.5,
                                         "double_forfeit": 0.0})
    ours = pd.concat([games[list(REPLAY_COLUMNS)], derived], axis=1).astype(
        {**REPLAY_COLUMNS, **DERIVED_COLUMNS})
    columns = {"file": games["file"], "game": ours["game"], "line": ours["line"], **typed,
               **{name: ours[name] for name in GAME_COLUMN_ORDER}}
    return pd.DataFrame(columns, index=games.index)


def contradicted_lines(games: pd.DataFrame) -> list[str]:
    """A warning for each game (of a finished games table) whose recorded result its final
    position contradicts (``result_check`` inconsistent): ``file:line: warning: game N (A –
    B): result 0-2 contradicted by the final position (no_moves)``."""
    shown = games[["file", "line", "game", "White", "Black", "Result", "ending"]]
    found = shown[games["result_check"].astype(object) == "inconsistent"]
    return [contradicted_line(row.file, row) for row in found.itertuples(index=False)]


def contradicted_line(file: object, row) -> str:
    """The warning for one game of ``file`` contradicting its result (``row``: its line,
    game, White, Black, Result and ending)."""

    def text(value: object) -> str:
        return "?" if value is None or value is pd.NA or value != value or value == "" \
            else str(value)

    return N_("{where}: warning: game {number} ({white} – {black}): result {result} "
              "contradicted by the final position ({ending})").format(
        where=f"{text(file)}:{text(row.line)}", number=text(row.game), white=text(row.White),
        black=text(row.Black), result=text(row.Result), ending=text(row.ending))


def finish_moves(moves: pd.DataFrame) -> pd.DataFrame:
    """The moves table with its columns in place and typed (only the columns not yet of
    their dtype are cast: a cast of the whole frame costs ~5 ms a batch even where none is
    needed)."""
    ordered = moves[["file", *MOVE_DTYPES]]
    now = ordered.dtypes
    cast = {name: dtype for name, dtype in MOVE_DTYPES.items() if now[name] != dtype}
    return ordered.astype(cast) if cast else ordered


# ---- players -------------------------------------------------------------------------------

_NO_NAME = r"^[\s?*\-.]*$"


def _player_sides(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, side) with a named player: name, key, side, outcome, when, event."""
    outcome = {"white": {"white": "win", "black": "loss", "draw": "draw",
                         "double_forfeit": "loss", "unknown": "unknown"},
               "black": {"white": "loss", "black": "win", "draw": "draw",
                         "double_forfeit": "loss", "unknown": "unknown"}}
    parts = []
    for side, tag in (("white", "White"), ("black", "Black")):
        spelling = games[tag].str.strip().str.replace(r"\s+", " ", regex=True)
        parts.append(pd.DataFrame({
            "spelling": spelling, "side": side,
            "outcome": games["result"].astype(str).map(outcome[side]),
            "date": games["date"], "year": games["year"], "event": games["Event"]}))
    sides = pd.concat(parts, ignore_index=True)
    sides = sides[sides["spelling"].notna() & ~sides["spelling"].str.match(_NO_NAME)]
    sides["key"] = sides["spelling"].str.replace(r"\s*,\s*", ", ", regex=True).str.casefold()
    return sides


def players_table(games: pd.DataFrame) -> pd.DataFrame:
    """Per player (names matched ignoring case and spacing): games, wins, draws, losses,
    score %, the same as White and as Black, first and last date, events, aliases."""
    sides = _player_sides(games)
    counts = sides.groupby(["key", "side", "outcome"]).size().unstack(["side", "outcome"],
                                                                       fill_value=0)
    table = pd.DataFrame(index=counts.index)
    for outcome in ("win", "draw", "loss", "unknown"):
        for side in ("white", "black"):
            column = (side, outcome)
            table[f"{side}_{outcome}"] = counts.get(column, 0)
    for side in ("white", "black"):
        table[f"{side}_games"] = table[[f"{side}_{o}" for o in ("win", "draw", "loss",
                                                                  "unknown")]].sum(axis=1)
    by_key = sides.groupby("key")
    names = (sides.groupby(["key", "spelling"]).size().rename("n").reset_index()
             .sort_values(["key", "n", "spelling"], ascending=[True, False, True]))
    out = pd.DataFrame({
        "player": names.drop_duplicates("key").set_index("key")["spelling"],
        "aliases": names.sort_values(["key", "spelling"]).groupby("key")["spelling"]
        .agg(" | ".join),
        "games": table["white_games"] + table["black_games"],
        "wins": table["white_win"] + table["black_win"],
        "draws": table["white_draw"] + table["black_draw"],
        "losses": table["white_loss"] + table["black_loss"],
        "unknown": table["white_unknown"] + table["black_unknown"],
    })
    decided = out["wins"] + out["draws"] + out["losses"]
    out["score_pct"] = ((out["wins"] + 0.5 * out["draws"]) / decided.where(decided > 0) * 100)
    for side in ("white", "black"):
        for name, source in (("games", "games"), ("wins", "win"), ("draws", "draw"),
                             ("losses", "loss")):
            out[f"{side}_{name}"] = table[f"{side}_{source}"]
    out["first_date"], out["last_date"] = by_key["date"].min(), by_key["date"].max()
    out["first_year"], out["last_year"] = by_key["year"].min(), by_key["year"].max()
    out["events"] = by_key["event"].nunique()
    out = out.reset_index(drop=True).sort_values(["games", "player"],
                                                 ascending=[False, True], ignore_index=True)
    return out.astype(PLAYER_DTYPES)


PLAYER_DTYPES: dict[str, object] = {
    "player": STRING, "aliases": STRING, "games": "Int64", "wins": "Int64", "draws": "Int64",
    "losses": "Int64", "unknown": "Int64", "score_pct": "Float64",
    **{f"{side}_{name}": "Int64" for side in ("white", "black")
       for name in ("games", "wins", "draws", "losses")},
    "first_date": "datetime64[ns]", "last_date": "datetime64[ns]", "first_year": "Int64",
    "last_year": "Int64", "events": "Int64",
}

# ---- openings ---------------------------------------------------------------------


def _result_counts(games: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Games and the results split per group of ``keys`` (missing keys form their groups)."""
    grouped = games.groupby(keys, dropna=False, observed=True, sort=True)
    counts = grouped["result"].value_counts().unstack(fill_value=0)
    counts = counts.reindex(columns=list(RESULTS), fill_value=0)
    counts.columns = list(RESULTS)
    counts.insert(0, "games", grouped.size())
    return counts


def openings_table(games: pd.DataFrame, plies: int | None = None) -> pd.DataFrame:
    """The games' first plies as a sequence, with count and result split, most played
    first; ``ballot`` names the FMJD Drawing Table 64 ballot a Russian sequence starts with."""
    played = games[games["opening"].notna()]
    counts = _result_counts(played, ["variant", "opening"]).reset_index()
    counts["plies"] = counts["opening"].str.count(" ") + 1 if len(counts) else 0
    counts["white_score_pct"] = (played.groupby(["variant", "opening"], observed=True)
                                 ["white_score"].mean() * 100).reindex(
        pd.MultiIndex.from_frame(counts[["variant", "opening"]])).to_numpy()
    russian = counts["variant"].astype(str) == "russian"
    counts["ballot"] = counts["opening"].where(russian).map(
        lambda text: ballot_of(text.split()) if isinstance(text, str) else None)
    table = counts.sort_values(["games", "variant", "opening"], ascending=[False, True, True],
                               ignore_index=True)
    if plies is not None:
        table = table[table["plies"] == plies]
    return table[list(OPENING_DTYPES)].astype(OPENING_DTYPES)


OPENING_DTYPES: dict[str, object] = {
    "variant": REPLAY_COLUMNS["variant"], "opening": STRING, "plies": "Int64",
    "games": "Int64", **dict.fromkeys(RESULTS, "Int64"), "white_score_pct": "Float64",
    "ballot": STRING,
}
