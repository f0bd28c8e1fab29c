"""The transformer: ``Game`` values built while the LALR parser reduces, with no tree.

The parser hands it flat lists of tokens (``grammar.lark``'s ``items``). Each line of play is
checked from the kinds of its tokens (numbers, annotations that annotate no move, numbers too
long) and kept as those tokens (``_LineText``): its plies are made (``pdn.moves``), with
their numbers, NAGs, strength marks, comments, setups and variations, only when first asked
for (``Line.lazy``), so that a reader that wants the moves as written makes no object per
ply. It reads tags (``pdn.tags``) and checks what a game says against itself (result token
against Result tag, PlyCount, lost moves written ``-``).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import NamedTuple

from lark import Transformer

from pdn.game import Game
from pdn.i18n import N_
from pdn.model import Diagnostic, Line, MoveRecord, Ply
from pdn.moves import (
    check_numbers,
    move_pattern,
    read_moves,
    record_at,
    starts_numbered,
    written_number,
)
from pdn.quoting import shown
from pdn.results import results_disagree
from pdn.tags import check_tag, read_tag


def _comment_text(text: str) -> str:
    """A comment's text with its whitespace runs made single spaces (layout is not content)."""
    return " ".join(text.split())


@dataclass
class _Hoisted:
    """Variations found in a line that has no move of its own, for the enclosing line."""

    variations: list[Line]


def _comment_of(token) -> str:
    """The text of a COMMENT, PAREN_COMMENT or LINE_COMMENT token."""
    text = token.value[1:] if token.type == "LINE_COMMENT" else token.value[1:-1]
    return _comment_text(text)


def _setup_of(token) -> str:
    """The FEN of a SETUP token (``/FEN "..."/``)."""
    return token.value[token.value.index('"') + 1 : token.value.rindex('"')]


class _LineText(NamedTuple):
    """A line of play as the parser gave it (``items``: its tokens and variations; ``offset``:
    the lines of the file before its chunk), which makes the plies when asked (``Line.lazy``).
    ``plain``: only moves, comments and ignored marks; ``moved``: a move or lost move seen.
    A tuple of tokens, so that it pickles as it is."""

    items: list
    offset: int
    plain: bool
    moved: bool

    def build(self) -> list[Ply]:
        """The plies, with their numbers, annotations, comments, set-ups and variations."""
        plies: list[Ply] = []
        number = None  # a MOVENUMBER token waiting for its move
        pending: list = []  # NAGs, strength marks and variations written before any move
        for item in self.items:
            if isinstance(item, _Hoisted | Line):
                variations = item.variations if isinstance(item, _Hoisted) else [item]
                if plies:
                    plies[-1].variations.extend(variations)
                else:
                    pending.extend(variations)
                continue
            kind = item.type
            if kind == "MOVE":
                run = read_moves(item, self.offset)
                first = run[0]
                if number is not None and first.number is None:
                    first.number = written_number(number.value.rstrip("."))
                    first.black_number = number.value.endswith("...")
                number = None
                if pending:
                    _attach(first, pending)
                    pending = []
                plies.extend(run)
            elif kind == "MOVENUMBER":
                number = item
            elif kind == "PLACEHOLDER":
                plies.append(_placeholder(item, number, self.offset))
                number = None
            elif kind in ("COMMENT", "PAREN_COMMENT", "LINE_COMMENT"):
                if plies:
                    plies[-1].comments.append(_comment_of(item))
            elif kind == "NAG" or kind == "STRENGTH":
                if plies:
                    _attach(plies[-1], [item])
                else:
                    pending.append(item)
            elif kind == "SETUP" and plies:
                plies[-1].setup = _setup_of(item)
        return plies

    def tokens(self) -> list[str] | None:
        """The move records as written (``Line.move_tokens``), or None if not ``plain``."""
        if not self.plain:
            return None
        records = move_pattern().findall
        return [record for item in self.items if item.type == "MOVE"
                for record in records(item.value)]

    def record_at(self, index: int) -> MoveRecord:
        """The ``index``-th ply's move record of a plain line, placed in the file."""
        records = move_pattern().finditer  # counted, not listed: a run may be huge
        for item in self.items:
            if getattr(item, "type", None) == "MOVE":
                count = sum(1 for _ in records(item.value))
                if index < count:
                    return record_at(item, self.offset, index)
                index -= count
        raise IndexError(index)

    def ply_count(self) -> int:
        """The number of plies, counted without making them."""
        records = move_pattern().findall
        return sum(len(records(item.value)) if item.type == "MOVE" else 1
                   for item in self.items
                   if not isinstance(item, _Hoisted | Line) and item.type in _PLIES)

    def has_plies(self) -> bool:
        return self.moved

    def first_line(self) -> int:
        """The line of the file where the first ply is written (0 without a ply): the line
        of its move, which a newline may part from its number."""
        for item in self.items:
            if isinstance(item, _Hoisted | Line) or item.type not in _PLIES:
                continue
            line = item.line + self.offset
            if item.type == "MOVE":
                numbered = starts_numbered(item.value)
                if numbered:
                    line += item.value[:numbered].count("\n")
            return line
        return 0


_PLIES = ("MOVE", "PLACEHOLDER")  # the tokens that make plies


def _placeholder(token, number, offset: int) -> Ply:
    """A lost move (``...``, PDN's unknown move, or a bare ``-``)."""
    record = MoveRecord(token.value, line=token.line + offset, column=token.column,
                        placeholder=True)
    if number is None:
        return Ply(record)
    return Ply(record, written_number(number.value.rstrip(".")), number.value.endswith("..."))


def _attach(ply: Ply, items: list) -> None:
    """Attach annotations to a ply: NAGs, a strength mark, variations."""
    for item in items:
        if isinstance(item, Line):
            ply.variations.append(item)
        elif item.type == "NAG":
            ply.nags.append(written_number(item.value[1:]))
        else:
            ply.record = ply.record._replace(strength=(ply.record.strength or "") + item.value)


class GameTransformer(Transformer):
    """Builds ``Game`` values while the LALR parser reduces (Lark's ``transformer=``)."""

    def __init__(self) -> None:
        super().__init__()
        self.line_offset = 0
        self.text = ""
        self.diagnostics: list[Diagnostic] = []
        self.dashes = False

    def start_chunk(self, first_line: int, text: str = "") -> None:
        """Prepare for a chunk that starts at ``first_line`` of the file (``text``: the chunk,
        to tell a result glued to what follows it)."""
        self.line_offset = first_line - 1
        self.text = text
        self.diagnostics = []
        self.dashes = False  # a "-" lost move was seen

    def _report(self, token, code: str, message: str, severity: str = "error",
                **values: str) -> None:
        """A diagnostic at ``token`` for the game of the chunk that holds its line."""
        self.diagnostics.append(self._at(token, code, message, severity, **values))

    def _at(self, token, code: str, message: str, severity: str, **values: str) -> Diagnostic:
        """A diagnostic at ``token``: ``message`` a catalog entry filled with ``values``,
        ``{where}`` its place in the file."""
        line = token.line + self.line_offset
        return Diagnostic(code, message.format(where=f"{line}:{token.column}", **values), line,
                          token.column, severity)

    @staticmethod
    def items(children: list) -> list:
        if len(children) == 1:
            return children
        children[0].append(children[1])
        return children[0]

    def line(self, children: list) -> Line | _Hoisted:
        """A line of play, checked now and left as text: its plies are made when first asked
        for (``_LineText``). Everything the reader reports about a line is found here, from
        the kinds of its tokens, so the diagnostics do not wait for the plies."""
        items = children[0]
        moved = False  # a move or a lost move was seen: later annotations go to a ply
        plain = True  # only moves, comments and ignored marks (Line.move_tokens)
        number = None  # a MOVENUMBER token waiting for its move
        pending: list = []  # NAGs, strength marks and variations written before any move
        comments: list[str] = []
        setup = None
        for item in items:
            if isinstance(item, _Hoisted | Line):
                plain = False
                if not moved:
                    pending.extend(item.variations if isinstance(item, _Hoisted) else [item])
                continue
            kind = item.type
            if kind == "MOVE":
                check_numbers(item.value)
                if number is not None and not starts_numbered(item.value):
                    written_number(number.value.rstrip("."))
                number = None
                if pending:
                    for waiting in pending:
                        if not isinstance(waiting, Line) and waiting.type == "NAG":
                            written_number(waiting.value[1:])
                    pending = []
                moved = True
            elif kind == "MOVENUMBER":
                plain = False
                if number is not None:
                    self._dangling(number)
                number = item
            elif kind == "PLACEHOLDER":
                plain = False
                self.dashes = self.dashes or item.value == "-"
                if number is not None:
                    written_number(number.value.rstrip("."))
                number = None
                moved = True
            elif kind in ("COMMENT", "PAREN_COMMENT", "LINE_COMMENT"):
                if not moved:
                    comments.append(_comment_of(item))
            elif kind == "NAG" or kind == "STRENGTH":
                plain = False
                if not moved:
                    pending.append(item)
                elif kind == "NAG":
                    written_number(item.value[1:])
            elif kind == "SETUP":
                if moved:
                    plain = False
                else:
                    setup = _setup_of(item)
        if number is not None:
            self._dangling(number)
        if not moved and pending and all(isinstance(item, Line) for item in pending):
            return _Hoisted(pending)
        for item in pending:
            if not isinstance(item, Line):
                self._report(item, "movetext", N_("'{word}' at {where} annotates no move"),
                             "warning", word=item.value)
        return Line.lazy(_LineText(items, self.line_offset, plain, moved), comments, setup)

    def _dangling(self, number) -> None:
        self._report(number, "syntax",
                     N_("move number '{word}' at {where} is not followed by a move"),
                     word=number.value)

    def variation(self, items: list) -> Line | _Hoisted:
        return items[0] if items else Line()

    def tagged(self, items: list) -> list[Game]:
        tags = [item for item in items if not isinstance(item, Line | _Hoisted)
                and item.type == "TAG"]
        read = [read_tag(tag.value) for tag in tags]
        pairs = [(name, value) for name, value, _ in read]
        games = [Game(line=items[0].line + self.line_offset)]
        places: dict[str, tuple[int, int]] = {}  # where each tag of the game was written
        for position, (tag, (name, value, sound)) in enumerate(zip(tags, read, strict=True)):
            game = games[-1]
            line = tag.line + self.line_offset
            if name in places:
                if _next_header(pairs, position, game.tags):
                    games.append(Game(line=line))
                    game, places = games[-1], {}
                else:
                    game.diagnostics.append(_repeated_tag(name, game.tags[name], value, tag,
                                                          line, places[name]))
            places[name] = (line, tag.column)
            diagnostic = None if sound else check_tag(tag.value, name, value, line, tag.column)
            if diagnostic:
                game.diagnostics.append(diagnostic)
            game.tags[name] = value
        game = games[-1]
        for item in items[len(tags):]:
            if isinstance(item, Line | _Hoisted):
                game.moves = self._main_line(item)
            else:
                self._result(game, item)
        return games

    def _result(self, game: Game, token) -> None:
        """A result token of ``game``: the first is its result (spaces around the dash
        dropped), a second one the same result written again; each checked and noted on the
        game itself (the next game may start on the same line)."""
        written = token.value
        result = "".join(written.split())
        notes = game.diagnostics
        if game.result is not None:
            same = (N_("the same result") if result == game.result
                    else N_("'{result}' is kept").format(result=game.result))
            notes.append(self._at(token, "repeated-result",
                                  N_("result '{written}' at {where} follows the result of the "
                                     "game: read as one ({reason})"), "warning",
                                  written=written, reason=same))
            return
        game.result = result
        if result != written:
            notes.append(self._at(token, "result-spelling",
                                  N_("result '{written}' at {where} is written with spaces: "
                                     "read as '{result}'"), "warning",
                                  written=written, result=result))
        end = token.start_pos + len(written)
        glued = self.text[end:end + 1]
        if glued and glued in "0123456789[*":  # a move number, a tag or another result
            notes.append(self._at(token, "glued-result",
                                  N_("result '{written}' at {where} runs into '{word}' with no "
                                     "space: the game ends there"), "warning",
                                  written=written, word=shown(self.text[end:].split()[0])))
        self._check_result(game, token, result)

    def _main_line(self, line: Line | _Hoisted) -> Line:
        if isinstance(line, Line):
            return line
        self.diagnostics.append(Diagnostic("movetext", N_("variations with no main line move "
                                                          "are dropped"), severity="warning"))
        return Line()

    def _check_result(self, game: Game, token, result: str) -> None:
        tag = game.tags.get("Result", "")
        if results_disagree(result, tag):
            self._report(token, "result", N_("result '{written}' at {where} disagrees with the "
                                             "Result tag \"{value}\" (the tag is taken)"),
                         "warning", written=token.value, value=tag)

    def untagged(self, items: list) -> list[Game]:
        game = Game(moves=self._main_line(items[0]))
        for token in items[1:]:
            self._result(game, token)
        text = game.moves._pending()
        if isinstance(text, _LineText):
            game.line = text.first_line()
        elif game.moves.plies:
            game.line = game.moves.plies[0].record.line
        return [game]

    def start(self, groups: list[list[Game]]) -> list[Game]:
        games = _merge_comment_only([game for group in groups for game in group])
        for game in games:
            _result_placeholder(game)
            _check_plycount(game)
            if self.dashes:
                _check_dashes(game.moves, game.diagnostics)
        placed = [game for game in games if game.line]
        starts = [game.line for game in placed]
        for diagnostic in self.diagnostics:
            _owner(games, placed, starts, diagnostic.line).diagnostics.append(diagnostic)
        return games


# How far after a repeated tag name the reader looks for another name of the same header.
_HEADER_LOOKAHEAD = 8


def _next_header(pairs: list[tuple[str, str]], position: int, tags: dict[str, str]) -> bool:
    """Whether the tag ``pairs[position]`` (name and value), a name the current game already
    has in ``tags``, starts the next game's header (a game with tags only, then the next): it
    does when a tag that follows it repeats another name of the current game too, and the
    repeated names do not all repeat their values. A name repeated alone, or a header written
    twice over, is a slip inside one header."""
    window = pairs[position:position + 1 + _HEADER_LOOKAHEAD]
    repeated = [(name, value) for name, value in window if name in tags]
    return (any(name != pairs[position][0] for name, _ in repeated)
            and any(tags[name] != value for name, value in repeated))


def _repeated_tag(name: str, earlier: str, value: str, token, line: int,
                  first: tuple[int, int]) -> Diagnostic:
    """The warning on a tag written twice in one header (``value`` after ``earlier``); the
    later value is taken, as python-chess's reader does (its headers are a mapping, set tag
    by tag)."""
    same = N_("with the same value") if value == earlier else N_(
        "with another value: \"{value}\" is taken over \"{earlier}\"").format(
        value=shown(value, 40), earlier=shown(earlier, 40))
    return Diagnostic("repeated-tag", N_("tag {name} at {where} repeats the one at {first} in the "
                                         "same header, {reason}").format(
        name=name, where=f"{line}:{token.column}", first=f"{first[0]}:{first[1]}", reason=same),
                      line, token.column, "warning")


def _owner(games: list[Game], placed: list[Game], starts: list[int], line: int | None
           ) -> Game:
    """The game of a chunk that a diagnostic at ``line`` belongs to: the last one starting on
    or before it (``placed``: the games with a known first line, ``starts``: those lines)."""
    if line is None:
        return games[0]
    found = bisect_right(starts, line)
    return placed[found - 1] if found else games[0]


def _check_dashes(line: Line, diagnostics: list[Diagnostic]) -> None:
    """A bare ``-`` for a lost move is not PDN: an error, although the game is read with the
    move marked lost (PDN writes an unknown move as ``...``)."""
    for ply in line.plies:
        record = ply.record
        if record.placeholder and record.text == "-":
            where = f"{record.line}:{record.column}"
            diagnostics.append(Diagnostic("lost-move", N_("'-' at {where} is not a move: PDN "
                                                          "writes an unknown move as "
                                                          "'...'").format(where=where),
                                          record.line, record.column))
        for variation in ply.variations:
            _check_dashes(variation, diagnostics)


def _check_plycount(game: Game) -> None:
    """A PlyCount tag that is not the number of plies of the main line: a warning."""
    written = game.tags.get("PlyCount", "").strip()
    if not written.isdigit():
        return
    count = game.moves.ply_count()
    if (written.lstrip("0") or "0") != str(count):
        game.diagnostics.append(Diagnostic(
            "plycount", N_("PlyCount tag says {written} but the main line has {count} "
                           "plies").format(written=written, count=count),
            game.line, 1, "warning"))


def _merge_comment_only(games: list[Game]) -> list[Game]:
    """Fold a game that is only comments (text after a result) into a neighbour game; those
    before a tagged game (a file's opening comment) are its ``preamble``, those before a
    game without tags its leading comments."""
    kept: list[Game] = []
    leading: list[str] = []
    for game in games:
        if (not game.tags and game.result is None and not game.moves.setup
                and not game.moves.has_plies()):
            if kept:
                _append_comments(kept[-1].moves, game.moves.comments)
            else:
                leading.extend(game.moves.comments)
            continue
        if leading:
            (game.preamble if game.tags else game.moves.comments)[:0] = leading
            leading = []
        kept.append(game)
    if leading and not kept:
        kept.append(Game(moves=Line(comments=leading)))
    return kept


def _append_comments(line: Line, comments: list[str]) -> None:
    target = line.plies[-1].comments if line.plies else line.comments
    target.extend(comments)


def _result_placeholder(game: Game) -> None:
    """A closing ``-`` with Result tag ``-`` (BrunoGUI exports) is the result, not a lost move."""
    if game.result is not None or game.tags.get("Result") != "-":
        return
    plies = game.moves.plies
    if (plies and plies[-1].record.placeholder and plies[-1].record.text == "-"
            and not plies[-1].comments and not plies[-1].variations):
        plies.pop()
        game.result = "-"
