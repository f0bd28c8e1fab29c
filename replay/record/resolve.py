"""From a written move record to the one legal move it means, or a reason why not.

The fast path checks only what the record names and whether a capture is available; the
full move list is built only to explain an error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pdn.i18n import N_
from pdn.model import MoveRecord
from pdn.squares import SquareError
from replay.record.notation import full_text, trajectory, turning_squares
from replay.rules.move import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, Move
from replay.rules.movegen import WHITE, generator_for, unique
from replay.rules.numbering import SIDE_NAMES
from replay.rules.position import BaseBoard

_SQUARE = r"(?:[a-l](?:1[0-2]|[1-9])|[0-9]{1,3})"
_SHORT_TEXT = re.compile(r"([a-l])([x:]?)([a-l](?:1[0-2]|[1-9]))")
_FULL_TEXT = re.compile(rf"{_SQUARE}(?:[-x:]?{_SQUARE})+")
_TEXT_SQUARES = re.compile(_SQUARE)
_TEXT_SEPARATOR = re.compile(r"[-x:]")


@dataclass
class Resolution:
    """What a record means here: ``move`` when exactly one legal move fits, else an error.

    ``candidates`` lists every legal move that fits (several: ambiguous); ``code`` and
    ``message`` explain a failure in a player's words.
    """

    move: Move | None
    code: str = ""
    message: str = ""
    candidates: list[Move] = field(default_factory=list)
    warning: str = ""


def resolve(board: BaseBoard, record: MoveRecord) -> Resolution:
    """The legal move a record denotes in this position."""
    variant = board.variant
    try:
        squares = variant.gametype.notation.squares(record.squares)
    except SquareError as error:
        return Resolution(None, "bad-square", f"{error}")
    if not squares:
        return Resolution(None, "bad-move", N_("'{written}' names no square").format(
            written=record.text))
    position = board.position
    sides = ((position.white, position.black, position.kings, WHITE) if position.turn == WHITE
             else (position.black, position.white, position.kings, position.turn))
    generator = board.generator
    forced = variant.forced_capture
    file = record.origin_file
    short = file is not None
    origins = generator.file_masks.get(file.lower(), 0) if file is not None else 1 << squares[0]
    # With free choice only the named pieces' captures matter; a capture elsewhere still
    # forbids a quiet move, which has_capture tells.
    any_capture = generator.has_capture(*sides)
    routes = generator.captures(*sides, origins) if any_capture else []
    if short:
        destination = squares[-1]
        candidates = [r for r in routes
                      if r.destination == destination and (origins >> r.origin) & 1]
    else:
        candidates = [r for r in routes if r.origin == squares[0]
                      and r.destination == squares[-1]
                      and (len(squares) == 2 or _follows(board, squares, r))]
    if not (any_capture and forced) and len(squares) <= 2:
        if variant.max_king_moves:
            # Frisian: a king that made its third quiet move in a row is held (docs/rules.md).
            origins &= ~board.frozen_kings()
        candidates += generator.quiet_moves_to(*sides, squares[-1], origins)
    distinct = unique(candidates)
    if not distinct and len(squares) > 2 and not short:
        return _loose_path(board, record, squares, routes)
    if len(distinct) == 1:
        return _resolved(record, distinct, board)
    if distinct:
        written = ", ".join(full_text(board, m, "canonical") for m in distinct)
        return Resolution(None, "ambiguous-move",
                          N_("ambiguous: '{written}' can be {moves}; write the full "
                             "path").format(written=record.text, moves=written),
                          distinct)
    return explain(board, record, squares)


def plain_mover(board: BaseBoard) -> Callable[[MoveRecord], Move | None]:
    """For the positions this board will be in: the move of a common record, or None to
    leave the record to ``resolve`` (the replayer's per-ply path; what does not change along
    a game is looked up once).

    Common: origin and destination (``c3-d4``, ``22x15``) or a short record (``ed4``), a
    separator that agrees with the move, exactly one legal move that fits, on a variant
    with compulsory captures and no limit on king moves. It asks only what ``resolve``'s
    fast path asks (the named piece's moves and whether a capture exists), builds no
    ``Resolution``, and says None wherever ``resolve`` might find anything to say.
    """
    variant = board.variant
    if not variant.forced_capture or variant.max_king_moves:
        return lambda record: None
    table = variant.gametype.notation.known_squares
    generator = board.generator
    file_masks = generator.file_masks
    has_capture, captures = generator.has_capture, generator.captures
    quiet_moves_to = generator.quiet_moves_to

    def plain(record: MoveRecord) -> Move | None:
        names = record.squares
        file = record.origin_file
        if len(names) != (1 if file is not None else 2):
            return None
        destination = table.get(names[-1])
        origin = table.get(names[0])
        if destination is None or origin is None:
            return None
        origins = file_masks.get(file, 0) if file is not None else 1 << origin
        position = board.position
        turn, kings = position.turn, position.kings
        own, opp = ((position.white, position.black) if turn == WHITE
                    else (position.black, position.white))
        marked = record.separator
        # A capture written as one needs no "is there any capture?": a fitting one is legal.
        if marked == "x" or marked == ":" or has_capture(own, opp, kings, turn):
            if marked == "-":
                return None
            found = None
            for route in captures(own, opp, kings, turn, origins):
                if route.destination == destination and (origins >> route.origin) & 1:
                    if found is not None and route != found:
                        return None
                    found = route
            return found
        moves = quiet_moves_to(own, opp, kings, turn, destination, origins)
        return moves[0] if len(moves) == 1 else None

    return plain


def _loose_path(board: BaseBoard, record: MoveRecord, squares: list[int], routes: list[Move]
                ) -> Resolution:
    """A capture path that leaves out a turning square (``15x33x31`` for ``15x33x22x31``):
    accepted, with a warning, when exactly one legal move lands on every written square."""
    fits = unique([r for r in routes if _is_subsequence(squares, [r.origin, *r.path])])
    if len(fits) != 1:
        return explain(board, record, squares)
    move = fits[0]
    return Resolution(move, candidates=fits, warning=(
        N_("'{written}' leaves out turning squares of the capture; the full path is "
           "{move}").format(written=record.text, move=full_text(board, move, "canonical"))))


def _resolved(record: MoveRecord, moves: list[Move], board: BaseBoard) -> Resolution:
    move = moves[0]
    marked = record.marked_capture
    warning = ""
    if marked is False and move.captures and board.variant.gametype.capture_separator != "-":
        warning = N_("'{written}' is a capture written with '-'").format(written=record.text)
    elif marked and not move.captures:
        warning = N_("'{written}' is a quiet move written as a capture").format(
            written=record.text)
    return Resolution(move, candidates=moves, warning=warning)


def _quiet_move(board: BaseBoard, origin: int, destination: int) -> Move | None:
    """The quiet move from origin to destination if it is legal (captures aside)."""
    position = board.position
    own, opp = ((position.white, position.black) if board.turn == WHITE
                else (position.black, position.white))
    moves = board.generator.quiet_moves_to(own, opp, position.kings, board.turn, destination,
                                           1 << origin)
    return moves[0] if moves else None


def _follows(board: BaseBoard, written: list[int], route: Move) -> bool:
    """Whether a written capture path describes this route: its squares lie on the route in
    order, and it names every square where the route turns. That accepts the Russian book
    form, PDN 3.0's canonical form and every landing square alike."""
    geo = board.variant.geometry
    return (_is_subsequence(written, trajectory(geo, route))
            and _is_subsequence(turning_squares(geo, route), written))


def _is_subsequence(short: list[int], long: list[int]) -> bool:
    if short[0] != long[0] or short[-1] != long[-1]:
        return False
    position = 0
    for square in short:
        try:
            position = long.index(square, position) + 1
        except ValueError:
            return False
    return True


def explain(board: BaseBoard, record: MoveRecord, squares: list[int]) -> Resolution:
    """Why no legal move fits a record, in words a player understands."""
    side = SIDE_NAMES[board.turn]
    legal = board.legal_moves()
    listing = legal_listing(board, legal)
    if not legal:
        return Resolution(None, "no-legal-move",
                          N_("{side} has no legal move (the game is over)").format(side=side))
    destination = squares[-1]
    if not record.is_short:
        origin = squares[0]
        piece = board.piece_at(origin)
        name = board.name(origin)
        if piece is None:
            return Resolution(None, "no-piece", N_("no {side} piece on {square}; {listing}")
                              .format(side=side.lower(), square=name, listing=listing))
        if (piece in "wW") != (board.turn == WHITE):
            other = SIDE_NAMES[1 - board.turn].lower()
            return Resolution(None, "wrong-side",
                              N_("{square} holds a {other} piece, but {side} is to move; "
                                 "{listing}").format(square=name, other=other, side=side,
                                                     listing=listing))
        routes = board.capture_routes()
        if routes and board.variant.forced_capture and _quiet_move(board, origin, destination):
            return Resolution(None, "capture-required", N_("capture is compulsory: {moves}")
                              .format(moves=_join(board, legal)))
        early = [r for r in routes if r.origin == origin and destination in r.path[:-1]]
        if early:
            route = early[0]
            whole = full_text(board, route, "turns")
            return Resolution(None, "capture-incomplete",
                              N_("capture stops too early: {written} must continue to "
                                 "{square} ({route})").format(
                                  written=f"{board.name(origin)}:{board.name(destination)}",
                                  square=board.name(route.destination), route=whole))
        unfiltered = _unfiltered_captures(board)
        if any(r.origin == origin and r.destination == destination for r in unfiltered):
            return Resolution(None, "capture-not-allowed",
                              N_("the {precedence} capture rule forbids it: {moves}").format(
                                  precedence=board.variant.precedence,
                                  moves=_join(board, legal)))
        if piece in "wb" and _is_backward(board, origin, destination):
            return Resolution(None, "backward-move", N_("men do not move backward; {listing}")
                              .format(listing=listing))
        if board.piece_at(destination) is not None:
            return Resolution(None, "illegal-move", _occupied(board, destination, listing))
        return Resolution(None, "illegal-move", N_("'{written}' is not a legal move; {listing}")
                          .format(written=record.text, listing=listing))
    if board.has_capture() and board.variant.forced_capture:
        return Resolution(None, "capture-required", N_("capture is compulsory: {moves}")
                          .format(moves=_join(board, legal)))
    if board.piece_at(destination) is not None:
        return Resolution(None, "illegal-move", _occupied(board, destination, listing))
    return Resolution(None, "illegal-move",
                      N_("no {side} piece on the {file}-file can go to {square}; {listing}")
                      .format(side=side.lower(), file=record.origin_file,
                              square=board.name(destination), listing=listing))


def _occupied(board: BaseBoard, square: int, listing: str) -> str:
    """``d4 is occupied (a white man stands there); ...``: no move ends on a piece."""
    piece = board.piece_at(square) or "w"
    occupant = {"w": N_("a white man"), "W": N_("a white king"),
                "b": N_("a black man"), "B": N_("a black king")}[piece]
    return N_("{square} is occupied ({piece} stands there); {listing}").format(
        square=board.name(square), piece=occupant, listing=listing)


def _unfiltered_captures(board: BaseBoard) -> list[Move]:
    variant = board.variant
    if variant.precedence == "free":
        return []
    free = generator_for(variant.with_options(precedence="free"))
    position = board.position
    own, opp = ((position.white, position.black) if board.turn == WHITE
                else (position.black, position.white))
    return free.captures(own, opp, position.kings, board.turn)


def _is_backward(board: BaseBoard, origin: int, destination: int) -> bool:
    geo = board.variant.geometry
    rows = geo.row_col(destination)[0] - geo.row_col(origin)[0]
    return rows < 0 if board.turn == WHITE else rows > 0


def in_square_order(board: BaseBoard, moves: list[Move]) -> list[Move]:
    """Moves sorted by origin, then route, in the variant's square order (its numbering,
    else the squares from a1 row by row)."""
    numbering = board.variant.gametype.notation.numbering
    rank = numbering.by_square.__getitem__ if numbering else int
    return sorted(moves, key=lambda move: (rank(move.origin), [rank(s) for s in move.path]))


def _join(board: BaseBoard, moves: list[Move]) -> str:
    names = [full_text(board, m, "minimal") for m in in_square_order(board, moves)]
    if len(names) > 3:
        return ", ".join(names)
    joined = names[-1]
    for name in reversed(names[:-1]):
        joined = N_("{move} or {moves}").format(move=name, moves=joined)
    return joined


def legal_listing(board: BaseBoard, legal: list[Move]) -> str:
    """``legal moves: c3-b4 c3-d4 ...`` in the variant's notation and square order (the first
    twelve)."""
    shown = [full_text(board, m) for m in in_square_order(board, legal)[:12]]
    if len(legal) > 12:
        return N_("legal moves: {moves} (+{count} more)").format(moves=" ".join(shown),
                                                                 count=len(legal) - 12)
    return N_("legal moves: {moves}").format(moves=" ".join(shown))


def record_of_text(text: str) -> MoveRecord:
    """A move typed as text (``c3-d4``, ``cd4``, ``b:d6``, ``22x15``, ``h2:c7:a5:e1``) as a
    record; raises ``InvalidMoveError`` for text that is no move in any notation."""
    written = text.strip().lower().replace("×", "x")
    short = _SHORT_TEXT.fullmatch(written)
    if short:
        file, mark, square = short.groups()
        return MoveRecord(text, (square,), mark, file)
    if not _FULL_TEXT.fullmatch(written):
        raise InvalidMoveError(f"'{text}' is not a move: write it as c3-d4, cd4, 22-18 or a "
                               "capture path such as c3:e5:c7")
    separator = _TEXT_SEPARATOR.search(written)
    squares = tuple(square.lstrip("0") or "0" for square in _TEXT_SQUARES.findall(written))
    return MoveRecord(text, squares, separator.group() if separator else "")


def parse_text(board: BaseBoard, text: str) -> Move:
    """The legal move a typed text means here (``Board.parse``); raises ``InvalidMoveError``,
    ``IllegalMoveError`` or ``AmbiguousMoveError`` with the move and the legal ones."""
    resolution = resolve(board, record_of_text(text))
    if resolution.move is not None:
        return resolution.move
    if resolution.code == "bad-square":
        raise InvalidMoveError(f"'{text}' is not a move here: {resolution.message}")
    listing = legal_listing(board, board.legal_moves())
    message = resolution.message if "legal moves:" in resolution.message else (
        f"{resolution.message}; {listing}")
    if resolution.code == "ambiguous-move":
        raise AmbiguousMoveError(message)
    raise IllegalMoveError(message if f"'{text}'" in message else f"'{text}': {message}")
