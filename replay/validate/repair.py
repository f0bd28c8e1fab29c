"""Arbiters' repair suggestions: the slip that broke a scoresheet, and its mend when sure.

Where a game stops replaying, small edits near the failure are tried, alone or, within a
budget, two together (see ``docs/repair.md``): a ply inserted (any legal move), a ply
deleted, two neighbouring plies exchanged, two moves of one side exchanged, a move replaced
by a legal move one character away in its notation, or by the only legal move, a ply moved
to the other colour's column, a capture given the landing square the rules force. An edit
counts when the rest of the record then replays to its end, or further than any other edit.
Suggestions are ranked by fewest edits, then by how natural the slip is, then by whether the
final position agrees with the recorded result.

>>> from pdn.reader import read_games
>>> from replay.rules.variants import RUSSIAN
>>> game = next(read_games("1. ed4 dc5 2. fe3 fg5 3. cb4 4. b:d6 h:f2 5. e:g3 c:h4 0-1"))
>>> print(suggest(game, RUSSIAN)[0].description)
Black's 3rd move is missing: putting in 3... gh4 makes the record replay to its end.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from pdn.fen import format_fen
from pdn.game import Game
from pdn.gametype import SquareNotation
from pdn.model import MoveRecord, Ply
from pdn.results import forfeit_reason
from pdn.squares import SquareError
from replay.record.board import Board
from replay.record.inference import standard_form
from replay.record.notation import full_text, route_squares, short_is_ambiguous
from replay.record.replayer import (
    BLACK_WINS,
    FORFEIT,
    INVALID,
    UNKNOWN,
    WHITE_WINS,
    ReplayedGame,
    normalise_result,
    replay_game,
    result_reading_of,
)
from replay.record.resolve import plain_mover, resolve
from replay.rules.endings import decide
from replay.rules.move import Move
from replay.rules.movegen import WHITE
from replay.rules.position import Position, setup_from_position
from replay.rules.variants import Rules, Variant
from replay.validate.repair_words import (
    Outcome,
    Slip,
    both,
    quoted,
    repair_text,
    suggestion_text,
    whose,
)

# How natural each slip is (lower: more common on hand-copied scoresheets); ties of the
# edit count are broken by it.
KIND_COSTS = {"insert": 1, "replace": 1, "landing": 1, "only": 1, "swap": 2, "exchange": 2,
              "delete": 2, "move": 3}
WINDOW = 10  # plies before the failure where a slip is looked for
SECOND_WINDOW = 6  # plies before the next failure where a second slip is looked for
SECOND_TRIES = 6  # first edits (those that get furthest) a second edit is tried after
CONFIRMING = 3  # written plies past the failure that must replay after a ply is taken out:
# the one that takes the failing ply's place, and a move of each side after it
BUDGET = 5_000  # plies resolved at most in one game's search (~0.3 s; the slips of
# bench/repair.py need at most about 600)


class Inserted(NamedTuple):
    """A move an edit wrote into the line, with its text in the record's notation."""

    move: Move
    text: str


RecordStep = int | Inserted  # the index of a written record in the main line, or a move put there


@dataclass(frozen=True)
class Edit:
    """One edit of the written main line: ``text`` is the move written in (or, for a
    deletion, taken out), ``words`` the parts its sentences are made of
    (``replay.validate.repair_words``)."""

    kind: str
    index: int
    move_number: int
    side: str
    text: str
    words: Slip


@dataclass(frozen=True)
class Suggestion:
    """Edits after which the record replays ``reach`` of its ``length`` written plies (the
    plies before the first written one that still does not replay); ``cut`` when they
    make it shorter and fewer than ``CONFIRMING`` written plies past the one where it
    failed then replay to confirm them: the record is merely ended sooner, never a sure
    repair (``sure_repair``)."""

    edits: tuple[Edit, ...]
    reach: int
    length: int
    result_check: str
    moves: tuple[Move, ...] = field(repr=False)
    steps: tuple[RecordStep, ...] = field(repr=False)
    before: Position | None = field(default=None, repr=False)  # where the first slip is
    notation: SquareNotation | None = field(default=None, repr=False)
    confirmed: bool = True  # a written ply from the last edit on replays: evidence for it
    line: int | None = None  # where the first slip is written (the ply it edits or precedes)
    column: int | None = None
    cut: bool = False

    @property
    def replays_to_end(self) -> bool:
        return self.reach == self.length

    @property
    def cost(self) -> int:
        return sum(KIND_COSTS[edit.kind] for edit in self.edits)

    @property
    def shorter(self) -> int:
        """How many plies fewer the edited record has than the written one."""
        return max(0, self.length - len(self.steps))

    @property
    def description(self) -> str:
        """``Black's 3rd move is missing: putting in 3... gh4 makes the record replay to its
        end.``"""
        outcome = Outcome(self.reach, self.length, self.shorter if self.cut else 0)
        return suggestion_text([edit.words for edit in self.edits], outcome)

    @property
    def mend(self) -> str:
        """The repair in words, once made: ``Black's 3rd move was missing: 3... gh4 is put
        in.``"""
        return repair_text([edit.words for edit in self.edits])

    def as_dict(self) -> dict:
        """The JSON form of ``pdn validate --suggest --json``."""
        first = self.edits[0]
        fen = (format_fen(setup_from_position(self.before), self.notation)
               if self.before is not None and self.notation is not None else "")
        return {"edit": "+".join(edit.kind for edit in self.edits),
                "move_number": first.move_number, "side": first.side, "text": first.text,
                "description": self.description, "replays_to_end": self.replays_to_end,
                "fen": fen, "line": self.line, "column": self.column}


class _Budget:
    """Plies resolved so far against a limit, so that a game with many slips ends fast."""

    def __init__(self, limit: int) -> None:
        self.left = limit

    @property
    def spent(self) -> bool:
        return self.left <= 0


@dataclass
class _Trial:
    """A replay of an edited line: positions before each ply replayed, and the moves."""

    steps: list[RecordStep]
    positions: list[Position]
    moves: list[Move]
    final: Position

    @property
    def reach(self) -> int:
        return len(self.moves)

    def written_reach(self) -> int | None:
        """The first written ply the replay did not get to (None: it replays to the end);
        in an edited order, the earliest of those left (a ply moved before its place and
        stopped at is no progress)."""
        return min((step for step in self.steps[self.reach:] if not isinstance(step, Inserted)),
                   default=None)


class _Search:
    """The repair search over one game's main line."""

    def __init__(self, replayed: ReplayedGame, budget: int) -> None:
        self.variant: Variant = replayed.variant
        plies = replayed.game.moves.plies
        end = _line_end(plies)
        self.records: list[MoveRecord] = [ply.record for ply in plies[:end]]
        self.result_token = replayed.game.headers_result
        self.result = normalise_result(self.result_token, self.variant)
        self.forfeit = forfeit_reason(self.result_token, replayed.game.tags) is not None
        self.budget = _Budget(budget)
        self.numbering = replayed.numbering
        self.base = _Trial(list(range(end)), list(replayed.positions), list(replayed.moves),
                           replayed.final or replayed.start)
        self.complete = True  # False when the budget ran out before the search ended

    # -- numbering and words ------------------------------------------------------------

    def number(self, index: int) -> int:
        return self.numbering.number(index)

    def side(self, index: int) -> str:
        return self.numbering.side(index)

    def whose(self, index: int) -> str:
        """``Black's 3rd move``."""
        return whose(self.side(index), self.number(index))

    def numbered(self, index: int, text: str) -> str:
        """``3... gh4`` or ``4. b:d6``."""
        return f"{self.numbering.label(index)} {text}"

    # -- replaying ------------------------------------------------------------------------

    def replay(self, steps: list[RecordStep], start: int, base: _Trial) -> _Trial:
        """Replay ``steps`` from ``start``, the plies before it being those of ``base``."""
        position = base.positions[start] if start < len(base.positions) else base.final
        positions, moves = base.positions[:start], base.moves[:start]
        board = Board(self.variant, position)
        plain = plain_mover(board)
        for index in range(start, len(steps)):
            step = steps[index]
            self.budget.left -= 1
            move = (step.move if isinstance(step, Inserted)
                    else plain(self.records[step]) or self._resolved(board, steps, index))
            if move is None:
                break
            positions.append(board.position)
            moves.append(move)
            board.position = board.position.play(move)
        return _Trial(steps, positions, moves, board.position)

    def _resolved(self, board: Board, steps: list[RecordStep], index: int) -> Move | None:
        """The record's move, an ambiguous one resolved by the rest of the line as the
        replayer does."""
        resolution = resolve(board, self.records[steps[index]])
        if resolution.move is not None or resolution.code != "ambiguous-move":
            return resolution.move
        fitting = []
        for candidate in resolution.candidates:
            trial = Board(self.variant, board.position.play(candidate))
            if self._replays_quietly(trial, steps[index + 1:]):
                fitting.append(candidate)
        return fitting[0] if len(fitting) == 1 else None

    def _replays_quietly(self, board: Board, steps: list[RecordStep]) -> bool:
        for step in steps:
            self.budget.left -= 1
            move = (step.move if isinstance(step, Inserted)
                    else resolve(board, self.records[step]).move)
            if move is None:
                return False
            board.position = board.position.play(move)
        return True

    def text(self, step: RecordStep) -> str:
        return step.text if isinstance(step, Inserted) else self.records[step].text

    def like(self, steps: list[RecordStep], index: int) -> MoveRecord | None:
        """A written record near ``index`` whose style a new move is written in."""
        return _like(self.records, steps, index)

    # -- the edits ------------------------------------------------------------------------

    def edits_near(self, base: _Trial, low: int) -> Iterator[tuple[Edit, list[RecordStep], int]]:
        """Every single edit of ``base.steps`` at plies from ``low`` up to where it stops:
        (the edit, the edited steps, the first ply that changed)."""
        steps, failure = base.steps, base.reach
        for index in range(failure, low - 1, -1):
            board = Board(self.variant, base.positions[index] if index < len(base.positions)
                          else base.final)
            yield from self._inserts(board, steps, index)
            if index < len(steps):
                yield from self._replacements(board, steps, index, base)
                yield from self._deletion(steps, index)
            if index + 1 < len(steps):
                yield from self._swap(steps, index)
            if index + 2 < len(steps):
                yield from self._exchange(steps, index)
            yield from self._moves_across(steps, index)

    def _inserts(self, board: Board, steps: list[RecordStep], index: int
                 ) -> Iterator[tuple[Edit, list[RecordStep], int]]:
        like = self.like(steps, index)
        for move in board.legal_moves():
            text = _written(board, move, like)
            new = self.numbered(index, text)
            edit = Edit("insert", index, self.number(index), self.side(index), new,
                        Slip("insert", self.whose(index), move=new))
            yield edit, [*steps[:index], Inserted(move, text), *steps[index:]], index

    def _replacements(self, board: Board, steps: list[RecordStep], index: int, base: _Trial
                      ) -> Iterator[tuple[Edit, list[RecordStep], int]]:
        if isinstance(steps[index], Inserted):
            return
        record = self.records[steps[index]]
        written = _written_squares(board, record)
        played = base.moves[index] if index < base.reach else None
        legal = board.legal_moves()
        for move in legal:
            if move == played:
                continue
            if written is None:  # a square off the board: compare the letters
                kind = "replace" if _one_char_off(_written(board, move, record),
                                                  record.text) else None
            elif _same_as_written(board, record, *written, move):
                continue
            else:
                kind = _replacement_kind(board, record, *written, move)
            if kind is None and len(legal) == 1:  # forced: whatever is written, it was played
                kind = "only"
            if kind is None:
                continue
            text = _written(board, move, record)
            new = self.numbered(index, text)
            square = board.name(move.destination) if kind == "landing" else ""
            edit = Edit(kind, index, self.number(index), self.side(index), new,
                        Slip(kind, self.whose(index), move=new, written=quoted(record.text),
                             square=square))
            yield edit, [*steps[:index], Inserted(move, text), *steps[index + 1:]], index

    def _deletion(self, steps: list[RecordStep], index: int
                  ) -> Iterator[tuple[Edit, list[RecordStep], int]]:
        text = self.text(steps[index])
        yield (Edit("delete", index, self.number(index), self.side(index), text,
                    Slip("delete", self.whose(index), written=quoted(text))),
               [*steps[:index], *steps[index + 1:]], index)

    def _swap(self, steps: list[RecordStep], index: int
              ) -> Iterator[tuple[Edit, list[RecordStep], int]]:
        first, second = self.text(steps[index]), self.text(steps[index + 1])
        pair = both(self.whose(index), self.whose(index + 1))
        yield (Edit("swap", index, self.number(index), self.side(index), f"{first} {second}",
                    Slip("swap", pair, written=quoted(first, second))),
               [*steps[:index], steps[index + 1], steps[index], *steps[index + 2:]], index)

    def _exchange(self, steps: list[RecordStep], index: int
                  ) -> Iterator[tuple[Edit, list[RecordStep], int]]:
        """Two moves of one side exchanged, the other side's move between them in its
        place (``10. gf4 ed6 11. hg3`` for ``10. hg3 ed6 11. gf4``)."""
        first, second = self.text(steps[index]), self.text(steps[index + 2])
        pair = both(self.whose(index), self.whose(index + 2))
        yield (Edit("exchange", index, self.number(index), self.side(index),
                    f"{first} {second}", Slip("exchange", pair, written=quoted(first, second))),
               [*steps[:index], steps[index + 2], steps[index + 1], steps[index],
                *steps[index + 3:]], index)

    def _moves_across(self, steps: list[RecordStep], index: int
                      ) -> Iterator[tuple[Edit, list[RecordStep], int]]:
        """A ply written three plies early or late, in the other colour's column of the
        neighbouring move: the ply at ``index`` moved three on, or the ply three on moved
        back to ``index``."""
        for source, target in ((index, index + 3), (index + 3, index)):
            if target >= len(steps) or source >= len(steps):
                continue
            text = self.text(steps[source])
            rest = [*steps[:source], *steps[source + 1:]]
            edited = [*rest[:target], steps[source], *rest[target:]]
            edit = Edit("move", index, self.number(source), self.side(source),
                        self.numbered(target, text),
                        Slip("move", self.whose(target), written=quoted(text),
                             place=self.whose(source)))
            yield edit, edited, index

    # -- the search -----------------------------------------------------------------------

    def tried(self, candidates: Iterable[tuple[Edit, list[RecordStep], int]], base: _Trial,
              earlier: tuple[Edit, ...] = ()) -> list[tuple[Suggestion, _Trial]]:
        found = []
        for edit, steps, start in candidates:
            if self.budget.spent:
                self.complete = False
                break
            trial = self.replay(steps, start, base)
            stopped, before = trial.written_reach(), base.written_reach()
            # the end, or at least two written plies further (one is what any edit of the
            # failing ply gives)
            if stopped is None or (before is not None and stopped >= before + 2):
                failure = len(self.records) if before is None else before
                found.append((self._suggestion((*earlier, edit), trial, failure), trial))
        return found

    def _suggestion(self, edits: tuple[Edit, ...], trial: _Trial, failure: int) -> Suggestion:
        """The suggestion of edits whose replay is ``trial``; ``failure``: the written ply
        where the line they edit stopped."""
        check = (self._result_check(trial.final) if trial.reach == len(trial.steps)
                 else "undetermined")
        index = edits[0].index
        base = self.base
        before = base.positions[index] if index < len(base.positions) else base.final
        stopped = trial.written_reach()
        length = len(self.records)
        last = max(edit.index for edit in edits)
        confirmed = any(not isinstance(step, Inserted) for step in trial.steps[last:])
        written = self.records[min(index, length - 1)] if length else None
        # shorter, and too few written plies past the failure to show that the plies taken
        # out had to go
        past = sum(1 for step in trial.steps if not isinstance(step, Inserted) and step > failure)
        cut = len(trial.steps) < length and past < CONFIRMING
        return Suggestion(edits, length if stopped is None else stopped, length, check,
                          tuple(trial.moves), tuple(trial.steps), before,
                          standard_form(self.variant).gametype.notation, confirmed,
                          written.line or None if written else None,
                          written.column or None if written else None, cut)

    def _result_check(self, final: Position) -> str:
        """Whether a decided final position agrees with the recorded result; undetermined
        where the game goes on, no result is recorded, or the result reads two ways (Black
        moving first: for the first mover or for the side named); a forfeit, which no
        position decides, is a forfeit."""
        if self.forfeit:
            return FORFEIT
        decision = decide(Board(self.variant, final))
        if decision is None or self.result == UNKNOWN:
            return "undetermined"
        winner = WHITE_WINS if decision.winner == WHITE else BLACK_WINS
        if result_reading_of(self.result_token, self.variant, winner) is not None:
            return "undetermined"
        return "consistent" if self.result == winner else "inconsistent"

    def run(self) -> tuple[list[Suggestion], bool]:
        """The suggestions, best first, and whether the search ended within its budget."""
        base = self.base
        singles = self.tried(self.edits_near(base, max(0, base.reach - WINDOW)), base)
        if any(s.replays_to_end for s, _ in singles):
            return _ranked(s for s, _ in singles), self.complete
        doubles = []
        furthest = sorted(singles, key=lambda pair: (-pair[0].reach, pair[0].cost))
        for first, trial in furthest[:SECOND_TRIES]:
            low = max(first.edits[0].index + 1, trial.reach - SECOND_WINDOW)
            doubles += self.tried(self.edits_near(trial, low), trial, first.edits)
        return _ranked(s for s, _ in singles + doubles), self.complete


def _ranked(suggestions: Iterable[Suggestion]) -> list[Suggestion]:
    """The suggestions worth showing, best first: those that replay to the end (or, when
    none does, those that get furthest), one per resulting game; of as many edits, one that
    only cuts the record short comes last."""
    suggestions = list(suggestions)
    if not suggestions:
        return []
    best_reach = max(s.reach for s in suggestions)
    kept = [s for s in suggestions if s.reach == best_reach]
    kept.sort(key=_rank)
    distinct, seen = [], set()
    for suggestion in kept:
        if suggestion.moves not in seen:
            seen.add(suggestion.moves)
            distinct.append(suggestion)
    return distinct


_CHECK_ORDER = {"consistent": 0, "undetermined": 1, FORFEIT: 1, "inconsistent": 2}


def _rank(suggestion: Suggestion) -> tuple:
    return (len(suggestion.edits), suggestion.cut, suggestion.cost,
            _CHECK_ORDER[suggestion.result_check], -suggestion.edits[0].index)


def suggest(game: Game, default: Variant | None = None, override: Variant | None = None, *,
            replayed: ReplayedGame | None = None, budget: int = BUDGET,
            rules: Rules | None = None) -> list[Suggestion]:
    """Repair suggestions for a game whose main line stops replaying, best first (empty for
    a game that replays, or one that cannot be read). ``replayed``: the game's replay when
    the caller has it; ``rules``: rule options set on top of the game's variant."""
    replayed = replayed or replay_game(game, default, override, rules=rules)
    if not _repairable(replayed):
        return []
    return _Search(replayed, budget).run()[0]


def _repairable(replayed: ReplayedGame) -> bool:
    return (replayed.status == INVALID
            and not any(p.code == "bad-fen" for p in replayed.errors)
            and len(replayed.moves) < len(replayed.game.moves.plies))


def sure_repair(suggestions: list[Suggestion]) -> Suggestion | None:
    """The repair to make: the one suggestion with the fewest edits that replays to the
    end, or, where several do, the one of them whose final position alone agrees with the
    recorded result; and a written ply from its last edit on must replay (taking out or
    replacing the last move has nothing after it to confirm it). A suggestion that only
    cuts the record short (``Suggestion.cut``) is neither made nor counted against the
    others: cutting the record at its failure always replays "to its end"; nor is one that
    writes the only legal move over the last ply, with nothing after it to confirm it (the
    written move is dropped, as a cut drops it). How natural a slip is orders the
    suggestions but never makes a repair sure: two different games would remain possible."""
    ending = [s for s in suggestions if s.replays_to_end and not s.cut
              and not (s.edits[-1].kind == "only" and not s.confirmed)]
    if not ending:
        return None
    fewest = min(len(s.edits) for s in ending)
    best = [s for s in ending if len(s.edits) == fewest]
    if len(best) > 1:
        best = [s for s in best if s.result_check == "consistent"]
    return best[0] if len(best) == 1 and best[0].confirmed else None


@dataclass(frozen=True)
class Repair:
    """What ``repair_game`` did: ``broken`` when the game stopped replaying, ``mend`` the
    repair in words (None: the game was left as it was read)."""

    broken: bool
    mend: str | None = None


def repair_game(game: Game, default: Variant | None = None, override: Variant | None = None, *,
                budget: int = BUDGET, rules: Rules | None = None) -> Repair:
    """Mend a game in place when one best suggestion makes it replay to its end: the
    repair is written into the game as a comment ``{repaired: ...}`` on the first edited
    ply and returned in words. Any other game is left untouched, and so is one whose
    search ran out of its ``budget`` (plies resolved) before it ended.

    >>> from pdn.reader import read_games
    >>> from replay.rules.variants import RUSSIAN
    >>> game = next(read_games("1. ed4 dc5 2. fe3 fg5 3. cb4 4. b:d6 h:f2 5. e:g3 c:h4 0-1"))
    >>> repair_game(game, RUSSIAN).mend
    "Black's 3rd move was missing: 3... gh4 is put in."
    >>> game.moves.plies[5].comments
    ["repaired: Black's 3rd move was missing: 3... gh4 is put in."]
    """
    replayed = replay_game(game, default, override, rules=rules)
    if not _repairable(replayed):
        return Repair(replayed.status == INVALID)
    if replayed.game is not game:  # the replayer read the record otherwise (joined plies)
        return Repair(True)
    suggestions, complete = _Search(replayed, budget).run()
    chosen = sure_repair(suggestions) if complete else None
    if chosen is None or not apply_suggestion(game, chosen, default, override, rules=rules,
                                              replayed=replayed):
        return Repair(True)
    return Repair(True, chosen.mend)


def apply_suggestion(game: Game, suggestion: Suggestion, default: Variant | None = None,
                     override: Variant | None = None, *, rules: Rules | None = None,
                     replayed: ReplayedGame | None = None) -> bool:
    """Make one suggestion of ``suggest`` in the game, in place, as ``repair_game`` makes
    its sure repair (the mend noted in a comment); False, the game untouched, when an edited
    ply carries variations or the edited game still does not replay."""
    if _has_variations(game, suggestion):
        return False
    replayed = replayed or replay_game(game, default, override, rules=rules)
    old = game.moves.plies
    game.moves.plies = _edited_plies(old, suggestion, Board(replayed.variant, replayed.start))
    if replay_game(game, default, override, rules=rules).status == INVALID:
        game.moves.plies = old
        return False
    return True


def _has_variations(game: Game, suggestion: Suggestion) -> bool:
    """Whether an edited ply carries variations (they would lose their branch point)."""
    first = min(edit.index for edit in suggestion.edits)
    last = max(edit.index for edit in suggestion.edits) + 4  # a ply moves three at most
    return any(ply.variations for ply in game.moves.plies[first:last])


def _edited_plies(plies: list[Ply], suggestion: Suggestion, board: Board) -> list[Ply]:
    """The main line with the suggestion's steps: written plies keep their annotations
    (those of a ply taken out go to the first edited one), moves an edit put in are written
    in the record's notation, the repair is noted in a comment on the first edited ply;
    move numbers are left to the writer."""
    records = [ply.record for ply in plies]
    new: list[Ply] = []
    for position, (step, move) in enumerate(zip(suggestion.steps, suggestion.moves,
                                                 strict=True)):
        if isinstance(step, Inserted):
            new.append(Ply(_record(board, move, _like(records, suggestion.steps, position))))
        else:
            old = plies[step]
            new.append(Ply(old.record, None, False, list(old.nags), list(old.comments),
                           list(old.variations), old.setup))
        board.position = board.position.play(move)
    first = min(edit.index for edit in suggestion.edits)
    target = new[min(first, len(new) - 1)]
    kept = {step for step in suggestion.steps if not isinstance(step, Inserted)}
    end = _line_end(plies)
    for index in sorted(set(range(end)) - kept):
        target.comments.extend(plies[index].comments)
    target.comments.append(f"repaired: {suggestion.mend}")
    return new + [_unnumbered(ply) for ply in plies[end:]]


def _line_end(plies: list[Ply]) -> int:
    """Where the written main line stops: its first lost move, or its end."""
    return next((i for i, ply in enumerate(plies) if ply.record.placeholder), len(plies))


def _unnumbered(ply: Ply) -> Ply:
    ply.number, ply.black_number = None, False
    return ply


# -- notation helpers --------------------------------------------------------------------

def _like(records: list[MoveRecord], steps: Sequence[RecordStep], index: int) -> MoveRecord | None:
    """A written record near ``index`` of the steps, whose style a new move is written in."""
    for offset in (0, -1, 1, -2, 2):
        if 0 <= index + offset < len(steps) and not isinstance(steps[index + offset], Inserted):
            return records[steps[index + offset]]
    return None


def _written(board: Board, move: Move, like: MoveRecord | None) -> str:
    """A move as the record around it writes moves: short (``gh4``) or full."""
    if like is not None and like.is_short and not short_is_ambiguous(board, move):
        names = board.variant.geometry.names
        return f"{names[move.origin][0]}{':' if move.captures else ''}{names[move.destination]}"
    return full_text(board, move, "minimal")


def _record(board: Board, move: Move, like: MoveRecord | None) -> MoveRecord:
    """A record of a move written in by a repair, in the record's notation."""
    text = _written(board, move, like)
    if like is not None and like.is_short and not short_is_ambiguous(board, move):
        names = board.variant.geometry.names
        return MoveRecord(text, (names[move.destination],), ":" if move.captures else "",
                          names[move.origin][0])
    notation = board.variant.gametype.notation
    names = notation.numbers if notation.numeric else board.variant.geometry.names
    squares = tuple(names[s] for s in route_squares(board, move, "minimal"))
    separator = board.variant.gametype.capture_separator if move.captures else "-"
    return MoveRecord(text, squares, separator)


def _written_squares(board: Board, record: MoveRecord) -> tuple[int | None, int] | None:
    """The origin (None for a short record) and destination a record names."""
    try:
        squares = board.variant.gametype.notation.squares(record.squares)
    except SquareError:
        return None
    if not squares:
        return None
    return (None if record.is_short else squares[0]), squares[-1]


def _replacement_kind(board: Board, record: MoveRecord, origin: int | None, destination: int,
                      move: Move) -> str | None:
    """``replace`` when the move is one character away from the record (a file letter or
    digit off by one, a short move with the wrong file), ``landing`` when it is a capture
    from the written piece that lands elsewhere, else None."""
    if record.is_short:
        same_file = board.variant.geometry.names[move.origin][0] == record.origin_file
        if same_file and move.captures and move.destination != destination:
            return "landing"
        if move.destination == destination:
            return "replace"  # the wrong file
        return "replace" if same_file and _near(board, move.destination, destination) else None
    if move.origin == origin and move.captures:
        return "landing"
    if move.origin == origin and _near(board, move.destination, destination):
        return "replace"
    if move.destination == destination and _near(board, move.origin, origin):
        return "replace"
    return None


def _same_as_written(board: Board, record: MoveRecord, origin: int | None, destination: int,
                     move: Move) -> bool:
    """Whether a move is what the record names (no replacement, only its reading)."""
    if move.destination != destination:
        return False
    if record.is_short:
        return board.variant.geometry.names[move.origin][0] == record.origin_file
    return move.origin == origin


def _one_char_off(text: str, written: str) -> bool:
    """Texts of one length that differ in one letter or digit, by one (``h5`` for ``h4``)."""
    text, written = text.lower(), written.lower()
    if len(text) != len(written):
        return False
    differ = [(a, b) for a, b in zip(text, written, strict=True) if a != b]
    return len(differ) == 1 and abs(ord(differ[0][0]) - ord(differ[0][1])) == 1


def _near(board: Board, square: int, written: int | None) -> bool:
    """One character away: a file letter or a digit off by one (``c4`` for ``d4``, ``18``
    for ``17`` or ``27``; and ``9`` for ``10``)."""
    if written is None:
        return False
    a, b = board.name(square), board.name(written)
    numbers = a.isdigit() and b.isdigit()
    return _one_char_off(a, b) or (numbers and abs(int(a) - int(b)) == 1)


__all__ = ["KIND_COSTS", "Edit", "Repair", "Suggestion", "apply_suggestion", "repair_game",
           "suggest", "sure_repair"]
