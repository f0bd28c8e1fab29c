"""Validate game records: read, replay and report, one plain ``GameReport`` per game.

This is the library behind ``pdn validate``; reports are plain values, so they travel
between worker processes and become JSON lines as they are.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from itertools import chain, islice
from json.encoder import encode_basestring
from operator import attrgetter

from pdn.chunks import Chunk
from pdn.game import Game
from pdn.i18n import N_, Catalog, catalog
from pdn.reader import read_block
from replay.record.agreement import HELD_GAMES, agree_file, agree_with, file_variant
from replay.record.held import Held
from replay.record.inference import (
    ENGLISH_FIRST_MOVER_BOTTOM,
    keyed_variant,
    standard_form,
    standard_players,
    variant_key,
)
from replay.record.replayer import (
    UNREADABLE,
    Problem,
    ReplayedGame,
    apply_reading,
    file_reading,
    replay_game,
)
from replay.record.silent import follow_file
from replay.rules.choice import RulesChoice
from replay.rules.identity import ByIdentity
from replay.rules.native import fast_position_fen
from replay.rules.position import Position
from replay.rules.variants import Rules, Variant
from replay.run.parallel import gc_paused
from replay.run.partitions import Partition, source_name
from replay.run.runner import PARTITION_CHARS, open_runner
from replay.validate.repair_words import NO_SUGGESTION


@dataclass
class GameReport:
    """The verdict on one game: the stable JSON interface of ``pdn validate --json``."""

    file: str | None
    game: int
    line: int
    white: str | None
    black: str | None
    variant: str
    plies: int
    status: str  # valid / contradicted / invalid / incomplete / unreadable
    errors: list[dict] = field(default_factory=list)
    warnings: list[dict] = field(default_factory=list)
    result: str | None = None
    result_check: str = "undetermined"
    result_note: str = ""
    final_fen: str = ""
    event: str | None = None
    date: str | None = None
    draws: list[dict] = field(default_factory=list)
    error_fens: list[str] = field(default_factory=list)  # position before each main-line error
    variant_source: str = "tag"  # tag / option / inferred
    notes: list[dict] = field(default_factory=list)  # variant-inferred and conventions
    result_reading: str | None = None  # settled per file by settle_results
    suggestions: list[dict] = field(default_factory=list)  # repairs, with --suggest only
    # The record, kept while its file's other games may tell its variant (``follow_reports``):
    # it tells none itself (``silent``), or it replays under several (``open_variant``).
    record: Game | None = field(default=None, repr=False, compare=False)
    silent: bool = False
    open_variant: bool = False
    # Where a worker read the game: its partition (shared by the partition's reports: a byte
    # range of a file, read again if need be, or the text the client read) or its text, and
    # the game's place among that text's games (several may start on one line), held instead
    # of ``record``: the collector need not walk it and it pickles cheaply while the report
    # waits in a ``Held`` window (``validate_partition``, ``pdn convert``'s).
    origin: tuple[Partition | Chunk, int] | None = field(default=None, repr=False,
                                                        compare=False)

    def as_dict(self) -> dict:
        """The JSON row: every field in order but ``result_reading`` and what is kept for the
        file (``record``, ``silent``, ``open_variant``, ``origin``). A shallow dict, whose lists
        are the report's own: ``dataclasses.asdict`` copied them deep, 0.9 s for OCA 2.0's
        22,621 rows against 0.06 (bench/README.md)."""
        kept = self.__dict__  # every field, set by __init__: read without getattr's lookups
        return {name: kept[name] for name in _ROW_FIELDS}

    def __reduce__(self) -> tuple:
        return _pickled(self)

    def json_line(self) -> str:
        """The report's line of ``pdn validate --json``: ``as_dict`` encoded by ``json``."""
        return joined_row(self.file, self.game, self.status, self.result_check,
                          self.result_note, row_parts(self))

    @property
    def has_errors(self) -> bool:
        """Whether the game has an error (``mark_contradicted``)."""
        return bool(self.errors)

    @property
    def warning_codes(self) -> list[str]:
        """The code of each warning, in order (``Tally``)."""
        return [problem["code"] for problem in self.warnings]

    @property
    def variant_key(self) -> str:
        """The variant as ``replay.record.inference.variant_key`` names it."""
        for note in self.notes:  # a loop, not any(): no generator made per report
            if note["code"] == "first-mover-bottom":
                return variant_key(ENGLISH_FIRST_MOVER_BOTTOM)
        return self.variant

    @property
    def title(self) -> str:
        """``game 3 (Guba – Yumshanov)``."""
        if not (self.white or self.black):
            return N_("game {number}").format(number=self.game)
        return N_("game {number} ({white} – {black})").format(
            number=self.game, white=self.white or "?", black=self.black or "?")


_ROW_FIELDS = tuple(f.name for f in fields(GameReport)
                    if f.name not in ("result_reading", "record", "silent", "open_variant",
                                      "origin"))
_encode = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps's, made once


@dataclass
class EncodedReport:
    """A report as ``pdn validate --json`` writes it, encoded by the worker that replayed its
    game: its JSON row in parts, the fields its source may still change apart (its number,
    status and result check: ``settle_source``), and the few facts that settling and the
    summary's ``Tally`` read. Some strings where the report holds lists of dicts, it travels
    from its worker and waits in a window of held reports at a fraction of the cost, and the
    main process only joins its parts (``encoded``)."""

    file: str | None
    game: int
    parts: tuple[str, str, str]  # of the row, that no settling changes (``row_parts``)
    status: str
    result_check: str
    result_note: str
    variant: str
    variant_key: str
    variant_source: str
    plies: int
    warning_codes: list[str]
    has_errors: bool
    result_reading: str | None
    silent: bool
    open_variant: bool
    record: Game | None = field(default=None, repr=False, compare=False)
    origin: tuple[Partition | Chunk, int] | None = field(default=None, repr=False,
                                                        compare=False)

    def __reduce__(self) -> tuple:
        return _pickled(self)

    def json_line(self) -> str:
        """The report's line of ``pdn validate --json``, byte for byte ``GameReport``'s."""
        return joined_row(self.file, self.game, self.status, self.result_check,
                          self.result_note, self.parts)


_string = encode_basestring  # a str as the encoder writes it (ensure_ascii=False), in C


def _text(value: str | None) -> str:
    """A str or None as ``_encode`` writes it."""
    return "null" if value is None else _string(value)


def _items(value: list) -> str:
    """A list as ``_encode`` writes it."""
    return _encode(value) if value else "[]"


def row_parts(report: GameReport) -> tuple[str, str, str]:
    """The parts of the report's JSON row that no settling changes: the fields between
    ``game`` and ``status``, between ``status`` and ``result_check``, and after
    ``result_note``, each written as ``_encode`` writes it within the row (its plain values
    directly: the C encoder builds and joins a piece per key, separator and value)."""
    kept = report.__dict__
    return (f'"line": {kept["line"]}, "white": {_text(kept["white"])}, '
            f'"black": {_text(kept["black"])}, "variant": {_string(kept["variant"])}, '
            f'"plies": {kept["plies"]}',
            f'"errors": {_items(kept["errors"])}, "warnings": {_items(kept["warnings"])}, '
            f'"result": {_text(kept["result"])}',
            f'"final_fen": {_string(kept["final_fen"])}, "event": {_text(kept["event"])}, '
            f'"date": {_text(kept["date"])}, "draws": {_items(kept["draws"])}, '
            f'"error_fens": {_items(kept["error_fens"])}, '
            f'"variant_source": {_string(kept["variant_source"])}, '
            f'"notes": {_items(kept["notes"])}, "suggestions": {_items(kept["suggestions"])}')


def joined_row(file: str | None, game: int, status: str, result_check: str, result_note: str,
               parts: tuple[str, str, str]) -> str:
    """A JSON row from the values settling may change and the parts it does not
    (``row_parts``)."""
    head, middle, tail = parts
    return (f'{{"file": {_text(file)}, "game": {game}, {head}, "status": {_string(status)}, '
            f'{middle}, "result_check": {_string(result_check)}, '
            f'"result_note": {_string(result_note)}, {tail}}}')


def encoded(report: GameReport) -> EncodedReport:
    """The report with its JSON row encoded (``EncodedReport``)."""
    return EncodedReport(
        report.file, report.game, row_parts(report), report.status, report.result_check,
        report.result_note, report.variant, report.variant_key, report.variant_source,
        report.plies, report.warning_codes, bool(report.errors), report.result_reading,
        report.silent, report.open_variant, report.record, report.origin)


AnyReport = GameReport | EncodedReport
# Each report class's fields in order, read at once.
_VALUES = {cls: attrgetter(*(f.name for f in fields(cls))) for cls in (GameReport, EncodedReport)}


def _pickled(report: AnyReport) -> tuple:
    """A report pickled as its class and the tuple of its fields' values, built again by
    ``__init__``: reports cross from workers and wait in ``Held`` windows by the thousand,
    and the default pickling of an instance's ``__dict__`` (a key per field) loaded them
    three times slower (5 against 17 ms per 1,000, bench/README.md)."""
    return type(report), _VALUES[type(report)](report)


def _location(report: GameReport, problem: dict) -> str:
    parts = [report.file or "<stdin>"]
    if problem.get("line"):
        parts.append(str(problem["line"]))
        if problem.get("column"):
            parts.append(str(problem["column"]))
    elif report.line:
        parts.append(str(report.line))
    return ":".join(parts)


def problem_line(report: GameReport, problem: dict, kind: str,
                 words: Catalog | None = None) -> str:
    """``file:line:col: error: game 3 (A – B), move 12 (Black) 'fg5': code — message``, in
    the language of ``words`` (English by default; the code stays as it is)."""
    words = words or catalog("en")
    move = ""
    if problem.get("move_number"):
        move = words.gettext(N_(", move {number} ({side})")).format(
            number=problem["move_number"], side=words.localize(str(problem.get("side"))))
        if problem.get("token"):
            move += f" '{problem['token']}'"
    return (f"{_location(report, problem)}: {words.localize(kind)}: "
            f"{words.localize(report.title)}{move}: "
            f"{problem['code']} — {words.localize(problem['message'])}")


SUGGESTION = N_("suggestion")
CANNOT_READ = N_("{file}: cannot read: {reason}")


def suggestion_lines(report: GameReport, words: Catalog | None = None) -> list[str]:
    """``file:line:col: suggestion: game 3 (A – B): Black's 3rd move is missing: ...`` (where
    the slip is written), or a line saying that no small edit mends the game; in the
    language of ``words`` (English by default)."""
    words = words or catalog("en")
    head = f": {words.gettext(SUGGESTION)}: {words.localize(report.title)}: "
    if not report.suggestions:
        return [f"{_location(report, {})}{head}{words.localize(NO_SUGGESTION)}"]
    return [f"{_location(report, s)}{head}{words.localize(s['description'])}"
            for s in report.suggestions]


@dataclass
class Tally:
    """What the summary line of ``pdn validate`` counts: games by status, result checks,
    warnings by code, variants inferred, moves checked and reports counted."""

    statuses: Counter[str] = field(default_factory=Counter)
    checks: Counter[str] = field(default_factory=Counter)
    inferred: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    rows: int = 0
    warnings: Counter[str] = field(default_factory=Counter)

    def count(self, report: AnyReport) -> None:
        """Count one game's report."""
        self.statuses[report.status] += 1
        self.checks[report.result_check] += 1
        codes = report.warning_codes
        if codes:  # most reports have none: no update called
            self.warnings.update(codes)
        if report.variant_source == "inferred":
            self.inferred[report.variant] += 1
        self.moves += report.plies
        self.rows += 1

    def add(self, other: Tally) -> None:
        """Count another tally's reports too."""
        self.statuses.update(other.statuses)
        self.checks.update(other.checks)
        self.warnings.update(other.warnings)
        self.inferred.update(other.inferred)
        self.moves += other.moves
        self.rows += other.rows


def report_game(game: Game, default: Variant | None = None, override: Variant | None = None,
                *, suggest: bool = False, rules: Rules | None = None, strict: bool = False,
                follow: Variant | None = None, shown: Variant | None = None) -> GameReport:
    """Replay a game and sum it up; ``suggest`` adds repair suggestions to a broken game
    (``replay.validate.repair``); ``rules`` are rule options set on top of the game's variant;
    ``strict`` counts warnings as errors (a valid game with warnings is invalid);
    ``follow`` is the variant of a record that tells nothing, ``shown`` the variant its
    file's games show (``replay_game``)."""
    replayed = replay_game(game, default, override, rules=rules, follow=follow, shown=shown)
    variant = replayed.variant
    tags = game.tags
    white, black = standard_players(tags, variant)
    # What the reader found is an error only when it left nothing to replay; in a readable
    # record it is a PDN slip, reported as a warning (a '-' lost move is reported once, by
    # the replayer, as lost moves).
    status = replayed.status
    errors = [p.as_dict() for p in replayed.errors]
    warnings = [p.as_dict() for p in replayed.warnings]
    if game.diagnostics:
        reading = [Problem(d.code, d.message, d.line, d.column).as_dict()
                   for d in game.diagnostics if d.code != "lost-move"]
        if status == UNREADABLE:
            errors = reading + errors
        else:
            warnings = reading + warnings
    report = GameReport(
        file=game.source,
        game=game.index,
        line=game.line,
        white=white,
        black=black,
        variant=variant.name,
        plies=replayed.plies,
        status=status,
        errors=errors,
        warnings=warnings,
        result=game.headers_result,
        result_check=replayed.result_check,
        result_note=replayed.result_note,
        final_fen=_fen(replayed.final or replayed.start, variant),
        event=tags.get("Event"),
        date=tags.get("Date"),
        draws=[{"rule": c.rule, "description": c.description, "ply": c.ply}
               for c in replayed.draws],
        error_fens=_error_fens(replayed),
        variant_source=replayed.variant_source,
        notes=[note.as_dict() for note in replayed.notes],
        result_reading=replayed.result_reading,
        suggestions=_suggestions(game, default, override, replayed, rules) if suggest else [],
        record=game if replayed.silent or replayed.open_variant else None,
        silent=replayed.silent,
        open_variant=replayed.open_variant,
    )
    if strict and report.warnings and report.status == "valid":
        report.status = "invalid"
    return mark_contradicted(report)


CONTRADICTED = "contradicted"
# The code of a warning about the recorded result: the movetext's result names another
# outcome than the Result tag (``pdn.results.results_disagree``), or the tag is no result.
RESULT_WARNING = "result"


def mark_contradicted(report: GameReport) -> GameReport:
    """A game whose moves replay but whose recorded result its final position contradicts
    (``result_check`` inconsistent) is ``contradicted``: a problem of its own kind, listed
    before the others, also where its file's reading of results settles it later
    (``apply_reading``). A game that ``--strict`` made invalid for its warnings alone
    replays."""
    replays = report.status == "valid" or (report.status == "invalid" and not report.has_errors)
    if report.result_check == "inconsistent" and replays:
        report.status = CONTRADICTED
    return report


SUGGESTIONS_SHOWN = 3


def _suggestions(game: Game, default: Variant | None, override: Variant | None,
                 replayed: ReplayedGame, rules: Rules | None) -> list[dict]:
    from replay.validate.repair import suggest

    found = suggest(game, default, override, replayed=replayed, rules=rules)
    return [s.as_dict() for s in found[:SUGGESTIONS_SHOWN]]


def _error_fens(replayed: ReplayedGame) -> list[str]:
    if not replayed.errors or replayed.final is None:
        return []
    return [_fen(replayed.final, replayed.variant)]


def _fen(position: Position, variant: Variant) -> str:
    """The position's FEN in the variant's standard notation (``position_fen``, in C where
    the native core is here)."""
    return fast_position_fen(position, _standard_notation(variant))


# The notation a report writes a variant's FENs in, kept per variant object (replay.rules.identity).
_standard_notation = ByIdentity(lambda variant: standard_form(variant).gametype.notation)


def report_games(games: Iterable[Game], default: Variant | None = None,
                 override: Variant | None = None, *, suggest: bool = False,
                 rules: Rules | None = None, strict: bool = False) -> Iterator[GameReport]:
    """Reports for a stream of games of one source, in order, results settled per source;
    ``suggest`` adds repair suggestions to each broken game, ``rules`` and ``strict`` are
    ``report_game``'s."""
    work = ValidationWork(RulesChoice(default, override, rules), suggest, strict)
    return settle_source(
        (report_game(game, default, override, suggest=suggest, rules=rules, strict=strict)
         for game in games), work)


def agree_reports(reports: Iterable[GameReport], work: ValidationWork, *,
                  known: bool = False, shown: str | None = None, seen: int = 0,
                  votes: Counter[str] | None = None) -> Iterator[GameReport]:
    """Reports of one source, in order, where a game that several variants replay is
    reported again with the variant its file's games show offered first
    (``replay.record.agreement``); ``known``: that variant is ``shown``, told by the caller;
    ``seen`` and ``votes``: the reports given before these and the variants they told
    (``agree_file``)."""
    def redo(report: GameReport, key: str) -> GameReport:
        game = report.record or read_again(report)
        choice = work.choice
        again = report_game(game, choice.default, choice.override, suggest=work.suggest,
                            rules=choice.rules, strict=work.strict, shown=keyed_variant(key))
        again.game, again.file = report.game, report.file
        return again

    if known:
        return agree_with(reports, shown, _told, _open, redo)
    return agree_file(reports, _told, _open, redo, HELD_GAMES, seen=seen, votes=votes)


def _told(report: GameReport) -> str | None:
    """The variant key a report tells its file (``agree_file``): none where its record is
    silent."""
    return None if report.silent else report.variant_key


def _open(report: GameReport) -> bool:
    """Whether several variants replay the report's game, which is there to read again."""
    return report.open_variant and (report.record is not None or report.origin is not None)


def _waits(report: GameReport) -> bool:
    """Whether agreement, following or results may hold or change the report: its game is
    open to several variants, silent, or its result waits for its file's reading."""
    return _open(report) or _silent(report) or report.result_reading is not None


def _silent(report: GameReport) -> bool:
    """Whether the report's game tells nothing and follows its neighbours
    (``follow_reports``)."""
    return report.silent and report.record is not None


def follow_reports(reports: Iterable[GameReport], work: ValidationWork, key: str | None = None
                   ) -> Iterator[GameReport]:
    """Reports of one source, in order, where a game whose record tells nothing of its
    variant is reported again under the variant of the file's games around it
    (``replay.record.silent``); ``key``: the variant told before these reports, if any."""
    followed = follow_file(reports, _silent, lambda report: report.variant_key,
                           lambda report, key: _followed(report, key, work), key=key)
    return (_cleared(report) for report in followed)


def _followed(report: GameReport, key: str, work: ValidationWork) -> GameReport:
    """A silent game reported again under the variant ``key`` of its neighbours."""
    assert report.record is not None
    choice = work.choice
    again = report_game(report.record, choice.default, choice.override, suggest=work.suggest,
                        rules=choice.rules, strict=work.strict, follow=keyed_variant(key))
    again.game, again.file = report.game, report.file
    return again


def _cleared(report: GameReport) -> GameReport:
    """The report without what was kept to report its game again."""
    report.record = report.origin = None
    return report


def settle_results(reports: Iterable[GameReport]) -> Iterator[GameReport]:
    """Reports of one source, in order, with the results of games where Black moves first
    checked under the reading the source's decided games use (``file_reading``).

    From the first such game on, reports are held until the source ends, or until
    ``HELD_REPORTS`` are held, when the games decided so far settle the reading; all but
    the last thousand wait on disk (``replay.record.held``).
    """
    held: Held[GameReport] = Held()
    readings: Counter[str | None] = Counter()
    reading: str | None = None
    settled = False
    for report in reports:
        if settled:
            apply_reading(report, reading)
            yield mark_contradicted(report)
        elif held or report.result_reading is not None:
            held.append(report)
            readings[report.result_reading] += 1
            if len(held) >= HELD_REPORTS:
                reading, settled = file_reading(readings.elements()), True
                yield from _settled(held.drain(), reading)
        else:
            yield report
    if held:
        yield from _settled(held.drain(), file_reading(readings.elements()))


HELD_REPORTS = 50_000  # bounds the memory a huge source of Black-first games holds


def _settled(reports: Iterable[GameReport], reading: str | None) -> Iterator[GameReport]:
    for report in reports:
        apply_reading(report, reading)
        yield mark_contradicted(report)


def settle_source(reports: Iterable[GameReport], work: ValidationWork) -> Iterator[GameReport]:
    """Reports of one source, in order, agreed on its variant (``agree_reports``), silent
    games following their neighbours (``follow_reports``) and results settled
    (``settle_results``), the three over one window of held reports.

    Reports are given at once up to the first that one of the three would hold or change
    (a game open to several variants, a silent one, one whose result waits for the file's
    reading); from it on they are held, once, in a ``replay.record.held.Held`` window. When
    the source ends, if the file's variant reads none of them again (every open game already
    reads as the file's variant: OCA 2.0) and no silent game waits for a game that tells,
    the reading their results tell (a silent game's as it reads after the game before it,
    replayed for that as it is held: it has no moves) settles them as they are drained.
    Otherwise, or once ``HELD_GAMES`` reports are seen or ``HELD_REPORTS`` held, the held
    reports and the rest go through the three in turn, as they would have from the start
    (agreed with the file's variant where it is settled: a report is then held once more,
    for the reading of results, as before).
    """
    stream = iter(reports)
    window: Held[GameReport] = Held()
    votes: Counter[str] = Counter()  # the variants the source's reports tell
    before: tuple[int, Counter[str], str | None] = (0, Counter(), None)  # at the window
    readings: Counter[str] = Counter()  # of the held reports' results
    open_told: set[str] = set()  # the variants the held open games read as on their own
    silent = leading = False  # whether a silent game is held; one before any game that tells
    seen = 0
    key: str | None = None  # the variant the last game that tells reads as (``follow_reports``)
    for report in stream:
        if not (window or _waits(report)) and seen + 1 < HELD_GAMES:
            seen += 1
            if not report.silent:
                votes[report.variant_key] += 1
            key = report.variant_key
            yield _cleared(report)
            continue
        if not window:
            before = (seen, Counter(votes), key)
        window.append(report)
        seen += 1
        result_reading = report.result_reading
        if _silent(report):
            silent, leading = True, leading or key is None
            if key is not None:
                result_reading = _followed(report, key, work).result_reading
        else:
            key = report.variant_key
            if not report.silent:
                votes[key] += 1
                if _open(report):
                    open_told.add(key)
        if result_reading is not None:
            readings[result_reading] += 1
        if seen >= HELD_GAMES or len(window) >= HELD_REPORTS:
            rest = chain(window.drain(), stream)
            if seen >= HELD_GAMES:  # the file's variant settles here, as ``agree_file`` does
                agreed = agree_reports(rest, work, known=True, shown=file_variant(votes))
            else:
                agreed = agree_reports(rest, work, seen=before[0], votes=before[1])
            yield from _in_turn(agreed, work, before[2])
            return
    shown = file_variant(votes)
    if leading or (shown is not None and open_told - {shown}):
        agreed = agree_reports(window.drain(), work, known=True, shown=shown)
        yield from _in_turn(agreed, work, before[2])
        return
    reading = file_reading(readings.elements())
    key = before[2]
    for report in window.drain():
        if silent:  # followed as it was when held
            if _silent(report):
                assert key is not None
                report = _followed(report, key, work)
            else:
                key = report.variant_key
        apply_reading(report, reading)
        yield _cleared(mark_contradicted(report))


def _in_turn(agreed: Iterable[GameReport], work: ValidationWork, key: str | None
             ) -> Iterator[GameReport]:
    """Reports agreed on their file's variant, followed (``key``: the variant the last report
    before them that tells reads as) and settled, each step holding what it waits for."""
    return settle_results(follow_reports(agreed, work, key))


def validate_sources(sources: list[str], default: Variant | None = None,
                     override: Variant | None = None, *, jobs: int = 0,
                     encoding: str | None = None, suggest: bool = False,
                     rules: Rules | None = None, strict: bool = False,
                     progress: Callable[[int], None] | None = None,
                     engine: str = "local", scheduler: str | None = None,
                     as_json: bool = False) -> Iterator[AnyReport | str]:
    """Reports for every game of every source, in order; an unreadable file gives one error
    string (``path: reason``) instead, and the others are still read.

    ``default`` is the variant of games without a GameType tag (None: inferred from each
    record); ``override`` replaces every game's own. Results of games where Black moves
    first are checked per source, as its variant is agreed (``settle_source``).

    The work runs on ``engine`` (``replay.run.runner``): ``jobs`` worker processes (0: one per
    usable core, used only when the input is large enough to repay starting them; 1: this
    process only), or a Dask cluster (``scheduler``). ``suggest``: repair suggestions under
    each broken game.
    ``rules``: rule options set on top of every game's variant (``{"forced-capture": "no"}``).
    ``strict``: warnings count as errors. ``progress`` is told how many characters (or bytes)
    each piece of work covered. ``as_json``: the reports are wanted for their JSON rows
    alone (``json_line``), and come as ``EncodedReport``s, encoded where they are made.
    """
    work = ValidationWork(RulesChoice(default, override, rules), suggest, strict, as_json,
                          reread=engine == "local")
    with open_runner(engine, jobs=jobs, scheduler=scheduler) as runner:
        for source in sources:
            try:
                batches = runner.map(validate_partition,
                                     runner.partitions(source, encoding, BLOCK), work)
                yield from settle_source(_renumbered(batches, progress), work)
            except OSError as error:
                yield CANNOT_READ.format(file=source_name(source),
                                         reason=error.strerror or error)


BLOCK = PARTITION_CHARS


@dataclass(frozen=True)
class ValidationWork:
    """What every worker needs to know to report a game."""

    choice: RulesChoice
    suggest: bool
    strict: bool
    as_json: bool = False  # give ``EncodedReport``s
    # this machine can read the partitions' files again (the local runner): a report open
    # to several variants keeps its partition, not the partition's text (``read_again``)
    reread: bool = False


def validate_partition(partition: Partition, work: ValidationWork
                       ) -> tuple[int, list[GameReport] | list[EncodedReport]]:
    """Worker entry: cut a partition of games into chunks, read them as ``pdn info`` reads
    the whole file (a game that runs into the next one without a result is noted: a
    partition ends after a result, so none runs into the next partition) and replay them;
    the partition's size and the reports (encoded: ``work.as_json``)."""
    with gc_paused():
        block = partition.chunk()
        where = partition if work.reread else block
        reports = [
            report_game(game, work.choice.default, work.choice.override, suggest=work.suggest,
                        rules=work.choice.rules, strict=work.strict)
            for game in read_block(block, partition.source)]
        for place, report in enumerate(reports):  # games let go before the collector runs
            if report.open_variant and not report.silent:  # again; read again if need be
                # the partition, not its text: a file's byte range does not travel back
                # from the worker, nor wait on disk in a Held window, with every report
                report.record, report.origin = None, (where, place)
        if work.as_json:  # the reports let go before the collector runs again too
            reports = [encoded(report) for report in reports]
    return partition.size, reports


def read_again(report: AnyReport) -> Game:
    """The game of a report, read again from its partition's text as the worker read it
    (found by its place among the text's games: games glued on one line share their line);
    a partition of a file reads its byte range again (``OSError`` if it cannot)."""
    assert report.origin is not None
    where, place = report.origin
    block = where.chunk() if isinstance(where, Partition) else where
    return next(islice(read_block(block, report.file), place, None))


def _renumbered(batches: Iterable[tuple[int, list[GameReport]]],
                progress: Callable[[int], None] | None = None) -> Iterator[GameReport]:
    """Reports numbered 1.. in their source, whatever batch they came from."""
    index = 0
    for size, batch in batches:
        if progress is not None:
            progress(size)
        for report in batch:
            index += 1
            report.game = index
            yield report
