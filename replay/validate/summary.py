"""What a file holds: games, variants, results and reading errors (the library behind
``pdn info``). Games without a GameType tag are counted under the variant ``pdn validate``
finds for them: where their record leaves several variants, it is replayed to tell.

>>> summary = summarise('[GameType "25"]\\n1. c3-d4 1-0\\n\\n1. 11-15 *')
>>> summary["games"], summary["variants"], summary["inferred"], summary["results"]
(2, {'25': 1, 'none': 1}, {'english': 1}, {'1-0': 1, '*': 1})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from pdn.model import Game
from pdn.reader import Source, read_games, source_name
from replay.inference import keyed_variant, variant_key
from replay.replayer import replay_game, told_variant
from replay.silent import follow_file

NO_GAMETYPE = "none"


def summarise(source: Source, encoding: str | None = None) -> dict[str, Any]:
    """The summary of one source (``pdn info --json``'s line): ``file``, ``games``,
    ``errors`` (each with game, line, column, code and message), ``variants`` (counted by
    GameType tag, ``none`` without one), ``inferred`` (for games without one: the variant
    ``pdn validate`` reads them as, ``replay.inference`` and ``replay.silent``) and
    ``results``. Raises OSError when the source cannot be read."""
    errors: list[dict[str, Any]] = []
    variants: Counter[str] = Counter()
    inferred: Counter[str] = Counter()
    results: Counter[str] = Counter()

    def told(games: Iterable[Game]) -> Iterator[tuple[bool, str, bool]]:
        for game in games:
            gametype = game.gametype
            written = game.tags.get("GameType") or NO_GAMETYPE
            variants[str(gametype.number) if gametype else written] += 1
            results[(game.headers_result or "?").strip() or "?"] += 1
            errors.extend({"game": game.index, "line": d.line, "column": d.column,
                           "code": d.code, "message": d.message} for d in game.errors)
            yield _told(game)

    games = 0
    for untagged, key, _ in follow_file(told(read_games(source, encoding=encoding)),
                                        lambda item: item[2], lambda item: item[1],
                                        lambda item, key: (item[0], key, False)):
        games += 1
        if untagged:
            inferred[keyed_variant(key).name] += 1
    return {"file": source_name(source),
            "games": games, "errors": errors, "variants": dict(variants.most_common()),
            "inferred": dict(inferred.most_common()), "results": dict(results.most_common())}


def _told(game: Game) -> tuple[bool, str, bool]:
    """Whether the game has no GameType tag, its variant (``variant_key``) as ``pdn
    validate`` tells it, and whether its record tells nothing of it."""
    told = told_variant(game)
    untagged = game.gametype is None
    if told is not None:
        return untagged, variant_key(told), False
    replayed = replay_game(game)
    return untagged, variant_key(replayed.variant), replayed.silent
