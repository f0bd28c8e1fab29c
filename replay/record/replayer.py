"""Replay a game record on the rules: every move of the main line and of every variation.

``replay_game(game)`` resolves each move record to the one legal move it means, collects
errors and warnings with their locations, applies the draw rules and checks the result.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from typing import Protocol

from pdn.fen import FenError, parse_fen
from pdn.game import Game
from pdn.gametype import gametype_problem
from pdn.i18n import N_
from pdn.model import MoveRecord, Ply
from pdn.results import FIRST, SECOND, forfeit_reason, read_result
from replay.record import inference
from replay.record.board import Board
from replay.record.resolve import SIDE_NAMES, Resolution, plain_mover, resolve
from replay.record.tree import Variation, main_variation
from replay.record.variation import (
    PendingVariation,
    Problem,
    VariationReplay,
    problem,
    replay_line,
    side_name,
)
from replay.rules import native
from replay.rules.draws import DrawClaim, DrawTracker
from replay.rules.endings import crowned_side, decide
from replay.rules.identity import ByIdentity
from replay.rules.move import Move
from replay.rules.movegen import WHITE
from replay.rules.numbering import MoveNumbering
from replay.rules.position import Position, position_from_setup, start_position
from replay.rules.variants import Rules, UnknownVariantError, Variant, get_variant, with_rules


class Status(StrEnum):
    """A replayed game's verdict; ``str(status)`` is its name, ``"valid"`` and so on."""

    VALID = "valid"  # every move replays
    INVALID = "invalid"  # a move is illegal or ambiguous
    INCOMPLETE = "incomplete"  # lost moves, or a record cut off after its tags
    UNREADABLE = "unreadable"  # the movetext could not be read


VALID, INVALID, INCOMPLETE, UNREADABLE = Status
# Where a game's variant came from: its GameType tag, the user's option, or inference.
TAG, OPTION, INFERRED = "tag", "option", "inferred"
# Which side a decisive result token favours in a game where Black moves first: the first
# mover (OCA and other English archives) or the side named first, White (PDN's reading).
FIRST_MOVER_READING, COLOUR_READING = "first-mover", "colour"
WHITE_WINS, BLACK_WINS, DRAW, DOUBLE_FORFEIT, UNKNOWN = (
    "white", "black", "draw", "double_forfeit", "unknown")
INFERRED_NOTE = N_("{evidence}: {verdict}")  # why a game's variant was told from its record
# A won position's note, by winner (a catalog entry each: the side is a word in a sentence).
WINS = {WHITE_WINS: N_("{reason}: white wins"), BLACK_WINS: N_("{reason}: black wins")}
RECORDED_BUT = {WHITE_WINS: N_("recorded {result}, but {reason}: white wins"),
                BLACK_WINS: N_("recorded {result}, but {reason}: black wins")}
# The result check of a game lost by forfeit (0-0, or a Termination tag): no position decides it.
FORFEIT = "forfeit"


@dataclass
class ReplayedGame:
    """What replaying a game found: the main line's moves and positions, problems, draws and
    the result check; ``mainline()`` is the game tree (variations included), built on demand.
    """

    game: Game
    variant: Variant
    start: Position
    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    known_plies: int = 0
    placeholder: bool = False
    draws: list[DrawClaim] = field(default_factory=list)
    final: Position | None = None
    result: str = UNKNOWN  # normalised outcome of the recorded result
    # consistent / inconsistent / undetermined / forfeit (no position decides the result)
    result_check: str = "undetermined"
    ending: str = "undecided"  # how the final position ends by the rules
    result_note: str = ""
    # With Black moving first, the reading of the result that agrees with a decided final
    # position; the file's decided games then tell which reading it uses (``apply_reading``).
    result_reading: str | None = None
    variant_source: str = TAG  # tag / option / inferred
    # Inferred with nothing in the record to tell it (no square, no FEN): its file's other
    # games may (``replay.record.silent``).
    silent: bool = False
    # Inferred where the evidence leaves several variants: the variant its file's other games
    # show is taken where it replays the record too (``replay.record.agreement``).
    open_variant: bool = False
    notes: list[Problem] = field(default_factory=list)  # variant-inferred, conventions
    # What the replayer found on each variation, by ``id`` of its ``Line`` (for the tree).
    lines: dict[int, VariationReplay] = field(default_factory=dict, repr=False)
    # Built by mainline(); set in __init__ itself, which a compiled class needs (it has no
    # class attribute to fall back on).
    _tree: Variation | None = field(default_factory=lambda: None, init=False, repr=False)
    # ``moves`` and ``positions``. A main line the native core replayed whole keeps its move
    # tokens or its run of moves instead (``_replay_native``), made into moves and positions
    # when first asked.
    _moves: list[Move] = field(default_factory=list, init=False, repr=False)
    _positions: list[Position] = field(default_factory=list, init=False, repr=False)
    _tokens: list[str] | str | None = field(default_factory=lambda: None, init=False,
                                            repr=False)
    _native_plies: int = field(default_factory=lambda: 0, init=False, repr=False)
    # Whether the side to move in ``final`` has a legal move, where the native core told.
    _moves_left: bool = field(default_factory=lambda: False, init=False, repr=False)
    # What the statistics count along a main line the native core replayed whole, counted
    # as it replayed (``NativeRules.check_line``): no second replay to count them.
    line_counts: native.LineCounts | None = field(default_factory=lambda: None, init=False,
                                                   repr=False)

    @property
    def moves(self) -> list[Move]:
        """The main line's moves, as far as it replays."""
        if self._tokens is not None:
            self._make_moves()
        return self._moves

    @property
    def positions(self) -> list[Position]:
        """The position before each move of ``moves``."""
        if self._tokens is not None:
            self._make_moves()
        return self._positions

    def _make_moves(self) -> None:
        """The moves and positions of a main line the native core replayed whole."""
        tokens, self._tokens = self._tokens, None
        rules = native.rules_for(self.variant)
        assert rules is not None and tokens is not None
        moves = rules.replay_line(self.start, tokens).moves
        position = self.start
        positions = self._positions
        for move in moves:
            positions.append(position)
            position = position.play(move)
        self._moves.extend(moves)

    @property
    def status(self) -> Status:
        """unreadable (the movetext could not be read), invalid (a move is illegal or
        ambiguous), incomplete (lost moves, or a record cut off after its tags), else valid.
        PDN slips in a readable record (a missing '*', a bad tag) do not change it: they are
        reported as warnings."""
        if self.game.errors and not self.game.moves.has_plies():
            return UNREADABLE
        if self.errors:
            return INVALID
        if self.placeholder or any(d.code == "cut-off" for d in self.game.diagnostics):
            return INCOMPLETE
        return VALID

    @property
    def plies(self) -> int:
        """How many plies of the main line replay."""
        return len(self._moves) if self._tokens is None else self._native_plies

    def final_board(self) -> Board:
        """A new board in the position the main line replays to."""
        return Board(self.variant, self.final or self.start)

    def start_board(self) -> Board:
        """A new board in the game's start position."""
        return Board(self.variant, self.start)

    @property
    def numbering(self) -> MoveNumbering:
        """How the game's plies are numbered (from its set-up's side and ``F`` field)."""
        return _numbering(self.game.start_fen, self.variant)

    @property
    def comments(self) -> list[str]:
        """The comments written before the first move."""
        return self.game.moves.comments

    def mainline(self) -> Variation:
        """The main line's nodes as far as it replays, each with its variations (built once,
        the first time it is asked for); ``stop`` is the error or lost moves that end it."""
        if self._tree is None:
            stop = self.errors[0] if self.errors else next(
                (w for w in self.warnings if w.code == "lost-moves"), None)
            problems: dict[tuple[int, int], Problem] = {}
            for warning in self.warnings:
                problems.setdefault((warning.line or 0, warning.column or 0), warning)
            self._tree = main_variation(self.game.moves, self.variant, self.numbering,
                                        self.start, self.moves, problems, stop, self.lines)
        return self._tree


def _numbering(fen: str | None, variant: Variant) -> MoveNumbering:
    """``MoveNumbering.of``, kept: games start mostly from the same few set-ups, most from
    the variant's own (found by the variant's identity: its hash is slow)."""
    return _numbering_from_start(variant) if fen is None else _numbering_from(fen, variant)


@lru_cache(maxsize=1024)
def _numbering_from(fen: str | None, variant: Variant) -> MoveNumbering:
    return MoveNumbering.of(fen, variant)


def _start_numbering(variant: Variant) -> MoveNumbering:
    return MoveNumbering.of(None, variant)


_numbering_from_start = ByIdentity(_start_numbering)

# The main line as the reader kept it: one run of moves (``Line.move_run``), its move tokens
# (``Game.main_line_tokens``), or None (the plies are needed).
MainLine = list[str] | str | None


def main_line(game: Game) -> MainLine:
    """A game's main line as the native replay and the inference read it, without the plies:
    its run of moves where the reader kept one, else its move tokens, else None."""
    run = game.moves.move_run()
    return run if run is not None else game.main_line_tokens()


def game_variant(game: Game, default: Variant | None = None,
                 override: Variant | None = None, *, rules: Rules | None = None) -> Variant:
    """The variant to replay a game with: the user's override, else its GameType, else the
    default, else the one inferred from the record (``replay.record.inference``), with ``rules``
    (named rule options, ``Variant.with_rules``) set on top. Squares are read in the game
    type's standard notation (see ``replay_game`` for tags that state another numbering)."""
    told = told_variant(game, default, override, rules=rules)
    if told is not None:
        return told
    tokens = main_line(game)
    return _replay_inferred(game, inference.candidates(game, tokens=tokens), rules,
                            tokens).variant


def told_variant(game: Game, default: Variant | None = None, override: Variant | None = None,
                 *, rules: Rules | None = None) -> Variant | None:
    """``game_variant`` where it is known without replaying the game (the user, the
    GameType tag or the record's evidence decide); None where only a replay can tell."""
    chosen, _ = _chosen_variant(game, default, override)
    if chosen is not None:
        return with_rules(chosen, rules)
    guess = inference.candidates(game)
    if guess.decided or len(guess.variants) == 1:
        return with_rules(guess.variants[0], rules)
    return None


def _chosen_variant(game: Game, default: Variant | None, override: Variant | None
                    ) -> tuple[Variant | None, str]:
    """The variant the user or the GameType tag decides, and which of them decided."""
    if override is not None:
        return override, OPTION
    gametype = game.gametype if game.tags.get("GameType") else None  # no lookup untagged
    if gametype is not None:
        try:
            return get_variant(gametype.number), TAG
        except UnknownVariantError:
            pass
    if default is not None:
        return default, OPTION
    return None, INFERRED


def _stated_numbering(game: Game, variant: Variant) -> Variant | None:
    """The variant read in the numbering the GameType tag states, when it differs from the
    standard one on the same board (``25,W,8,8,N2,0``: Russian written with numbers)."""
    stated, own = game.gametype, variant.gametype
    if stated is None or stated.number != own.number:
        return None
    if (stated.width, stated.height, stated.invert) != (own.width, own.height, own.invert):
        return None
    if (stated.numeric, stated.corner) == (own.numeric, own.corner):
        return None
    return variant.with_options(gametype=replace(own, numeric=stated.numeric,
                                                 corner=stated.corner))


def replay_game(game: Game, default: Variant | str | None = None,
                override: Variant | str | None = None, *,
                rules: Rules | None = None, follow: Variant | None = None,
                shown: Variant | None = None) -> ReplayedGame:
    """Replay a game's main line and variations; never raises on bad records.

    The variant (a ``Variant`` or its name): ``override`` if given, else the GameType tag,
    else ``default``, else the one the record itself tells (``replay.record.inference``; noted as
    ``variant-inferred``); ``rules`` (named rule options such as ``{"forced-capture": "no"}``)
    are set on top of it, whichever it is. ``follow``: the variant of the games around it in
    its file, taken where the variant is inferred and the record tells nothing (no square, no
    FEN; ``replay.record.silent``). ``shown``: the variant its file's games show, taken where the
    variant is inferred and the record replays under it too (``replay.record.agreement``); the
    game leaves it only where the evidence excludes it, and its note says which. The game
    tree is ``mainline()`` of the result.

    Archives carry GameType tags whose notation code disagrees with their moves (kurnik.pdn:
    an N1 tag over standard numbers), so the standard reading comes first; where it fails
    and the tag states another numbering, that reading is tried and kept if it replays.
    """
    if isinstance(default, str):
        default = get_variant(default)
    if isinstance(override, str):
        override = get_variant(override)
    variant, source = _chosen_variant(game, default, override)
    tokens = main_line(game)  # read once: inference and the replays share them
    if variant is None:
        guess = inference.candidates(game, tokens=tokens)
        if guess.silent and follow is not None:
            return _replay_followed(game, follow, rules, tokens)
        if shown is not None and not guess.silent and not guess.decided:
            return _replay_shown(game, guess, with_rules(shown, rules), rules, tokens)
        return _replay_inferred(game, guess, rules, tokens)
    replayed = _replay(game, with_rules(variant, rules), tokens)
    replayed.variant_source = source
    if replayed.errors and source == TAG:
        tagged = _stated_numbering(game, replayed.variant)
        if tagged is not None:
            retried = _replay(game, tagged)
            if not retried.errors:
                return retried
    return replayed


def _replay_inferred(game: Game, guess: inference.Guess, rules: Rules | None = None,
                     tokens: MainLine = None) -> ReplayedGame:
    """Replay under the most usual candidate; only where it fails, under the others: the
    first that replays to the end wins, else the one that goes furthest."""
    best: ReplayedGame | None = None
    for variant in guess.variants:
        replayed = _replay(game, with_rules(variant, rules), tokens)
        if not replayed.errors:
            best = replayed
            break
        if best is None or replayed.plies > best.plies:
            best = replayed
    assert best is not None, "inference always offers a variant"
    best.variant_source = INFERRED
    first = guess.variants[0].name
    verdict = best.variant.name
    if best.errors and len(guess.variants) > 1:
        verdict = N_("no variant replays it to the end; {variant} goes furthest").format(
            variant=verdict)
    elif best.variant.name != first:
        verdict = N_("{variant} (it does not replay as {first_variant})").format(
            variant=verdict, first_variant=first)
    best.silent = guess.silent
    best.open_variant = not (guess.silent or guess.decided) and len(guess.variants) > 1
    best.notes.insert(0, Problem("variant-inferred", INFERRED_NOTE.format(
        evidence=guess.evidence, verdict=verdict), game.line or None))
    if inference.is_first_mover_bottom(best.variant):
        best.notes.append(_first_mover_bottom_note(game))
    return best


def _replay_shown(game: Game, guess: inference.Guess, shown: Variant, rules: Rules | None,
                  tokens: MainLine = None) -> ReplayedGame:
    """Replay under the variant its file's games show; the game leaves it only where the
    evidence excludes it: the squares written are not on its board, or it does not replay
    to the end there while another variant does. The note says which."""
    name = inference.variant_key(shown)
    keys = [inference.variant_key(variant) for variant in guess.variants]
    if name not in keys:
        replayed = _replay_inferred(game, guess, rules, tokens)
        replayed.notes[0] = replace(replayed.notes[0], message=N_(
            "{problem}; not its file's {variant}: the squares written are not on its "
            "board").format(problem=replayed.notes[0].message, variant=shown.name))
        return replayed
    own = _replay(game, shown, tokens)
    if not own.errors:
        return _inferred(own, guess, N_("{variant}, as its file's games show").format(
            variant=shown.name))
    other = _replay_inferred(game, guess, rules, tokens)
    if other.errors:
        return _inferred(own, guess, N_("no variant replays it to the end; read as its "
                                        "file's {variant}").format(variant=shown.name))
    first = own.errors[0]
    where = N_("move {number} ({side}) '{move}'").format(
        number=first.move_number, side=first.side, move=first.token) \
        if first.move_number else N_("its set-up")
    other.notes[0] = replace(other.notes[0], message=N_(
        "{problem}; not its file's {variant}: {at_move}: {reason}").format(
        problem=other.notes[0].message, variant=shown.name, at_move=where,
        reason=first.message))
    return other


def _inferred(replayed: ReplayedGame, guess: inference.Guess, verdict: str) -> ReplayedGame:
    """``replayed`` as an inferred game with its ``variant-inferred`` note."""
    replayed.variant_source = INFERRED
    replayed.open_variant = True
    replayed.notes.insert(0, Problem("variant-inferred", INFERRED_NOTE.format(
        evidence=guess.evidence, verdict=verdict), replayed.game.line or None))
    if inference.is_first_mover_bottom(replayed.variant):
        replayed.notes.append(_first_mover_bottom_note(replayed.game))
    return replayed


def _first_mover_bottom_note(game: Game) -> Problem:
    return Problem("first-mover-bottom", N_("squares are named from the first mover's side "
                                            "and the first mover is called White (P1): read "
                                            "as English checkers, where the first mover is "
                                            "Black"), game.line or None)


def _replay_followed(game: Game, follow: Variant, rules: Rules | None,
                     tokens: MainLine = None) -> ReplayedGame:
    """A record that tells nothing, replayed under the variant of its file's other games."""
    replayed = _replay(game, with_rules(follow, rules), tokens)
    replayed.variant_source = INFERRED
    name = follow.name
    replayed.notes.append(Problem(
        "variant-inferred", N_("no squares written, as the nearest game of its file that "
                               "tells its variant: {variant}").format(variant=name),
        game.line or None))
    if inference.is_first_mover_bottom(follow):
        replayed.notes.append(_first_mover_bottom_note(game))
    return replayed


def _replay(game: Game, variant: Variant, tokens: MainLine = None) -> ReplayedGame:
    """Replay under ``variant``; ``tokens``: the main line's run or move tokens, if the caller
    read them (``main_line``)."""
    start, problem = _start_position(game, variant)
    replayed = ReplayedGame(game, variant, start)
    if (ignored := _ignored_gametype(game)) is not None:  # told, not silently passed over
        replayed.warnings.append(Problem("gametype-ignored", ignored, game.line or None))
    if problem:
        replayed.errors.append(problem)
        replayed.final = start
        return replayed
    if not _replay_native(replayed, tokens):
        branches = _replay_main_line(replayed)
        _replay_variations(replayed, branches)
    _check_result(replayed)
    return replayed


def _replay_native(replayed: ReplayedGame, tokens: MainLine = None) -> bool:
    """Replay the main line on the native core from its run or move tokens, nothing made per
    ply,
    where the reference would find exactly what the core finds: every move one legal move
    with nothing to note but the draws met before the last move, the numbers written as the
    numbering counts. False, nothing done, otherwise: the game is Python's
    (``_replay_main_line``)."""
    rules = native.rules_for(replayed.variant)
    if rules is None or not rules.replays:
        return False
    if tokens is None:
        tokens = main_line(replayed.game)
    if not tokens:
        return False
    checked = rules.check_line(replayed.start, tokens, replayed.numbering)
    if checked is None or checked.stop != "end" or not checked.plies:
        return False
    plies = checked.plies
    replayed._tokens = tokens
    replayed._native_plies = replayed.known_plies = plies
    replayed.draws = [DrawClaim(*native.DRAW_CLAIMS[code], ply) for code, ply in checked.claims]
    for claim in replayed.draws:  # met before the last move: told where, as the reference does
        if claim.ply < plies:
            index = claim.ply - 1
            turn = replayed.start.turn if index % 2 == 0 else 1 - replayed.start.turn
            _note_draws(replayed, [claim], _main_line_record(replayed.game, index),
                        replayed.numbering.number(index), turn)
    replayed.final = checked.final
    replayed._moves_left = checked.moves_left
    replayed.line_counts = checked.counts
    return True


def _main_line_record(game: Game, index: int) -> MoveRecord:
    """The main line's ``index``-th move record, placed in the file, its plies not made
    where they were not yet."""
    record = game.moves.move_record(index)
    return game.moves.plies[index].record if record is None else record


def _ignored_gametype(game: Game) -> str | None:
    """Why the game's GameType tag is ignored (unreadable, or a type of no variant known
    here), or None."""
    text = game.tags.get("GameType")
    if not text:
        return None
    reason = gametype_problem(text)
    if reason is None and game.gametype is not None:
        try:
            get_variant(game.gametype.number)
        except UnknownVariantError:
            reason = N_("GameType '{text}': type {number} is no variant known here").format(
                text=text, number=game.gametype.number)
    return None if reason is None else N_("{reason}; the tag is ignored").format(reason=reason)


def _start_position(game: Game, variant: Variant) -> tuple[Position, Problem | None]:
    fen = game.start_fen
    if not fen:
        return start_position(variant), None
    try:
        return position_from_setup(parse_fen(fen, variant.gametype.notation)), None
    except FenError as error:
        return start_position(variant), Problem("bad-fen", str(error), game.line)


def _replay_main_line(replayed: ReplayedGame) -> list[PendingVariation]:
    """Replay the main line; returns the variations met on the way with their positions."""
    branches: list[PendingVariation] = []
    board = Board(replayed.variant, replayed.start)
    plies = replayed.game.moves.plies
    numbering = replayed.numbering
    draws = DrawTracker(replayed.variant, replayed.start)
    plain = plain_mover(board)
    moves, positions, push = replayed._moves, replayed._positions, draws.push
    # The moves the native core takes from the main line's texts, each the one the lines
    # below would resolve (tests/rules/test_native.py); the rest of the line is theirs.
    ahead = _native_moves(replayed)
    known = len(ahead)
    for index in range(known):  # plies the native core took: no placeholder, no variation
        ply = plies[index]
        if ply.number is not None and (ply.black_number
                                       or ply.number != numbering.number(index)):
            _check_number(replayed, ply, numbering.number(index), board)
        taken = ahead[index]
        before = board.position
        board.position = after = before.play(taken)
        moves.append(taken)
        positions.append(before)
        claims = push(before, taken, after)
        if claims and index + 1 < len(plies):
            _note_draws(replayed, claims, ply.record, numbering.number(index), before.turn)
    index = known - 1
    while (index := index + 1) < len(plies):
        ply = plies[index]
        record = ply.record
        if record.placeholder:
            number, side = numbering.number(index), side_name(board)
            replayed.placeholder = True
            replayed.known_plies = index
            replayed.warnings.append(problem(
                "lost-moves", N_("the record has lost moves from here; {count} plies are known")
                .format(count=index),
                record, number, side))
            break
        if ply.variations:
            branches.extend((variation, board.position, index) for variation in ply.variations)
        crowned = crowned_side(replayed.variant, board.position) if board.position.kings else None
        if crowned is not None:
            _note_after_king(replayed, record, numbering.number(index), crowned, board.position)
            break
        if ply.number is not None and (ply.black_number
                                       or ply.number != numbering.number(index)):
            _check_number(replayed, ply, numbering.number(index), board)
        move = plain(record) or _resolve_noting(replayed, board, plies, index, numbering)
        if move is None:
            split = (_split_capture(board, plies, index)
                     if replayed.errors[-1].code == "capture-incomplete" else None)
            if split is None:
                break
            move, parts = split
            replayed.errors.pop()
            plies = _joined(plies, index, parts)
            replayed.game = _with_main_line(replayed.game, plies)
            replayed.warnings.append(problem(
                "capture-split", N_("one capture written as {count} plies ({moves}), read as "
                                    "{move}: the rules make it go on").format(
                    count=len(parts), moves=" ".join(part.record.text for part in parts),
                    move=board.move_text(move, full_path=True)),
                record, numbering.number(index), side_name(board)))
        before = board.position
        board.position = after = before.play(move)
        moves.append(move)
        positions.append(before)
        claims = push(before, move, after)
        if claims and index + 1 < len(plies):
            _note_draws(replayed, claims, record, numbering.number(index), before.turn)
    else:
        replayed.known_plies = len(plies)
    replayed.draws = draws.claims
    replayed.final = board.position
    return branches


def _note_draws(replayed: ReplayedGame, claims: list[DrawClaim], record: MoveRecord,
                number: int, turn: int) -> None:
    """A warning for each draw rule met by a move the record goes on after."""
    for claim in claims:
        replayed.warnings.append(problem(
            f"draw-{claim.rule}", N_("draw by rule {rule} ({reason}) after this move; the "
                                     "record goes on").format(rule=claim.rule,
                                                              reason=claim.description),
            record, number, SIDE_NAMES[turn]))


def _native_moves(replayed: ReplayedGame) -> list[Move]:
    """The main line's moves as far as the native core replays them exactly ([] where it
    does not take the variant, or the line has variations)."""
    rules = native.rules_for(replayed.variant)
    if rules is None or not rules.replays:
        return []
    texts = native.main_line_tokens(replayed.game)
    if not texts:
        return []
    return rules.replay_line(replayed.start, texts).moves


def _split_capture(board: Board, plies: list[Ply], index: int
                   ) -> tuple[Move, list[Ply]] | None:
    """A capture that stops where the rules make it go on, continued by the next plies from
    its landing square (``g7xe5 e5xg3``, as some sites export multi-jumps): the joined move
    and the plies that were its parts. None where the record is not such a split."""
    first = plies[index].record
    squares = first.squares
    if first.origin_file is not None or len(squares) < 2:
        return None
    end = index + 1
    while end < len(plies):
        part = plies[end].record
        if part.placeholder or part.origin_file is not None or len(part.squares) < 2:
            return None
        if part.squares[0] != squares[-1]:
            return None
        squares += part.squares[1:]
        end += 1
        resolution = resolve(board, first._replace(squares=squares))
        if resolution.move is not None:
            if not resolution.move.captures:
                return None
            return resolution.move, plies[index:end]
        if resolution.code != "capture-incomplete":
            return None
    return None


def _joined(plies: list[Ply], start: int, parts: list[Ply]) -> list[Ply]:
    """The plies with the ``parts`` from ``start`` on made one: the squares joined, the
    annotations kept. The record numbered every part as a ply, so the numbers written after
    it count plies that are not there: they are dropped (a writer numbers the plies anew)."""
    first = parts[0]
    squares = first.record.squares + tuple(
        square for part in parts[1:] for square in part.record.squares[1:])
    separator = first.record.separator or "x"
    record = first.record._replace(text=separator.join(squares), squares=squares)
    ply = Ply(record, first.number, first.black_number,
              [nag for part in parts for nag in part.nags],
              [comment for part in parts for comment in part.comments],
              [line for part in parts for line in part.variations],
              next((part.setup for part in reversed(parts) if part.setup), None))
    after = [replace(later, number=None, black_number=False)
             for later in plies[start + len(parts):]]
    return [*plies[:start], ply, *after]


def _with_main_line(game: Game, plies: list[Ply]) -> Game:
    """A copy of the game with another main line (the given game is left as read)."""
    moves = replace(game.moves, plies=plies)
    return replace(game, moves=moves)


def _note_after_king(replayed: ReplayedGame, record: MoveRecord, number: int, crowned: int,
                     position: Position) -> None:
    """A move after the king that won a Breakthrough game (by side ``crowned``): an
    ``after-end`` error."""
    replayed.errors.append(problem(
        "after-end", N_("move after the end of the game: {side} made a king and won").format(
            side=SIDE_NAMES[crowned]),
        record, number, SIDE_NAMES[position.turn]))


def _resolve_noting(replayed: ReplayedGame, board: Board, plies: list[Ply], index: int,
                    numbering: MoveNumbering) -> Move | None:
    """``resolve`` a record, noting its warning or error on the game (None: an error)."""
    record = plies[index].record
    resolution = resolve(board, record)
    if resolution.move is None or resolution.warning:
        number, side = numbering.number(index), side_name(board)
    if resolution.move is None and resolution.code == "ambiguous-move":
        resolution = _by_continuation(board, plies, index, resolution)
        if resolution.move is not None:
            replayed.warnings.append(problem("resolved-by-continuation", resolution.warning,
                                              record, number, side))
    elif resolution.warning:
        replayed.warnings.append(problem("notation", resolution.warning, record, number,
                                          side))
    if resolution.move is None:
        code = "after-end" if resolution.code == "no-legal-move" else resolution.code
        message = (N_("move after the end of the game: {reason}").format(
            reason=resolution.message) if code == "after-end" else resolution.message)
        replayed.errors.append(problem(code, message, record, number, side))
    return resolution.move


def _check_number(replayed: ReplayedGame, ply: Ply, number: int, board: Board) -> None:
    if ply.number == number and not ply.black_number:
        return
    side = side_name(board)
    if ply.number != number:
        replayed.warnings.append(problem(
            "move-number", N_("numbered {written}, but this is move {number} ({side})").format(
                written=ply.number, number=number, side=side),
            ply.record, number, side))
    elif ply.black_number and board.turn == (0 if replayed.variant.white_starts else 1):
        replayed.warnings.append(problem(
            "move-side", N_("written as the second player's move, but {side} is to "
                            "move").format(side=side),
            ply.record, number, side))


def _by_continuation(board: Board, plies: list[Ply], index: int,
                     ambiguous: Resolution) -> Resolution:
    """Resolve an ambiguous record the way an arbiter would: the one candidate after which
    the rest of the record replays legally."""
    good = [move for move in ambiguous.candidates if _replays(board, move, plies[index + 1:])]
    if len(good) == 1:
        chosen = board.move_text(good[0], full_path=True)
        return Resolution(good[0], candidates=ambiguous.candidates,
                          warning=N_("{reason}; resolved by continuation as {move}").format(
                              reason=ambiguous.message, move=chosen))
    return ambiguous


def _replays(board: Board, move: Move, rest: list[Ply]) -> bool:
    trial = Board(board.variant, board.position.play(move))
    for ply in rest:
        if ply.record.placeholder:
            return True
        resolution = resolve(trial, ply.record)
        if resolution.move is None:
            return False
        trial.push(resolution.move)
    return True


def _replay_variations(replayed: ReplayedGame, branches: list[PendingVariation]) -> None:
    """Replay every variation from its branch point; problems in them are warnings. What
    each line gives is kept for the game tree (``ReplayedGame.lines``)."""
    numbering = replayed.numbering
    stack = list(reversed(branches))
    while stack:
        line, position, first_index = stack.pop()
        found = replay_line(Board(replayed.variant, position), line, first_index, numbering,
                            stack)
        replayed.lines[id(line)] = found
        if found.stop is not None and found.stop.code != "variation-lost-moves":
            replayed.warnings.append(found.stop)


def normalise_result(token: str | None, variant: Variant) -> str:
    """The recorded result as white / black / draw / double_forfeit / unknown."""
    outcome = read_result(token)
    if outcome == FIRST:
        return WHITE_WINS if variant.white_starts else BLACK_WINS
    if outcome == SECOND:
        return BLACK_WINS if variant.white_starts else WHITE_WINS
    return outcome or UNKNOWN


def result_reading_of(token: str | None, variant: Variant, winner: str) -> str | None:
    """Where Black moves first, a decisive result reads two ways: for the first mover (OCA
    and other English archives) or for the side named (PDN's ``1-0`` White wins). The reading
    under which ``token`` agrees with ``winner``; None where only one reading exists (White
    moves first, or a convention named the first mover White) or the token is no win."""
    if variant.white_starts or variant.gametype.notation.from_black:
        return None
    outcome = read_result(token)
    if outcome not in (FIRST, SECOND):
        return None
    first_mover_view = BLACK_WINS if outcome == FIRST else WHITE_WINS
    if winner == first_mover_view:
        return FIRST_MOVER_READING
    return COLOUR_READING


class _ResultChecked(Protocol):
    result_reading: str | None
    result_check: str
    result_note: str


def file_reading(readings: Iterable[str | None]) -> str | None:
    """The reading of decisive results a file uses, told by its decided games (the more
    common reading of theirs); None when they do not tell (none, or as many each way)."""
    votes = Counter(reading for reading in readings if reading is not None)
    first, colour = votes[FIRST_MOVER_READING], votes[COLOUR_READING]
    if first == colour:
        return None
    return FIRST_MOVER_READING if first > colour else COLOUR_READING


def apply_reading(checked: _ResultChecked, reading: str | None) -> None:
    """Settle a game's pending result check (a ``ReplayedGame`` or a report of one) once its
    file's reading is known: None leaves it undetermined, never inconsistent on a guess."""
    if checked.result_reading is None:
        return
    if reading is None:
        checked.result_check = "undetermined"
        checked.result_note = N_("{reason}; the file's decided games do not tell which side "
                                 "its results favour").format(reason=checked.result_note)
    elif checked.result_reading == reading:
        checked.result_check = "consistent"
        checked.result_note = ""
    else:
        checked.result_check = "inconsistent"
        checked.result_note = (N_("{reason}, against the recorded result (this file's "
                                  "results are for the first mover)")
                               if reading == FIRST_MOVER_READING else
                               N_("{reason}, against the recorded result (this file's "
                                  "results are for the side named)")).format(
            reason=checked.result_note)


def _check_result(replayed: ReplayedGame) -> None:
    game = replayed.game
    replayed.result = normalise_result(game.headers_result, replayed.variant)
    replays = not (replayed.errors or replayed.placeholder)
    # Breakthrough's crowned king is no variant the native core replays (replay.rules.native).
    decision = (decide(replayed.final_board()) if replays and not replayed._moves_left
                else None)
    if decision is not None:
        replayed.ending = decision.ending
    forfeit = forfeit_reason(game.headers_result, game.tags)
    if forfeit is not None:
        replayed.result_check = FORFEIT
        replayed.result_note = forfeit
        return
    if not replays:
        replayed.result_check = "undetermined"
        replayed.result_note = N_("the record does not replay to its end")
        return
    if decision is not None:
        winner = WHITE_WINS if decision.winner == WHITE else BLACK_WINS
        reading = result_reading_of(game.headers_result, replayed.variant, winner)
        if reading is not None:
            replayed.result_reading = reading
            replayed.result_note = WINS[winner].format(reason=decision.reason)
            return
        if replayed.result == winner:
            replayed.result_check = "consistent"
        elif replayed.result == UNKNOWN:
            replayed.result_check = "undetermined"
            replayed.result_note = WINS[winner].format(reason=decision.reason)
        else:
            replayed.result_check = "inconsistent"
            replayed.result_note = RECORDED_BUT[winner].format(result=game.headers_result,
                                                               reason=decision.reason)
        return
    if replayed.draws:
        claim = replayed.draws[-1]
        replayed.ending = f"draw-{claim.rule}"
        if replayed.result == DRAW:
            replayed.result_check = "consistent"
            return
        replayed.result_note = N_("a draw by rule {rule} was reached at ply {number}").format(
            rule=claim.rule, number=claim.ply)
    replayed.result_check = "undetermined"
