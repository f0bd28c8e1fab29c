"""Statistics from game databases: tidy pandas tables of games, moves, players, openings.

>>> tables = stats_tables(["OCA_2.0.pdn"], get_variant("english"), jobs=2)  # doctest: +SKIP
>>> tables.games["result"].value_counts()                                  # doctest: +SKIP

Games are read and replayed in partitions of whole games (in ``jobs`` worker processes, or
on a Dask cluster with ``engine="dask"``: ``replay.run.runner``); only typed frames come back.
``stats_tables`` holds the tables in memory; ``write_table`` streams one table to a file
part by part, so memory stays flat whatever the archive's size. Every engine gives
identical tables. The ``file`` column has one category per source given.

Columns (stable names and dtypes; ``Int*`` and ``Float64`` are nullable, ``string`` is
pandas' string dtype, categories are fixed lists):

**games** — one row per game:
``file`` category; ``game`` Int64 (1-based index in its file); ``line`` Int64 (first line);
one ``string`` column per tag, named like the tag — the seven standard tags always, then the
others in the order first seen (a tag named like one of our columns becomes ``tag_<name>``),
1,000 tag columns at most (``schema.TAG_COLUMN_LIMIT``): only when a table has more distinct
tags, ``other_tags`` ``string`` after them holds each game's values of the others as PDN tag
pairs (``[Name "value"] ...``, in the table's order; missing where it has none);
``date`` datetime64[ns] (full dates from 1677-09-22 to 2262-04-11, the type's range);
``year``, ``month``, ``day`` Int64 (what a partial date knows: ``1841.??.??`` gives the
year); ``white_rating``, ``black_rating`` Int64
(``WhiteRating``/``BlackRating``, else ``WhiteElo``/``BlackElo``); ``variant`` category
(variant names); ``variant_source`` category tag/option/inferred (the GameType tag, the
``default``/``override`` given, or told from the record: docs/inference.md); ``first_mover``
category white/black; ``result`` category white/black/draw/double_forfeit/unknown — who won,
by colour (where Black moves first, the Result tag read the way the file's decided games
read it: for the first mover, as OCA writes it, or for the side named);
``result_first_mover`` category first/second/draw/double_forfeit/unknown; ``white_score``
Float64 (1, 0.5, 0; NA unknown); ``result_check`` category
consistent/inconsistent/undetermined/forfeit; ``result_reading`` category first-mover/colour (a
decided game where Black moves first: the reading its result agrees with); ``plies``, ``captures``
(capturing moves), ``pieces_captured``, ``promotions`` Int64; ``first_king_white``,
``first_king_black`` Int64 (ply of the side's first crowning); ``white_men``,
``white_kings``, ``black_men``, ``black_kings`` Int64 (final position); ``ending`` category
no_pieces/no_moves/promotion (Breakthrough)/draw_rule/undecided (by the rules, at the end
of the replayed record);
``draw_rule`` string (the rule's article: ``7.2.5``, ``repetition``, ``kings-25``...);
``status`` category valid/invalid/incomplete/unreadable; ``error`` string (first error code);
``errors``, ``warnings`` Int64; ``opening`` string (the first N plies in full notation,
space-separated; NA for shorter games); ``ballot`` string (Russian games from the start
position: the FMJD Drawing Table 64 ballot code the game starts with, e.g. ``4-IV``);
``opening_name`` string (the named opening the game reaches, matched by position, with a
public source for each name: docs/openings.md; NA where no source names the line).

**moves** — one row per replayed main-line ply:
``file`` category; ``game`` Int64; ``ply`` Int32 (1-based); ``move_number`` Int32; ``side``
category white/black; ``move`` string (full notation, the variant's squares); ``short``
string (Russian short form ``ed4``, ``b:d6``; full where short is ambiguous); ``numeric``
string (numeric squares); ``piece`` category man/king; ``captured`` Int8; ``promotes``
boolean; ``from_square``, ``to_square`` string; ``white_men``, ``white_kings``,
``black_men``, ``black_kings`` Int8 (after the move); from the commands in the move's
comments (docs/notation.md, "Clocks and evaluations"; NA where none is written): ``clock``
Float64 (seconds left on the mover's clock after the move), ``time_used`` Float64 (seconds
the move took: ``[%emt]``, else the mover's previous clock, or the TimeControl tag's base
time before its first move, less this one, plus the tag's increment; NA after a move
without a clock and where the difference is negative, as when a new period starts),
``eval`` Float64 (the evaluation after the move in pieces, from White's point of view, as
lidraughts writes it), ``eval_mate`` Int32 (a win in that many moves: positive for White,
negative for Black; ``eval`` is NA then).

**players** — one row per player, names matched ignoring case and spacing (``?`` and empty
names left out): ``player`` string (the most used spelling); ``aliases`` string (every
spelling, `` | ``-joined); ``games``, ``wins``, ``draws``, ``losses``, ``unknown`` Int64
(a double forfeit is a loss for both); ``score_pct`` Float64 (wins + half the draws over
decided games); ``white_games``, ``white_wins``, ``white_draws``, ``white_losses``,
``black_games``, ``black_wins``, ``black_draws``, ``black_losses`` Int64; ``first_date``,
``last_date`` datetime64[ns]; ``first_year``, ``last_year`` Int64; ``events`` Int64 (distinct
Event tags).

**openings** — one row per variant and opening sequence: ``variant`` category; ``opening``
string; ``plies`` Int64; ``games``, ``white``, ``black``, ``draw``, ``double_forfeit``,
``unknown`` Int64; ``white_score_pct`` Float64; ``ballot`` string (Russian: the longest FMJD
ballot the sequence starts with).

**summary** — one row per file, variant, event and year: ``file`` category; ``variant``
category; ``event`` string; ``year`` Int64; ``games``, ``white``, ``black``, ``draw``,
``double_forfeit``, ``unknown`` Int64; ``average_plies`` Float64; ``valid_share`` Float64
(0 to 1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property

import pandas as pd

from replay.rules.choice import RulesChoice
from replay.rules.variants import Rules, Variant
from replay.stats.counts import summary_table
from replay.stats.execution import EngineUnavailableError, TableOptions, iter_parts
from replay.stats.rows import MoveColumns
from replay.stats.schema import (
    REPLAY_COLUMNS,
    file_categories,
    fold_tags,
    typed_games,
    typed_moves,
    with_file,
)
from replay.stats.stream import write_table
from replay.stats.tables import (
    finish_games,
    finish_moves,
    openings_table,
    players_table,
)

TABLES = ("games", "moves", "players", "openings", "summary")


@dataclass
class Tables:
    """The tables of a set of sources; players, openings and summary derive from games."""

    games: pd.DataFrame
    moves: pd.DataFrame | None
    opening_plies: int = 6

    @cached_property
    def players(self) -> pd.DataFrame:
        return players_table(self.games)

    @cached_property
    def openings(self) -> pd.DataFrame:
        return openings_table(self.games)

    @cached_property
    def summary(self) -> pd.DataFrame:
        return summary_table(self.games)

    def table(self, name: str) -> pd.DataFrame:
        """A table by name (one of ``TABLES``)."""
        if name not in TABLES:
            raise ValueError(f"unknown table '{name}'; known: {', '.join(TABLES)}")
        frame = getattr(self, name)
        if frame is None:
            raise ValueError("the moves table was not computed (with_moves=False)")
        return frame


def stats_tables(sources: Iterable[str], default: Variant | None = None,
                 override: Variant | None = None, *, jobs: int = 1, engine: str = "local",
                 scheduler: str | None = None, opening_plies: int = 6,
                 with_moves: bool = True, encoding: str | None = None,
                 rules: Rules | None = None,
                 progress: Callable[[int], None] | None = None) -> Tables:
    """Read, replay and tabulate every game of ``sources`` (paths, or ``-`` for stdin), in
    memory (``write_table`` streams one table to a file instead).

    ``default`` is the variant of games without a GameType tag (None: told from each
    record, docs/inference.md); ``override`` replaces every game's; ``rules`` are rule
    options set on top of each game's variant. ``jobs`` worker processes (0: one per usable core);
    ``engine`` ``local`` or ``dask`` (``scheduler``: a Dask scheduler's address;
    ``replay.run.runner``); ``progress`` is told how much of the input each part covered. Raises
    ``OSError`` for an unreadable file and ``EngineUnavailableError`` without Dask.
    """
    sources = list(sources)
    options = TableOptions(RulesChoice(default, override, rules), opening_plies, with_moves)
    games, moves, names = [], [], []
    for part in iter_parts(sources, options, jobs=jobs, engine=engine, scheduler=scheduler,
                           encoding=encoding, progress=progress):
        games.append(part.games)
        if part.moves is not None:
            moves.append(part.moves)
        names.append(part.source)
    files = file_categories(sources)
    table = with_file(games, names, typed_games([]), files)
    tags = [c for c in table.columns[1:] if c not in REPLAY_COLUMNS]
    return Tables(finish_games(fold_tags(table, tags)),
                  finish_moves(with_file(moves, names, typed_moves(MoveColumns().columns),
                                         files)) if with_moves else None, opening_plies)


__all__ = ["TABLES", "EngineUnavailableError", "Tables", "openings_table",
           "players_table", "stats_tables", "summary_table", "write_table"]
