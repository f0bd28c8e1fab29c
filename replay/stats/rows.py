"""One game → plain rows: a dict for the games table and columns for the moves table.

This runs in the worker processes: it replays the game and keeps only compact values
(numbers and short strings), so what travels back to the main process is small.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

from pdn.game import Game
from replay.record.board import Board
from replay.record.notation import full_text, short_text
from replay.record.replayer import ReplayedGame, main_line, replay_game
from replay.reference.ballots import BALLOT_PLIES, ballot_of
from replay.reference.openings import named_positions, opening_at, opening_of
from replay.rules import native
from replay.rules.draws import Material
from replay.rules.identity import ByIdentity
from replay.rules.move import Move
from replay.rules.movegen import WHITE, generator_for
from replay.rules.position import Position, start_position
from replay.rules.variants import Rules, Variant
from replay.stats.clocks import Timing, clock_columns, has_commands
from replay.stats.schema import STRING

MOVE_COLUMNS = (
    "game", "ply", "move_number", "side", "move", "short", "numeric", "piece", "captured",
    "promotes", "from_square", "to_square", "white_men", "white_kings", "black_men",
    "black_kings", "clock", "time_used", "eval", "eval_mate",
)
TIMING_COLUMNS = MOVE_COLUMNS[-4:]  # from the comments' commands (replay.stats.clocks)
# The games' columns a walk along the main line counts (``game_row``'s ``walked``).
WALK_COLUMNS = ("captures", "pieces_captured", "promotions", "first_king_white",
                "first_king_black", "opening", "ballot", "opening_name")
_NOT_WALKED = dict.fromkeys(WALK_COLUMNS[:5])


_KEY_COLUMNS = 4  # game, ply, move_number, side: counted from each game's numbering
# The columns of a ply's row (``_move_row``) in the native core's layout
# (``NativeRules.move_rows``): numbers as unsigned bytes, texts as UTF-8 with their lengths.
_COUNT_COLUMNS = ("piece", "captured", "promotes", "white_men", "white_kings", "black_men",
                  "black_kings")
_TEXT_COLUMNS = ("move", "short", "numeric", "from_square", "to_square")
_ROW_COUNTS = (3, 4, 5, 8, 9, 10, 11)  # where _move_row puts each count column
_ROW_TEXTS = (0, 1, 2, 6, 7)  # and each text column


@dataclass
class MoveColumns:
    """The moves of a batch: per game its numbering, ``(game, plies, first move number,
    offset, side to move first)``, and its plies' other ``MOVE_COLUMNS`` but the
    ``TIMING_COLUMNS`` in the native core's layout (``NativeRules.move_rows``: no Python
    object per ply; ``piece`` as the code of its category, 0 man / 1 king); the timing
    columns kept apart for the few plies whose comments give them (``timings``: row number
    → values), as float columns with NaN where unknown."""

    games: list[tuple[int, int, int, int, int]] = field(default_factory=list)
    parts: list[tuple[bytes, ...]] = field(default_factory=list)
    timings: dict[int, Timing] = field(default_factory=dict)
    plies: int = 0

    def add(self, numbering: tuple[int, int, int, int, int], part: tuple[bytes, ...]) -> None:
        """A game's numbering and the columns of its plies, in the native core's layout."""
        self.games.append(numbering)
        self.parts.append(part)
        self.plies += numbering[1]

    @property
    def columns(self) -> dict[str, np.ndarray | list | object]:
        """Each column of ``MOVE_COLUMNS``: numbers as arrays (``side`` and ``piece`` as the
        codes of their categories: 0 white / 1 black, 0 man / 1 king), texts as an Arrow
        string array where ``STRING`` keeps its texts in Arrow, else as a list of str."""
        ordinal, plies, first, offset, turn = np.array(self.games, dtype=np.int64
                                                       ).reshape(-1, 5).T
        index = np.arange(plies.sum()) - np.repeat(np.cumsum(plies) - plies, plies)  # in game
        # replay.rules.numbering.MoveNumbering's count, for every ply of the batch at once
        keys = {"game": np.repeat(ordinal, plies), "ply": index + 1,
                "move_number": np.repeat(first, plies) + (index + np.repeat(offset, plies)) // 2,
                "side": (np.repeat(turn, plies) + index) % 2}
        counts = np.frombuffer(b"".join(part[0] for part in self.parts), dtype=np.uint8
                               ).reshape(-1, len(_COUNT_COLUMNS))
        lengths = np.frombuffer(b"".join(part[1] for part in self.parts), dtype=np.uint16
                                ).reshape(-1, len(_TEXT_COLUMNS))
        numbers = {name: counts[:, column] for column, name in enumerate(_COUNT_COLUMNS)}
        numbers["promotes"] = numbers["promotes"].astype(bool)
        texts = {name: _texts(b"".join(part[2 + column] for part in self.parts),
                              lengths[:, column])
                 for column, name in enumerate(_TEXT_COLUMNS)}
        timing = np.full((len(counts), len(TIMING_COLUMNS)), np.nan)
        for row, values in self.timings.items():
            timing[row] = [np.nan if value is None else value for value in values]
        return keys | numbers | texts | {
            name: timing[:, column] for column, name in enumerate(TIMING_COLUMNS)}


def _texts(data: bytes, lengths: np.ndarray) -> object:
    """A text column from its texts' UTF-8 one after the other and their byte lengths: an
    Arrow ``large_string`` array on the same bytes where ``STRING`` keeps its texts in Arrow
    (no str per ply), else a list of str."""
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    if STRING.storage == "pyarrow":
        import pyarrow as pa

        return pa.LargeStringArray.from_buffers(len(lengths), pa.py_buffer(offsets),
                                                pa.py_buffer(data))
    bounds = offsets.tolist()
    return [data[start:end].decode() for start, end in pairwise(bounds)]


def _packed(rows: list[tuple]) -> tuple[bytes, ...]:
    """A game's ``_move_row`` rows in the native core's layout (``NativeRules.move_rows``)."""
    counts = np.array([[row[column] for column in _ROW_COUNTS] for row in rows],
                      dtype=np.uint8)
    texts = [[row[column].encode() for row in rows] for column in _ROW_TEXTS]
    lengths = np.array([[len(text) for text in column] for column in texts],
                       dtype=np.uint16).reshape(len(_ROW_TEXTS), -1)
    return (counts.tobytes(), np.ascontiguousarray(lengths.T).tobytes(),
            *(b"".join(column) for column in texts))


def game_row(game: Game, ordinal: int, default: Variant, override: Variant | None,
             opening_plies: int, moves: MoveColumns | None, rules: Rules | None = None,
             follow: Variant | None = None, shown: Variant | None = None,
             walked: bool = True) -> dict:
    """The games-table row of one game; its plies go to ``moves`` when given; ``rules``
    are rule options set on top of the game's variant; ``follow`` is the variant of a
    record that tells nothing (``replay_game``; the row's ``silent`` says it is one),
    ``shown`` the variant its file's games show (the row's ``open`` says several variants
    replay it). ``walked`` False leaves the ``WALK_COLUMNS`` missing, not counted (no
    second pass along the main line), for a table that reads none of them."""
    replayed = replay_game(game, default, override, rules=rules, follow=follow, shown=shown)
    walk: _Walk | None
    if not walked:
        if moves is not None and not _rows_added(replayed, ordinal, moves):
            _walk(replayed, ordinal, opening_plies, moves)
        walk, opening_name = None, None
    elif (counted := _counted(replayed, opening_plies)) is not None and (
            moves is None or _rows_added(replayed, ordinal, moves)):
        walk, opening_name = counted
    else:
        walk = _walk(replayed, ordinal, opening_plies, moves)
        opening_name = _opening_name(replayed)
    final = Material.of(replayed.final or replayed.start)
    errors = [d.code for d in game.diagnostics if d.severity == "error"]
    errors += [p.code for p in replayed.errors]
    warnings = sum(d.severity != "error" for d in game.diagnostics) + len(replayed.warnings)
    return {
        "game": ordinal, "line": game.line, "tags": game.tags,
        "variant": replayed.variant.name, "variant_source": replayed.variant_source,
        "result_reading": replayed.result_reading,
        "first_mover": "white" if replayed.variant.white_starts else "black",
        "result": replayed.result, "result_check": replayed.result_check,
        "plies": replayed.plies, **(walk.counts() if walk is not None else _NOT_WALKED),
        "white_men": final.white_men, "white_kings": final.white_kings,
        "black_men": final.black_men, "black_kings": final.black_kings,
        "ending": _ending(replayed.ending), "draw_rule": _draw_rule(replayed.ending),
        "status": replayed.status, "error": errors[0] if errors else None,
        "errors": len(errors), "warnings": warnings,
        "opening": walk.opening(opening_plies) if walk is not None else None,
        "ballot": walk.ballot(replayed) if walk is not None else None,
        "opening_name": opening_name,
        "silent": replayed.silent,
        "open": replayed.open_variant,
    }


def _opening_name(replayed: ReplayedGame) -> str | None:
    """The named opening the main line reaches (``replay.reference.openings``), if a source
    names it."""
    final = [replayed.final] if replayed.final is not None else []
    named = opening_of([*replayed.positions, *final], replayed.variant)
    return named.name if named is not None else None


def _counted(replayed: ReplayedGame, opening_plies: int) -> tuple[_Walk, str | None] | None:
    """``_walk`` and ``_opening_name`` of a main line that replays whole on the native core
    from its move texts, counted there (``NativeRules.count_line``): no move and no position
    per ply, but the first plies' texts and the positions the named openings may have
    (pieces never come back: a position with fewer pieces than all of theirs, and every one
    after it, is none of them). Where the replay itself ran on the native core, its counts
    are taken (``ReplayedGame.line_counts``) and only those first plies are replayed again.
    None: the game is walked with the replay's positions. The native replay's moves are the
    replayer's (tests/rules/test_native.py), so where it reaches the end of a line the
    replay found no error in, they are the same."""
    rules = native.rules_for(replayed.variant)
    if rules is None or not rules.replays or replayed.errors:
        return None
    tokens = main_line(replayed.game)
    if not tokens:
        return None
    variant, start = replayed.variant, replayed.start
    names, separator = _full_names(variant)
    floor = _opening_floor(variant)
    counts = replayed.line_counts
    line = rules.count_line(start, tokens, max(opening_plies, BALLOT_PLIES), names,
                            separator, floor, head=counts is not None)
    if line is None:
        return None
    if counts is None:
        if line.plies != replayed.plies:
            return None
        counts = native.LineCounts(line.captures, line.pieces_captured, line.promotions,
                                   line.first_kings)
    walk = _Walk(line.texts, counts.captures, counts.pieces_captured, counts.promotions)
    first = "white" if replayed.start.turn == WHITE else "black"
    second = "black" if first == "white" else "white"
    walk.first_king[first] = counts.first_kings[0] or None
    walk.first_king[second] = counts.first_kings[1] or None
    named = opening_at([(start.white, start.black, start.kings, start.turn), *line.keys],
                       variant) if floor is not None else None
    return walk, named.name if named is not None else None


def _names(variant: Variant) -> tuple[tuple[str | None, ...], str]:
    """Each internal square's name as ``full_text`` writes it (None: none, or not ASCII),
    and the capture mark."""
    notation = variant.gametype.notation
    every = notation.numbers if notation.numeric else variant.geometry.names
    size = generator_for(variant).size
    names = (every.get(square) if isinstance(every, dict)
             else every[square] if square < len(every) else None for square in range(size))
    return (tuple(name if name and name.isascii() else None for name in names),
            variant.gametype.capture_separator)


_full_names = ByIdentity(_names)


def _floor(variant: Variant) -> int | None:
    """The fewest pieces on the board of a named opening's position (None: none named)."""
    named = named_positions(variant.name)
    return min(((white | black).bit_count() for white, black, _, _ in named), default=None)


_opening_floor = ByIdentity(_floor)  # found by identity: a variant's hash is slow


def _ending(ending: str) -> str:
    """The replayer's ending in the table's words: no_pieces, no_moves, promotion, draw_rule,
    undecided."""
    if ending.startswith("draw-"):
        return "draw_rule"
    return ending.replace("-", "_")


def _draw_rule(ending: str) -> str | None:
    """The article of the draw rule met (``7.2.5``, ``repetition``, ``kings-25``), if any."""
    return ending.removeprefix("draw-") if ending.startswith("draw-") else None


@dataclass
class _Walk:
    """What a walk along the main line counts."""

    texts: list[str] = field(default_factory=list)  # the first plies in full notation
    captures: int = 0
    pieces_captured: int = 0
    promotions: int = 0
    first_king: dict[str, int | None] = field(
        default_factory=lambda: {"white": None, "black": None})

    def counts(self) -> dict:
        return {"captures": self.captures, "pieces_captured": self.pieces_captured,
                "promotions": self.promotions, "first_king_white": self.first_king["white"],
                "first_king_black": self.first_king["black"]}

    def opening(self, plies: int) -> str | None:
        return " ".join(self.texts[:plies]) if len(self.texts) >= plies else None

    def ballot(self, replayed: ReplayedGame) -> str | None:
        """The FMJD ballot of a Russian game played from the start position."""
        if replayed.variant.name != "russian" or replayed.start != start_position(
                replayed.variant):
            return None
        return ballot_of(self.texts)


def _walk(replayed: ReplayedGame, ordinal: int, opening_plies: int,
          moves: MoveColumns | None) -> _Walk:
    """Count along the main line with the positions the replay kept (no second replay)."""
    walk = _Walk()
    kept = max(opening_plies, BALLOT_PLIES)
    board = Board(replayed.variant, replayed.start)
    numbering = replayed.numbering
    positions = replayed.positions
    rows: list[tuple] = []
    if moves is not None and replayed.moves:
        plies = replayed.game.moves.plies[:len(replayed.moves)]
        if has_commands(plies):
            first = moves.plies
            moves.timings.update(
                (first + index, values) for index, values in enumerate(
                    clock_columns(plies, numbering.first_side, replayed.game.tags)))
    for index, move in enumerate(replayed.moves):
        before = positions[index]
        side = "white" if before.turn == WHITE else "black"
        if index < kept or moves is not None:
            board.position = before
            text = full_text(board, move)
            if index < kept:
                walk.texts.append(text)
            if moves is not None:
                after = positions[index + 1] if index + 1 < len(positions) else replayed.final
                rows.append(_move_row(board, move, after, text))
        if move.captures:
            walk.captures += 1
            walk.pieces_captured += len(move.captures)
        if move.promotes:
            walk.promotions += 1
            if walk.first_king[side] is None:
                walk.first_king[side] = index + 1
    if moves is not None and replayed.moves:
        moves.add((ordinal, len(replayed.moves), numbering.first, numbering.offset,
                   numbering.first_side), _packed(rows))
    return walk


def _rows_added(replayed: ReplayedGame, ordinal: int, moves: MoveColumns) -> bool:
    """Whether the ``_move_row`` of every ply were added to ``moves``, made by the native core
    in one call: a main line that is one run of moves (no comment, so no clock) and replays
    whole there. False, nothing added, otherwise."""
    rules = native.rules_for(replayed.variant)
    run = replayed.game.moves.move_run()
    if rules is None or not rules.replays or replayed.errors or not run:
        return False
    made = rules.move_rows(replayed.start, run, _row_tables(replayed.variant))
    if made is None or len(made[0]) != replayed.plies * len(_COUNT_COLUMNS):
        return False
    numbering = replayed.numbering
    moves.add((ordinal, replayed.plies, numbering.first, numbering.offset,
               numbering.first_side), made)
    return True


def _tables(variant: Variant) -> tuple:
    """What the native core names a move's squares with in the moves table (``_move_row``)."""
    notation = variant.gametype.notation
    generator = generator_for(variant)

    def ascii_names(every: tuple[str, ...] | dict[int, str]) -> tuple[str | None, ...]:
        names = (every.get(square) if isinstance(every, dict)
                 else every[square] if square < len(every) else None
                 for square in range(generator.size))
        return tuple(name if name and name.isascii() else None for name in names)

    numbers, letters = ascii_names(notation.numbers), ascii_names(variant.geometry.names)
    return (numbers if notation.numeric else letters, numbers, letters,
            ascii_names(notation.names), generator.column_masks,
            int(generator.men_share_files), variant.gametype.capture_separator)


_row_tables = ByIdentity(_tables)


def _move_row(board: Board, move: Move, after: Position, text: str) -> tuple:
    """A ply's row of the ``MOVE_COLUMNS`` after the keys; ``board`` stands before it."""
    kings = after.kings
    notation = board.variant.gametype.notation
    return (text, short_text(board, move),
            text if notation.numeric else full_text(board, move, numeric=True),
            (board.position.kings >> move.origin) & 1,
            len(move.captures), move.promotes, notation.names[move.origin],
            notation.names[move.destination], (after.white & ~kings).bit_count(),
            (after.white & kings).bit_count(), (after.black & ~kings).bit_count(),
            (after.black & kings).bit_count())
