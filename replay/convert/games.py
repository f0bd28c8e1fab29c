"""Convert game records between notations through the rules engine, losslessly.

Every move is first resolved to the one legal move it means (``replay.record.replayer``), then
written again in the notation asked for: ``full`` (``c3-d4``, ``c3:e5``), ``short``
(Russian ``ed4``, ``b:d6``; full squares only where short is ambiguous), ``numeric``
(``22-17`` in any numbering) or ``pdn`` (PDN 3.0 as the GameType prescribes). Comments,
NAGs, strength marks, variations and tags are kept; the GameType tag is rewritten to state the
new notation. A game that does not replay is not converted, unless ``partial`` converts it
up to the error and says so in a comment. A game with lost moves (``1. - - 2. - -``,
``...``) is converted as far as it is known; the lost moves are written as PDN's ``...`` and
any record after them is kept as written, since the position it was played in is unknown.

>>> text = convert_text("1.ed4 dc5 2.fe3 fg5 3.cb4 gh4 4.b:d6", target=Target("full"),
...                     output="text", layout="inline")
>>> text.strip()
'1.e3-d4 d6-c5 2.f2-e3 f6-g5 3.c3-b4 g5-h4 4.b4:d6'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from copy import deepcopy
from dataclasses import dataclass, field, replace
from functools import cache

from pdn.fen import FenError, format_fen, parse_fen, second_player_starts
from pdn.game import Game
from pdn.gametype import GameType, GameTypeError, SquareNotation, parse_gametype
from pdn.model import Line, MoveRecord, Ply
from pdn.writer import format_move, movetext_result, write_game, write_heading
from replay.record.board import Board
from replay.record.inference import standard_form, standard_tags
from replay.record.notation import PATH_STYLES, route_squares, short_is_ambiguous
from replay.record.replayer import Problem, ReplayedGame, replay_game
from replay.record.tree import GameNode, Variation, walk
from replay.rules import native
from replay.rules.identity import ByIdentity
from replay.rules.move import Move
from replay.rules.position import Position, for_variant, position_fen
from replay.rules.variants import Rules, Variant
from replay.validate.reports import GameReport

TARGETS = ("full", "short", "numeric", "pdn")
FORMATS = ("pdn", "text", "json", "fen")
LAYOUTS = ("columns", "inline")
CAPTURE_SEPARATORS = ("x", ":", "-")
# The capture separator each GameType prescribes (docs/notation.md's table); "x" for the others.
# Warnings about records that conversion writes differently: said, never silent.
CORRECTION_CODES = ("notation", "resolved-by-continuation")
# Where a line stops at lost moves: the game is incomplete, not wrong, and still converted.
LOST_MOVES_CODES = ("lost-moves", "variation-lost-moves")
UNKNOWN = (None, "", "?", "*", "????.??.??")


class TargetError(ValueError):
    """Conversion options that do not fit together or do not fit the variant."""


class ConversionError(ValueError):
    """Games that could not be converted; ``reports`` say why, as ``pdn validate`` does."""

    def __init__(self, reports: list[GameReport]) -> None:
        first = reports[0].errors[0]["message"] if reports[0].errors else "not converted"
        super().__init__(f"{len(reports)} game(s) not converted: {reports[0].title}: {first}")
        self.reports = reports


@dataclass(frozen=True)
class Target:
    """The notation to write: ``to`` one of TARGETS, the capture path style, the capture
    separator (default: the GameType's) and, for ``numeric``, the numbering (``N0``..``N3``
    or a GameType whose numbering to use; default: the one the variant's numbers mean)."""

    to: str = "pdn"
    paths: str = "minimal"
    capture_separator: str | None = None
    numbering: str | None = None

    def __post_init__(self) -> None:
        if self.to not in TARGETS:
            raise TargetError(f"unknown target '{self.to}'; choose {', '.join(TARGETS)}")
        if self.paths not in PATH_STYLES:
            raise TargetError(f"unknown path style '{self.paths}'; choose "
                              f"{', '.join(PATH_STYLES)}")
        if self.capture_separator not in (None, *CAPTURE_SEPARATORS):
            raise TargetError(f"capture separator must be one of {' '.join(CAPTURE_SEPARATORS)}")
        if self.numbering is not None and self.to != "numeric":
            raise TargetError("--numbering applies to --to numeric only")
        if self.to == "pdn" and (self.capture_separator or self.paths not in ("minimal",
                                                                              "canonical")):
            raise TargetError("--to pdn writes what PDN 3.0 prescribes: no --capture-sep, and "
                              "--paths minimal or canonical only")
        if self.to == "short" and self.capture_separator == "-":
            raise TargetError("short notation marks a capture with ':' or 'x', not '-'")

    def gametype(self, variant: Variant) -> GameType:
        """The GameType the converted records are written in."""
        base = variant.gametype
        if self.to == "pdn":
            return base
        if self.to == "numeric":
            return replace(base, numeric=True, corner=numbering_corner(variant, self.numbering))
        return base.alphanumeric()

    def separator(self, variant: Variant) -> str:
        """The mark between the squares of a capture."""
        if self.capture_separator:
            return self.capture_separator
        if self.to == "short":
            return ":"
        return variant.gametype.capture_separator


def numbering_corner(variant: Variant, numbering: str | None) -> int:
    """The PDN corner digit (``N<digit>``) of a numbering for this variant's board.

    Default: numeric variants keep theirs; alphanumeric ones get the numbering their numbers
    are read in (docs/rules.md: Russian engines number like English checkers, 1 = b8).
    """
    geo, white_starts = variant.geometry, variant.white_starts
    if numbering is None:
        if variant.gametype.numeric:
            return variant.gametype.corner
        wanted = geo.numbering(1, False).squares
    elif re.fullmatch(r"[Nn][0-3]", numbering.strip()):
        return int(numbering.strip()[1])
    else:
        wanted = _numbering_of(numbering, variant)
    for corner in range(4):
        if geo.numbering(corner, white_starts).squares == wanted:
            return corner
    raise TargetError(f"numbering '{numbering}' does not fit the {variant.name} board")


def _numbering_of(text: str, variant: Variant) -> tuple[int, ...]:
    try:
        other = parse_gametype(text)
    except GameTypeError as error:
        raise TargetError(f"--numbering must be N0..N3 or a GameType: {error}") from None
    if (other.width, other.height, other.invert) != (variant.geometry.width,
                                                     variant.geometry.height,
                                                     variant.geometry.invert):
        raise TargetError(f"GameType {other.number} is a {other.width}x{other.height} board "
                          f"of other squares than {variant.name}'s")
    if other.notation.numbering is None:
        raise TargetError(f"GameType {other.number} names squares alphanumerically")
    return other.notation.numbering.squares


# ---- resolving the game tree ------------------------------------------------------------------

@dataclass
class ConvertedPly:
    """One resolved ply: the record as converted, where it stands and what it led to."""

    ply: Ply
    move: Move
    record: MoveRecord
    number: int
    side: str
    after: Position  # the position after the move
    notation: SquareNotation  # the target's square names
    details: dict | None = None
    variations: list[ConvertedLine] = field(default_factory=list)

    @property
    def fen(self) -> str:
        """The position after the move in the target notation, made when asked for (only
        the JSON and FEN outputs ask)."""
        return position_fen(self.after, self.notation)


@dataclass
class ConvertedLine:
    """A line of play as far as it resolves; ``stop`` says why it ends early."""

    line: Line
    steps: list[ConvertedPly]
    stop: Problem | None = None


@dataclass
class Conversion:
    """What converting one game gave: the converted game (None when not converted), the
    resolved tree, and a report whose errors say what was not converted and whose warnings
    say which records were written differently on purpose."""

    source: Game
    game: Game | None
    tree: ConvertedLine | None
    report: GameReport
    target: Target
    variant: Variant

    @property
    def complete(self) -> bool:
        """Converted to the end of every line (no error, no lost moves)."""
        return self.game is not None and self.tree is not None and \
            next(_stops(self.tree), None) is None


class _Writer:
    """Writes resolved moves in the target notation (a board is passed positioned before the
    move)."""

    def __init__(self, variant: Variant, target: Target, details: bool) -> None:
        self.variant, self.target = variant, target
        self.gametype = target.gametype(variant)
        self.notation = self.gametype.notation
        self.separator = target.separator(variant)
        self.others = ({to: _Writer(variant, Target(to), False) for to in TARGETS}
                       | {"route": _Writer(variant, Target("full", "all"), False)}
                       if details else {})

    def record(self, board: Board, move: Move, source: MoveRecord) -> MoveRecord:
        """The converted record of a move, keeping the source's strength mark and place."""
        if self.target.to == "short" and not short_is_ambiguous(board, move):
            mark = self.separator if move.captures else ""
            file = self.variant.geometry.name(move.origin)[0]
            squares: tuple[str, ...] = (self.variant.geometry.name(move.destination),)
            return MoveRecord(f"{file}{mark}{squares[0]}", squares, mark, file,
                              source.strength, source.line, source.column)
        names = tuple(self.notation.name(sq)
                      for sq in route_squares(board, move, self.target.paths))
        mark = self.separator if move.captures else "-"
        return MoveRecord(mark.join(names), names, mark, None, source.strength, source.line,
                          source.column)

    def all_notations(self, board: Board, move: Move) -> dict[str, str]:
        """The move in every notation (and its whole route), for the JSON output."""
        return {name: format_move(writer.record(board, move, MoveRecord("")))
                for name, writer in self.others.items()}


def _branch(variation: Variation, writer: _Writer, board: Board | None = None
            ) -> ConvertedLine:
    """A line of the game tree written in the target notation (``board``: one board of the
    game's variant, set before each move in turn, rather than one made per move)."""
    if board is None and variation:
        board = Board(variation[0].variant)
    return ConvertedLine(variation.line, [_step(node, writer, board) for node in variation],
                         variation.stop)


def _step(node: GameNode, writer: _Writer, board: Board) -> ConvertedPly:
    board.position = for_variant(node.before, board.variant)
    step = ConvertedPly(node.ply, node.move, writer.record(board, node.move, node.ply.record),
                        node.move_number, node.side, node.position, writer.notation)
    if writer.others:
        step.details = writer.all_notations(board, node.move)
    step.variations = [_branch(variation, writer, board) for variation in node.variations]
    return step


def _stops(branch: ConvertedLine) -> Iterator[Problem]:
    """Every line end that is not the record's end, main line first."""
    if branch.stop is not None:
        yield branch.stop
    for step in branch.steps:
        for variation in step.variations:
            yield from _stops(variation)


# ---- building the converted game ------------------------------------------------------------

def _converted_line(branch: ConvertedLine, fen: Callable[[str | None], str | None]) -> Line:
    plies = [replace(step.ply, record=step.record, nags=list(step.ply.nags),
                     comments=list(step.ply.comments), setup=fen(step.ply.setup),
                     variations=[_converted_line(v, fen) for v in step.variations])
             for step in branch.steps]
    comments = list(branch.line.comments)
    if _lost(branch.stop):  # the lost moves and what follows them, as written
        plies += [deepcopy(ply) for ply in branch.line.plies[len(branch.steps):]]
    elif branch.stop is not None:
        note = f"pdn convert: not converted from here on: {_describe(branch.stop)}"
        if plies:
            plies[-1].comments.append(note)
        else:
            comments.append(note)
    return Line(plies, comments, fen(branch.line.setup))


def _lost(problem: Problem | None) -> bool:
    return problem is not None and problem.code in LOST_MOVES_CODES


def _kept_as_written(branch: ConvertedLine) -> list[Problem]:
    """A warning for each line whose records after its lost moves are kept as written."""
    found = []
    if _lost(branch.stop):
        rest = branch.line.plies[len(branch.steps):]
        moves = sum(not ply.record.placeholder for ply in rest)
        if moves or any(ply.variations for ply in rest):
            stop = branch.stop
            found.append(Problem("kept-as-written", f"{moves} move(s) after the lost moves "
                                 "(and their variations) are kept as written: the position "
                                 "they were played in is unknown", stop.line, stop.column,
                                 stop.move_number, stop.side, stop.token))
    for step in branch.steps:
        for variation in step.variations:
            found += _kept_as_written(variation)
    return found


def _describe(problem: Problem) -> str:
    where = f"move {problem.move_number} ({problem.side}) " if problem.move_number else ""
    token = f"'{problem.token}' " if problem.token else ""
    return f"{where}{token}{problem.code} — {problem.message}".replace("}", ")")


def _fen_rewriter(source: SquareNotation, target: SquareNotation
                  ) -> Callable[[str | None], str | None]:
    """Rewrites a FEN in the target notation (the same position; clocks kept); a FEN that does
    not read is kept as written."""
    def rewrite(fen: str | None) -> str | None:
        if not fen:
            return fen
        try:
            setup = parse_fen(fen, source)
        except FenError:
            return fen
        return format_fen(setup, target, clocks=setup.halfmove_clock is not None)
    return rewrite


def _converted_tags(game: Game, gametype: str, variant: Variant,
                    fen: Callable[[str | None], str | None]) -> dict[str, str]:
    """The converted game's tags: in the variant's standard form, the GameType tag
    ``gametype`` stating the new notation, the FEN written in it."""
    tags = standard_tags(game.tags, variant)
    tags["GameType"] = gametype
    if tags.get("FEN"):
        tags["FEN"] = fen(tags["FEN"]) or ""
    return tags


def _converted_game(game: Game, tree: ConvertedLine, writer: _Writer, variant: Variant) -> Game:
    fen = _fen_rewriter(variant.gametype.notation, writer.notation)
    tags = _converted_tags(game, writer.gametype.tag(), variant, fen)
    moves = _converted_line(tree, fen)
    # PDN 3.0's writing form has no place for a file's opening comment before the tags (and
    # readers such as pydraughts stop there): it opens game 1's moves, as the text before them
    moves.comments[:0] = game.preamble
    return Game(tags=tags, moves=moves, result=game.result,
                diagnostics=list(game.diagnostics), index=game.index, line=game.line,
                source=game.source)


# ---- the API ----------------------------------------------------------------------------------

def reading_variant(game: Game, default: Variant | None = None,
                    override: Variant | None = None, *, rules: Rules | None = None,
                    follow: Variant | None = None, shown: Variant | None = None
                    ) -> tuple[Variant, ReplayedGame]:
    """The variant a game is read with (its squares' numbering included) and its replay;
    ``replay_game`` tries the numbering the GameType tag states where the standard one
    fails (and takes ``follow`` for a record that tells nothing, ``shown`` for one that
    several variants replay)."""
    replayed = replay_game(game, default, override, rules=rules, follow=follow, shown=shown)
    return replayed.variant, replayed


def convert_game(game: Game, default: Variant | None = None, target: Target | None = None,
                 *, override: Variant | None = None, partial: bool = False,
                 details: bool = False, rules: Rules | None = None,
                 follow: Variant | None = None, shown: Variant | None = None) -> Conversion:
    """Convert one game; ``default`` is the variant of a game without GameType tag (None:
    told from the record), ``override`` the variant of every game, ``rules`` rule options set
    on top of the game's variant, ``follow`` the variant of a record that tells nothing,
    ``shown`` the variant its file's games show (``replay_game``). ``details`` adds every
    notation of each move (for JSON). A game with an illegal or unreadable move is converted
    only with ``partial``; a game with lost moves is converted as far as it is known. A
    site's convention (squares named from the first mover's side) is written back in the
    variant's standard form.
    """
    variant, replayed = reading_variant(game, default, override, rules=rules, follow=follow,
                                        shown=shown)
    return convert_replayed(game, variant, replayed, target or Target(), partial=partial,
                            details=details)


def convert_replayed(game: Game, variant: Variant, replayed: ReplayedGame, target: Target, *,
                     partial: bool = False, details: bool = False) -> Conversion:
    """``convert_game`` of a game already replayed under ``variant`` (``reading_variant``)."""
    writer = _Writer(standard_form(variant), target, details)
    report = _report(game, variant, replayed)
    if report.status == "unreadable" or any(p.code == "bad-fen" for p in replayed.errors):
        return Conversion(game, None, None, report, target, variant)
    mainline = replayed.mainline()
    tree = _branch(mainline, writer)
    stops = [p for p in _stops(tree) if not _lost(p)]
    report.errors += [p.as_dict() for p in stops]
    report.warnings += _corrections(replayed)
    report.warnings += [node.problem.as_dict() for variation_node in mainline
                        for sub in variation_node.variations for node in walk(sub)
                        if node.problem is not None and node.problem.code == "notation"]
    report.warnings += [p.as_dict() for p in _stops(tree) if _lost(p)]
    report.warnings += [p.as_dict() for p in _kept_as_written(tree)]
    if stops and not partial:
        return Conversion(game, None, tree, report, target, variant)
    return Conversion(game, _converted_game(game, tree, writer, variant), tree, report, target,
                      variant)


def _corrections(replayed: ReplayedGame) -> list[dict]:
    """The warnings about main-line records that conversion writes differently."""
    return [p.as_dict() for p in replayed.warnings if p.code in CORRECTION_CODES]


# ---- a plain game written straight from the native replay -------------------------------------

@dataclass(frozen=True)
class _PlainWriting:
    """What the native core needs to write one variant's moves in a target: the writer, each
    internal square's name (None: none, or not ASCII), the capture mark and the path style;
    and the GameType tag written, with whether White starts by it (as the writer reads it
    back, ``Game.gametype``)."""

    writer: _Writer
    names: tuple[str | None, ...]
    separator: str
    paths: int
    fen: Callable[[str | None], str | None]
    gametype: str
    white_starts: bool


def _plain_writing(variant: Variant, target: Target) -> _PlainWriting | None:
    rules = native.rules_for(variant)
    if rules is None or target.to == "short":  # short records are chosen per move, in Python
        return None
    writer = _Writer(standard_form(variant), target, False)
    every = writer.notation.names
    names = tuple(every.get(square) if isinstance(every, dict)
                  else every[square] if square < len(every) else None
                  for square in range(rules.generator.size))
    tag = writer.gametype.tag()
    read = Game(tags={"GameType": tag}).gametype
    return _PlainWriting(writer, tuple(name if name and name.isascii() else None
                                       for name in names),
                         writer.separator, PATH_STYLES.index(target.paths),
                         _fen_rewriter(variant.gametype.notation, writer.notation), tag,
                         read.white_starts if read is not None else True)


@cache
def _plain_writings(target: Target) -> ByIdentity[Variant, _PlainWriting | None]:
    return ByIdentity(lambda variant: _plain_writing(variant, target))


def convert_plainly(game: Game, variant: Variant, replayed: ReplayedGame, target: Target
                    ) -> tuple[str, GameReport] | None:
    """``convert_replayed`` and its PDN text (``render``) for a game whose main line is one
    run of moves (``Line.move_run``: no comment, no variation) that replays without an
    error: the moves written by the native core from its replay, no tree made; the same
    text and report. None where the game is not such a game, or the native core is not
    here or leaves a move to Python: then the tree converts it."""
    run = game.moves.move_run()
    if run is None or game.preamble or replayed.errors or not replayed.plies:
        return None
    plain = _plain_writings(target)(variant)
    rules = native.rules_for(variant)
    if plain is None or rules is None:
        return None
    heading = Game(tags=_converted_tags(game, plain.gametype, variant, plain.fen),
                   result=game.result)
    result = movetext_result(heading)
    if not result.isascii():
        return None
    second = second_player_starts(heading.start_fen, plain.white_starts)
    movetext = rules.write_line(replayed.start, run, plain.names, plain.separator, plain.paths,
                                1, second, result)
    if movetext is None:
        return None
    report = _report(game, variant, replayed)
    report.warnings += _corrections(replayed)
    return write_heading(heading) + movetext, report


def _report(game: Game, variant: Variant, replayed: ReplayedGame) -> GameReport:
    """The game's heading and its reading errors, in ``pdn validate``'s form."""
    # as in ``pdn validate``: a '-' lost move is reported once, as lost moves, by the replay
    reading = [Problem(d.code, d.message, d.line, d.column).as_dict() for d in game.errors
               if d.code != "lost-move"]
    unreadable = replayed.status == "unreadable"  # its reading errors are errors, once
    return GameReport(game.source, game.index, game.line, game.tags.get("White"),
                      game.tags.get("Black"), variant.name, replayed.plies,
                      replayed.status, errors=reading if unreadable else [],
                      warnings=[] if unreadable else reading,
                      notes=[note.as_dict() for note in replayed.notes],
                      record=game if replayed.silent or replayed.open_variant else None,
                      silent=replayed.silent, open_variant=replayed.open_variant)


def convert_games(games: Iterable[Game], default: Variant | None = None,
                  target: Target | None = None, *, override: Variant | None = None,
                  partial: bool = False, details: bool = False, rules: Rules | None = None
                  ) -> Iterator[Conversion]:
    """Convert a stream of games, in order."""
    for game in games:
        yield convert_game(game, default, target, override=override, partial=partial,
                           details=details, rules=rules)


def render(conversion: Conversion, output: str = "pdn", layout: str = "columns") -> str:
    """A converted game as text in an output format (FORMATS), without a trailing newline."""
    game, tree = conversion.game, conversion.tree
    if game is None or tree is None:
        raise ValueError("the game was not converted")
    if output == "pdn":
        return write_game(game)
    if output == "text":
        return scoresheet(game, conversion.variant, layout)
    if output == "json":
        return json.dumps(game_json(conversion), ensure_ascii=False)
    if output == "fen":
        return "\n".join(step.fen for step in tree.steps)
    raise ValueError(f"unknown output format '{output}'; choose {', '.join(FORMATS)}")


def convert_text(text: str, default: Variant | None = None, target: Target | None = None, *,
                 output: str = "pdn", layout: str = "columns", override: Variant | None = None,
                 partial: bool = False) -> str:
    """Convert every game of a PDN text; raises ConversionError when some game is not
    converted (``partial`` converts each up to its first error instead)."""
    from pdn.reader import PdnText, read_games

    conversions = list(convert_games(read_games(PdnText(text)), default, target, override=override,
                                     partial=partial, details=output == "json"))
    failed = [c.report for c in conversions if c.game is None]
    if failed:
        raise ConversionError(failed)
    return "".join(render(c, output, layout) + "\n\n" for c in conversions)


# ---- JSON -------------------------------------------------------------------------------------

def game_json(conversion: Conversion) -> dict:
    """Per game the tags and, per ply, the move in every notation plus the FEN after it."""
    game, tree = conversion.game, conversion.tree
    assert game is not None and tree is not None
    return {"tags": game.tags, "result": game.result, "comments": tree.line.comments,
            "plies": _plies_json(tree), "complete": conversion.complete}


def _plies_json(branch: ConvertedLine) -> list[dict]:
    return [{"number": step.number, "side": step.side, "move": format_move(step.record),
             **(step.details or {}), "fen": step.fen, "nags": step.ply.nags,
             "comments": step.ply.comments,
             "variations": [_plies_json(v) for v in step.variations]}
            for step in branch.steps]


# ---- text scoresheets -------------------------------------------------------------------------

def scoresheet(game: Game, variant: Variant, layout: str = "columns") -> str:
    """A game as a scoresheet: the known tags as a heading (not GameType, which is for
    programs, nor the ``?`` of unknown values; no ``*`` result either), then the moves,
    in two columns (``1. c3-d4   f6-g5``) or run on as books print them (``1.ed4 dc5``)."""
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout '{layout}'; choose {', '.join(LAYOUTS)}")
    heading = [f"{name}: {value}" for name, value in game.tags.items()
               if name != "GameType" and value not in UNKNOWN]
    second = second_player_starts(game.start_fen, variant.white_starts)
    if layout == "inline":
        body = [" ".join(_inline_words(game.moves, 1, second))]
    else:
        body = _columns(game.moves, second)
    if game.result not in UNKNOWN:
        body.append(game.result)
    parts = ["\n".join(heading), "\n".join(line for line in body if line)]
    return "\n\n".join(part for part in parts if part)


def _move_words(ply: Ply) -> list[str]:
    return [format_move(ply.record), *(f"${nag}" for nag in ply.nags)]


def _annotations(ply: Ply, number: int, second: bool) -> list[str]:
    """A ply's comments, set-up and variations, as run-on text."""
    words = [f"{{{comment}}}" for comment in ply.comments]
    if ply.setup is not None:
        words.append(f'/FEN "{ply.setup}"/')
    for variation in ply.variations:
        words.append("(" + " ".join(_inline_words(variation, number, second)) + ")")
    return words


def _numbered(line: Line, number: int, second: bool) -> Iterator[tuple[Ply, int, bool]]:
    for ply in line.plies:
        if ply.number is not None:
            number, second = ply.number, ply.black_number
        yield ply, number, second
        number, second = (number + 1, False) if second else (number, True)


def _inline_words(line: Line, first: int, first_second: bool) -> Iterator[str]:
    """A line run on: ``1.ed4 dc5 2.fe3``; ``1...dc5`` where a line starts or resumes."""
    yield from (f"{{{comment}}}" for comment in line.comments)
    if line.setup is not None:
        yield f'/FEN "{line.setup}"/'
    restart = True
    for ply, number, second in _numbered(line, first, first_second):
        words = _move_words(ply)
        if not second or restart:
            gap = " " if ply.record.placeholder else ""  # "1... ...", not "1......"
            words[0] = f"{number}{'...' if second else '.'}{gap}{words[0]}"
        yield from words
        annotations = _annotations(ply, number, second)
        yield from annotations
        restart = bool(annotations)


def _columns(line: Line, second: bool) -> list[str]:
    """One row per move number, White's move and Black's reply side by side; a ply's
    comments and variations on indented lines below its row."""
    rows: list[list[str]] = []  # [number, first, second]
    notes: dict[int, list[str]] = {}
    open_row = False
    prefix = [f"{{{comment}}}" for comment in line.comments]
    for ply, number, is_second in _numbered(line, 1, second):
        text = " ".join(_move_words(ply))
        if is_second and open_row:
            rows[-1][2] = text
        elif is_second:
            rows.append([f"{number}.", "...", text])
        else:
            rows.append([f"{number}.", text, ""])
        open_row = not is_second
        annotations = _annotations(ply, number, is_second)
        if annotations:
            notes[len(rows) - 1] = annotations
            open_row = False
    number_width = max((len(row[0]) for row in rows), default=0)
    move_width = max((len(row[1]) for row in rows), default=0) + 3
    lines = list(prefix)
    if line.setup is not None:
        lines.append(f'/FEN "{line.setup}"/')
    for index, (number, first, reply) in enumerate(rows):
        lines.append(f"{number:>{number_width}} {first:<{move_width}}{reply}".rstrip())
        lines += ["    " + note for note in notes.get(index, [])]
    return lines


__all__ = [
    "FORMATS",
    "LAYOUTS",
    "TARGETS",
    "Conversion",
    "ConversionError",
    "Target",
    "TargetError",
    "convert_game",
    "convert_games",
    "convert_plainly",
    "convert_replayed",
    "convert_text",
    "game_json",
    "numbering_corner",
    "reading_variant",
    "render",
    "scoresheet",
]
