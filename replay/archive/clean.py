"""Clean a game: PDN dates, ``Last, First`` names, the variant's results, a full GameType,
no text from between games, optionally no comments, NAGs or variations.

``clean_game`` changes the game in place and returns every change it made, in words.

>>> from pdn.reader import read_games
>>> from replay.rules.variants import RUSSIAN
>>> game = next(read_games('[Date "1.1.1965"][White "ABAULIN V."][Result "1:0"]\\n'
...                        '1. c3-d4 f6-g5 1:0'))
>>> for change in clean_game(game, RUSSIAN): print(change)
Date '1.1.1965' → '1965.01.01'
White 'ABAULIN V.' → 'Abaulin, V.'
Result '1:0' → '1-0'
result token '1:0' → '1-0'
GameType added: '25,W,8,8,A0,0'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pdn.game import Game
from pdn.gametype import GameTypeError, parse_gametype
from pdn.i18n import N_
from pdn.model import Line, MoveRecord
from pdn.tags import RESULTS
from replay.archive.tags import DateParts, clean_date, clean_name, clean_result, result_tokens
from replay.record.inference import standard_tags
from replay.record.replayer import game_variant
from replay.rules.endings import decide
from replay.rules.movegen import WHITE
from replay.rules.variants import Rules, Variant

STRIP_CHOICES = ("comments", "nags", "variations")
DATE_TAGS = ("Date", "EventDate")
NAME_TAGS = ("White", "Black")

_TOKENS = re.compile(r'\{[^}]*\}?|;[^\n]*|(?m:^%[^\n]*)|\[(?:[^\]"\n]|"(?:[^"\\\n]|\\.)*"?)*\]?'
                     r"|[^\s{;\[]+")


@dataclass(frozen=True)
class CleanOptions:
    """What ``clean_game`` does beyond the tags: what to strip, a move rewriter (such
    as ``Rewrite``) that returns the changes it made, whether to mend a broken game
    where one repair is sure (``replay.validate.repair``) and whether to write the result
    the final position decides (``fix_result``)."""

    strip: frozenset[str] = frozenset()
    rewrite: Callable[[Game, Variant], list[str]] | None = None
    repair: bool = False
    fix_results: bool = False  # write the result the rules decide (``fix_result``)


def non_game_comments(text: str) -> tuple[int, int]:
    """How many comments of a game chunk stand before its first tag and after its closing
    result: text between games, which the reader keeps as the game's ``preamble`` and as
    the last move's comments."""
    kinds = [_kind(token) for token in _TOKENS.findall(text)]
    kinds = [kind for kind in kinds if kind != "escape"]
    lead = 0
    if "tag" in kinds and all(k == "comment" for k in kinds[:kinds.index("tag")]):
        lead = kinds.index("tag")
    trail = 0
    while trail < len(kinds) and kinds[len(kinds) - 1 - trail] == "comment":
        trail += 1
    if trail == len(kinds) or kinds[len(kinds) - 1 - trail] != "result":
        trail = 0
    return lead, trail


def _kind(token: str) -> str:
    if token[0] in "{;":
        return "comment"
    if token[0] == "%":
        return "escape"
    if token[0] == "[":
        return "tag"
    return "result" if token in RESULTS else "word"


def drop_non_game_text(game: Game, lead: int, trail: int) -> list[str]:
    """Remove ``lead`` comments from before the game's tags and ``trail`` from its end."""
    changes = []
    removed = game.preamble[:lead]
    del game.preamble[:lead]
    tail = game.moves.plies[-1].comments if game.moves.plies else game.moves.comments
    if trail:
        removed += tail[-trail:]
        del tail[-trail:]
    for comment in removed:
        changes.append(N_("removed text between games: {text}").format(
            text=f"{{{_short(comment)}}}"))
    return changes


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def clean_tags(game: Game, variant: Variant, date: DateParts | None = None) -> list[str]:
    """Normalise dates, names, the result and the GameType tag."""
    changes = []
    tags = game.tags
    for name, value in list(tags.items()):
        if value != value.strip():
            tags[name] = value.strip()
    standard = standard_tags(tags, variant)
    if standard != tags:
        changes.append(N_("players named as English checkers names them: the first mover "
                          "({name}) is Black").format(name=standard.get("Black", "?")))
        tags.clear()
        tags.update(standard)
    for name in DATE_TAGS:
        if name in tags:
            _set(tags, name, clean_date(tags[name], date if name == "Date" else None), changes)
    for name in NAME_TAGS:
        if name in tags:
            _set(tags, name, clean_name(tags[name]), changes)
    result = clean_result(game.headers_result, variant)
    if "Result" in tags or result != "*":
        _set(tags, "Result", result, changes, added="Result")
    if game.result is not None and game.result != result:
        changes.append(N_("result token '{old}' → '{value}'").format(old=game.result,
                                                                    value=result))
    game.result = result
    changes += _clean_gametype(tags, variant)
    return changes


def _set(tags: dict[str, str], name: str, value: str, changes: list[str],
         added: str | None = None) -> None:
    old = tags.get(name)
    if old == value:
        return
    tags[name] = value
    changes.append(ADDED.format(tag=added, value=value) if old is None and added
                   else CHANGED.format(tag=name, old=old, value=value))


# A tag's change (the tag's name and values as they are, in every language)
ADDED, CHANGED = N_("{tag} added: '{value}'"), N_("{tag} '{old}' → '{value}'")


def _clean_gametype(tags: dict[str, str], variant: Variant) -> list[str]:
    written = tags.get("GameType")
    if written is None:
        tags["GameType"] = variant.gametype.tag()
        return [ADDED.format(tag="GameType", value=tags["GameType"])]
    try:
        full = parse_gametype(written).tag()
    except GameTypeError as error:
        return [N_("{tag} '{old}' kept: {reason}").format(tag="GameType", old=written,
                                                          reason=error)]
    if full == written:
        return []
    tags["GameType"] = full
    return [CHANGED.format(tag="GameType", old=written, value=full)]


def strip_annotations(line: Line, strip: frozenset[str]) -> int:
    """Remove the kinds of annotation asked for from a line and its variations; returns how
    many were removed."""
    removed = 0
    if "comments" in strip:
        removed += len(line.comments)
        line.comments.clear()
    for ply in line.plies:
        if "comments" in strip:
            removed += len(ply.comments)
            ply.comments.clear()
        if "nags" in strip:
            removed += len(ply.nags) + bool(ply.record.strength)
            ply.nags.clear()
            if ply.record.strength:
                ply.record = _without_strength(ply.record)
        if "variations" in strip:
            removed += len(ply.variations)
            ply.variations.clear()
        for variation in ply.variations:
            removed += strip_annotations(variation, strip)
    return removed


def _without_strength(record: MoveRecord) -> MoveRecord:
    return record._replace(strength=None)


@dataclass(frozen=True)
class Rewrite:
    """Rewrite a game's moves in another notation through ``replay.convert.games``; a game with an
    illegal move keeps its moves as written (and the change list says so), one with lost
    moves is rewritten as far as it is known."""

    to: str = "pdn"

    def __call__(self, game: Game, variant: Variant, rules: Rules | None = None) -> list[str]:
        from replay.convert.games import Target, convert_game

        conversion = convert_game(game, variant, Target(self.to), rules=rules)
        if conversion.game is None:
            reasons = conversion.report.errors
            why = reasons[0]["message"] if reasons else N_("it does not replay")
            return [N_("moves kept as written, not rewritten in {notation} notation: {reason}")
                    .format(notation=self.to, reason=why)]
        changes = [(N_("moves rewritten in {notation} notation") if conversion.complete else
                    N_("moves rewritten in {notation} notation as far as they are known "
                       "(lost moves as '...')")).format(notation=self.to)]
        old, new = game.tags.get("GameType"), conversion.game.tags.get("GameType")
        if new is not None and new != old:
            changes.append(CHANGED.format(tag="GameType", old=old, value=new))
        game.moves, game.tags = conversion.game.moves, conversion.game.tags
        return changes


def fix_result(game: Game, variant: Variant, rules: Rules | None = None) -> list[str]:
    r"""Where the main line replays to a position the rules decide (the side to move has no
    piece or no legal move, with the variant's own win rule: in Antidraughts that wins; a
    Breakthrough king wins), write that result in the Result tag and as the movetext's
    result token, in the variant's result set; returns the change in words, none where the
    recorded result agrees or the game does not replay to a decided end.

    >>> from pdn.reader import read_games
    >>> from replay.rules.variants import RUSSIAN
    >>> game = next(read_games('[FEN "W:Wc3:Bd4"][Result "0-1"]\n1. c3xe5 0-1'))
    >>> fix_result(game, RUSSIAN)
    ["result '0-1' → '1-0': Black has no legal move, White wins (Result tag and movetext)"]
    >>> game.tags["Result"], game.result
    ('1-0', '1-0')
    """
    from replay.record.replayer import WHITE_WINS, normalise_result, replay_game

    replayed = replay_game(game, override=variant, rules=rules)
    if replayed.errors or replayed.placeholder or replayed.final is None:
        return []
    decision = decide(replayed.final_board())
    if decision is None:
        return []
    winner = WHITE_WINS if decision.winner == WHITE else "black"
    if normalise_result(game.headers_result, variant) == winner:
        return []
    first = "first" if (decision.winner == WHITE) == variant.white_starts else "second"
    token = result_tokens(variant)[first]
    old = game.headers_result or "*"
    game.tags["Result"] = token
    game.result = token
    said = (N_("result '{old}' → '{value}': {reason}, White wins (Result tag and movetext)")
            if decision.winner == WHITE else
            N_("result '{old}' → '{value}': {reason}, Black wins (Result tag and movetext)"))
    return [said.format(old=old, value=token, reason=decision.reason)]


def _repaired(game: Game, default: Variant | None, rules: Rules | None) -> list[str]:
    from replay.validate.repair import repair_game

    repair = repair_game(game, default, rules=rules)
    if repair.mend:
        return [N_("repaired: {reason}").format(reason=repair.mend)]
    return [N_("moves kept as written: no sure repair")] if repair.broken else []


def clean_game(game: Game, default: Variant | None = None, date: DateParts | None = None,
               options: CleanOptions = CleanOptions(), *, chunk: tuple[str, int, int] | None = None,
               rules: Rules | None = None) -> list[str]:
    """Clean a game in place; returns the changes made.

    ``date``: the Date tag's parts when computed for a batch; ``chunk``: the text the game
    was read from, with the game's place in it and the number of games it holds, so that
    text from between games can be told from the game's own comments; ``rules``: rule
    options set on top of the game's variant, for a repair or a rewrite.
    """
    variant = game_variant(game, default, rules=rules)
    changes = [N_("reading: {reason}").format(reason=d.message) for d in game.diagnostics]
    if chunk is not None:
        text, part, count = chunk
        lead, trail = non_game_comments(text)
        changes += drop_non_game_text(game, lead if part == 0 else 0,
                                      trail if part == count - 1 else 0)
    changes += clean_tags(game, variant, date)
    if options.strip:
        removed = strip_annotations(game.moves, options.strip)
        if removed:
            changes.append(N_("stripped {count} {kinds}").format(
                count=removed, kinds="/".join(sorted(options.strip))))
    if options.repair:
        changes += _repaired(game, default, rules)
    if options.fix_results:
        changes += fix_result(game, variant, rules)
    if options.rewrite is not None:
        changes += options.rewrite(game, variant, rules)
    return changes


__all__ = [
    "STRIP_CHOICES",
    "CleanOptions",
    "Rewrite",
    "clean_game",
    "clean_tags",
    "drop_non_game_text",
    "fix_result",
    "non_game_comments",
    "strip_annotations",
]
