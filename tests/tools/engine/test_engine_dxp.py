"""The DamExchange Protocol (Mesander's specification, docs/engines-dxp.md): every message
encodes and decodes back (property tests), malformed ones are refused with the field named,
moves and positions pass between DXP and our board exactly, a peer that misbehaves is a clean
EngineError, and real games against Scan 2.0 over TCP are legal and end with a result our
rules agree with, Scan listening (we connect) and Scan connecting (we listen)."""

from __future__ import annotations

import random
import socket
import threading
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.scan_dxp import free_port, processes_in, scan_dxp, scan_folder

import replay
from pdn.reader import read_games
from replay.engine import dxp
from replay.engine.dxp import (
    CHAT_LIMIT,
    BackAccept,
    BackRequest,
    Chat,
    DxpConnection,
    DxpListener,
    DxpMessageError,
    DxpSide,
    GameAccept,
    GameEnd,
    GameRequest,
    MoveMessage,
    board_from_position,
    decode,
    encode,
    message_from_move,
    move_from_message,
    play_dxp_game,
    position_text,
    serve_games,
)
from replay.engine.limits import EngineError
from replay.engine.match import game_pdn
from replay.engine.play import RandomPlayer
from replay.record.board import Board

# -- messages -----------------------------------------------------------------------------------

names = st.from_regex(r"[!-~]([ -~]{0,30}[!-~])?", fullmatch=True)
colours = st.sampled_from("WZ")
squares = st.integers(1, 50)
positions = st.none() | st.builds(lambda colour, cells: colour + "".join(cells), colours,
                                  st.lists(st.sampled_from("ewzWZ"), min_size=50, max_size=50))
messages = st.one_of(
    st.builds(GameRequest, names, colours, st.integers(0, 999), st.integers(0, 999), positions,
              st.integers(0, 99)),
    st.builds(GameAccept, names, st.sampled_from("0123")),
    st.builds(MoveMessage, st.integers(0, 9999), squares, squares,
              st.lists(squares, max_size=20).map(tuple)),
    st.builds(GameEnd, st.sampled_from("0123"), st.sampled_from("01")),
    st.builds(Chat, st.text(st.characters(min_codepoint=1, max_codepoint=127), min_size=1,
                            max_size=126)),
    st.builds(BackRequest, st.integers(1, 999), colours),
    st.builds(BackAccept, st.sampled_from("012")),
)


@given(messages)
def test_every_message_decodes_to_what_was_encoded(message):
    text = encode(message)
    assert 1 <= len(text) <= 127 and "\0" not in text
    assert decode(text) == message
    assert encode(decode(text)) == text


def test_the_specification_examples_read_as_it_says():
    """The examples of Mesander's pages (egamereq, egameacc, emove, egameend, echat)."""
    assert decode("R01Tornado voor Windows 4.0        W060065A") == GameRequest(
        "Tornado voor Windows 4.0", "W", 60, 65)
    assert decode("ATornado voor Windows 4.0        0") == GameAccept(
        "Tornado voor Windows 4.0", "0")
    assert decode("M0012061100") == MoveMessage(12, 6, 11)
    assert decode("M001205250422122320") == MoveMessage(12, 5, 25, (22, 12, 23, 20))
    assert decode("E00") == GameEnd("0", "0")
    assert decode("CWhat do you think about move 35?").text == "What do you think about move 35?"
    assert decode("B005Z") == BackRequest(5, "Z")


@pytest.mark.parametrize(("text", "says"), [
    ("", "empty"),
    ("X123", "unknown message type 'X'"),
    ("M001206110", "at least 11 characters"),
    ("M0012061101", "with 1 captured pieces has 13"),
    ("M00120611000", "has 11 characters, not 12"),
    ("M0012X61100", "from field is 2 digits"),
    ("M0012001100", "from field is a square 01-50, not 00"),
    ("M0012065100", "to field is a square 01-50, not 51"),
    ("M001206112101020304050607080910111213141516171819202122", "number captured is 00-20"),
    ("M 012061100", "time is 4 digits"),
    ("E40", "reason is one of 0 1 2 3"),
    ("E02", "stop code is one of 0 1"),
    ("E0", "GAMEEND has 3 characters"),
    ("A" + "Scan".ljust(32) + "5", "acceptance code is one of 0 1 2 3"),
    ("A" + "Scan", "GAMEACC has 34 characters"),
    ("R01" + "Scan".ljust(32) + "X005075A", "follower colour is one of W Z"),
    ("R01" + "Scan".ljust(32) + "W005075C", "starting position is one of A B"),
    ("R01" + "Scan".ljust(32) + "W005075A" + "W", "43 characters"),
    ("R01" + "Scan".ljust(32) + "W005075B" + "W" + "x" * 50, "characters other than"),
    ("R01" + "Scan".ljust(32) + "W005075B" + "Q" + "e" * 50, "colour to move is one of W Z"),
    ("Rx1" + "Scan".ljust(32) + "W005075A", "version is 2 digits"),
    ("K3", "acceptance code is one of 0 1 2"),
    ("B000W", "move number is 001-999"),
    ("B005X", "colour to move is one of W Z"),
    ("C", "CHAT has a text"),
    ("Cé", "ASCII characters 1-127 only"),
    ("C" + "x" * 127, "at most 127"),
])
def test_a_malformed_message_is_refused_naming_the_field(text, says):
    with pytest.raises(DxpMessageError) as error:
        decode(text)
    assert says in str(error.value)


@pytest.mark.parametrize("message", [
    GameRequest(" leading blank", "W"), GameRequest("x" * 33, "W"), GameRequest("Scan", "B"),
    GameRequest("Scan", "W", minutes=1000), GameRequest("Scan", "W", position="W" + "e" * 49),
    MoveMessage(10000, 1, 2), MoveMessage(0, 0, 2), MoveMessage(0, 1, 2, tuple(range(1, 22))),
    GameEnd("4"), Chat(""), Chat("é"), BackRequest(0, "W"), BackAccept("3"),
])
def test_a_value_outside_the_specification_is_not_sent(message):
    with pytest.raises(DxpMessageError):
        encode(message)


# -- our board <-> DXP --------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_every_legal_move_and_position_passes_through_dxp_unchanged(seed):
    """Random games of International draughts: at every ply each legal move (captures of
    several pieces, kings' captures and promotions among them) becomes a MOVE message and
    back, and the position becomes GAMEREQ's 51 characters and back."""
    chooser = random.Random(seed)
    board = Board(variant="international")
    for _ in range(200):
        assert board_from_position(position_text(board)).position == board.position
        moves = board.legal_moves()
        if not moves:
            break
        for move in moves:
            message = message_from_move(move, 3.4)
            assert decode(encode(message)) == message and message.seconds == 3
            assert move_from_message(board, message) == move
        board.push(chooser.choice(moves))


def test_a_move_that_is_not_legal_on_our_board_is_an_engine_error():
    board = Board(variant="international")
    with pytest.raises(EngineError, match=r"played 32-26 .* not legal .* legal moves: 31-26"):
        move_from_message(board, MoveMessage(0, 32, 26))
    with pytest.raises(EngineError, match="not legal"):  # a capture where there is none
        move_from_message(board, MoveMessage(0, 32, 23, (28,)))


def test_the_initial_position_is_the_one_scan_writes():
    """Scan's fen.cpp Start_DXP: White to move, 20 black men on 1-20, 20 white on 31-50."""
    assert position_text(Board(variant="international")) == "W" + "z" * 20 + "e" * 10 + "w" * 20


# -- a peer that misbehaves ---------------------------------------------------------------------


def fake_follower(script):
    """Our end of a socket pair, and a thread that plays the peer: ``script(peer)`` gets a
    DxpConnection on the other end."""
    ours, theirs = socket.socketpair()
    peer = DxpConnection(theirs, "the fake peer", timeout=10)
    thread = threading.Thread(target=lambda: _run(script, peer), daemon=True)
    thread.start()
    return DxpConnection(ours, "the fake engine", timeout=5), thread, peer


def _run(script, peer):
    try:
        script(peer)
    except EngineError:
        pass  # our side closed the connection: what the tests want
    finally:
        peer.close()


def test_a_peer_that_plays_an_illegal_move_is_a_clean_error_and_the_connection_closes():
    seen = []

    def illegal(peer):
        seen.append(peer.receive())  # GAMEREQ
        peer.send(GameAccept("Fake engine"))
        seen.append(peer.receive())  # our first move (we are White)
        peer.send(MoveMessage(1, 1, 46))  # a black man from square 1 to 46: no such move
        seen.append(peer.receive())  # the connection must close: EngineError ends the thread

    connection, thread, _ = fake_follower(illegal)
    with pytest.raises(EngineError, match=r"Fake engine played 1-46 .*not legal.*legal moves"):
        play_dxp_game(connection, RandomPlayer(1), player_colour=0)
    thread.join(5)
    assert not thread.is_alive() and connection.socket is None
    assert isinstance(seen[0], GameRequest) and seen[0].follower_colour == "Z"
    assert seen[0].initiator == "random (seed 1)"  # the engine is told whom it plays
    assert isinstance(seen[1], MoveMessage) and len(seen) == 2


@pytest.mark.parametrize(("reply", "says"), [
    (b"A" + b"x" * 32 + b"7\0", "acceptance code is one of"),
    (b"M0001\0", "at least 11 characters"),
    (b"z" * 200, "without the NUL"),
    (b"A" + "é".encode() + b"\0", "not ASCII"),
    (b"", "closed the connection"),
])
def test_a_peer_that_sends_what_is_no_dxp_message_is_a_clean_error(reply, says):
    def script(peer):
        peer.receive()
        if reply:
            peer.socket.sendall(reply)

    connection, thread, _ = fake_follower(script)
    with pytest.raises(EngineError) as error:
        play_dxp_game(connection, RandomPlayer(1))
    assert says in str(error.value)
    thread.join(5)


def test_a_peer_that_says_nothing_times_out():
    def silent(peer):
        peer.receive()
        peer.receive(timeout=5)  # waits until our side gives up and closes

    connection, thread, _ = fake_follower(silent)
    connection.timeout = 0.3
    with pytest.raises(EngineError, match=r"sent nothing for 0\.3 s"):
        play_dxp_game(connection, RandomPlayer(1))
    thread.join(6)


def test_a_refused_game_says_why():
    def refuse(peer):
        peer.receive()
        peer.send(GameAccept("Picky", "2"))

    connection, thread, _ = fake_follower(refuse)
    with pytest.raises(EngineError, match="Picky refused the game: it declines this game"):
        play_dxp_game(connection, RandomPlayer(1))
    thread.join(5)


def test_a_chat_and_a_back_request_during_the_game_are_handled():
    answers = []

    def chatty(peer):
        request = peer.receive()
        peer.send(Chat("hello"))
        peer.send(GameAccept("Chatty"))
        board = board_from_position(request.position)
        board.push(move_from_message(board, peer.receive()))
        peer.send(BackRequest(1, "W"))
        answers.append(peer.receive())
        peer.send(GameEnd("1", "1"))  # gives up
        answers.append(peer.receive())

    connection, thread, _ = fake_follower(chatty)
    record = play_dxp_game(connection, RandomPlayer(1), player_colour=0)
    thread.join(5)
    assert answers == [BackAccept("1"), GameEnd("0", "1")]
    assert (record.black, record.result, record.reason) == ("Chatty", "2-0", "Chatty resigned")


class EndlessChat:
    """A connection whose peer answers every read at once with one more CHAT, on a clock
    that each read moves on by a millisecond: a flood that no machine load can slow."""

    def __init__(self, clock):
        self.clock, self.number = clock, 0
        self.peer, self.timeout, self.heard = "the fake engine", 0.5, True

    def send(self, message):
        pass

    def receive(self, timeout=None, allowed=None):
        self.number += 1
        self.clock.now += 0.001
        return Chat(f"chat {self.number}")


def test_a_flood_of_chat_times_out_and_keeps_the_last_chats_only(monkeypatch):
    """A peer that sends CHAT without end was waited for for ever (each CHAT restarted the
    wait), every CHAT kept in memory (0.66-0.99 GB in 15 s)."""
    clock = types.SimpleNamespace(now=0.0)
    monkeypatch.setattr(dxp, "time", types.SimpleNamespace(monotonic=lambda: clock.now))
    connection = EndlessChat(clock)
    side = DxpSide(connection)
    with pytest.raises(EngineError, match=r"sent no GameAccept within 0\.5 s"):
        side.begin(Board(variant="international"), 0, 5, 0)
    assert 450 <= connection.number <= 550  # half a second of reads, a millisecond each
    assert len(side.chats) == CHAT_LIMIT
    assert side.chats[-1] == f"chat {connection.number}"


# -- real games against Scan 2.0 ----------------------------------------------------------------


def check_games(records, scan_colours):
    """Each game, written as PDN and read back, replays legally and its result is the one
    our rules give; Scan played the colours expected."""
    for record, colour in zip(records, scan_colours, strict=True):
        assert (record.white, record.black)[colour] == "Scan 2.0"
        text = game_pdn(record, event="test", round_="1")
        tree = replay.replay_game(next(read_games(text)))
        assert str(tree.status) == "valid", text
        assert record.result != "*" and tree.result_check == "consistent", text
        assert len(tree.moves) == len(record.moves)


def test_scan_listening_plays_legal_games_against_our_client(scan_dir, tmp_path):
    """Scan as DXP server and follower (dxp-server true, dxp-initiator false): we connect,
    ask for two games with colours swapped on one connection (stop code 0, then 1) and our
    side plays random legal moves; Scan ends when told no game follows."""
    port = free_port()
    folder = scan_folder(scan_dir, tmp_path, port=port, server=True, initiator=False)
    with scan_dxp(folder) as process:
        with DxpConnection.connect("127.0.0.1", port, timeout=60,
                                   connect_timeout=30) as connection:
            records = [play_dxp_game(connection, RandomPlayer(seed), player_colour=colour,
                                     minutes=0, max_moves=150, last=colour == 1)
                       for seed, colour in ((11, 0), (12, 1))]
        assert process.wait(timeout=20) == 0
    check_games(records, scan_colours=(1, 0))
    assert processes_in(folder) == []


def test_scan_connecting_plays_legal_games_against_our_server(scan_dir, tmp_path):
    """Scan as DXP client and initiator (dxp-server false, dxp-initiator true): it connects
    to our listener and sends each GAMEREQ (White first, then Black); we play as follower."""
    with DxpListener(0) as listener:
        folder = scan_folder(scan_dir, tmp_path, port=listener.port, server=False,
                             initiator=True)
        with scan_dxp(folder) as process:
            with listener.accept(timeout=30) as connection:
                records = serve_games(connection, RandomPlayer(21), games=2)
            assert process.wait(timeout=20) == 0
    check_games(records, scan_colours=(0, 1))
    assert processes_in(folder) == []


class Interrupting(RandomPlayer):
    """A random player that, on its ``after``-th move, runs ``action`` (kills the engine, or
    raises KeyboardInterrupt as Ctrl-C would)."""

    def __init__(self, after, action):
        super().__init__(31)
        self.calls, self.after, self.action = 0, after, action

    def play(self, board, limit):
        self.calls += 1
        if self.calls == self.after:
            self.action()
        return super().play(board, limit)


@pytest.mark.parametrize("how", ["engine killed", "ctrl-c"])
def test_a_game_cut_short_closes_cleanly_and_leaves_no_engine(scan_dir, tmp_path, how):
    """Scan killed mid-game: a clean EngineError; Ctrl-C on our side: the connection is
    closed, Scan sees it and exits. Either way no Scan process is left."""
    port = free_port()
    folder = scan_folder(scan_dir, tmp_path, port=port, server=True, initiator=False)
    with scan_dxp(folder) as process:
        def cut():
            if how == "engine killed":
                process.kill()
                process.wait(10)
            else:
                raise KeyboardInterrupt

        expected = EngineError if how == "engine killed" else KeyboardInterrupt
        with DxpConnection.connect("127.0.0.1", port, timeout=30,
                                   connect_timeout=30) as connection, \
                pytest.raises(expected) as error:
            play_dxp_game(connection, Interrupting(5, cut), minutes=0)
        assert connection.socket is None
        if how == "engine killed":
            assert "closed the connection" in str(error.value) or \
                "cannot" in str(error.value)
        assert process.wait(timeout=20) is not None
    assert processes_in(folder) == []
