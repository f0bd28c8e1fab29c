"""The arbiter's desk: the games loaded in ``pdn serve``, their reports, and the edits made
to them (no web framework here; ``replay.serve.app`` serves it).

Each file is kept as its text and its bytes cut into games (the lines from a game's first
line to the next game's; a game glued to the end of the one before is cut where the reader
cuts it), so that an edited game is written back in its place, in the file's encoding, and
every other game stays as it was, byte for byte (``replay.serve.files``). Every text that
comes in is checked first: valid Unicode, not too many games, not thousands glued on a
line. A game's row is its ``pdn validate --json`` report: the
files given are validated as ``pdn validate`` validates them; a game edited, uploaded or
pasted is validated from its own text.

>>> desk = Desk()
>>> document = desk.add_text("pasted.pdn", '[GameType "25"]\\n1. c3-d4 f6-g5 2. d4-e5 *\\n')
>>> [str(game.row["status"]) for game in document.games]
['valid']
>>> str(desk.set_move(1, 2, "d4-e6").row["status"])
'invalid'
"""

from __future__ import annotations

import io
import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice, pairwise
from pathlib import Path

from pdn.chunks import newline_lines, split_chunks
from pdn.game import Game
from pdn.i18n import N_, Catalog, catalog
from pdn.model import MoveRecord
from pdn.reader import PdnText, read_games
from replay.record.board import Board
from replay.record.replayer import ReplayedGame, replay_game
from replay.rules.choice import RulesChoice
from replay.rules.variants import Variant, get_variant
from replay.serve.files import Decoded, Stamp, decoded, split_lines, write_failure
from replay.validate.reports import GameReport, report_game, report_games, validate_sources

MAX_GAMES_PER_TEXT = 20_000  # an upload or a paste of more games is refused, before reading
MAX_BOARD_GAME = 1 << 18  # a game's text longer than this is not put on the board
MAX_GLUED = 100  # a line on which more games begin is refused before reading
# a tag pair that begins after something else than a tag on its line: a game glued there
_TAG_PAIR = re.compile(r'\[[A-Za-z][A-Za-z0-9_]*\s+"')
_TAG_PAIRS = re.compile(r'\s*(?:\[[^\[\]"]*"(?:[^"\\]|\\.)*"\s*\]\s*)*')
_GLUED = re.compile(r'[^\s\]][ \t]*\[[A-Za-z][A-Za-z0-9_]*[ \t]+"')
ENGLISH = catalog("en")


class DeskError(ValueError):
    """A request the desk refuses, with the reason in words (shown on the page) and the
    HTTP status that answers it."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.status = status


def valid_unicode(text: str, what: str) -> str:
    """``text``, refused when it is not valid Unicode (a lone surrogate, which JSON's
    ``\\udcfc`` can carry but no file, page or answer can hold)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise DeskError(f"{what} is not valid Unicode: a lone surrogate "
                        f"U+{ord(text[error.start]):04X} at character {error.start + 1}"
                        ) from None
    return text


@dataclass
class DeskGame:
    """One game on the desk: ``number`` counts from 1 over the whole desk, ``report`` is
    its ``pdn validate`` report, ``text`` its PDN as it stands, ``read`` and ``raw`` its
    text and bytes as read (written back as they were while ``text`` is ``read``)."""

    number: int
    document: Document
    text: str
    report: GameReport
    edited: bool = False
    read: str = ""
    raw: bytes = b""

    @property
    def row(self) -> dict:
        """The game's ``pdn validate --json`` row."""
        return self.report.as_dict()

    def record(self) -> Game:
        """The game as read from its text (where the text read alone also gives fragments
        the reader joined to the game in its file, a lone ``[`` after it, the game)."""
        games = list(read_games(PdnText(self.text)))
        if len(games) > 1:
            games = [game for game in games if game.tags or game.moves.plies]
        if len(games) != 1:
            raise DeskError(f"game {self.number}: its text holds {len(games)} games")
        game = games[0]
        game.source, game.index = self.document.name, self.report.game
        return game

    def encoded(self) -> bytes:
        """Its bytes in its file: those read while it is unedited."""
        return self.raw if self.text == self.read else self.text.encode(self.document.codec)


@dataclass
class Document:
    """A file given, or a text uploaded or pasted: what comes before its first game, then
    its games; for a file, its ``encoding``, the ``codec`` an edit is written in and the
    ``stamp`` it had when read (``replay.serve.files``)."""

    number: int
    name: str
    path: Path | None  # a file given on the command line; None for an upload
    prefix: str = ""
    games: list[DeskGame] = field(default_factory=list)
    encoding: str = "utf-8"
    codec: str = "utf-8"
    prefix_raw: bytes = b""
    stamp: Stamp | None = None
    exact: bool = True  # its lines encoded give back its bytes

    def encoded(self) -> bytes:
        """The whole file in its encoding: every unedited game byte for byte as read."""
        return self.prefix_raw + b"".join(game.encoded() for game in self.games)

    @property
    def edited(self) -> bool:
        return any(game.edited for game in self.games)


def _starts(name: str, lines: list[str], games: list[Game]) -> list[tuple[int, int]]:
    """Where each game begins: its line and column (from 0; a game glued to the end of the
    one before begins in the middle of a line); refused when two games begin on one line
    (the desk edits a game by its lines)."""
    starts = [max(1, game.line) - 1 for game in games]
    for index, (start, following) in enumerate(pairwise(starts), 1):
        if following <= start:
            raise DeskError(N_("{name}: games {number} and {next} begin on the same line "
                               "{line}: the desk edits a game by its lines; write each game "
                               "on lines of its own first ('pdn convert' does)").format(
                name=name, number=index, next=index + 1, line=start + 1), 422)
    return [(line, _glued_at(lines[line]) if line < len(lines) else 0) for line in starts]


def _glued_at(line: str) -> int:
    """Where on ``line`` a game begins that is glued to other text before it ("0-1[Event"),
    as the reader cuts it (``pdn.chunks``): at a tag pair after text that is not tags, on
    a line without comments; 0 when the game begins the line."""
    if any(c in line for c in "{};"):
        return 0
    for match in _TAG_PAIR.finditer(line):
        before = line[:match.start()]
        if before.strip() and _TAG_PAIRS.fullmatch(before) is None:
            return match.start()
    return 0


def count_games(text: str, name: str) -> None:
    """Refuse a text of more than ``MAX_GAMES_PER_TEXT`` games, counted by the reader's
    line scan before any game is read."""
    chunks = split_chunks(newline_lines(io.StringIO(text, newline=None)))
    if sum(1 for _ in islice(chunks, MAX_GAMES_PER_TEXT + 1)) > MAX_GAMES_PER_TEXT:
        raise DeskError(N_("{name}: more than {count} games; give such a file on the "
                           "command line").format(name=name, count=f"{MAX_GAMES_PER_TEXT:,}"),
                        413)


def shown_name(source: str) -> str:
    """A file's name as the pages show it: bytes of the name that are not UTF-8 (which
    Python keeps as lone surrogates) become U+FFFD."""
    return os.fsencode(source).decode("utf-8", errors="replace")


def refuse_glued(text: str, name: str) -> None:
    """Refuse a text with a line on which more than ``MAX_GLUED`` games begin (each glued
    to the end of the one before), found by a scan of its lines before any is read."""
    if text.count("[") <= MAX_GLUED:
        return
    for number, line in enumerate(split_lines(text), 1):
        if line.count("[") > MAX_GLUED and len(_GLUED.findall(line)) > MAX_GLUED:
            raise DeskError(N_("{name}: more than {count} games begin on line {number}, each "
                               "glued to the one before: the desk edits a game by its lines; "
                               "write each game on lines of its own first ('pdn convert' "
                               "does)").format(name=name, count=MAX_GLUED, number=number), 422)


class Desk:
    """Every document and game loaded; all changes go through one lock."""

    def __init__(self, choice: RulesChoice | None = None) -> None:
        self.choice = choice or RulesChoice()
        self.documents: list[Document] = []
        self.games: list[DeskGame] = []
        self.lock = threading.RLock()

    # -- loading --------------------------------------------------------------------------

    def add_file(self, source: str) -> Document:
        """A file given on the command line, validated as ``pdn validate SOURCE`` does;
        raises DeskError when it cannot be read."""
        read, stamp, reports = self._read_file(source)
        document = Document(0, shown_name(source), Path(source), stamp=stamp)
        self._fill(document, read, reports)
        return self._append(document)

    def _append(self, document: Document) -> Document:
        """``document`` last on the desk, numbered with the others."""
        with self.lock:
            document.number = len(self.documents) + 1
            self.documents.append(document)
            self._number()
        return document

    def _read_file(self, source: str) -> tuple[Decoded, Stamp, list[GameReport]]:
        path, name = Path(source), shown_name(source)
        try:
            raw = path.read_bytes()
            stamp = Stamp.of(path, raw)
        except OSError as error:
            raise DeskError(N_("{name}: cannot read: {reason}").format(
                name=name, reason=error.strerror or error)) from None
        read = decoded(raw)
        refuse_glued("".join(read.lines), name)
        choice = self.choice
        reports: list[GameReport] = []
        for item in validate_sources([source], choice.default, choice.override, jobs=1,
                                     rules=choice.rules):
            if isinstance(item, str):
                raise DeskError(shown_name(item))
            item.file = name
            reports.append(item)
        if _stamp(path) != stamp:
            raise DeskError(N_("{name}: changed on disk while it was read: reload it").format(
                name=name), 409)
        return read, stamp, reports

    def add_text(self, name: str, text: str) -> Document:
        """An upload or a paste, validated as ``pdn validate`` validates standard input."""
        valid_unicode(name, "the file's name")
        if "\x00" in text:
            raise DeskError(N_("{name}: this is not a text file (it holds NUL bytes)").format(
                name=name))
        reports = self.check_text(text, name)
        lines = split_lines(text)
        read = Decoded(lines, [line.encode("utf-8") for line in lines], "utf-8", "utf-8")
        document = Document(0, name, None)
        self._fill(document, read, reports)
        return self._append(document)

    def check_text(self, text: str, name: str | None) -> list[GameReport]:
        """The reports of a text's games, as ``pdn validate`` gives them for standard input
        (``file``: ``name``); a text of too many games is refused before it is read."""
        valid_unicode(text, "the text")
        refuse_glued(text, name or "the text")
        count_games(text, name or "the text")
        choice = self.choice
        reports = []
        for report in report_games(read_games(PdnText(text)), choice.default, choice.override,
                                   rules=choice.rules):
            report.file = name
            reports.append(report)
        return reports

    def _fill(self, document: Document, read: Decoded, reports: list[GameReport]) -> None:
        """Put ``read``'s text in ``document``, cut into its games with their reports."""
        text = "".join(read.lines)
        games = list(read_games(PdnText(text)))
        if len(games) != len(reports):
            raise DeskError(f"{document.name}: read as {len(games)} games but validated as "
                            f"{len(reports)}")
        starts = _starts(document.name, read.lines, games)
        bounds = [(0, 0), *starts, (len(read.lines), 0)]
        document.prefix, document.prefix_raw = read.piece(bounds[0], bounds[1])
        document.encoding, document.codec, document.exact = read.encoding, read.codec, \
            read.exact
        document.games = []
        for start, end, report in zip(bounds[1:-1], bounds[2:], reports, strict=True):
            text, raw = read.piece(start, end)
            document.games.append(DeskGame(0, document, text, report, read=text, raw=raw))

    def _number(self) -> None:
        """Number the games over the whole desk, file after file."""
        self.games = [game for document in self.documents for game in document.games]
        for number, game in enumerate(self.games, 1):
            game.number = number

    # -- reading --------------------------------------------------------------------------

    def game(self, number: int) -> DeskGame:
        if not 1 <= number <= len(self.games):
            raise DeskError(N_("there is no game {number} (the desk holds {count})").format(
                number=number, count=len(self.games)))
        return self.games[number - 1]

    def document(self, number: int) -> Document:
        if not 1 <= number <= len(self.documents):
            raise DeskError(N_("there is no file {number}").format(number=number))
        return self.documents[number - 1]

    def rows(self) -> Iterator[dict]:
        """Every game's row with its desk number first."""
        for game in list(self.games):
            yield {"number": game.number, **game.row}

    @staticmethod
    def fits_board(game: DeskGame) -> bool:
        """Whether the game is short enough for the board, its suggestions and its edits
        (``MAX_BOARD_GAME`` characters)."""
        return len(game.text) <= MAX_BOARD_GAME

    def _on_board(self, game: DeskGame) -> DeskGame:
        if not self.fits_board(game):
            raise DeskError(N_("game {number} is {length} characters long, more than the "
                               "board takes ({count}): its row gives its report; edit it in "
                               "the downloaded file").format(
                number=game.number, length=f"{len(game.text):,}", count=f"{MAX_BOARD_GAME:,}"),
                413)
        return game

    def replayed(self, game: DeskGame) -> ReplayedGame:
        """The game replayed, for the board (refused for a game too long for it)."""
        choice = self.choice
        return replay_game(self._on_board(game).record(), choice.default, choice.override,
                           rules=choice.rules)

    def suggested(self, game: DeskGame) -> GameReport:
        """The game's report with its repair suggestions (``pdn validate --suggest``;
        refused for a game too long for the board)."""
        self._on_board(game)
        choice = self.choice
        report = report_game(game.record(), choice.default, choice.override, suggest=True,
                             rules=choice.rules)
        report.file, report.game, report.line = game.report.file, game.report.game, \
            game.report.line
        return report

    # -- editing --------------------------------------------------------------------------

    def set_text(self, number: int, text: str) -> DeskGame:
        """Replace a game's text with an edited one (exactly one game) and check it again."""
        game = self.game(number)
        document = game.document
        try:
            text.encode(document.codec)
        except UnicodeEncodeError as error:
            raise DeskError(N_("{text} cannot be written in {encoding}, the encoding of "
                               "{name}: the edit is refused; to make it, convert the file to "
                               "UTF-8 first").format(text=repr(text[error.start:error.end]),
                                                     encoding=document.encoding,
                                                     name=document.name), 422) from None
        reports = self.check_text(text, document.name)
        if len(reports) != 1:
            raise DeskError(N_("the text holds {count} games: give exactly one").format(
                count=len(reports)))
        report = reports[0]
        report.game, report.line = game.report.game, game.report.line
        with self.lock:
            game.text = text if text.endswith("\n") else text + "\n\n"
            game.report = report
            game.edited = True
        return game

    def set_tag(self, number: int, name: str, value: str) -> DeskGame:
        """Give a tag a new value (an empty value removes it) and check the game again."""
        name = name.strip()
        if not name.isidentifier() or len(name) > 64:
            raise DeskError(N_("'{name}' is not a tag name (letters, digits and _)").format(
                name=name))
        if any(c in value for c in '"\\\n\r'):
            raise DeskError(N_("a tag's value cannot hold quotes, backslashes or line breaks"))
        game = self._on_board(self.game(number))
        game.record()  # one game, readable
        lines = split_lines(game.text)
        pattern = re.compile(rf'\s*\[\s*{name}\s+"')
        found = next((i for i, line in enumerate(lines) if pattern.match(line)), None)
        written = [f'[{name} "{value.strip()}"]\n'] if value.strip() else []
        if found is not None:
            lines[found:found + 1] = written
        else:
            last = max((i for i, line in enumerate(lines) if line.lstrip().startswith("[")),
                       default=-1)
            lines[last + 1:last + 1] = written
        return self.set_text(number, "".join(lines))

    def set_move(self, number: int, ply: int, text: str) -> DeskGame:
        """Write ``text`` in place of the main line's ply ``ply`` (from 0), as written."""
        text = text.strip()
        if not text or any(c.isspace() for c in text) or len(text) > 40:
            raise DeskError(N_("'{text}' is not one move").format(text=text))
        game = self._on_board(self.game(number))
        plies = game.record().moves.plies
        if not 0 <= ply < len(plies):
            raise DeskError(N_("game {number} has no ply {ply}").format(number=number,
                                                                      ply=ply + 1))
        written = [each.record for each in plies]
        edited = list(written)
        edited[ply] = written[ply]._replace(text=text)
        return self.set_text(number, spliced(game.text, written, edited))

    def apply_suggestion(self, number: int, index: int) -> DeskGame:
        """Make the game's repair suggestion ``index`` (from 0, as ``suggested`` ranks them)."""
        from replay.validate.repair import apply_suggestion, suggest

        game = self._on_board(self.game(number))
        record = game.record()
        written = list(record.moves.plies)
        choice = self.choice
        found = suggest(record, choice.default, choice.override, rules=choice.rules)
        if not 0 <= index < len(found):
            raise DeskError(N_("game {number} has no suggestion {index}").format(
                number=number, index=index + 1))
        if not apply_suggestion(record, found[index], choice.default, choice.override,
                                rules=choice.rules):
            raise DeskError(N_("suggestion {index} does not make game {number} replay (or it "
                               "edits a move that has variations): edit it by hand").format(
                index=index + 1, number=number))
        edited = [ply.record for ply in record.moves.plies]
        return self.set_text(number, spliced(game.text, [p.record for p in written], edited))

    # -- the files on disk ----------------------------------------------------------------

    def write_back(self, document: Document) -> Path:
        """Write an edited file in place, atomically, the original kept beside it as
        ``NAME.orig`` (once: the first original is never overwritten). Refused, with
        nothing written, when the file changed on disk since the desk read it (409: reload
        it), or when it cannot be written (507 when the disk is full, 403 read-only)."""
        from replay.run.output import atomic_writer

        if document.path is None:
            raise DeskError(N_("{name} was uploaded: download it instead").format(
                name=document.name))
        if not document.exact:
            raise DeskError(N_("{name} holds bytes its encoding ({encoding}) cannot hold: "
                               "writing it back would change them; download it").format(
                name=document.name, encoding=document.encoding), 409)
        path = document.path
        original = path.with_name(path.name + ".orig")
        with self.lock:
            self._unchanged(document)
            data = document.encoded()
            try:
                if not original.exists():
                    with atomic_writer(original, binary=True) as stream:
                        stream.write(path.read_bytes())
                with atomic_writer(path, binary=True) as stream:
                    stream.write(data)
                    self._unchanged(document)  # the last moment before it is replaced
                document.stamp = Stamp.of(path, data)
            except OSError as error:
                raise DeskError(N_("{name}: cannot write: {reason}; the file is as it was")
                                .format(name=document.name, reason=error.strerror or error),
                                write_failure(error)) from None
            for game in document.games:
                game.raw, game.read = game.encoded(), game.text
        return original

    def to_utf8(self, document: Document) -> Document:
        """From now on write ``document`` (download, write back) in UTF-8, every game
        re-encoded: what an edit its own encoding cannot hold needs, asked for by the user."""
        with self.lock:
            document.prefix_raw = document.prefix.encode("utf-8")
            for game in document.games:
                game.raw = game.read.encode("utf-8")
            document.encoding = document.codec = "utf-8"
            document.exact = True
        return document

    def _unchanged(self, document: Document) -> None:
        """Refuse (409) when ``document``'s file is no longer as the desk read it."""
        assert document.path is not None
        if _stamp(document.path) != document.stamp:
            raise DeskError(N_("{name} changed on disk since the desk read it (another "
                               "program or another pdn serve wrote it): nothing was written; "
                               "download your edits, or reload the file from disk").format(
                name=document.name), 409)

    def reload(self, document: Document, *, discard: bool = False) -> Document:
        """Read ``document``'s file again from disk. An edit not yet written is carried
        over to its game when that game's text as read is still in the file (blank lines
        after it aside); when it is not (the game changed or went on disk too) the reload is
        refused (409), unless ``discard``."""
        if document.path is None:
            raise DeskError(N_("{name} was uploaded: there is no file to reload").format(
                name=document.name))
        read, stamp, reports = self._read_file(str(document.path))
        fresh = Document(document.number, document.name, document.path, stamp=stamp)
        self._fill(fresh, read, reports)
        with self.lock:
            unmatched = {id(game): game for game in fresh.games}
            carried, lost = [], []
            for game in document.games:
                if game.text == game.read:
                    continue
                body = game.read.rstrip()
                match = next((new for new in unmatched.values() if new.read.rstrip() == body),
                             None)
                if match is None:
                    lost.append(game)
                    continue
                text = game.text.rstrip() + match.read[len(body):]
                if not _encodes(text, fresh.codec):
                    lost.append(game)
                    continue
                del unmatched[id(match)]
                carried.append((match, text))
            if lost and not discard:
                numbers = ", ".join(str(game.number) for game in lost)
                raise DeskError(N_("{name}: game(s) {numbers} were edited here and changed on "
                                   "disk too: download your edits first, then reload with "
                                   "'discard'").format(name=document.name, numbers=numbers),
                                409)
            for match, text in carried:
                report = self.check_text(text, document.name)[0]
                report.game, report.line = match.report.game, match.report.line
                match.text, match.report, match.edited = text, report, True
            self.documents[document.number - 1] = fresh
            self._number()
        return fresh


# -- a new game, typed move by move -----------------------------------------------------------

@dataclass
class Typed:
    """The verdict on a game typed move by move: ``accepted`` the moves that replay,
    ``error`` why the next one does not (``problem``: the replayer's reason, when it is
    that), ``legal`` the moves legal after those accepted."""

    accepted: list[str]
    error: str | None
    legal: list[str]
    fen: str
    pdn: str
    board: Board
    problem: str | None = None

    def said(self, words: Catalog = ENGLISH) -> str | None:
        """``error`` in the language of ``words`` (the move as typed)."""
        if self.error is None or self.problem is None:
            return words.localize(self.error or "") or None
        move = self.error[:len(self.error) - len(self.problem) - 2]
        return f"{move}: {words.localize(self.problem)}"


def typed_game(variant_name: str, moves: list[str], tags: dict[str, str] | None = None
               ) -> Typed:
    """Replay moves typed one by one in ``variant_name`` (any notation the reader reads);
    the first that does not replay is refused with the reason."""
    try:
        variant: Variant = get_variant(variant_name)
    except ValueError as error:  # an unknown variant
        raise DeskError(str(error)) from None
    header = {"GameType": str(variant.gametype.number), **(tags or {})}
    accepted: list[str] = []
    error = problem = None
    for move in moves:
        move = move.strip()
        if not move or any(c in move for c in "{}[]();%\"") or len(move) > 40:
            error = N_("'{move}' is not a move").format(move=move)
            break
        replayed = replay_game(next(read_games(PdnText(_movetext(header, [*accepted, move])))))
        if replayed.errors or len(replayed.moves) < len(accepted) + 1:
            problem = replayed.errors[0].message if replayed.errors else N_("not a move")
            error = f"{move}: {problem}"
            break
        accepted.append(move)
    replayed = replay_game(next(read_games(PdnText(_movetext(header, accepted)))))
    board = Board(variant, replayed.final or replayed.start)
    return Typed(accepted, error, legal_texts(board), board.fen(), _movetext(header, accepted),
                 board, problem)


def _movetext(tags: dict[str, str], moves: list[str]) -> str:
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    words = []
    for index, move in enumerate(moves):
        if index % 2 == 0:
            words.append(f"{index // 2 + 1}.")
        words.append(move)
    return f"{head}\n{' '.join([*words, '*'])}\n"


def spliced(text: str, written: list[MoveRecord], edited: list[MoveRecord]) -> str:
    """``text`` with its main line's moves ``written`` turned into ``edited``, every byte
    outside the moves that change kept: a record both lists hold (the same object) stays as
    written; the others are replaced in place pair by pair, a move more is written after the
    one before it, a move less is taken out with the space after it."""
    head = 0
    while head < min(len(written), len(edited)) and written[head] is edited[head]:
        head += 1
    tail = 0
    while (tail < min(len(written), len(edited)) - head
           and written[-1 - tail] is edited[-1 - tail]):
        tail += 1
    old, new = written[head:len(written) - tail], edited[head:len(edited) - tail]
    starts = list(_line_starts(text))

    def where(record: MoveRecord) -> int:
        start = starts[record.line - 1] + record.column - 1
        if text[start:start + len(record.text)] != record.text:
            raise DeskError(f"the move '{record.text}' is not where its record says")
        return start

    cuts: list[tuple[int, int, str]] = []  # (start, end, new text), in the text's order
    for before, after in zip(old, new, strict=False):  # the moves replaced in place
        start = where(before)
        cuts.append((start, start + len(before.text), after.text))
    if len(new) > len(old):
        added = " ".join(record.text for record in new[len(old):])
        if old or head:
            end = cuts[-1][1] if old else where(edited[head - 1]) + len(edited[head - 1].text)
            cuts.append((end, end, " " + added))
        else:
            start = where(edited[len(edited) - tail]) if tail else len(text.rstrip())
            cuts.append((start, start, added + " "))
    for record in old[len(new):]:
        start = where(record)
        end = start + len(record.text)
        while end < len(text) and text[end] in " \t":
            end += 1
        cuts.append((start, end, ""))
    for start, end, replacement in sorted(cuts, reverse=True):
        text = text[:start] + replacement + text[end:]
    return text


def _line_starts(text: str) -> Iterator[int]:
    """Where each line of ``text`` begins (lines as ``split_lines`` and the reader count them)."""
    offset = 0
    for line in split_lines(text):
        yield offset
        offset += len(line)


def legal_after(replayed: ReplayedGame) -> list[str]:
    """The moves legal where the game's main line stops replaying, as the notation writes
    them."""
    return legal_texts(Board(replayed.variant, replayed.final or replayed.start))


def legal_texts(board: Board) -> list[str]:
    """The legal moves in the variant's notation and square order, as the replayer's
    messages list them (``replay.record.resolve.legal_listing``)."""
    from replay.record.notation import full_text
    from replay.record.resolve import in_square_order

    return [full_text(board, move) for move in in_square_order(board, board.legal_moves())]


def _encodes(text: str, codec: str) -> bool:
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


def _stamp(path: Path) -> Stamp | None:
    """The stamp of the file at ``path`` now (None: it cannot be read)."""
    try:
        return Stamp.of(path, path.read_bytes())
    except OSError:
        return None


__all__ = ["MAX_BOARD_GAME", "MAX_GAMES_PER_TEXT", "MAX_GLUED", "Desk", "DeskError",
           "DeskGame", "Document", "Typed", "legal_after", "shown_name", "typed_game",
           "valid_unicode"]
