"""One game for the viewer, stored compactly: per ply only the move and what it changes.

A game becomes a JSON array (see ``GAME_FIELDS``); its moves are one string of tokens
separated by spaces, read by the page's script, which draws the board and applies and undoes
the moves itself. Squares are single characters of ``ALPHABET`` (the square's rank in FEN
order, see ``replay.viewer.board``). Free text (comments, messages, moves written otherwise
than the default form) sits in a list beside the string, taken in order by the tokens that
call for it.

Tokens:

- a move: its origin and destination (two squares) when quiet; its origin then, for each
  jump, the landing square and the square of the piece taken (1 + 2n squares) when it
  captures. Flags may follow: ``+`` the piece is crowned; ``'`` the move was written
  otherwise than the label's form (text: as written); ``!`` strength marks and NAGs (text);
  ``?`` a warning (text); ``%`` the mover's clock after the move (text: ``9:57``); ``=`` an
  evaluation (text: ``+0.35``, ``#-3``); ``{`` a comment after the move (text, one per
  ``{``). Comments are shown without their embedded commands (``pdn.commands``), and a
  comment that holds nothing else is not shown.
- ``#`` a move that does not replay, ``~`` lost moves (texts: as written, then the message),
  with the same ``!`` and ``{`` flags; the node keeps the position before it.
- ``{`` alone: a comment before the first move of a line (text).
- ``(`` and ``)``: a variation, an alternative to the move before it.
- ``^``: the moves written after a failed one, not replayed (text).

>>> from pdn.reader import read_games
>>> from replay.record.replayer import replay_game
>>> from replay.rules.variants import RUSSIAN
>>> view = game_view(replay_game(next(read_games("1. c3-d4 f6-g5 (1... b6-a5) *")), RUSSIAN))
>>> view.moves, view.texts
('9D MJ ( KG )', [])
>>> [node.label for node in view.nodes]
['start', '1. c3-d4', '1... f6-g5', '1... b6-a5']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pdn.commands import clock_text, eval_text, without_commands
from pdn.model import Line, Ply
from replay.record.board import Board
from replay.record.notation import full_text
from replay.record.plies import move_label
from replay.record.replayer import Problem, ReplayedGame
from replay.rules.move import Move
from replay.rules.movegen import WHITE
from replay.viewer.board import ALPHABET, fen_order

NAG_SYMBOLS = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 7: "□", 10: "=",
               14: "⩲", 15: "⩱", 16: "±", 17: "∓", 18: "+−", 19: "−+"}
LOST_MOVES = "the record has lost moves from here"


@dataclass
class ViewNode:
    """A position of the game tree as the page shows it: reached by ``move`` from ``parent``
    (None for the start, and for a move that does not replay: it keeps the position before)."""

    parent: int | None
    ply: int
    label: str
    move: Move | None = None
    comments: list[str] = field(default_factory=list)
    error: str | None = None
    warning: str | None = None
    children: list[int] = field(default_factory=list)
    clock: str | None = None  # the mover's clock after the move, as a clock shows it
    evaluation: str | None = None  # as the move list shows it: +0.35, #-3


@dataclass
class GameView:
    """One game's tree (``nodes``) and its compact form for the page (``moves``, ``texts``)."""

    moves: str
    texts: list[str]
    nodes: list[ViewNode]


def game_view(replayed: ReplayedGame) -> GameView:
    """The compact moves of a replayed game, main line and variations, and its tree of nodes.

    Node 0 is the start; each node lists its ``children``, the move that continues its line
    first and the variations after it.
    """
    walk = _GameWalk(replayed)
    start = Board(replayed.variant, replayed.start)
    walk.nodes.append(ViewNode(None, 0, "start", comments=_remarks(replayed.game.moves.comments)))
    walk.line(replayed.game.moves, start, 0, 0, main=True)
    return GameView(" ".join(walk.tokens), walk.texts, walk.nodes)


class _GameWalk:
    """Walks a game's lines, adding a node and a token per move."""

    def __init__(self, replayed: ReplayedGame) -> None:
        self.replayed = replayed
        self.warnings = {(p.line, p.column): p for p in replayed.warnings}
        self.order = fen_order(replayed.variant)
        self.tokens: list[str] = []
        self.texts: list[str] = []
        self.nodes: list[ViewNode] = []

    def _unplayed(self, plies: list[Ply], first_index: int) -> str:
        """The records after a move that does not replay, numbered as a scoresheet numbers
        them (``24. 37-32 18-23``; ``24...`` where the second player's move comes first),
        each number joined to its move by a no-break space: the page breaks lines between
        moves only."""
        numbering, words = self.replayed.numbering, []
        for offset, ply in enumerate(plies):
            label = numbering.label(first_index + offset)
            if offset == 0 or not label.endswith("..."):
                words.append(f"{label}\u00a0{ply.record.text}")
            else:
                words.append(ply.record.text)
        return " ".join(words)

    def line(self, line: Line, board: Board, parent: int, first_index: int, main: bool
             ) -> None:
        """Add the nodes of a line played from ``board`` (the position of node ``parent``)."""
        for comment in _remarks(line.comments):
            self._text("{", comment)
        board = board.copy()
        for offset, ply in enumerate(line.plies):
            index = first_index + offset
            move, problem = self._move(line, ply, offset, main)
            if move is None:
                self._failed(ply, board, parent, index, problem)
                if line.plies[offset + 1:]:
                    self._text("^", self._unplayed(line.plies[offset + 1:], index + 1))
                break
            label = f"{move_label(self.replayed, index)} {full_text(board, move, 'turns')}"
            before = board.copy() if ply.variations else board
            white = board.position.turn == WHITE
            board.push(move)
            node = self._add(ViewNode(parent, len(board.move_stack), label, move, ply.remarks,
                                      warning=problem.message if problem else None,
                                      **_timing(ply, white)))
            self.tokens.append(self._move_token(move, ply, label, node))
            for variation in ply.variations:
                self.tokens.append("(")
                self.line(variation, before, parent, index, main=False)
                self.tokens.append(")")
            parent = node

    def _move_token(self, move: Move, ply: Ply, label: str, node: int) -> str:
        squares = [move.origin, move.destination] if not move.captures else [
            move.origin, *(s for pair in zip(move.path, move.captures, strict=True)
                           for s in pair)]
        token = "".join(ALPHABET[self.order[square]] for square in squares)
        if move.promotes:
            token += "+"
        if ply.record.text != label.split(" ", 1)[1]:
            token += self._flag("'", ply.record.text)
        return token + self._annotations(ply, self.nodes[node])

    def _annotations(self, ply: Ply, node: ViewNode) -> str:
        flags = ""
        marks = _marks(ply)
        if marks:
            flags += self._flag("!", marks)
        if node.warning and node.move is not None:
            flags += self._flag("?", node.warning)
        if node.clock:
            flags += self._flag("%", node.clock)
        if node.evaluation:
            flags += self._flag("=", node.evaluation)
        for comment in node.comments:
            flags += self._flag("{", comment)
        return flags

    def _flag(self, flag: str, text: str) -> str:
        self.texts.append(text)
        return flag

    def _text(self, token: str, text: str) -> None:
        self.tokens.append(token)
        self.texts.append(text)

    def _move(self, line: Line, ply: Ply, offset: int, main: bool
              ) -> tuple[Move | None, Problem | None]:
        """The move the replayer found for a ply and its warning; None and the reason where
        the line stops (variations as ``ReplayedGame.lines`` holds them: nothing is resolved
        again)."""
        if main:
            moves, problem = self.replayed.moves, self._problem_at(ply)
            if offset < len(moves):
                return moves[offset], problem
            errors = self.replayed.errors
            return None, problem or (errors[0] if errors else None)
        found = self.replayed.lines[id(line)]
        if offset < len(found.moves):
            return found.moves[offset], found.notes[offset]
        if ply.record.placeholder:
            return None, Problem("lost-moves", LOST_MOVES)
        return None, found.stop

    def _problem_at(self, ply: Ply) -> Problem | None:
        where = (ply.record.line or None, ply.record.column or None)
        for problem in self.replayed.errors:
            if (problem.line, problem.column) == where:
                return problem
        return self.warnings.get(where)

    def _failed(self, ply: Ply, board: Board, parent: int, index: int,
                problem: Problem | None) -> None:
        """A move that does not replay: a node on the position before it, with the message."""
        lost = ply.record.placeholder
        message = (problem.message if problem else "") or (
            LOST_MOVES if lost else "this move does not replay")
        label = f"{move_label(self.replayed, index)} {ply.record.text}"
        node = ViewNode(parent, len(board.move_stack), label, None, ply.remarks,
                        error=None if lost else message, warning=message if lost else None,
                        **_timing(ply, board.position.turn == WHITE))
        self._add(node)
        self.texts += [ply.record.text, message]
        self.tokens.append(("~" if lost else "#") + self._annotations(ply, node))

    def _add(self, node: ViewNode) -> int:
        self.nodes.append(node)
        number = len(self.nodes) - 1
        if node.parent is not None:
            self.nodes[node.parent].children.append(number)
        return number


def _remarks(comments: list[str]) -> list[str]:
    """Comments as shown: embedded commands left out, comments left empty dropped."""
    return [text for text in map(without_commands, comments) if text]


def _timing(ply: Ply, white: bool) -> dict[str, str | None]:
    """A ply's clock (the mover's: ``white`` says who moved) and evaluation as shown."""
    if not ply.comments:
        return {}
    clock, evaluation = ply.clock, ply.eval
    left = clock.mover(white) if clock is not None else None
    return {"clock": clock_text(left) if left is not None else None,
            "evaluation": eval_text(evaluation) if evaluation is not None else None}


def _marks(ply: Ply) -> str:
    """Strength marks and NAGs as the move list shows them after the move."""
    return (ply.record.strength or "") + "".join(NAG_SYMBOLS.get(nag, f" ${nag}")
                                                 for nag in ply.nags)
