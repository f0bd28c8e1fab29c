"""The replayed game as a tree: a ``GameNode`` per move of the main line and of every variation.

The replayer resolves every move once (``replay.record.replayer``); the tree is built from what it
found, the first time someone asks (``ReplayedGame.mainline()``), so that validation, which
never asks, pays nothing for it. Conversion, the viewer and the public API read the tree;
none of them resolves a record again.

>>> from pdn.reader import read_games
>>> from replay.record.replayer import replay_game
>>> tree = replay_game(next(read_games('[GameType "25"]\\n1. cd4 fg5 (1... ba5 2. dc5) *')))
>>> [(node.move_number, node.side, str(node.move)) for node in tree.mainline()]
[(1, 'White', 'c3-d4'), (1, 'Black', 'f6-g5')]
>>> [[node.text("short") for node in line] for line in tree.mainline()[1].variations]
[['ba5', 'dc5']]
"""

from __future__ import annotations

from collections.abc import Iterator

from pdn.commands import CommandsOfComments
from pdn.model import Line, MoveRecord, Ply
from replay.record.board import Board
from replay.record.variation import Problem, VariationReplay, replay_line
from replay.rules.move import Move
from replay.rules.movegen import WHITE
from replay.rules.numbering import MoveNumbering
from replay.rules.position import Position
from replay.rules.variants import Variant


class Variation(list["GameNode"]):
    """A line of play as far as it replays: a list of ``GameNode`` that starts with the line's
    first move. ``line`` is the record it was read from; ``stop`` says why it ends before the
    record does (an illegal move, lost moves), None when it replays to its end;
    ``first_index`` is the count of its first ply from the game's start."""

    __slots__ = ("first_index", "line", "stop")

    def __init__(self, nodes: list[GameNode], line: Line, stop: Problem | None = None,
                 first_index: int = 0) -> None:
        super().__init__(nodes)
        self.line, self.stop, self.first_index = line, stop, first_index

    @property
    def unplayed(self) -> list[Ply]:
        """The records after the last move that replays (the failed one first)."""
        return self.line.plies[len(self):]


class GameNode(CommandsOfComments):
    """One move in the tree and the position after it.

    ``move`` is the legal move; ``before`` and ``position`` the positions around it; ``ply``
    the record as written (with its comments, NAGs and variations); ``index`` the ply's count
    from the game's start (0-based); ``problem`` a warning about the record (a notation slip,
    a draw the record plays past), None when there is nothing to say; ``variations`` the
    alternatives to this move, as PDN writes them after it. ``eval()``, ``clock()``,
    ``set_eval()`` and ``set_clock()`` read and write the commands of its comments
    (``pdn.commands``).
    """

    __slots__ = ("_variations", "before", "index", "move", "numbering", "parent", "ply",
                 "position", "problem", "variant")

    def __init__(self, variant: Variant, numbering: MoveNumbering, before: Position, move: Move,
                 ply: Ply, index: int, parent: GameNode | None,
                 problem: Problem | None = None) -> None:
        self.variant, self.numbering = variant, numbering
        self.before, self.move, self.ply, self.index = before, move, ply, index
        self.position = before.play(move)
        self.parent, self.problem = parent, problem
        self._variations: list[Variation] = []

    @property
    def variations(self) -> list[Variation]:
        """The alternatives to this move, each a line that starts with its first move."""
        return self._variations

    @property
    def record(self) -> MoveRecord:
        """The move as it was written."""
        return self.ply.record

    @property
    def move_number(self) -> int:
        """The scoresheet number of the move (both sides' moves share it)."""
        return self.numbering.number(self.index)

    @property
    def side(self) -> str:
        """``White`` or ``Black``: who made the move."""
        return self.numbering.side(self.index)

    @property
    def label(self) -> str:
        """``12.`` for the first player's move, ``12...`` for the second player's."""
        return self.numbering.label(self.index)

    @property
    def comments(self) -> list[str]:
        """The comments written after the move."""
        return self.ply.comments

    @property
    def nags(self) -> list[int]:
        """The NAGs written after the move (``$1`` is 1)."""
        return self.ply.nags

    @property
    def board(self) -> Board:
        """A new board in the position after the move."""
        return Board(self.variant, self.position)

    def board_before(self) -> Board:
        """A new board in the position before the move."""
        return Board(self.variant, self.before)

    def mover_is_white(self) -> bool:
        """Whether White played the move."""
        return self.before.turn == WHITE

    def text(self, style: str = "full") -> str:
        """The move as text: ``full`` (``c3-d4``), ``short`` (``cd4``), ``numeric``
        (``22-18``) or ``pdn`` (as the GameType prescribes); see ``Board.text``."""
        return self.board_before().text(self.move, style)

    def __repr__(self) -> str:
        return f"<GameNode {self.label} {self.move} ({self.board.fen()})>"


def main_variation(line: Line, variant: Variant, numbering: MoveNumbering, start: Position,
                   moves: list[Move], problems: dict[tuple[int, int], Problem],
                   stop: Problem | None, lines: dict[int, VariationReplay]) -> Variation:
    """The main line's nodes: ``moves`` are the replayer's, one per record of ``line``;
    ``problems`` its warnings by (line, column) of their records; ``lines`` the variations
    it replayed, by ``id`` of their ``Line``."""
    nodes: list[GameNode] = []
    before, parent = start, None
    for index, (ply, move) in enumerate(zip(line.plies, moves, strict=False)):
        where = (ply.record.line, ply.record.column)  # (0, 0): a record made, not read
        node = GameNode(variant, numbering, before, move, ply, index, parent,
                        problems.get(where) if ply.record.line else None)
        node._variations = [_variation(sub, variant, numbering, before, index, lines)
                            for sub in ply.variations]
        nodes.append(node)
        before, parent = node.position, node
    return Variation(nodes, line, stop)


def _variation(line: Line, variant: Variant, numbering: MoveNumbering, start: Position,
               first_index: int, lines: dict[int, VariationReplay]) -> Variation:
    """A variation's nodes from what the replayer found on it (``lines``)."""
    found = lines.get(id(line))
    if found is None:  # the replayer did not reach it (see ``replay_line``)
        found = replay_line(Board(variant, start), line, first_index, numbering)
    nodes: list[GameNode] = []
    before, parent = start, None
    for offset, (ply, move, note) in enumerate(zip(line.plies, found.moves, found.notes,
                                                   strict=False)):
        index = first_index + offset
        node = GameNode(variant, numbering, before, move, ply, index, parent, note)
        node._variations = [_variation(sub, variant, numbering, before, index, lines)
                            for sub in ply.variations]
        nodes.append(node)
        before, parent = node.position, node
    return Variation(nodes, line, found.stop, first_index)


def walk(variation: Variation) -> Iterator[GameNode]:
    """Every node of a line and of the variations inside it, in the order PDN writes them."""
    for node in variation:
        yield node
        for sub in node.variations:
            yield from walk(sub)

