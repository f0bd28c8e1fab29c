"""Reading one source's games in worker processes, yielded in file order.

The parse of a big file spreads over processes: the client cuts the text into blocks of whole
games (``pdn.chunks.split_blocks``), workers parse them and send the games back packed as
nested tuples, which pickle at C speed (a tree of dataclass instances costs more to pickle
than to parse), a line whose plies were never made as its tokens; this process unpacks them
and numbers them as ``pdn.read_games`` does.

>>> games = list(read_games("1. cd4 fg5 *\\n\\n1. ab4 ba5 *", workers=1))
>>> [game.index for game in games]
[1, 2]
"""

from __future__ import annotations

from collections.abc import Iterator

from pdn.chunks import block_chunks, split_blocks, split_chunks
from pdn.game import Game
from pdn.model import Line, MoveRecord, Ply
from pdn.reader import Source, numbered_games, open_text, parse_chunks
from replay.run.partitions import Partition
from replay.run.runner import LocalRunner

READ_BLOCK = 1 << 14  # characters: a few dozen games; small pieces keep the workers' heap small


def read_games(source: Source, *, encoding: str | None = None, strict: bool = False,
               workers: int = 1) -> Iterator[Game]:
    """``pdn.read_games`` with the parse in ``workers`` processes (1: in this process);
    the games come in file order, numbered and checked alike."""
    with open_text(source, encoding) as (stream, name):
        if workers <= 1:
            games = parse_chunks(split_chunks(stream), name)
        else:
            games = _read_parallel(stream, workers, name)
        yield from numbered_games(games, strict)


def _read_parallel(stream, workers: int, source: str | None) -> Iterator[Game]:
    with LocalRunner(workers) as runner:
        blocks = (Partition(source or "", block.line, text=block.text)
                  for block in split_blocks(stream, READ_BLOCK))
        for packed in runner.map(read_partition, blocks):
            for item in packed:
                game = unpack_game(item)
                game.source = source
                yield game


def read_partition(partition: Partition) -> list[tuple]:
    """Worker-process entry: cut a partition into chunks and parse them, packed for the trip
    back (``unpack_game`` rebuilds each game)."""
    return [pack_game(game) for game in parse_chunks(block_chunks(partition.chunk()))]


def pack_game(game: Game) -> tuple:
    """A game as nested tuples of its tags, moves, result, diagnostics, line and preamble."""
    return (tuple(game.tags.items()), _pack_line(game.moves), game.result,
            tuple(game.diagnostics), game.line, tuple(game.preamble))


def unpack_game(packed: tuple) -> Game:
    """The game ``pack_game`` packed."""
    tags, moves, result, diagnostics, line, preamble = packed
    return Game(dict(tags), _unpack_line(moves), result, list(diagnostics), line=line,
                preamble=list(preamble))


def _pack_line(line: Line) -> tuple:
    """A line as its plies packed, or, where they were never made, as its text (``Line.lazy``:
    its tokens travel, and the plies are made in the process that asks for them)."""
    text = line._pending()
    if text is not None:
        return (text, line.comments, line.setup)
    return ([_pack_ply(ply) for ply in line.plies], line.comments, line.setup)


def _pack_ply(ply: Ply) -> tuple:
    """A ply as a tuple; most carry no annotation, and those travel as three fields."""
    if ply.nags or ply.comments or ply.variations or ply.setup is not None:
        return (tuple(ply.record), ply.number, ply.black_number, ply.nags, ply.comments,
                [_pack_line(v) for v in ply.variations], ply.setup)
    return tuple(ply.record), ply.number, ply.black_number


def _unpack_line(packed: tuple) -> Line:
    plies, comments, setup = packed
    if not isinstance(plies, list):  # the line's text, its plies not made yet
        return Line.lazy(plies, comments, setup)
    return Line([_unpack_ply(*ply) for ply in plies], comments, setup)


def _unpack_ply(fields: tuple, number: int | None, black: bool, nags: list[int] | None = None,
                notes: list[str] | None = None, variations: list | None = None,
                setup: str | None = None) -> Ply:
    record = tuple.__new__(MoveRecord, fields)  # MoveRecord's own __new__ is Python code
    if nags is None:
        return Ply(record, number, black, [])
    return Ply(record, number, black, nags, notes, [_unpack_line(v) for v in variations],
               setup)
