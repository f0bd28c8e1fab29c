"""Write games as PDN 3.0 text: deterministic, lines of at most 80 characters.

The seven tags come first (``?`` when missing), then the others in input order; then the
movetext with move numbers, comments, NAGs, strength marks, setups and variations. Moves are
written as their records say (no notation conversion here), normalised: no spaces inside a
move, no leading zeros.

>>> from pdn.reader import read_games
>>> game = next(read_games('[Event "x"]\\n1. 32-28 19-23 {good} 2. 37-32 (2. 33-29 $1) 1-0'))
>>> print(write_game(game))  # doctest: +NORMALIZE_WHITESPACE
[Event "x"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "1-0"]
<BLANKLINE>
1. 32-28 19-23 {good} 2. 37-32 (2. 33-29 $1) 1-0
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from pdn.commands import MARK
from pdn.fen import second_player_starts
from pdn.model import GameRecord, Line, MoveRecord, Ply

# The Seven Tag Roster, written first in this order (PDN 3.0, after PGN's export format).
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

LINE_WIDTH = 80
_ESCAPE = re.compile(r'\\(?=["\\]|$)|"')


def format_move(record: MoveRecord) -> str:
    """A move record in normalised form: ``06-11`` → ``6-11``, ``1- 7`` → ``1-7``,
    ``E3-D4`` → ``e3-d4``; the strength mark glued after it."""
    if record.placeholder:
        return "..." + (record.strength or "")
    text = record.separator.join(record.squares)
    if record.origin_file:
        text = record.origin_file + record.separator + text
    return text + (record.strength or "")


def _tag(name: str, value: str) -> str:
    if '"' in value or "\\" in value:
        value = _ESCAPE.sub(lambda m: chr(92) + m.group(), value)
    return f'[{name} "{value}"]'


def _comment(text: str) -> list[str]:
    """A comment as words; ``}`` cannot stand in a brace comment, so such text is written as a
    ``;`` comment that ends the line (marked by a trailing newline word)."""
    if "}" in text:
        return [";" + text, "\n"]
    return _words("{" + text + "}")


def _words(text: str) -> list[str]:
    """Text split at its spaces, an embedded command (``[%clock w0:09:57 B0:09:58]``) kept
    whole so that no line breaks inside it."""
    if MARK not in text:
        return text.split(" ")
    words: list[str] = []
    inside = False
    for word in text.split(" "):
        if inside:
            words[-1] += " " + word
        else:
            words.append(word)
        inside = words[-1].rfind(MARK) > words[-1].rfind("]")
    return words


def _next_number(number: int, second: bool) -> tuple[int, bool]:
    """The number and side of the ply after a ply numbered ``number`` (``second``: n...)."""
    return (number + 1, False) if second else (number, True)


def _ply_words(ply: Ply, number: int, second: bool, restart: bool) -> Iterator[str]:
    if not second:
        yield f"{number}."
    elif restart:
        yield f"{number}..."
    yield format_move(ply.record)
    for nag in ply.nags:
        yield f"${nag}"
    for comment in ply.comments:
        yield from _comment(comment)
    if ply.setup is not None:
        yield f'/FEN "{ply.setup}"/'
    for variation in ply.variations:
        yield from _variation_words(variation, number, second)


def _variation_words(line: Line, number: int, second: bool) -> Iterator[str]:
    words = list(_line_words(line, number, second))
    if words:
        words[0] = "(" + words[0]
        words[-1] = words[-1] + ")"
        yield from words
    else:
        yield "()"


def _line_words(line: Line, number: int, second: bool) -> Iterator[str]:
    """A line's words; plies are numbered from (``number``, ``second``) on, or from the
    number a ply was written with. The second player's move gets ``n...`` where a line
    starts or after a comment, a setup or a variation."""
    for comment in line.comments:
        yield from _comment(comment)
    if line.setup is not None:
        yield f'/FEN "{line.setup}"/'
    restart = True
    for ply in line.plies:
        if ply.number is not None:
            number, second = ply.number, ply.black_number
        yield from _ply_words(ply, number, second, restart)
        restart = bool(ply.comments or ply.variations or ply.setup is not None)
        number, second = _next_number(number, second)


def _wrap(words: Iterable[str]) -> Iterator[str]:
    """Lines of at most LINE_WIDTH characters (a longer single word stands alone)."""
    current = ""
    for word in words:
        if word == "\n":
            yield current
            current = ""
            continue
        if word == "":
            continue
        candidate = f"{current} {word}" if current else word
        if len(candidate) > LINE_WIDTH and current:
            yield current
            current = word
        else:
            current = candidate
    if current:
        yield current


def second_player_first(game: GameRecord) -> bool:
    """Whether the game's set-up has the second player to move (White starts unless its
    GameType says otherwise), so that the first ply is numbered ``1...``."""
    gametype = game.gametype
    return second_player_starts(game.start_fen,
                                gametype.white_starts if gametype is not None else True)


def write_game(game: GameRecord) -> str:
    """One game as PDN 3.0 text (tags, blank line, movetext), without a trailing newline."""
    words = list(_line_words(game.moves, 1, second_player_first(game)))
    words.append(movetext_result(game))
    return write_heading(game) + "\n".join(_wrap(words))


def movetext_result(game: GameRecord) -> str:
    """The result token that closes a game's movetext: the one written, else ``*``."""
    return game.result if game.result and game.result != "-" else "*"


def write_heading(game: GameRecord) -> str:
    """What ``write_game`` writes before the movetext: a file's opening comment read before
    the game's tags (apart), the tags, a blank line."""
    # PDN 3.0: unknown values are "?", an unknown date "????.??.??", a missing Result the
    # movetext's result or "*".
    missing = {"Date": "????.??.??", "Result": movetext_result(game)}
    tags = [_tag(name, game.tags.get(name) or missing.get(name, "?")) for name in SEVEN_TAGS]
    tags += [_tag(name, value) for name, value in game.tags.items() if name not in SEVEN_TAGS]
    # a file's opening comment, read before the game's tags, goes back there, apart
    preamble = [word for comment in game.preamble for word in (*_comment(comment), "\n")]
    before = "\n".join(_wrap(preamble)) + "\n\n" if preamble else ""
    return before + "\n".join(tags) + "\n\n"


def write_games(games: Iterable[GameRecord]) -> Iterator[str]:
    """Each game's text followed by a blank line, ready to join or to write to a file."""
    for game in games:
        yield write_game(game) + "\n\n"


__all__ = ["LINE_WIDTH", "format_move", "movetext_result", "second_player_first", "write_game",
           "write_games", "write_heading"]
