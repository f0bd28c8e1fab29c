"""The DamExchange Protocol (DXP) by Harm Mesander: messages, a connection, and a game
played against a DXP engine over TCP (docs/engines-dxp.md).

A message is one line of 1 to 127 ASCII characters (codes 1-127) whose first character names
its kind; on a socket each is followed by a NUL byte. Fields have fixed widths, numbers are
written with leading zeros. ``decode`` is strict: a message whose length, digits or codes are
off raises ``DxpMessageError`` naming the field, never a half-read value.

>>> message = decode("M0012061100")
>>> message
MoveMessage(seconds=12, origin=6, destination=11, captured=())
>>> encode(message)
'M0012061100'
>>> encode(GameRequest("pdn-toolkit", "Z", minutes=5, moves=75))
'R01pdn-toolkit                     Z005075A'

Squares are numbered 1-50 as on the International board (PDN's numbering); DXP is
International draughts only. A move becomes our ``Move`` through ``move_from_message``, which
checks it against the legal moves of our board: an illegal move is an ``EngineError``.
"""

from __future__ import annotations

import collections
import contextlib
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from replay.engine.limits import EngineError, Limit
from replay.engine.play import (
    DEFAULT_MAX_MOVES,
    Ending,
    GameEnded,
    GameRecord,
    Player,
    PlayerSide,
    play_game,
)
from replay.record.board import Board
from replay.rules.move import Move
from replay.rules.position import position_from_setup
from replay.rules.variants import INTERNATIONAL

DXP_PORT = 27531  # the SOCKET layer's port (Mesander, esocket.htm)
MAX_LENGTH = 127  # characters of a message, the NUL aside (edxplg1.htm)
CHAT_LIMIT = 100  # CHAT messages kept (the last ones)
NAME_WIDTH = 32
SQUARES = 50

WHITE_CODE, BLACK_CODE = "W", "Z"  # Dutch: wit, zwart
COLOUR_CODES = (WHITE_CODE, BLACK_CODE)  # indexed by our side: 0 White, 1 Black

# GAMEACC acceptance codes (egameacc.htm)
ACCEPT, WRONG_VERSION, DECLINE_THIS, DECLINE_ALL = "0", "1", "2", "3"
# GAMEEND reasons (egameend.htm): given by the sender about itself
REASON_UNKNOWN, REASON_I_LOSE, REASON_DRAW, REASON_I_WIN = "0", "1", "2", "3"
# GAMEEND stop codes: another game may follow, or none
STOP_CONTINUE, STOP_ALL = "0", "1"
# BACKACC codes (ebackacc.htm): accepted, not supported, declined
BACK_ACCEPT, BACK_UNSUPPORTED, BACK_DECLINE = "0", "1", "2"

_DIGITS = re.compile(r"[0-9]+")
_POSITION = re.compile(r"[ewzWZ]{50}")
_MOVE = re.compile(r"M([0-9]{4})([0-9]{2})([0-9]{2})([0-9]{2})((?:[0-9]{2}){0,20})")


class DxpMessageError(EngineError):
    """A DXP message that breaks the specification; the text says which field and shows the
    message."""


class DxpClosed(EngineError):
    """The other end closed the connection (or reset it)."""


# -- the messages -------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRequest:
    """``R``, GAMEREQ: the initiator asks for a game. ``follower_colour`` is ``W`` or ``Z``,
    ``minutes`` the thinking time of each side for the whole game, ``moves`` the number of
    moves (0: no limit); ``position`` is ``None`` for the initial position, else the side to
    move (``W``/``Z``) followed by 50 squares (``e`` empty, ``w``/``z`` men, ``W``/``Z``
    kings), square 1 first."""

    initiator: str
    follower_colour: str
    minutes: int = 5
    moves: int = 75
    position: str | None = None
    version: int = 1
    header: ClassVar[str] = "R"

    def encode(self) -> str:
        _check_name(self.initiator, "initiator name")
        _check_code(self.follower_colour, COLOUR_CODES, "follower colour")
        start = "A"
        if self.position is not None:
            if len(self.position) != 51 or self.position[0] not in COLOUR_CODES or \
                    not _POSITION.fullmatch(self.position[1:]):
                raise DxpMessageError(f"GAMEREQ position {self.position!r} is not a colour "
                                      "(W/Z) and 50 squares of e, w, z, W, Z")
            start = "B" + self.position
        return (f"R{_number(self.version, 2, 'version')}{self.initiator:<{NAME_WIDTH}}"
                f"{self.follower_colour}{_number(self.minutes, 3, 'thinking time')}"
                f"{_number(self.moves, 3, 'number of moves')}{start}")

    @classmethod
    def decode(cls, text: str) -> GameRequest:
        if len(text) not in (43, 94):
            raise _error(text, "GAMEREQ has 43 characters (initial position) or 94 (with a "
                         f"position), not {len(text)}")
        version = _field_number(text, 1, 2, "version")
        name = text[3:35].rstrip(" ")
        colour = _field_code(text, 35, COLOUR_CODES, "follower colour")
        minutes = _field_number(text, 36, 3, "thinking time")
        moves = _field_number(text, 39, 3, "number of moves")
        start = _field_code(text, 42, ("A", "B"), "starting position")
        position = None
        if start == "A" and len(text) != 43:
            raise _error(text, "GAMEREQ with starting position A has no position")
        if start == "B":
            if len(text) != 94:
                raise _error(text, "GAMEREQ with starting position B needs the colour to "
                             "move and 50 squares")
            _field_code(text, 43, COLOUR_CODES, "colour to move")
            if not _POSITION.fullmatch(text[44:94]):
                raise _error(text, "the GAMEREQ position has characters other than "
                             "e, w, z, W, Z")
            position = text[43:94]
        return cls(name, colour, minutes, moves, position, version)


@dataclass(frozen=True)
class GameAccept:
    """``A``, GAMEACC: the follower's answer; ``code`` is ``0`` (accepted), ``1`` (wrong
    version), ``2`` (not this game) or ``3`` (no game at all)."""

    follower: str
    code: str = ACCEPT
    header: ClassVar[str] = "A"

    def encode(self) -> str:
        _check_name(self.follower, "follower name")
        _check_code(self.code, (ACCEPT, WRONG_VERSION, DECLINE_THIS, DECLINE_ALL),
                    "acceptance code")
        return f"A{self.follower:<{NAME_WIDTH}}{self.code}"

    @classmethod
    def decode(cls, text: str) -> GameAccept:
        if len(text) != 34:
            raise _error(text, f"GAMEACC has 34 characters, not {len(text)}")
        code = _field_code(text, 33, (ACCEPT, WRONG_VERSION, DECLINE_THIS, DECLINE_ALL),
                           "acceptance code")
        return cls(text[1:33].rstrip(" "), code)


@dataclass(frozen=True)
class MoveMessage:
    """``M``, MOVE: the seconds the move took (informational), its origin and destination
    squares and the squares of the pieces it captures (in any order)."""

    seconds: int
    origin: int
    destination: int
    captured: tuple[int, ...] = ()
    header: ClassVar[str] = "M"

    def encode(self) -> str:
        if len(self.captured) > 20:
            raise DxpMessageError(f"MOVE captures at most 20 pieces, not {len(self.captured)}")
        squares = (self.origin, self.destination, *self.captured)
        if any(not 1 <= square <= SQUARES for square in squares):
            raise DxpMessageError(f"MOVE squares are 1-50: {squares}")
        return (f"M{_number(self.seconds, 4, 'time')}{self.origin:02d}{self.destination:02d}"
                f"{len(self.captured):02d}" + "".join(f"{s:02d}" for s in self.captured))

    @classmethod
    def decode(cls, text: str) -> MoveMessage:
        fast = _MOVE.fullmatch(text)  # the usual well-formed move, read in one step
        if fast is not None:
            seconds, origin, destination, count, rest = fast.groups()
            captured = tuple(int(rest[i:i + 2]) for i in range(0, len(rest), 2))
            squares = (int(origin), int(destination), *captured)
            if int(count) == len(captured) and 0 not in squares and max(squares) <= SQUARES:
                return cls(int(seconds), squares[0], squares[1], captured)
        if len(text) < 11:
            raise _error(text, f"MOVE has at least 11 characters, not {len(text)}")
        seconds = _field_number(text, 1, 4, "time")
        origin = _field_square(text, 5, "from field")
        destination = _field_square(text, 7, "to field")
        count = _field_number(text, 9, 2, "number captured")
        if count > 20:
            raise _error(text, f"MOVE number captured is 00-20, not {count:02d}")
        if len(text) != 11 + 2 * count:
            raise _error(text, f"MOVE with {count} captured pieces has {11 + 2 * count} "
                         f"characters, not {len(text)}")
        captured = tuple(_field_square(text, 11 + 2 * i, "captured piece")
                         for i in range(count))
        return cls(seconds, origin, destination, captured)


@dataclass(frozen=True)
class GameEnd:
    """``E``, GAMEEND: ends the game. ``reason`` is the sender's own: ``0`` none given, ``1``
    I give up, ``2`` draw, ``3`` I win; ``stop`` is ``0`` (another game may follow) or ``1``
    (no more games)."""

    reason: str = REASON_UNKNOWN
    stop: str = STOP_CONTINUE
    header: ClassVar[str] = "E"

    def encode(self) -> str:
        _check_code(self.reason, (REASON_UNKNOWN, REASON_I_LOSE, REASON_DRAW, REASON_I_WIN),
                    "reason")
        _check_code(self.stop, (STOP_CONTINUE, STOP_ALL), "stop code")
        return f"E{self.reason}{self.stop}"

    @classmethod
    def decode(cls, text: str) -> GameEnd:
        if len(text) != 3:
            raise _error(text, f"GAMEEND has 3 characters, not {len(text)}")
        reason = _field_code(text, 1, (REASON_UNKNOWN, REASON_I_LOSE, REASON_DRAW,
                                       REASON_I_WIN), "reason")
        return cls(reason, _field_code(text, 2, (STOP_CONTINUE, STOP_ALL), "stop code"))


@dataclass(frozen=True)
class Chat:
    """``C``, CHAT: free text of 1 to 126 characters, at any moment."""

    text: str
    header: ClassVar[str] = "C"

    def encode(self) -> str:
        if not 1 <= len(self.text) <= MAX_LENGTH - 1:
            raise DxpMessageError(f"CHAT text has 1-126 characters, not {len(self.text)}")
        return "C" + self.text

    @classmethod
    def decode(cls, text: str) -> Chat:
        if len(text) < 2:
            raise _error(text, "CHAT has a text of at least one character")
        return cls(text[1:])


@dataclass(frozen=True)
class BackRequest:
    """``B``, BACKREQ: take moves back to move ``move_number`` (1-999) with ``colour`` to
    move (for play against people; engines playing each other do not use it)."""

    move_number: int
    colour: str
    header: ClassVar[str] = "B"

    def encode(self) -> str:
        if not 1 <= self.move_number <= 999:
            raise DxpMessageError(f"BACKREQ move number is 1-999, not {self.move_number}")
        _check_code(self.colour, COLOUR_CODES, "colour to move")
        return f"B{self.move_number:03d}{self.colour}"

    @classmethod
    def decode(cls, text: str) -> BackRequest:
        if len(text) != 5:
            raise _error(text, f"BACKREQ has 5 characters, not {len(text)}")
        number = _field_number(text, 1, 3, "move number")
        if number == 0:
            raise _error(text, "BACKREQ move number is 001-999")
        return cls(number, _field_code(text, 4, COLOUR_CODES, "colour to move"))


@dataclass(frozen=True)
class BackAccept:
    """``K``, BACKACC: the answer to a BACKREQ, ``0`` accepted, ``1`` not supported, ``2``
    declined."""

    code: str
    header: ClassVar[str] = "K"

    def encode(self) -> str:
        _check_code(self.code, (BACK_ACCEPT, BACK_UNSUPPORTED, BACK_DECLINE),
                    "acceptance code")
        return "K" + self.code

    @classmethod
    def decode(cls, text: str) -> BackAccept:
        if len(text) != 2:
            raise _error(text, f"BACKACC has 2 characters, not {len(text)}")
        return cls(_field_code(text, 1, (BACK_ACCEPT, BACK_UNSUPPORTED, BACK_DECLINE),
                               "acceptance code"))


Message = GameRequest | GameAccept | MoveMessage | GameEnd | Chat | BackRequest | BackAccept
MESSAGE_TYPES: dict[str, type] = {kind.header: kind for kind in (
    GameRequest, GameAccept, MoveMessage, GameEnd, Chat, BackRequest, BackAccept)}


def encode(message: Message) -> str:
    """A message's text (without the NUL the socket layer adds); raises DxpMessageError for
    a value the specification does not allow."""
    text = message.encode()
    _check_characters(text)
    return text


def decode(text: str) -> Message:
    """The message a text (without its NUL) is; raises DxpMessageError when it breaks the
    specification."""
    if not text:
        raise DxpMessageError("empty DXP message")
    _check_characters(text)
    kind = MESSAGE_TYPES.get(text[0])
    if kind is None:
        raise _error(text, f"unknown message type {text[0]!r} (R A M E C B K)")
    return kind.decode(text)


def _check_characters(text: str) -> None:
    if len(text) > MAX_LENGTH:
        raise DxpMessageError(f"DXP message of {len(text)} characters (at most "
                              f"{MAX_LENGTH}): {text[:40]!r}...")
    if not text.isascii() or "\0" in text:
        raise _error(text, "a DXP message holds ASCII characters 1-127 only")


def _error(text: str, what: str) -> DxpMessageError:
    return DxpMessageError(f"malformed DXP message {text!r}: {what}")


def _number(value: int, width: int, field: str) -> str:
    if not 0 <= value < 10 ** width:
        raise DxpMessageError(f"{field} {value} does not fit in {width} digits")
    return f"{value:0{width}d}"


def _check_name(name: str, field: str) -> None:
    if not name or len(name) > NAME_WIDTH or name[0] == " ":
        raise DxpMessageError(f"{field} {name!r}: 1-32 characters, not starting with a blank")


def _check_code(value: str, allowed: tuple[str, ...], field: str) -> None:
    if value not in allowed:
        raise DxpMessageError(f"{field} {value!r} is not one of {' '.join(allowed)}")


def _field_number(text: str, start: int, width: int, field: str) -> int:
    digits = text[start:start + width]
    if len(digits) != width or not _DIGITS.fullmatch(digits):
        raise _error(text, f"{field} is {width} digits, not {digits!r}")
    return int(digits)


def _field_square(text: str, start: int, field: str) -> int:
    square = _field_number(text, start, 2, field)
    if not 1 <= square <= SQUARES:
        raise _error(text, f"{field} is a square 01-50, not {square:02d}")
    return square


def _field_code(text: str, index: int, allowed: tuple[str, ...], field: str) -> str:
    value = text[index:index + 1]
    if value not in allowed:
        raise _error(text, f"{field} is one of {' '.join(allowed)}, not {value!r}")
    return value


# -- our board <-> DXP ---------------------------------------------------------------------------


def _numbers() -> tuple[dict[int, int], tuple[int, ...]]:
    numbering = INTERNATIONAL.gametype.notation.numbering
    assert numbering is not None
    return numbering.by_square, numbering.squares


def check_variant(board: Board) -> None:
    """Raise EngineError unless the board is International draughts (all DXP knows)."""
    if board.variant.gametype.number != INTERNATIONAL.gametype.number or \
            board.variant.geometry.width != 10:
        raise EngineError(f"DXP plays International draughts (10x10) only, not "
                          f"{board.variant.name}")


def message_from_move(move: Move, seconds: float = 0) -> MoveMessage:
    """The MOVE message of one of our moves (seconds rounded, at most 9999)."""
    number, _ = _numbers()
    captured = tuple(sorted(number[square] for square in move.captures))
    return MoveMessage(min(9999, max(0, round(seconds))), number[move.origin],
                       number[move.destination], captured)


def move_from_message(board: Board, message: MoveMessage, who: str = "the DXP engine") -> Move:
    """Our legal move that a MOVE message names (origin, destination and the set of captured
    squares); raises EngineError, with the legal moves, when none does."""
    _, squares = _numbers()
    origin, destination = squares[message.origin - 1], squares[message.destination - 1]
    captured = {squares[number - 1] for number in message.captured}
    if len(captured) != len(message.captured):
        raise EngineError(f"{who} sent a move that captures a square twice: {encode(message)}")
    legal = board.legal_moves()
    for move in legal:
        if (move.origin, move.destination) == (origin, destination) and \
                set(move.captures) == captured:
            return move
    shown = " ".join(board.text(move, "pdn") for move in legal) or "none"
    text = f"{message.origin}-{message.destination}"
    if message.captured:
        text = f"{message.origin}x{message.destination} taking " + \
            ",".join(str(n) for n in message.captured)
    raise EngineError(f"{who} played {text} ({encode(message)}), which is not legal in "
                      f"{board.fen()}; legal moves: {shown}")


def position_text(board: Board) -> str:
    """The position as GAMEREQ gives it: the side to move and 50 squares, square 1 first."""
    _, squares = _numbers()
    pieces = board.setup().pieces
    codes = {"w": "w", "b": "z", "W": "W", "B": "Z"}
    return COLOUR_CODES[board.turn] + "".join(codes[pieces[square]] if square in pieces
                                              else "e" for square in squares)


def board_from_position(text: str | None) -> Board:
    """The International board a GAMEREQ position gives (``None``: the initial position)."""
    if text is None:
        return Board(variant=INTERNATIONAL)
    from pdn.fen import Setup

    _, squares = _numbers()
    codes = {"w": "w", "z": "b", "W": "W", "Z": "B"}
    pieces = {squares[i]: codes[char] for i, char in enumerate(text[1:]) if char != "e"}
    return Board(INTERNATIONAL, position_from_setup(Setup(text[0] == WHITE_CODE, pieces)))


def is_initial(board: Board) -> bool:
    return board.position == Board(variant=board.variant).position


# -- the socket layer ----------------------------------------------------------------------------


class DxpConnection:
    """One DXP connection over TCP: ``send`` a message, ``receive`` the next one (NUL-ended,
    at most ``timeout`` seconds of waiting, else EngineError). ``close`` is safe to call
    twice; the connection is a context manager."""

    def __init__(self, sock: socket.socket, peer: str = "the DXP engine",
                 timeout: float = 60.0) -> None:
        self.socket: socket.socket | None = sock
        self.peer = peer
        self.timeout = timeout
        self.heard = False  # the other end has sent something
        self._buffer = b""
        sock.settimeout(timeout)

    @classmethod
    def connect(cls, host: str, port: int, *, timeout: float = 60.0,
                connect_timeout: float = 10.0) -> DxpConnection:
        """Connect to a DXP engine that listens on ``host:port``, retrying for
        ``connect_timeout`` seconds while it starts; raises EngineError when it never
        answers."""
        deadline = time.monotonic() + connect_timeout
        while True:
            try:
                sock = socket.create_connection((host, port), timeout=max(0.1, min(
                    5.0, deadline - time.monotonic())))
                break
            except OSError as error:
                if time.monotonic() >= deadline:
                    raise EngineError(f"no DXP engine answers on {host}:{port} "
                                      f"({error.strerror or error})") from None
                time.sleep(0.1)
        return cls(sock, f"the DXP engine at {host}:{port}", timeout)

    def send(self, message: Message) -> None:
        if self.socket is None:
            raise EngineError(f"the connection to {self.peer} is closed")
        data = encode(message).encode("ascii") + b"\0"
        try:
            self.socket.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            raise DxpClosed(f"{self.peer} closed the connection") from None
        except OSError as error:
            raise EngineError(f"cannot send to {self.peer}: {error}") from None

    def receive(self, timeout: float | None = None, allowed: float | None = None) -> Message:
        """The next message; raises EngineError when none comes in time, the peer closes the
        connection, or the message breaks the specification. ``allowed``: the time the
        message says was allowed (the caller's whole wait, of which ``timeout`` is left)."""
        if self.socket is None:
            raise EngineError(f"the connection to {self.peer} is closed")
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        said = wait if allowed is None else allowed
        while b"\0" not in self._buffer:
            if len(self._buffer) > MAX_LENGTH:
                raise EngineError(f"{self.peer} sent {len(self._buffer)} characters without "
                                  f"the NUL that ends a DXP message: {self._buffer[:40]!r}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"{self.peer} sent nothing for {said:g} s")
            self.socket.settimeout(left)
            try:
                chunk = self.socket.recv(4096)
            except TimeoutError:
                raise EngineError(f"{self.peer} sent nothing for {said:g} s") from None
            except ConnectionResetError:
                raise DxpClosed(f"{self.peer} closed the connection") from None
            except OSError as error:
                raise EngineError(f"cannot read from {self.peer}: {error}") from None
            if not chunk:
                raise DxpClosed(f"{self.peer} closed the connection")
            self.heard = True
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            raise DxpMessageError(f"{self.peer} sent a message that is not ASCII: "
                                  f"{raw[:40]!r}") from None
        try:
            return decode(text)
        except DxpMessageError as error:
            raise DxpMessageError(f"{self.peer}: {error}") from None

    def close(self) -> None:
        sock, self.socket = self.socket, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def __enter__(self) -> DxpConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class DxpListener:
    """A listening socket for a DXP engine that connects to us (``port`` 0: any free port,
    read back from ``port``). ``accept`` waits at most ``timeout`` seconds."""

    def __init__(self, port: int = DXP_PORT, host: str = "127.0.0.1") -> None:
        self.socket: socket.socket | None = socket.create_server((host, port))
        self.host = host
        self.port = self.socket.getsockname()[1]

    def accept(self, timeout: float = 60.0, message_timeout: float = 60.0) -> DxpConnection:
        if self.socket is None:
            raise EngineError("the DXP listener is closed")
        self.socket.settimeout(timeout)
        try:
            sock, address = self.socket.accept()
        except TimeoutError:
            raise EngineError(f"no DXP engine connected to port {self.port} within "
                              f"{timeout:g} s") from None
        return DxpConnection(sock, f"the DXP engine from {address[0]}:{address[1]}",
                             message_timeout)

    def close(self) -> None:
        sock, self.socket = self.socket, None
        if sock is not None:
            sock.close()

    def __enter__(self) -> DxpListener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- a DXP engine as a side of a game ------------------------------------------------------------

OUR_NAME = "pdn-toolkit"


def dxp_name(name: str) -> str:
    """A name as GAMEREQ and GAMEACC carry it: ASCII, no leading blank, at most 32 characters."""
    text = "".join(char if 32 <= ord(char) < 127 else "?" for char in name).strip()
    return text[:NAME_WIDTH].rstrip() or OUR_NAME


class DxpSide:
    """A DXP engine at the other end of ``connection`` as a side of ``play_game``.

    As ``initiator`` it sends the GAMEREQ (colour, clock, move cap, start position) when the
    game begins and waits for the GAMEACC; as follower the request came already
    (``serve_games``). During the game it sends the opponent's moves and returns the
    engine's, each checked legal on our board; the last ``CHAT_LIMIT`` CHAT messages are kept
    in ``chats`` (a flood of them costs no memory, nor time: the wait for a move is bounded
    whatever comes meanwhile), a BACKREQ
    is answered "not supported". At the end it exchanges the two GAMEEND messages; ``last``
    sends stop code 1 (no more games).

    With the ``listener`` the connection came from, a connection closed before it said a
    word to the first GAMEREQ (a port probe: connect, then close) is no engine: ``note``
    is told, and the next connection is taken (``accept_timeout``)."""

    def __init__(self, connection: DxpConnection, *, initiator: bool = True,
                 our_name: str = OUR_NAME, name: str | None = None,
                 listener: DxpListener | None = None, accept_timeout: float = 60.0,
                 note: Callable[[str], None] | None = None) -> None:
        self.connection = connection
        self.listener, self.accept_timeout, self.note = listener, accept_timeout, note
        self.accepted = False  # a game was accepted on this connection
        self.initiator = initiator
        self.our_name = dxp_name(our_name)
        self.name = name or connection.peer
        self.colour = 1
        self.known = 0  # plies of the game the engine knows (sent to it or received from it)
        self.minutes = 5
        self.peer_end: GameEnd | None = None
        self.chats: collections.deque[str] = collections.deque(maxlen=CHAT_LIMIT)
        self._since = time.monotonic()

    def begin(self, board: Board, colour: int, minutes: int, max_moves: int,
              opponent: str = OUR_NAME) -> None:
        check_variant(board)
        self.colour, self.minutes, self.known, self.peer_end = colour, minutes, 0, None
        if self.initiator:
            self.our_name = dxp_name(opponent)
            position = None if is_initial(board) else position_text(board)
            request = GameRequest(self.our_name, COLOUR_CODES[colour], minutes, max_moves,
                                  position)
            answer = self._request(request)
            if answer.code != ACCEPT:
                why = {WRONG_VERSION: "it does not speak DXP version 01",
                       DECLINE_THIS: "it declines this game",
                       DECLINE_ALL: "it declines every game"}[answer.code]
                raise EngineError(f"{answer.follower or self.name} refused the game: {why}")
            if answer.follower:
                self.name = answer.follower
        self._since = time.monotonic()

    def _request(self, request: GameRequest) -> GameAccept:
        """Send the GAMEREQ and read the GAMEACC; before a first game, on a connection that
        closed without a word, again on the listener's next connection."""
        while True:
            try:
                self.connection.send(request)
                answer = self._next((GameAccept,), self.connection.timeout)
                break
            except DxpClosed:
                if self.listener is None or self.accepted or self.connection.heard:
                    raise
                if self.note is not None:
                    self.note(f"{self.connection.peer} closed the connection without a word "
                              f"(a probe?): still listening on port {self.listener.port}")
                self.connection.close()
                self.connection = self.listener.accept(self.accept_timeout,
                                                       self.connection.timeout)
                self.name = self.connection.peer
        assert isinstance(answer, GameAccept)
        self.accepted = True
        return answer

    def move(self, board: Board, limit: Limit) -> Move | GameEnded:
        self._send_pending(board)
        message = self._next((MoveMessage, GameEnd), self._move_timeout(limit))
        self._since = time.monotonic()
        if isinstance(message, GameEnd):
            self.peer_end = message
            words = {REASON_UNKNOWN: "no reason given", REASON_I_LOSE: "it gives up",
                     REASON_DRAW: "it claims a draw", REASON_I_WIN: "it claims a win"}
            return GameEnded(message.reason == REASON_I_LOSE, words[message.reason])
        assert isinstance(message, MoveMessage)
        move = move_from_message(board, message, self.name)
        self.known = len(board.move_stack) + 1
        return move

    def finish(self, board: Board, colour: int, ending: Ending, last: bool) -> None:
        stop = STOP_ALL if last else STOP_CONTINUE
        if self.peer_end is not None:  # the engine ended it: acknowledge
            self.connection.send(GameEnd(REASON_UNKNOWN, stop))
            return
        self._send_pending(board)
        if board.turn == self.colour:  # the engine is to move: it should end the game
            reply = self._next((MoveMessage, GameEnd), self.connection.timeout)
            if isinstance(reply, GameEnd):
                self.connection.send(GameEnd(REASON_UNKNOWN, stop))
                return
            assert isinstance(reply, MoveMessage)
            move_from_message(board, reply, self.name)  # legal, but the game is over
        self.connection.send(GameEnd(self._our_reason(ending), stop))
        try:
            self._next((GameEnd,), self.connection.timeout)
        except EngineError:
            if not last:  # after stop code 1 an engine may just close the connection
                raise

    def abort(self) -> None:
        self.connection.close()

    def _our_reason(self, ending: Ending) -> str:
        """GAMEEND's reason from our side's view (the engine's opponent)."""
        if ending.draw:
            return REASON_DRAW
        if ending.winner is None:
            return REASON_UNKNOWN
        return REASON_I_LOSE if ending.winner == self.colour else REASON_I_WIN

    def _send_pending(self, board: Board) -> None:
        for move in board.move_stack[self.known:]:
            self.connection.send(message_from_move(move, time.monotonic() - self._since))
        self.known = len(board.move_stack)

    def _move_timeout(self, limit: Limit) -> float:
        bounds = [self.connection.timeout, self.minutes * 60 + 30.0]
        if limit.movetime:
            bounds.append(limit.movetime + 30.0)
        return max(bounds)

    def _next(self, wanted: tuple[type, ...], timeout: float) -> Message:
        """The next message of a wanted kind; chats are kept, a BACKREQ is refused, any other
        message is a protocol error."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:  # messages kept coming (a flood of CHAT), not the one wanted
                kinds = "/".join(kind.__name__ for kind in wanted)
                raise EngineError(f"{self.name} sent no {kinds} within {timeout:g} s")
            message = self.connection.receive(left, timeout)
            if isinstance(message, wanted):
                return message
            if isinstance(message, Chat):
                self.chats.append(message.text)
            elif isinstance(message, BackRequest):
                self.connection.send(BackAccept(BACK_UNSUPPORTED))
            else:
                kinds = "/".join(kind.__name__ for kind in wanted)
                raise DxpMessageError(f"{self.name} sent {encode(message)!r} where "
                                      f"{kinds} was expected")


def play_dxp_game(connection: DxpConnection, player: Player, board: Board | None = None, *,
                  player_colour: int = 0, minutes: int = 5,
                  max_moves: int = DEFAULT_MAX_MOVES, limit: Limit | None = None,
                  last: bool = True) -> GameRecord:
    """Play one game as the DXP initiator: our ``player`` (colour ``player_colour``) against
    the engine at the other end of ``connection``, from ``board`` (the initial position when
    None). Raises EngineError when the engine refuses, fails or plays an illegal move."""
    board = board or Board(variant=INTERNATIONAL)
    ours = PlayerSide(player)
    engine = DxpSide(connection, our_name=player.name)
    sides = (ours, engine) if player_colour == 0 else (engine, ours)
    return play_game(*sides, board, minutes=minutes, max_moves=max_moves, limit=limit,
                     last=last)


def serve_games(connection: DxpConnection, player: Player, games: int = 1, *,
                limit: Limit | None = None, request_timeout: float = 60.0
                ) -> list[GameRecord]:
    """Play ``games`` games as the DXP follower: the engine that connected sends each
    GAMEREQ (colours, clock, move cap, start position) and our ``player`` plays the colour
    it gives; the last game ends with stop code 1. A request we cannot take (another
    protocol version) is refused with the GAMEACC code the specification gives."""
    records = []
    engine = DxpSide(connection, initiator=False, our_name=player.name)
    while len(records) < games:
        request = engine._next((GameRequest,), request_timeout)
        assert isinstance(request, GameRequest)
        if request.version != 1:
            connection.send(GameAccept(engine.our_name, WRONG_VERSION))
            continue
        connection.send(GameAccept(engine.our_name, ACCEPT))
        engine.name = request.initiator or engine.name
        board = board_from_position(request.position)
        ours = PlayerSide(player)
        their_colour = 1 - COLOUR_CODES.index(request.follower_colour)
        sides = (engine, ours) if their_colour == 0 else (ours, engine)
        records.append(play_game(*sides, board, minutes=request.minutes,
                                 max_moves=request.moves, limit=limit,
                                 last=len(records) == games - 1))
    return records
