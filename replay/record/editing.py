"""Games built and edited from Python, as python-chess's ``chess.pgn`` builds them.

An ``EditableGame`` is the root of a tree of ``MoveNode``: each node's ``variations`` are the
moves played from its position, the first the main line. Every move is checked on the
variant's rules as it is added (a move of ``legal_moves()``, or a text in any notation, read
as ``Board.parse`` reads it); comments, NAGs and tags are set on the nodes and the game, and
``str(game)`` writes it as PDN 3.0 that reads back to the same tree (``EditableGame.from_game``);
a comment is written as PDN reads it back, its runs of blank space as one space (``written``).

>>> game = EditableGame(variant="russian")
>>> node = game.add_variation("cd4")
>>> reply = node.add_variation("fg5", comments=["the usual reply"])
>>> node.add_variation("ba5", nags=[6]).text()
'b6-a5'
>>> print(game.movetext())
1. c3-d4 f6-g5 {the usual reply} (1... b6-a5 $6) *
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from pdn.commands import CommandsOfComments
from pdn.game import Game
from pdn.model import Line, Ply
from pdn.writer import SEVEN_TAGS
from replay.record.board import Board
from replay.rules.move import IllegalMoveError, Move
from replay.rules.movegen import WHITE
from replay.rules.variants import Variant, get_variant

if TYPE_CHECKING:
    from replay.record.tree import Variation
    from replay.record.variation import Problem

class EditNode(ABC):
    """What the game and every move share: a position, the moves played from it
    (``variations``, the first the main line), and the comments written after it."""

    def __init__(self) -> None:
        self.variations: list[MoveNode] = []
        self.comments: list[str] = []

    # -- the tree -------------------------------------------------------------------------

    @abstractmethod
    def board(self) -> Board:
        """A new board in the position at this node (after its move)."""

    def game(self) -> EditableGame:
        """The root of the tree."""
        node: EditNode = self
        while isinstance(node, MoveNode):
            node = node.parent
        return node  # type: ignore[return-value]  # the root is the only node without parent

    def next(self) -> MoveNode | None:
        """The main line's next move, or None at the end of the line."""
        return self.variations[0] if self.variations else None

    def mainline(self) -> Iterator[MoveNode]:
        """The main line's moves from here on."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def mainline_moves(self) -> list[Move]:
        """The moves of the main line from here on."""
        return [node.move for node in self.mainline()]

    def end(self) -> EditNode:
        """The last node of the main line from here on (this node when it has no move)."""
        node: EditNode = self
        while node.variations:
            node = node.variations[0]
        return node

    def variation(self, child: MoveNode | Move | int | str) -> MoveNode:
        """The child named by its index, its node, its move or its move as text; raises
        ``KeyError`` when no child is that move."""
        if isinstance(child, int):
            return self.variations[child]
        if isinstance(child, MoveNode):
            if child in self.variations:
                return child
            raise KeyError(f"{child!r} is not a variation of this node")
        move = self._checked(child, board=self.board())
        for node in self.variations:
            if node.move == move:
                return node
        raise KeyError(f"no variation plays {move} here")

    def has_variation(self, child: MoveNode | Move | str) -> bool:
        """Whether a child plays this move (or is this node)."""
        try:
            self.variation(child)
        except (KeyError, ValueError):
            return False
        return True

    # -- editing ------------------------------------------------------------------------------

    def add_variation(self, move: Move | str, *, comments: Iterable[str] = (),
                      nags: Iterable[int] = (), starting_comments: Iterable[str] = ()
                      ) -> MoveNode:
        """Add a move played from this position as the last variation and return its node.
        The move must be legal here: a ``Move`` of ``board().legal_moves()`` or a text in any
        notation (``c3-d4``, ``cd4``, ``22-18``, a capture path); raises
        ``replay.IllegalMoveError``, ``AmbiguousMoveError`` or ``InvalidMoveError``."""
        board = self.board()
        node = MoveNode(self, self._checked(move, board), board)
        node.comments, node.nags = list(comments), _nags(nags)
        node.starting_comments = list(starting_comments)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: Move | str, *, comments: Iterable[str] = (),
                           nags: Iterable[int] = ()) -> MoveNode:
        """Add a move as the new main line from here (the old main line becomes its first
        alternative) and return its node; checked as ``add_variation`` checks it."""
        node = self.add_variation(move, comments=comments, nags=nags)
        self.variations.insert(0, self.variations.pop())
        return node

    def add_line(self, moves: Iterable[Move | str]) -> EditNode:
        """Add moves one after the other from here (each a variation of the one before) and
        return the last node."""
        node: EditNode = self
        for move in moves:
            node = node.add_variation(move)
        return node

    def promote_to_main(self, child: MoveNode | Move | int | str) -> None:
        """Make a child the main line from this node."""
        node = self.variation(child)
        self.variations.remove(node)
        self.variations.insert(0, node)

    def promote(self, child: MoveNode | Move | int | str) -> None:
        """Move a child one place up among the variations."""
        node = self.variation(child)
        index = self.variations.index(node)
        if index > 0:
            self.variations[index - 1], self.variations[index] = node, self.variations[index - 1]

    def demote(self, child: MoveNode | Move | int | str) -> None:
        """Move a child one place down among the variations."""
        node = self.variation(child)
        index = self.variations.index(node)
        if index < len(self.variations) - 1:
            self.variations[index + 1], self.variations[index] = node, self.variations[index + 1]

    def remove_variation(self, child: MoveNode | Move | int | str) -> None:
        """Remove a child and everything after it."""
        self.variations.remove(self.variation(child))

    @staticmethod
    def _checked(move: Move | str, board: Board) -> Move:
        """The legal move ``move`` is here, with the variant's notation; raises if none."""
        if isinstance(move, str):
            return board.parse(move)
        legal = board.legal_moves()
        for candidate in legal:
            if candidate == move and candidate.path == move.path:
                return candidate
        for candidate in legal:  # the same move by another route of the same captures
            if candidate == move:
                return candidate
        from replay.record.resolve import legal_listing  # resolve imports the board's modules

        raise IllegalMoveError(f"{move!r} is not a legal move in {board.fen()}; "
                               f"{legal_listing(board, legal)}")


class MoveNode(EditNode, CommandsOfComments):
    """A move in the tree: ``move`` played from ``parent``'s position, its ``comments`` and
    ``nags`` (written after it), ``starting_comments`` (written before it where it starts a
    variation), and ``variations``, the moves played after it."""

    def __init__(self, parent: EditNode, move: Move, before: Board) -> None:
        super().__init__()
        self.parent, self.move = parent, move
        self.nags: list[int] = []
        self.starting_comments: list[str] = []
        self._before = before.copy()
        self._after = before.copy()
        self._after.push(move)

    def board(self) -> Board:
        return self._after.copy()

    def board_before(self) -> Board:
        """A new board in the position before the move."""
        return self._before.copy()

    def mover_is_white(self) -> bool:
        """Whether White played the move."""
        return self._before.turn == WHITE

    def text(self, style: str = "full") -> str:
        """The move as text: ``full``, ``short``, ``numeric`` or ``pdn`` (``Board.text``)."""
        return self._before.text(self.move, style)

    def ply(self) -> int:
        """The count of plies from the game's start to this move (1 for the first)."""
        count, node = 0, self
        while isinstance(node, MoveNode):
            count, node = count + 1, node.parent
        return count

    def is_main_variation(self) -> bool:
        """Whether this move is its parent's main line."""
        return self.parent.variations[0] is self

    def is_mainline(self) -> bool:
        """Whether this move is on the game's main line."""
        node: EditNode = self
        while isinstance(node, MoveNode):
            if not node.is_main_variation():
                return False
            node = node.parent
        return True

    def __repr__(self) -> str:
        return f"<MoveNode {self.ply()}: {self.text('pdn')}>"


class EditableGame(EditNode):
    """A game to build: its ``headers`` (the seven tags, ``GameType``, ``FEN`` where it starts
    from a set-up), the comments before its first move (``comments``) and its tree of moves.

    ``EditableGame(variant="russian")`` starts from the initial position,
    ``EditableGame("W:Wa1:Bc3,f4", variant="russian")`` from a FEN in the variant's notation,
    ``EditableGame.from_board(board)`` from a board and its moves, ``from_game`` from a game
    read from PDN.
    """

    def __init__(self, fen: str | None = None, *, variant: Variant | str = "russian",
                 headers: dict[str, str] | None = None) -> None:
        super().__init__()
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        self._start = Board(fen, variant=self.variant)
        self.headers: dict[str, str] = {name: "?" for name in SEVEN_TAGS}
        self.headers.update({"Date": "????.??.??", "Result": "*",
                             "GameType": self.variant.gametype.tag()})
        if self._start.fen() != Board(variant=self.variant).fen():
            self.headers["FEN"] = self._start.fen()
        self.headers.update(headers or {})
        self.errors: list[Problem] = []  # why a game read from PDN stops early (from_game)

    @classmethod
    def from_board(cls, board: Board, headers: dict[str, str] | None = None) -> EditableGame:
        """A game from the position a board started from, its moves as the main line."""
        start = board.copy()
        moves: list[Move] = []
        while start.move_stack:
            moves.append(start.pop())
        game = cls(start.fen(), variant=board.variant, headers=headers)
        game.add_line(reversed(moves))
        return game

    @classmethod
    def from_game(cls, record: Game, default: Variant | str | None = None) -> EditableGame:
        """A game read from PDN (``pdn.read_game``), replayed on its variant's rules (its
        GameType tag, else ``default``, else told from the record). Lines keep the moves that
        replay; why one stops early is in ``errors``."""
        from replay.record.replayer import replay_game  # the replayer builds on the whole core

        tree = replay_game(record, default)
        game = cls(record.start_fen, variant=tree.variant,
                   headers={name: value for name, value in record.tags.items()})
        game.headers.setdefault("Result", record.headers_result or "*")
        game.comments = list(tree.comments)
        game.errors = list(tree.errors)
        _graft(game, tree.mainline(), [])
        return game

    def board(self) -> Board:
        return self._start.copy()

    def ply(self) -> int:
        return 0

    # -- writing ------------------------------------------------------------------------------

    def to_game(self) -> Game:
        """The game as ``pdn.Game``: its tags, and its moves in the notation its GameType
        prescribes (a capture path written where another route takes other pieces)."""
        moves = (_line(self.variations[0], self.variations[1:], self.comments)
                 if self.variations else Line(comments=written(self.comments)))
        return Game(dict(self.headers), moves, self.headers.get("Result") or "*")

    def movetext(self) -> str:
        """The moves as PDN, without the tags."""
        return str(self).split("\n\n", 1)[1]

    def __str__(self) -> str:
        """The game as PDN 3.0 text (seven tags first, lines of at most 80 characters)."""
        from pdn.writer import write_game

        return write_game(self.to_game())

    def __repr__(self) -> str:
        return (f"<EditableGame {self.headers.get('White', '?')!r} vs. "
                f"{self.headers.get('Black', '?')!r} ({self.variant.name}, "
                f"{len(self.mainline_moves())} plies)>")


def written(comments: Iterable[str]) -> list[str]:
    """Comments as PDN writes and reads them: each run of spaces and line breaks one space,
    none at the ends (``{a  b}`` reads back as ``a b``).

    >>> written(["  a\\n  b ", "c"])
    ['a b', 'c']
    """
    return [" ".join(comment.split()) for comment in comments]


def _nags(nags: Iterable[int]) -> list[int]:
    """NAGs checked: PDN writes ``$0`` to ``$255``."""
    checked = [int(nag) for nag in nags]
    if any(not 0 <= nag <= 255 for nag in checked):
        raise ValueError(f"a NAG is a number from 0 to 255: {checked}")
    return checked


def _line(first: MoveNode, alternatives: list[MoveNode], comments: list[str]) -> Line:
    """The PDN line that starts with ``first`` (its ``alternatives`` written after it), and
    goes on down the main line; each move's alternatives are the variations written after
    the main move they replace."""
    from replay.record.resolve import record_of_text  # resolve imports the board's modules

    plies: list[Ply] = []
    node = first
    while True:
        plies.append(Ply(record_of_text(node.text("pdn")), nags=list(node.nags),
                         comments=written(node.comments),
                         variations=[_line(other, [], other.starting_comments)
                                     for other in alternatives]))
        if not node.variations:
            return Line(plies, written(comments))
        node, *alternatives = node.variations


def _graft(parent: EditNode, line: Variation, starting: list[str]) -> None:
    """Add a replayed line (``replay.record.tree``) under ``parent``: each move with its comments
    and NAGs, and the alternatives written after a move as more variations of its parent."""
    for index, replayed in enumerate(line):
        node = parent.add_variation(replayed.move, comments=replayed.comments,
                                    nags=replayed.nags,
                                    starting_comments=starting if index == 0 else ())
        for alternative in replayed.variations:
            if alternative:
                _graft(parent, alternative, alternative.line.comments)
        parent = node


__all__ = ["EditNode", "EditableGame", "MoveNode", "written"]
