"""Scoresheet slips made on purpose: one typical copying mistake in a game's main line.

Used by ``tests/tools/validate/test_repair.py`` and ``bench/repair.py``. Each kind makes the
mistake an arbiter meets on hand-copied sheets (``exchange``: two moves of one side written in
each other's place; ``forced``: where the mover had one legal move, the mover's move before
it written again); ``make_slip`` returns the slipped copy of a game (the original is left
alone) or None when the kind does not fit there (no capture to misland, a full record where
a short one's file is asked for, no ply with one legal move, a change that writes the same
text).
"""

from __future__ import annotations

import random
from pathlib import Path

from pdn.game import Game
from pdn.model import Line, MoveRecord, Ply
from pdn.reader import read_games
from replay.record.board import Board
from replay.record.replayer import VALID, ReplayedGame, replay_game
from replay.rules.move import Move
from replay.rules.variants import Variant, get_variant

KINDS = ("missing", "extra", "swap", "exchange", "typo", "wrong-file", "forced", "column",
         "landing")
# Two slips at once: a ply written before the one it follows, the ply between them lost
# (1. A B 2. C written 1. C A). Not among KINDS: the search looks for one slip, or two
# within a budget, and this one is there to show what a repair must not do.
SWAP_LOST = "swap-lost"

# archive (under ../shared/data), variant of its games, notation it is written in
ARCHIVES = (
    ("games-checkers/russian/World_Championship_1998.pdn", "russian", "short Russian"),
    ("games-checkers/russian/abatsiev.pdn", "russian", "full Russian"),
    ("english/tinsley.pdn", "english", "numeric English"),
    ("international/fmjd_wk2007_all_games.pdn", "international", "International"),
)


def clean_games(path: Path, variant: Variant, minimum: int = 12, first: int | None = None
                ) -> list[tuple[Game, ReplayedGame]]:
    """The games of an archive that replay to their end, with at least ``minimum`` plies
    and no variations or lost moves (so that a slip is the game's only fault); only the
    ``first`` of them when given."""
    kept: list[tuple[Game, ReplayedGame]] = []
    for game in read_games(path):
        if first is not None and len(kept) == first:
            break
        plies = game.moves.plies
        if len(plies) < minimum or any(p.variations or p.record.placeholder for p in plies):
            continue
        replayed = replay_game(game, variant)
        if replayed.status == VALID:
            kept.append((game, replayed))
    return kept


def make_slip(game: Game, replayed: ReplayedGame, kind: str, rng: random.Random,
              tries: int = 8, at_end: bool = False) -> Game | None:
    """A copy of the game with one slip of this kind at a random ply (not the first two or
    the last two, so that the rest of the record can show it; ``at_end``: at one of the last
    two plies it can be made at, where nothing after it shows it); a few plies are tried
    where the kind does not fit the first one chosen."""
    room = {"column": 4, "swap-lost": 3, "exchange": 3, "swap": 2}.get(kind, 1)  # plies spanned
    count = len(game.moves.plies)
    forced = _forced_plies(replayed) if kind == "forced" else []
    for _ in range(tries):
        index = (rng.randrange(count - room - 1, count - room + 1) if at_end
                 else rng.randrange(2, count - max(room, 2)))
        if kind == "forced":  # only a ply where one move was legal
            near = [i for i in forced if (i >= count - room - 1 if at_end
                                          else 2 <= i < count - max(room, 2))]
            if not near:
                return None
            index = rng.choice(near)
        slipped = _slipped(game, replayed, kind, index, rng)
        if slipped is not None:
            return slipped
    return None


def _slipped(game: Game, replayed: ReplayedGame, kind: str, index: int, rng: random.Random
             ) -> Game | None:
    plies = game.moves.plies
    records: list[MoveRecord | None] = [ply.record for ply in plies]
    if kind == "missing":
        records = records[:index] + records[index + 1:]
    elif kind == "extra":  # a move written twice
        records = records[:index + 1] + records[index:]
    elif kind == "swap":
        records[index], records[index + 1] = records[index + 1], records[index]
    elif kind == "exchange":  # two moves of one side, the other side's move between
        records[index], records[index + 2] = records[index + 2], records[index]
    elif kind == "forced":  # the only legal move written as the mover's move before it
        records[index] = records[index - 2]
    elif kind == SWAP_LOST:
        records = [*records[:index], records[index + 2], records[index], *records[index + 3:]]
    elif kind == "column":  # written three plies late: the other colour's column, next row
        moved = records.pop(index)
        records.insert(index + 3, moved)
    elif kind == "typo":
        records[index] = _typo(records[index], replayed.variant, rng)
    elif kind == "wrong-file":
        records[index] = _wrong_file(records[index], rng)
    elif kind == "landing":
        records[index] = _misland(replayed, index, rng)
    if any(record is None for record in records) or records == [p.record for p in plies]:
        return None
    return Game(dict(game.tags), Line([Ply(record) for record in records]), game.result,
                [], game.index, game.line, game.source)


def _forced_plies(replayed: ReplayedGame) -> list[int]:
    """The plies of the main line where the mover had one legal move only."""
    return [index for index, position in enumerate(replayed.positions)
            if len(Board(replayed.variant, position).legal_moves()) == 1]


def _typo(record: MoveRecord, variant: Variant, rng: random.Random) -> MoveRecord | None:
    """One square's file letter or one digit off by one."""
    squares = list(record.squares)
    which = rng.randrange(len(squares))
    name = squares[which]
    spots = [i for i, char in enumerate(name) if char.isalnum()]
    spot = rng.choice(spots)
    char = name[spot]
    step = rng.choice((-1, 1))
    if char.isdigit():
        changed = str(int(char) + step) if 0 <= int(char) + step <= 9 else None
    else:
        changed = chr(ord(char) + step) if "a" <= chr(ord(char) + step) <= "z" else None
    if changed is None:
        return None
    squares[which] = name[:spot] + changed + name[spot + 1:]
    known = variant.gametype.notation.known_squares
    if squares[which].startswith("0") or squares[which] not in known:
        return None
    return _rebuilt(record, tuple(squares), record.origin_file)


def _wrong_file(record: MoveRecord, rng: random.Random) -> MoveRecord | None:
    """A short move with the origin file of its neighbour."""
    if not record.is_short:
        return None
    file = chr(ord(record.origin_file) + rng.choice((-1, 1)))
    return _rebuilt(record, record.squares, file) if "a" <= file <= "h" else None


def _misland(replayed: ReplayedGame, index: int, rng: random.Random) -> MoveRecord | None:
    """A capture written with a landing square the rules do not allow: an intermediate
    landing of the route, or the square before or after the destination on its line."""
    board = Board(replayed.variant, replayed.positions[index])
    move: Move = replayed.moves[index]
    record = replayed.game.moves.plies[index].record
    if not move.captures:
        return None
    geo = board.variant.geometry
    wrong = set(move.path[:-1])
    (r0, c0), (r1, c1) = geo.row_col(move.path[-2] if len(move.path) > 1 else move.origin), \
        geo.row_col(move.destination)
    dr, dc = (r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)
    for step in (-1, 1):
        row, col = r1 + dr * step, c1 + dc * step
        on_board = 0 <= row < geo.height and 0 <= col < geo.width
        if on_board and geo.is_playable(row * geo.width + col):
            wrong.add(row * geo.width + col)
    wrong.discard(move.destination)
    wrong -= {route.destination for route in board.legal_moves() if route.origin == move.origin}
    if not wrong:
        return None
    notation = board.variant.gametype.notation
    names = notation.numbers if notation.numeric else geo.names
    landing = names[rng.choice(sorted(wrong))]
    if record.is_short:
        return _rebuilt(record, (landing,), record.origin_file)
    return _rebuilt(record, (record.squares[0], landing), None)


def _rebuilt(record: MoveRecord, squares: tuple[str, ...], origin_file: str | None
             ) -> MoveRecord:
    separator = record.separator or ("-" if origin_file is None else "")
    if origin_file is not None:
        text = origin_file + separator + squares[0]
    else:
        text = separator.join(squares)
    return MoveRecord(text, squares, record.separator, origin_file)


def archive_games(data: Path, count: int, rng: random.Random, first: int | None = None
                  ) -> list[tuple[str, Variant, Game, ReplayedGame]]:
    """Up to ``count`` clean games from each archive (from its ``first`` clean games when
    given), chosen at random."""
    chosen = []
    for relative, variant_name, label in ARCHIVES:
        variant = get_variant(variant_name)
        games = clean_games(data / relative, variant, first=first)
        for game, replayed in rng.sample(games, min(count, len(games))):
            chosen.append((label, variant, game, replayed))
    return chosen
