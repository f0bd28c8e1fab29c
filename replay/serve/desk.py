"""The arbiter's desk: the games loaded in ``pdn serve``, their reports, and the edits made
to them (no web framework here; ``replay.serve.app`` serves it).

Each file is kept as its text cut into games (the lines from a game's first line to the
next game's), so that an edited game is written back in its place and every other game
stays as it was, byte for byte. A game's row is its ``pdn validate --json`` report: the
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

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pdn.model import Game
from pdn.reader import PdnText, detect_encoding, read_games
from pdn.writer import write_game
from replay.board import Board
from replay.choice import RulesChoice
from replay.replayer import ReplayedGame, replay_game
from replay.validate.reports import GameReport, report_game, report_games, validate_sources
from replay.variants import Variant, get_variant

MAX_GAMES_PER_TEXT = 20_000  # an upload or a paste of more games is refused


class DeskError(ValueError):
    """A request the desk refuses, with the reason in words (shown on the page)."""


@dataclass
class DeskGame:
    """One game on the desk: ``number`` counts from 1 over the whole desk, ``report`` is
    its ``pdn validate`` report, ``text`` its PDN as it stands."""

    number: int
    document: Document
    text: str
    report: GameReport
    edited: bool = False

    @property
    def row(self) -> dict:
        """The game's ``pdn validate --json`` row."""
        return self.report.as_dict()

    def record(self) -> Game:
        """The game as read from its text."""
        games = list(read_games(PdnText(self.text)))
        if len(games) != 1:
            raise DeskError(f"game {self.number}: its text holds {len(games)} games")
        game = games[0]
        game.source, game.index = self.document.name, self.report.game
        return game


@dataclass
class Document:
    """A file given, or a text uploaded or pasted: what comes before its first game, then
    its games."""

    number: int
    name: str
    path: Path | None  # a file given on the command line; None for an upload
    prefix: str = ""
    games: list[DeskGame] = field(default_factory=list)
    encoding: str = "utf-8"

    def text(self) -> str:
        """The whole text, edited games in their places."""
        return self.prefix + "".join(game.text for game in self.games)

    @property
    def edited(self) -> bool:
        return any(game.edited for game in self.games)


def _segments(text: str, games: list[Game]) -> tuple[str, list[str]]:
    """The text before the first game, and each game's text (its lines up to the next)."""
    lines = text.splitlines(keepends=True)
    starts = [max(1, game.line) - 1 for game in games]
    if not starts:
        return text, []
    ends = [*starts[1:], len(lines)]
    return ("".join(lines[:starts[0]]),
            ["".join(lines[start:end]) for start, end in zip(starts, ends, strict=True)])


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
        path = Path(source)
        try:
            raw = path.read_bytes()
        except OSError as error:
            raise DeskError(f"{source}: cannot read: {error.strerror or error}") from None
        encoding = detect_encoding(raw[:65536])
        text = raw.decode(encoding, errors="replace")
        choice = self.choice
        reports: list[GameReport] = []
        for item in validate_sources([source], choice.default, choice.override, jobs=1,
                                     rules=choice.rules):
            if isinstance(item, str):
                raise DeskError(item)
            reports.append(item)
        return self._add(source, path, text, reports, encoding)

    def add_text(self, name: str, text: str) -> Document:
        """An upload or a paste, validated as ``pdn validate`` validates standard input."""
        if "\x00" in text:
            raise DeskError(f"{name}: this is not a text file (it holds NUL bytes)")
        reports = self.check_text(text, name)
        return self._add(name, None, text, reports, "utf-8")

    def check_text(self, text: str, name: str | None) -> list[GameReport]:
        """The reports of a text's games, as ``pdn validate`` gives them for standard input
        (``file``: ``name``)."""
        choice = self.choice
        reports = []
        for report in report_games(read_games(PdnText(text)), choice.default, choice.override,
                                   rules=choice.rules):
            report.file = name
            reports.append(report)
            if len(reports) > MAX_GAMES_PER_TEXT:
                raise DeskError(f"{name}: more than {MAX_GAMES_PER_TEXT} games; give such "
                                f"a file on the command line")
        return reports

    def _add(self, name: str, path: Path | None, text: str, reports: list[GameReport],
             encoding: str) -> Document:
        games = list(read_games(PdnText(text)))
        if len(games) != len(reports):
            raise DeskError(f"{name}: read as {len(games)} games but validated as "
                            f"{len(reports)}")
        prefix, texts = _segments(text, games)
        with self.lock:
            document = Document(len(self.documents) + 1, name, path, prefix, [], encoding)
            for game_text, report in zip(texts, reports, strict=True):
                game = DeskGame(len(self.games) + 1, document, game_text, report)
                document.games.append(game)
                self.games.append(game)
            self.documents.append(document)
        return document

    # -- reading --------------------------------------------------------------------------

    def game(self, number: int) -> DeskGame:
        if not 1 <= number <= len(self.games):
            raise DeskError(f"there is no game {number} (the desk holds {len(self.games)})")
        return self.games[number - 1]

    def document(self, number: int) -> Document:
        if not 1 <= number <= len(self.documents):
            raise DeskError(f"there is no file {number}")
        return self.documents[number - 1]

    def rows(self) -> Iterator[dict]:
        """Every game's row with its desk number first."""
        for game in list(self.games):
            yield {"number": game.number, **game.row}

    def replayed(self, game: DeskGame) -> ReplayedGame:
        choice = self.choice
        return replay_game(game.record(), choice.default, choice.override, rules=choice.rules)

    def suggested(self, game: DeskGame) -> GameReport:
        """The game's report with its repair suggestions (``pdn validate --suggest``)."""
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
        reports = self.check_text(text, game.document.name)
        if len(reports) != 1:
            raise DeskError(f"the text holds {len(reports)} games: give exactly one")
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
            raise DeskError(f"'{name}' is not a tag name (letters, digits and _)")
        if any(c in value for c in '"\\\n\r'):
            raise DeskError("a tag's value cannot hold quotes, backslashes or line breaks")
        game = self.game(number)
        game.record()  # one game, readable
        lines = game.text.splitlines(keepends=True)
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
            raise DeskError(f"'{text}' is not one move")
        game = self.game(number)
        plies = game.record().moves.plies
        if not 0 <= ply < len(plies):
            raise DeskError(f"game {number} has no ply {ply + 1}")
        record = plies[ply].record
        lines = game.text.splitlines(keepends=True)
        line = lines[record.line - 1]
        start = record.column - 1
        if line[start:start + len(record.text)] != record.text:
            raise DeskError(f"ply {ply + 1} is not where its record says")
        lines[record.line - 1] = line[:start] + text + line[start + len(record.text):]
        return self.set_text(number, "".join(lines))

    def apply_suggestion(self, number: int, index: int) -> DeskGame:
        """Make the game's repair suggestion ``index`` (from 0, as ``suggested`` ranks them)."""
        from replay.validate.repair import apply_suggestion, suggest

        game = self.game(number)
        record = game.record()
        choice = self.choice
        found = suggest(record, choice.default, choice.override, rules=choice.rules)
        if not 0 <= index < len(found):
            raise DeskError(f"game {number} has no suggestion {index + 1}")
        if not apply_suggestion(record, found[index], choice.default, choice.override,
                                rules=choice.rules):
            raise DeskError(f"suggestion {index + 1} does not make game {number} replay "
                            f"(or it edits a move that has variations): edit it by hand")
        return self.set_text(number, write_game(record) + "\n\n")

    def write_back(self, document: Document) -> Path:
        """Write an edited file in place, atomically, the original kept beside it as
        ``NAME.orig`` (once: the first original is never overwritten)."""
        from replay.run.output import atomic_writer

        if document.path is None:
            raise DeskError(f"{document.name} was uploaded: download it instead")
        original = document.path.with_name(document.path.name + ".orig")
        with self.lock:
            text = document.text()
            if not original.exists():
                with atomic_writer(original, binary=True) as stream:
                    stream.write(document.path.read_bytes())
            with atomic_writer(document.path, binary=True) as stream:
                stream.write(text.encode(document.encoding, errors="replace"))
        return original


# -- a new game, typed move by move -----------------------------------------------------------

@dataclass
class Typed:
    """The verdict on a game typed move by move: ``accepted`` the moves that replay,
    ``error`` why the next one does not, ``legal`` the moves legal after those accepted."""

    accepted: list[str]
    error: str | None
    legal: list[str]
    fen: str
    pdn: str
    board: Board


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
    error = None
    for move in moves:
        move = move.strip()
        if not move or any(c in move for c in "{}[]();%\"") or len(move) > 40:
            error = f"'{move}' is not a move"
            break
        replayed = replay_game(next(read_games(PdnText(_movetext(header, [*accepted, move])))))
        if replayed.errors or len(replayed.moves) < len(accepted) + 1:
            problem = replayed.errors[0].message if replayed.errors else "not a move"
            error = f"{move}: {problem}"
            break
        accepted.append(move)
    replayed = replay_game(next(read_games(PdnText(_movetext(header, accepted)))))
    board = Board(variant, replayed.final or replayed.start)
    return Typed(accepted, error, legal_texts(board), board.fen(), _movetext(header, accepted),
                 board)


def _movetext(tags: dict[str, str], moves: list[str]) -> str:
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    words = []
    for index, move in enumerate(moves):
        if index % 2 == 0:
            words.append(f"{index // 2 + 1}.")
        words.append(move)
    return f"{head}\n{' '.join([*words, '*'])}\n"


def legal_after(replayed: ReplayedGame) -> list[str]:
    """The moves legal where the game's main line stops replaying, as the notation writes
    them."""
    return legal_texts(Board(replayed.variant, replayed.final or replayed.start))


def legal_texts(board: Board) -> list[str]:
    """The legal moves in the variant's notation and square order, as the replayer's
    messages list them (``replay.resolve.legal_listing``)."""
    from replay.notation import full_text
    from replay.resolve import in_square_order

    return [full_text(board, move) for move in in_square_order(board, board.legal_moves())]


__all__ = ["Desk", "DeskError", "DeskGame", "Document", "Typed", "legal_after", "typed_game"]
