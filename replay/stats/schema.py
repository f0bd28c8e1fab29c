"""Column names and dtypes of the tables (documented in ``replay.stats``)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pdn.writer import SEVEN_TAGS
from replay.rules.variants import variant_names

STRING = pd.StringDtype()
RESULTS = ("white", "black", "draw", "double_forfeit", "unknown")
FIRST_MOVER_RESULTS = ("first", "second", "draw", "double_forfeit", "unknown")
SIDES = ("white", "black")
READINGS = ("first-mover", "colour")


def category(values: tuple[str, ...] | list[str]) -> pd.CategoricalDtype:
    return pd.CategoricalDtype(list(values))


# Columns a worker computes for each game (besides its tags), with their dtypes.
REPLAY_COLUMNS: dict[str, object] = {
    "game": "Int64", "line": "Int64",
    "variant": category(variant_names()),
    "variant_source": category(("tag", "option", "inferred")), "first_mover": category(SIDES),
    "result": category(RESULTS),
    "result_check": category(("consistent", "inconsistent", "undetermined", "forfeit")),
    "result_reading": category(READINGS),
    "plies": "Int64", "captures": "Int64", "pieces_captured": "Int64", "promotions": "Int64",
    "first_king_white": "Int64", "first_king_black": "Int64",
    "white_men": "Int64", "white_kings": "Int64", "black_men": "Int64", "black_kings": "Int64",
    "ending": category(("no_pieces", "no_moves", "promotion", "draw_rule", "undecided")),
    "draw_rule": STRING,
    "status": category(("valid", "invalid", "incomplete", "unreadable")),
    "error": STRING, "errors": "Int64", "warnings": "Int64",
    "opening": STRING, "ballot": STRING, "opening_name": STRING,
}

# The columns of ours a run that writes the moves alone needs of the games: their numbers,
# variants (the file's games decide some: ``replay.stats.execution``) and statuses.
RUN_COLUMNS = ("game", "variant", "status")

# Columns derived from the tags and the result in the main process.
DERIVED_COLUMNS: dict[str, object] = {
    "date": "datetime64[ns]", "year": "Int64", "month": "Int64", "day": "Int64",
    "white_rating": "Int64", "black_rating": "Int64",
    "result_first_mover": category(FIRST_MOVER_RESULTS), "white_score": "Float64",
}

GAME_COLUMN_ORDER = (
    "date", "year", "month", "day", "white_rating", "black_rating", "variant", "variant_source",
    "first_mover", "result", "result_first_mover", "white_score", "result_check",
    "result_reading", "plies", "captures",
    "pieces_captured", "promotions", "first_king_white", "first_king_black", "white_men",
    "white_kings", "black_men", "black_kings", "ending", "draw_rule", "status", "error",
    "errors", "warnings", "opening", "ballot", "opening_name",
)

MOVE_DTYPES: dict[str, object] = {
    "game": "Int64", "ply": "Int32", "move_number": "Int32", "side": category(SIDES),
    "move": STRING, "short": STRING, "numeric": STRING, "piece": category(("man", "king")),
    "captured": "Int8", "promotes": "boolean", "from_square": STRING, "to_square": STRING,
    "white_men": "Int8", "white_kings": "Int8", "black_men": "Int8", "black_kings": "Int8",
    "clock": "Float64", "time_used": "Float64", "eval": "Float64", "eval_mate": "Int32",
}

# A games table has one column per tag up to this many tags (the seven first, the others in
# the order seen); a game's tags past them go, written as PDN tag pairs, into ``OTHER_TAGS``,
# which the table has only when some game needs it. A typed column costs ~2 KB even with one
# cell, so a hostile game of 200,000 distinct tags took 1.2 GB (a real archive has a few
# dozen tags).
TAG_COLUMN_LIMIT = 1_000
OTHER_TAGS = "other_tags"
_ESCAPED = str.maketrans({"\\": "\\\\", '"': '\\"'})

RESERVED = {"file", OTHER_TAGS, *REPLAY_COLUMNS, *DERIVED_COLUMNS}


def tag_column(name: str) -> str:
    """A tag's column: its own name, unless that is one of ours (then ``tag_<name>``)."""
    return f"tag_{name}" if name in RESERVED else name


def tag_name(column: str) -> str:
    """The tag a column holds (``tag_column`` undone)."""
    return column[4:] if column.startswith("tag_") and column[4:] in RESERVED else column


def fold_tags(games: pd.DataFrame, tags: list[str]) -> pd.DataFrame:
    """``games`` with the tag columns of the table, ``tags`` (every tag column any game of
    the table has, in order; those a part lacks are left empty): the first
    ``TAG_COLUMN_LIMIT`` each in its column, the others' values of each game in one
    ``OTHER_TAGS`` text (``[Name "value"] ...``, the table's order; missing where a game has
    none of them), after the tag columns. Other columns (``file``, ours) keep their place."""
    kept = tags[:TAG_COLUMN_LIMIT]
    front = [c for c in games.columns[:1] if c == "file"]
    frame = games.reindex(columns=[*front, *kept, *REPLAY_COLUMNS])  # missing tags: NaN
    if len(tags) > TAG_COLUMN_LIMIT:
        present = set(games.columns)
        past = [tag for tag in tags[TAG_COLUMN_LIMIT:] if tag in present]
        names = [tag_name(tag) for tag in past]
        texts = games[past].to_numpy(dtype=object) if past else \
            np.empty((len(games), 0), dtype=object)
        folded = [" ".join(_tag_pair(name, value) for name, value in zip(names, row, strict=True)
                           if isinstance(value, str)) or None for row in texts]
        frame.insert(len(front) + len(kept), OTHER_TAGS, pd.Series(folded, index=games.index,
                                                                  dtype=object))
    return frame


def _tag_pair(name: str, value: str) -> str:
    """``[Name "value"]``, a quote or backslash of the value escaped by a backslash."""
    return f'[{name} "{value.translate(_ESCAPED)}"]'


def folded_rows(games: pd.DataFrame) -> pd.Series:
    """Which games of a finished part have tags folded into ``OTHER_TAGS``."""
    if OTHER_TAGS not in games:
        return pd.Series(False, index=games.index)
    return games[OTHER_TAGS].notna()


def typed_games(rows: list[dict], only: tuple[str, ...] | None = None) -> pd.DataFrame:
    """A batch's games: the seven tags first, other tags in the order seen, then ours
    (``only``: just these columns of ours, no tag).

    The tags stay Python texts (None where a game has no such tag) in one object block:
    pandas spends ~0.1 ms on each column of its own in every operation, which a game with
    200,000 distinct tags turns into minutes. ``tables.finish_games`` types them once."""
    if only is not None:
        return pd.DataFrame({name: _column([row[name] for row in rows], REPLAY_COLUMNS[name])
                             for name in only}, index=range(len(rows)))
    names = list(dict.fromkeys([*SEVEN_TAGS, *(tag_column(name) for row in rows
                                               for name in row["tags"])]))
    position = {name: index for index, name in enumerate(names)}
    texts = np.full((len(rows), len(names)), None, dtype=object)
    for number, row in enumerate(rows):
        for name, value in row["tags"].items():
            texts[number, position[tag_column(name)]] = value
    tags = pd.DataFrame(texts, columns=names, index=range(len(rows)), dtype=object)
    ours = pd.DataFrame({name: _column([row[name] for row in rows], dtype)
                         for name, dtype in REPLAY_COLUMNS.items()}, index=range(len(rows)))
    return pd.concat([tags, ours], axis=1)


def _column(values: list, dtype: object) -> pd.api.extensions.ExtensionArray:
    """A column of ours from the rows' Python values (None: missing) in its dtype, as
    ``astype`` would make it from the objects, without its inference (a part's columns
    typed by ``astype`` cost more than the part's games tabulated)."""
    if isinstance(dtype, pd.CategoricalDtype):
        codes = {name: code for code, name in enumerate(dtype.categories)}
        return pd.Categorical.from_codes(
            np.fromiter((codes.get(value, -1) for value in values), dtype=np.int32,
                        count=len(values)), dtype=dtype)
    if dtype == STRING:
        return _strings(values)
    missing = np.fromiter((value is None for value in values), dtype=bool, count=len(values))
    return pd.arrays.IntegerArray(np.fromiter((0 if value is None else value
                                               for value in values), dtype=np.int64,
                                              count=len(values)), missing)


def typed_moves(columns: dict[str, list]) -> pd.DataFrame:
    """A batch's moves from column lists (categories as their codes)."""
    return pd.DataFrame({name: _typed(columns[name], dtype) for name, dtype in MOVE_DTYPES.items()})


def _typed(values: list | np.ndarray, dtype: object) -> pd.api.extensions.ExtensionArray:
    """A column of a batch in its dtype, without pandas' inference: no missing values, but
    in a float array, where NaN is a missing value."""
    if isinstance(values, np.ndarray) and values.dtype.kind == "f":
        missing = np.isnan(values)
        if dtype == "Float64":
            return pd.arrays.FloatingArray(values, missing)
        return pd.arrays.IntegerArray(np.where(missing, 0, values).astype(
            pd.api.types.pandas_dtype(dtype).numpy_dtype), missing)
    if isinstance(dtype, pd.CategoricalDtype):
        return pd.Categorical.from_codes(np.asarray(values, dtype=np.int8), dtype=dtype)
    if dtype == STRING:
        return _strings(values)
    no_mask = np.zeros(len(values), dtype=bool)
    if dtype == "boolean":
        return pd.arrays.BooleanArray(np.asarray(values, dtype=bool), no_mask)
    return pd.arrays.IntegerArray(np.asarray(values, dtype=pd.api.types.pandas_dtype(dtype)
                                             .numpy_dtype), no_mask)


def _strings(values: list | tuple) -> pd.api.extensions.ExtensionArray:
    """Texts (None: missing) as a ``STRING`` array: with Arrow's storage, made by Arrow from
    the texts in one call (pandas checks each value in Python first, twice as long)."""
    if STRING.storage == "pyarrow":
        import pyarrow as pa

        return pd.arrays.ArrowStringArray(pa.chunked_array(
            [pa.array(values, type=pa.large_string())], type=pa.large_string()))
    return pd.array(values, dtype=STRING)


def with_file(frames: list[pd.DataFrame], sources: list[str], empty: pd.DataFrame,
              categories: list[str]) -> pd.DataFrame:
    """Concatenate partition frames (``empty`` when there are none) and put the ``file``
    column (categorical, one category per source given, in order) in front."""
    frame = pd.concat(frames, ignore_index=True) if frames else empty
    codes = np.repeat(np.array([categories.index(s) for s in sources], dtype=int),
                      [len(f) for f in frames]) if frames else np.array([], dtype=int)
    frame.insert(0, "file", pd.Categorical.from_codes(codes, categories))
    return frame


def file_categories(sources: list[str]) -> list[str]:
    """The ``file`` column's categories: every source's name, in the order given."""
    from replay.run.partitions import source_name

    return list(dict.fromkeys(source_name(source) for source in sources))
