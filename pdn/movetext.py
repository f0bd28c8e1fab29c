"""The transformer: ``Game`` values built while the LALR parser reduces, with no tree.

The parser hands it flat lists of tokens (``grammar.lark``'s ``items``); it turns MOVE tokens
into plies (``pdn.moves``), attaches numbers, NAGs, strength marks, comments, setups and
variations to them, reads tags (``pdn.tags``), and checks what a game says against itself
(result token against Result tag, PlyCount, lost moves written ``-``).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from lark import Transformer

from pdn.model import Diagnostic, Game, Line, MoveRecord, Ply
from pdn.moves import read_moves
from pdn.tags import UNKNOWN_RESULTS, check_tag, read_tag


def _comment_text(text: str) -> str:
    """A comment's text with its whitespace runs made single spaces (layout is not content)."""
    return " ".join(text.split())


def _result_key(result: str) -> str:
    return result.strip().replace(":", "-")


@dataclass
class _Hoisted:
    """Variations found in a line that has no move of its own, for the enclosing line."""

    variations: list[Line]


class GameTransformer(Transformer):
    """Builds ``Game`` values while the LALR parser reduces (Lark's ``transformer=``)."""

    def __init__(self) -> None:
        super().__init__()
        self.line_offset = 0
        self.diagnostics: list[Diagnostic] = []
        self.dashes = False

    def start_chunk(self, first_line: int) -> None:
        """Prepare for a chunk that starts at ``first_line`` of the file."""
        self.line_offset = first_line - 1
        self.diagnostics = []
        self.dashes = False  # a "-" lost move was seen

    def _report(self, token, code: str, message: str, severity: str = "error") -> None:
        line = token.line + self.line_offset
        self.diagnostics.append(
            Diagnostic(code, f"{message.format(where=f'{line}:{token.column}')}", line,
                       token.column, severity)
        )

    @staticmethod
    def items(children: list) -> list:
        if len(children) == 1:
            return children
        children[0].append(children[1])
        return children[0]

    def line(self, children: list) -> Line | _Hoisted:
        items = children[0]
        result = Line()
        plies = result.plies
        number = None  # a MOVENUMBER token waiting for its move
        pending: list = []  # NAGs, strength marks and variations written before any move
        for item in items:
            if isinstance(item, _Hoisted | Line):
                variations = item.variations if isinstance(item, _Hoisted) else [item]
                if plies:
                    plies[-1].variations.extend(variations)
                else:
                    pending.extend(variations)
                continue
            kind = item.type
            if kind == "MOVE":
                run = read_moves(item, self.line_offset)
                first = run[0]
                if number is not None and first.number is None:
                    first.number = int(number.value.rstrip("."))
                    first.black_number = number.value.endswith("...")
                number = None
                if pending:
                    self._attach(first, pending)
                    pending = []
                plies.extend(run)
            elif kind == "MOVENUMBER":
                if number is not None:
                    self._dangling(number)
                number = item
            elif kind == "PLACEHOLDER":
                plies.append(self._placeholder(item, number))
                number = None
            elif kind in ("COMMENT", "PAREN_COMMENT"):
                self._comment(result, _comment_text(item.value[1:-1]))
            elif kind == "LINE_COMMENT":
                self._comment(result, _comment_text(item.value[1:]))
            elif kind == "NAG" or kind == "STRENGTH":
                if plies:
                    self._attach(plies[-1], [item])
                else:
                    pending.append(item)
            elif kind == "SETUP":
                fen = item.value[item.value.index('"') + 1 : item.value.rindex('"')]
                if plies:
                    plies[-1].setup = fen
                else:
                    result.setup = fen
        if number is not None:
            self._dangling(number)
        if not plies and pending and all(isinstance(item, Line) for item in pending):
            return _Hoisted(pending)
        for item in pending:
            if not isinstance(item, Line):
                self._report(item, "movetext", f"'{item.value}' at {{where}} annotates no move",
                             "warning")
        return result

    def _dangling(self, number) -> None:
        self._report(number, "syntax",
                     f"move number '{number.value}' at {{where}} is not followed by a move")

    def _placeholder(self, token, number) -> Ply:
        """A lost move (``...``, PDN's unknown move, or a bare ``-``)."""
        self.dashes = self.dashes or token.value == "-"
        record = MoveRecord(token.value, line=token.line + self.line_offset, column=token.column,
                            placeholder=True)
        if number is None:
            return Ply(record)
        return Ply(record, int(number.value.rstrip(".")), number.value.endswith("..."))

    @staticmethod
    def _comment(line: Line, text: str) -> None:
        if line.plies:
            line.plies[-1].comments.append(text)
        else:
            line.comments.append(text)

    @staticmethod
    def _attach(ply: Ply, items: list) -> None:
        """Attach annotations to a ply: NAGs, a strength mark, variations."""
        for item in items:
            if isinstance(item, Line):
                ply.variations.append(item)
            elif item.type == "NAG":
                ply.nags.append(int(item.value[1:]))
            else:
                ply.record = ply.record._replace(
                    strength=(ply.record.strength or "") + item.value)

    def variation(self, items: list) -> Line | _Hoisted:
        return items[0] if items else Line()

    def tagged(self, items: list) -> list[Game]:
        games = [Game(line=items[0].line + self.line_offset)]
        for item in items:
            game = games[-1]
            if isinstance(item, Line | _Hoisted):
                game.moves = self._main_line(item)
            elif item.type == "TAG":
                name, value, sound = read_tag(item.value)
                line = item.line + self.line_offset
                if name == "Event" and "Event" in game.tags:  # a game with tags only, then the next
                    games.append(Game(line=line))
                    game = games[-1]
                diagnostic = None if sound else check_tag(item.value, name, value, line,
                                                          item.column)
                if diagnostic:
                    game.diagnostics.append(diagnostic)
                game.tags[name] = value
            else:
                game.result = item.value
                self._check_result(game, item)
        return games

    def _main_line(self, line: Line | _Hoisted) -> Line:
        if isinstance(line, Line):
            return line
        self.diagnostics.append(Diagnostic("movetext", "variations with no main line move are "
                                           "dropped", severity="warning"))
        return Line()

    def _check_result(self, game: Game, token) -> None:
        tag = game.tags.get("Result", "")
        if token.value != "*" and tag.strip() not in UNKNOWN_RESULTS | {"*"} and \
                _result_key(token.value) != _result_key(tag):
            self._report(token, "result", f"result '{token.value}' at {{where}} disagrees with the "
                         f"Result tag \"{tag}\" (the tag is taken)", "warning")

    def untagged(self, items: list) -> list[Game]:
        game = Game(moves=self._main_line(items[0]))
        if len(items) > 1:
            game.result = items[1].value
        if game.moves.plies:
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
            diagnostics.append(Diagnostic("lost-move", f"'-' at {where} is not a move: PDN writes "
                                          "an unknown move as '...'", record.line, record.column))
        for variation in ply.variations:
            _check_dashes(variation, diagnostics)


def _check_plycount(game: Game) -> None:
    """A PlyCount tag that is not the number of plies of the main line: a warning."""
    written = game.tags.get("PlyCount", "").strip()
    if written.isdigit() and (written.lstrip("0") or "0") != str(len(game.moves.plies)):
        game.diagnostics.append(Diagnostic(
            "plycount", f"PlyCount tag says {written} but the main line has "
            f"{len(game.moves.plies)} plies", game.line, 1, "warning"))


def _merge_comment_only(games: list[Game]) -> list[Game]:
    """Fold a game that is only comments (text after a result) into a neighbour game."""
    kept: list[Game] = []
    leading: list[str] = []
    for game in games:
        if not game.tags and not game.moves.plies and game.result is None and not game.moves.setup:
            if kept:
                _append_comments(kept[-1].moves, game.moves.comments)
            else:
                leading.extend(game.moves.comments)
            continue
        if leading:
            game.moves.comments[:0] = leading
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
    plies = game.moves.plies
    if (game.result is None and game.tags.get("Result") == "-" and plies
            and plies[-1].record.placeholder and plies[-1].record.text == "-"
            and not plies[-1].comments and not plies[-1].variations):
        plies.pop()
        game.result = "-"
