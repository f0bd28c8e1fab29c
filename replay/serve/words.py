"""The words of the desk's pages in the reader's language: the texts ``desk.js`` shows,
the language a request asks for, and the switch between languages.

The script keeps no words of its own: each page carries the script's texts in its
language, read from the catalogs (``pdn.i18n``), as JSON in a data element, and the script
fills their ``{name}`` placeholders. A game's page gives the viewer's script
(``replay/viewer/viewer.js``) its few words the same way, in its data.

>>> from pdn.i18n import catalog
>>> script_text(catalog("ru"))["mustCapture"]
'бить обязательно'
>>> switch("/games/3", "th")
'<p class="languages"><a href="/games/3?lang=en" hreflang="en" lang="en">English</a> \
<a href="/games/3?lang=ru" hreflang="ru" lang="ru">Русский</a> \
<a href="/games/3?lang=th" hreflang="th" lang="th" aria-current="true">ไทย</a></p>'
"""

from __future__ import annotations

from html import escape

from pdn.i18n import LANGUAGES, N_, Catalog
from replay.viewer.words import VIEWER_TEXT, viewer_words  # the viewer's, on a game's page

# Every text desk.js shows, by the name the script gives it.
SCRIPT_TEXT = {
    "checking": N_("Checking…"),
    "serverAnswered": N_("the server answered {status}"),
    "thinking": N_("The engine is thinking…"),
    "evaluation": N_("{engine}: {score} (depth {depth})"),
    "evaluationLine": N_("{engine}: {score} (depth {depth}), best line {line}"),
    "otherLine": N_("{score} (depth {depth}) {line}"),
    "stopped": N_("Stopped."),
    "writing": N_("Writing…"),
    "written": N_("Written; the original is kept as {original}."),
    "reload": N_("Reload the file from disk"),
    "reloading": N_("Reloading…"),
    "nothingToCheck": N_("Choose a file or paste a game first."),
    "noGame": N_("{name}: no game found in it."),
    "accepted": N_("{move}: accepted."),
    "refused": N_("Refused: {reason}"),
    "noMoveFrom": N_("no legal move from {square}"),
    "mustCapture": N_("a capture is compulsory"),
    "notLegal": N_("{origin}-{target} is not a legal move"),
    "goOn": N_("{squares}: go on, click the next square of the capture."),
    "writtenAtError": N_("A move played on a game's board is written where the game stops "
                         "at an error (the move in red)."),
    "playOn": N_("Play {move} from here in a new game"),
    "reachable": N_("Nothing forbids it."),
    "noMove": N_("Nothing forbids it, but the side to move has no move: the game is over."),
}

def script_text(words: Catalog) -> dict[str, str]:
    """The script's texts in the language of ``words``, by name."""
    return {name: words.gettext(message) for name, message in SCRIPT_TEXT.items()}


def switch(path: str, language: str) -> str:
    """Links to the page at ``path`` in each language (``?lang=``, as ``/event`` has them),
    the one shown marked as current."""
    current = ' aria-current="true"'
    links = " ".join(
        f'<a href="{escape(path)}?lang={code}" hreflang="{code}" lang="{code}"'
        f'{current if code == language else ""}>{escape(name)}</a>'
        for code, name in LANGUAGES.items())
    return f'<p class="languages">{links}</p>'


def chosen(query_language: str) -> str:
    """The address suffix that keeps a language chosen with the switch in the links of a
    page (``?lang=ru``); nothing when the browser's language chose it."""
    return f"?lang={query_language}" if query_language in LANGUAGES else ""


__all__ = ["SCRIPT_TEXT", "VIEWER_TEXT", "chosen", "script_text", "switch", "viewer_words"]
