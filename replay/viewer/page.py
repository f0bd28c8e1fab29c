"""A game viewer: replayed games as one self-contained HTML page (no network, no external files).

The page embeds each game compactly (tags, then per ply only the move and what it changes:
see ``replay.viewer.moves``) and, once per kind of board, the empty board and its squares
(``replay.viewer.board``). Its own script (``viewer.js``) draws the board, applies and undoes
the moves, writes the move list with variations, comments and NAGs, and follows clicks, the
arrow keys (right: next move, left: back, up/down: the other moves played from the same
position, Home/End, PgUp/PgDn: the game, f: flip the board) and a URL fragment
``#game=2&ply=5``, which it keeps up to date as one steps (``&node=N`` for a move of a
variation), so that a position can be shared by its address. Under the board, a graph of
the ``[%eval]`` of the main line's moves (what ``pdn analyse`` writes) takes a click to go
to that move; Copy FEN and Copy PDN copy the position and the game as shown. The game list
can be searched by player or event and draws only the rows in view, so archives of tens of
thousands of games open at once. The board element exposes the position shown in
``data-fen`` and ``data-ply``.

>>> from pdn.reader import read_games
>>> from replay.record.replayer import replay_game
>>> from replay.rules.variants import RUSSIAN
>>> page = viewer_html([replay_game(next(read_games("1. c3-d4 f6-g5 *")), RUSSIAN)])
>>> page.startswith("<!DOCTYPE html>") and '"9D MJ"' in page
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from html import escape
from pathlib import Path
from typing import IO

from pdn.chunks import block_chunks
from pdn.errors import unreadable_reason
from pdn.game import Game
from pdn.i18n import N_, Catalog, catalog
from pdn.reader import parse_chunks
from replay.record.board import Board
from replay.record.diagram import FONT as DIAGRAM_FONT
from replay.record.replayer import ReplayedGame, replay_game
from replay.rules.variants import Rules, Variant
from replay.run.parallel import gc_paused
from replay.run.partitions import Partition
from replay.run.runner import PARTITION_CHARS, open_runner
from replay.validate.repair import Suggestion, suggest
from replay.viewer.board import ALPHABET, board_kind, kind_key, pieces_text
from replay.viewer.moves import game_view
from replay.viewer.words import count_words, kind_in, localized_fields, page_words, viewer_words

ASSETS = Path(__file__).parent
# The fields of a game's array in the page, in order (``start`` only for a game that does not
# begin at its variant's start position with move 1; ``suggestions`` only with repairs to
# show; ``notation`` "short" only for a game written in Russian short notation, whose
# explorer panel then writes its moves short too); a field left out before one given is null.
GAME_FIELDS = ("white", "black", "event", "result", "status", "kind", "opening", "errors",
               "moves", "texts", "start", "suggestions", "notation")
EVENT_TAGS = ("Event", "Site", "Date", "Round")


def says_something(value: str | None) -> bool:
    """Whether a tag's value tells anything: not empty, "?", "-" or an unknown date."""
    return bool(value and value.strip(" ?.-"))


def game_data(replayed: ReplayedGame, *, flipped: bool = False,
              suggestions: Iterable[Suggestion] = (), words: Catalog | None = None) -> dict:
    """A game's fields as the page stores them, by name (``GAME_FIELDS``); ``suggestions``
    (``replay.validate.repair.suggest``) are placed at the ply each one edits; the messages
    of its replay in the language of ``words`` (English without)."""
    from replay.reference.openings import opening_label

    variant, tags = replayed.variant, replayed.game.tags
    view = game_view(replayed)
    data = {
        "white": tags.get("White", "?"), "black": tags.get("Black", "?"),
        "event": " · ".join(tags[name] for name in EVENT_TAGS if says_something(tags.get(name))),
        "result": replayed.game.headers_result or "*", "status": replayed.status,
        "kind": kind_key(variant, flipped),
        "opening": opening_label(variant, [*replayed.positions, *(
            [replayed.final] if replayed.final is not None else [])], replayed.moves),
        "errors": problems(replayed),
        "moves": view.moves, "texts": view.texts}
    start = Board(variant, replayed.start).setup()
    number = replayed.numbering.number(0)
    pieces = pieces_text(variant, start.pieces)
    kind = board_kind(variant, flipped)
    if number != 1 or pieces != kind["start"] or start.white_to_move != kind["startWhite"]:
        data["start"] = [number, start.white_to_move, pieces]
    shown = [[_suggested_ply(replayed, s), s.description] for s in suggestions]
    if shown:
        data["suggestions"] = shown
    if written_short(replayed.game):
        data["notation"] = "short"
    if words is None:
        return data
    made = {problem.message for problem in [*replayed.errors, *replayed.warnings]}
    return localized_fields(data, made, words)


def written_short(game: Game) -> bool:
    """Whether most moves of a game's main line are written in Russian short notation
    (``gf4``; the moves short would make ambiguous are written in full even there)."""
    records = [ply.record for ply in game.moves.plies if not ply.record.placeholder]
    return 2 * sum(record.is_short for record in records) > len(records)


def _suggested_ply(replayed: ReplayedGame, suggestion: Suggestion) -> int:
    """The main-line ply a suggestion edits (counted from 0), else the one that fails."""
    for index, ply in enumerate(replayed.game.moves.plies):
        if (ply.record.line, ply.record.column) == (suggestion.line, suggestion.column):
            return index
    return len(replayed.moves)


def game_entry(replayed: ReplayedGame, *, flipped: bool = False,
               suggestions: Iterable[Suggestion] = (), words: Catalog | None = None
               ) -> tuple[str, str]:
    """A game as the page stores it: (its board kind's key, its array as JSON text), the
    messages of its replay in the language of ``words``."""
    data = game_data(replayed, flipped=flipped, suggestions=suggestions, words=words)
    fields = [data.get(name) for name in GAME_FIELDS]
    while fields[-1] is None:
        fields.pop()
    return data["kind"], _json(fields)


def _json(value: object) -> str:
    """JSON that cannot end the page's script element early."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


class ViewerPage:
    """Writes a viewer page to a text stream game by game, in constant memory: ``add`` each
    game's entry (from ``game_entry``) with its board kind, then ``close``. The page speaks
    the language of ``words`` (its ``lang``, its own words, its script's; the entries are
    put into it by ``game_entry``)."""

    def __init__(self, stream: IO[str], *, title: str = "Draughts games",
                 words: Catalog | None = None) -> None:
        self.stream = stream
        self.words = words or catalog("en")
        self.kinds: dict[str, dict] = {}
        self.count = 0
        head, self.tail = _page(self.words).split("@DATA@")
        stream.write(head.replace("@TITLE@", escape(title)))
        stream.write('{"games":[')

    def add(self, key: str, entry: str, kind: dict) -> None:
        """Write one game: its board kind's key, its JSON array, the kind (kept once)."""
        self.kinds.setdefault(key, kind)
        self.stream.write(("," if self.count else "") + entry + "\n")
        self.count += 1

    def close(self, explorer: dict[str, list[list]] | None = None) -> None:
        """Write the boards the games use and the rest of the page; ``explorer``: the
        explorer panel's rows by FEN (``replay.viewer.explorer``), shown beside the board."""
        rows = f',"explorer":{_json(explorer)}' if explorer is not None else ""
        kinds = {key: kind_in(kind, self.words) for key, kind in self.kinds.items()}
        said = {**viewer_words(self.words), **count_words(self.words, self.count)}
        self.stream.write(f'],"alphabet":{_json(ALPHABET)},"kinds":{_json(kinds)}{rows}'
                          f',"words":{_json(said)}}}')
        self.stream.write(self.tail)


def write_viewer(stream: IO[str], games: Iterable[ReplayedGame | Game], *,
                 flipped: bool = False, title: str = "Draughts games") -> int:
    """Write the viewer page of ``games`` to ``stream``; returns how many games it shows.
    A game as read (``pdn.Game``) is replayed as ``replay_game(game)`` replays it: in the
    variant its GameType tag states, else the one its record tells."""
    page = ViewerPage(stream, title=title)
    for game in games:
        replayed = replay_game(game) if isinstance(game, Game) else game
        page.add(*game_entry(replayed, flipped=flipped), board_kind(replayed.variant, flipped))
    page.close()
    return page.count


def archive_entries(source: str | Path, default: Variant | None = None,
                    override: Variant | None = None, *, rules: Rules | None = None,
                    flipped: bool = False, jobs: int = 1, encoding: str | None = None,
                    progress: Callable[[int], None] | None = None, suggest: bool = False,
                    language: str = "en") -> Iterator[tuple[str, str, dict, str]]:
    """Every game of a PDN file read, replayed and made into its page entry, in file order:
    (kind key, entry, kind, the game's status: valid, invalid, incomplete or unreadable).
    ``jobs`` worker processes do it in blocks of games (``replay.run.runner``; 0: one per
    usable core when the file is large enough to repay them); the variant is chosen as
    ``replay_game`` does from ``default``, ``override`` and ``rules``; ``progress`` is told how
    much of the file each block covered; ``suggest``: each broken game carries its repair
    suggestions; ``language``: the one its messages are said in (``game_entry``)."""
    with open_runner("local", jobs=jobs) as runner:
        batches = runner.map(_block_entries, runner.partitions(str(source), encoding, BLOCK),
                             default, override, rules, flipped, suggest, language)
        for size, entries, kinds in batches:
            if progress is not None:
                progress(size)
            for key, entry, status in entries:
                yield key, entry, kinds[key], status


BLOCK = PARTITION_CHARS


def _block_entries(partition: Partition, default: Variant | None, override: Variant | None,
                   rules: Rules | None, flipped: bool, suggest: bool = False,
                   language: str = "en"
                   ) -> tuple[int, list[tuple[str, str, str]], dict[str, dict]]:
    """Worker entry: a partition's size, the entries of its games (with each game's status,
    as ``pdn validate`` counts it) and the board kinds they use."""
    entries, kinds = [], {}
    words = catalog(language)
    with gc_paused():
        for game in parse_chunks(block_chunks(partition.chunk())):
            replayed = replay_game(game, default, override, rules=rules)
            key, entry = game_entry(replayed, flipped=flipped,
                                    suggestions=suggestions_of(replayed) if suggest else (),
                                    words=words)
            kinds.setdefault(key, board_kind(replayed.variant, flipped))
            entries.append((key, entry, str(replayed.status)))
    return partition.size, entries, kinds


def problems(replayed: ReplayedGame) -> list[str]:
    """What the page says is wrong with a game: why it could not be read (its tags at most
    are shown), else the moves that do not replay."""
    reason = unreadable_reason(replayed.game)
    if reason is not None:
        return [N_("this game could not be read: {reason}").format(reason=reason)]
    return [problem.message for problem in replayed.errors]


def suggestions_of(replayed: ReplayedGame) -> list[Suggestion]:
    """The repair suggestions of a game whose main line stops replaying (none otherwise)."""
    return suggest(replayed.game, replayed=replayed) if replayed.errors else []


def viewer_html(games: Iterable[ReplayedGame | Game], *, flipped: bool = False,
                title: str = "Draughts games") -> str:
    """One self-contained HTML page showing the games (replayed, or as read and replayed
    here as ``write_viewer`` does): board, move list, comments, errors."""
    from io import StringIO

    out = StringIO()
    write_viewer(out, games, flipped=flipped, title=title)
    return out.getvalue()


def _page(words: Catalog) -> str:
    """The page around the data in the language of ``words``, with its style (and the Thai
    font a Thai page embeds, ``replay.validate.report.font_faces``) and script (shipped
    beside this module)."""
    from replay.validate.report import font_faces

    style = (ASSETS / "viewer.css").read_text(encoding="utf-8") + font_faces(words.language)
    if words.language == "th":  # the buttons, the search field, the board's words too
        style += (":where(button,input){font-family:inherit}"
                  f'svg.draughts-board text{{font-family:"Sarabun",{DIAGRAM_FONT}}}')
    script = (ASSETS / "viewer.js").read_text(encoding="utf-8")
    page = PAGE.format(lang=words.language, **page_words(words))
    return page.replace("@STYLE@", style).replace("@SCRIPT@", script)


PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title><style>@STYLE@</style></head>
<body>
<nav id="games" hidden><h2>{games}</h2>
<input id="search" type="search" placeholder="{search}" aria-label="{search_label}">
<p id="count"></p><div id="list"><ol id="rows"></ol></div></nav>
<main>
<header><h1 id="title"></h1><p id="event"></p><p id="verdict"></p></header>
<div id="viewer">
<section id="left">
<div id="board" data-fen="" data-ply="0" data-node="0" data-game="0"></div>
<div id="controls">
<button id="first" title="{first}">«</button><button id="back" title="{back}">‹</button>
<button id="next" title="{next}">›</button><button id="last" title="{last}">»</button>
<button id="flip" title="{flip}">⇅</button>
</div>
<div id="graph" hidden title="{graph}"></div>
<p id="current"></p><p id="error" class="error"></p><p id="warning" class="warning"></p>
<div id="suggestion" class="suggestion"></div>
<div id="notes"></div>
<p id="fen"></p>
<p id="copy"><button id="copy-fen" title="{copy_fen_title}">{copy_fen}</button>
<button id="copy-pdn" title="{copy_pdn_title}">{copy_pdn}</button>
<span id="copied" role="status"></span></p>
</section>
<section id="right">
<section id="explorer" hidden><h2>{explorer}</h2><table><thead><tr><th>{move}</th>
<th>{played}</th><th>+ = −</th><th>{score}</th></tr></thead><tbody id="explored"></tbody>
</table></section>
<h2>{moves}</h2><div class="moves" id="moves" data-game="0"></div>
<p class="help">{help}</p></section>
</div>
</main>
<script id="data" type="application/json">@DATA@</script>
<script>@SCRIPT@</script>
</body></html>
"""
