"""The viewer page's words in the reader's language: the page's headings, buttons and help,
the texts its script shows, the board's "White to move" and variant, and the messages a
game's replay made.

The script (``viewer.js``) keeps English words of its own only as a fallback: a page gives
it its words in the page's language, read from the catalogs (``pdn.i18n``), as ``words`` in
its data; ``pdn view`` writes them, and so does ``pdn serve``'s game page.

>>> from pdn.i18n import catalog
>>> viewer_words(catalog("ru"))["start"]
'Начальная позиция'
>>> count_words(catalog("th"), 3)["count"]
'3 เกม'
"""

from __future__ import annotations

from html import escape

from pdn.i18n import N_, Catalog
from replay.record.diagram import TO_MOVE
from replay.rules.variant_titles import variant_title

# The texts viewer.js shows, by the name the script gives them (English there too).
VIEWER_TEXT = {
    "verdict": N_("Does not replay: {errors}"),
    "suggestion": N_("Suggestion: {text}"),
    "start": N_("Start position"),
    "unplayed": N_("not replayed"),
    "clock": N_("clock after the move"),
    "evaluation": N_("evaluation (White's view)"),
    "graph": N_("evaluation graph"),
    "copied": N_("{what} copied"),
    "refused": N_("copy refused"),
    "unexplored": N_("No game of the database reaches this position."),
}

# The page's own words (``replay.viewer.page.PAGE``), by the name the page gives them.
PAGE_TEXT = {
    "games": N_("Games"),
    "search": N_("Search player or event"),
    "search_label": N_("Search"),
    "first": N_("Start (Home)"),
    "back": N_("Back (←)"),
    "next": N_("Next (→)"),
    "last": N_("End (End)"),
    "flip": N_("Flip the board (f)"),
    "graph": N_("Evaluation after each move of the main line (White's view): click to go "
                "there"),
    "copy_fen_title": N_("Copy the position as FEN"),
    "copy_fen": N_("Copy FEN"),
    "copy_pdn_title": N_("Copy the game as the page shows it, as PDN"),
    "copy_pdn": N_("Copy PDN"),
    "explorer": N_("Explorer"),
    "move": N_("Move"),
    "played": N_("Games"),
    "score": N_("Score"),
    "moves": N_("Moves"),
    "help": N_("Click a move, or use ← → to step, ↑ ↓ to switch between variations, Home "
               "and End; PgUp and PgDn change the game."),
}

# The messages the viewer makes itself for a move that does not replay
# (``replay.viewer.moves``), put into the language with those the replay made.
NOT_REPLAYED = (N_("this move does not replay"), N_("the record has lost moves from here"))


def viewer_words(words: Catalog) -> dict[str, str]:
    """The script's texts in the language of ``words``, by name."""
    return {name: words.gettext(message) for name, message in VIEWER_TEXT.items()}


def count_words(words: Catalog, count: int) -> dict[str, str]:
    """How the game list counts a page's ``count`` games, all of them (``count``) and those
    a search finds (``shownOf``, its ``{shown}`` filled by the script)."""
    return {"count": words.ngettext("{count} game", "{count} games", count).format(
                count=count),
            "shownOf": words.ngettext("{shown} of {count} game", "{shown} of {count} games",
                                      count).replace("{count}", str(count))}


def page_words(words: Catalog) -> dict[str, str]:
    """The page's own words (``PAGE_TEXT``) in the language of ``words``, escaped for HTML."""
    return {name: escape(words.gettext(message)) for name, message in PAGE_TEXT.items()}


def turn_words(svg: str, words: Catalog) -> str:
    """A board's drawing (``replay.record.diagram``) with its "White to move" (or Black) in
    the language of ``words``."""
    for message in TO_MOVE:
        svg = svg.replace(f">{message}<", f">{escape(words.gettext(message))}<")
    return svg


def kind_in(kind: dict, words: Catalog) -> dict:
    """A board's description for the viewer (``replay.viewer.board.board_kind``, shared and
    left as it is) with its variant's name and the words under the board ("White to move")
    in the language of ``words``."""
    if words.language == "en":
        return kind

    def turn(marks: dict) -> dict:
        return {code: turn_words(mark, words) for code, mark in marks.items()}

    return {**kind, "variant": variant_title(kind["variant"], words), "turn": turn(kind["turn"]),
            "flipped": {**kind["flipped"], "turn": turn(kind["flipped"]["turn"])}}


def localized_fields(data: dict, made: set[str], words: Catalog) -> dict:
    """A game's fields for the page (``replay.viewer.page.game_data``) with the messages the
    replay made (``made``: the moves that do not replay, the reasons at their moves, the
    suggestions) in the language of ``words``; moves, comments and tags as written."""
    if words.language == "en":
        return data
    made = made | set(NOT_REPLAYED)
    changes = {"errors": lambda errors: [words.localize(text) for text in errors],
               "texts": lambda texts: [words.localize(text) if text in made else text
                                       for text in texts],
               "suggestions": lambda shown: [[ply, words.localize(text)]
                                             for ply, text in shown]}
    return {name: changes[name](value) if name in changes and value is not None else value
            for name, value in data.items()}


__all__ = ["NOT_REPLAYED", "PAGE_TEXT", "VIEWER_TEXT", "count_words", "kind_in",
           "localized_fields", "page_words", "turn_words", "viewer_words"]
