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
from typing import Any, NamedTuple

from pdn.game import Game
from pdn.reader import Source, read_games, source_name
from replay.record.agreement import agree_file
from replay.record.inference import keyed_variant, variant_key
from replay.record.replayer import replay_game, told_variant
from replay.record.silent import follow_file
from replay.run.partitions import shown_name

NO_GAMETYPE = "none"


def summarise(source: Source, encoding: str | None = None) -> dict[str, Any]:
    """The summary of one source (``pdn info --json``'s line): ``file``, ``games``,
    ``errors`` (each with game, line, column, code and message), ``variants`` (counted by
    GameType tag, ``none`` without one), ``inferred`` (for games without one: the variant
    ``pdn validate`` reads them as: ``replay.record.inference``, ``replay.record.agreement`` and
    ``replay.record.silent``) and ``results``. Raises OSError when the source cannot be read."""
    errors: list[dict[str, Any]] = []
    variants: Counter[str] = Counter()
    inferred: Counter[str] = Counter()
    results: Counter[str] = Counter()

    def told(games: Iterable[Game]) -> Iterator[_Told]:
        for game in games:
            gametype = game.gametype
            written = game.tags.get("GameType") or NO_GAMETYPE
            variants[str(gametype.number) if gametype else written] += 1
            results[(game.headers_result or "?").strip() or "?"] += 1
            errors.extend({"game": game.index, "line": d.line, "column": d.column,
                           "code": d.code, "message": d.message} for d in game.errors)
            yield _told(game)

    def again(item: _Told, key: str) -> _Told:
        assert item.game is not None
        replayed = replay_game(item.game, shown=keyed_variant(key))
        return _Told(item.untagged, variant_key(replayed.variant), False)

    games = 0
    agreed = agree_file(told(read_games(source, encoding=encoding)),
                        lambda item: None if item.silent else item.key,
                        lambda item: item.game is not None, again)
    for item in follow_file(agreed, lambda item: item.silent, lambda item: item.key,
                            lambda item, key: _Told(item.untagged, key, False)):
        games += 1
        if item.untagged:
            inferred[keyed_variant(item.key).name] += 1
    name = source_name(source)
    return {"file": shown_name(name) if name is not None else None,
            "games": games, "errors": errors, "variants": dict(variants.most_common()),
            "inferred": dict(inferred.most_common()), "results": dict(results.most_common())}


class _Told(NamedTuple):
    """A game as ``pdn validate`` tells its variant: whether it has no GameType tag, the
    variant (``variant_key``), whether its record tells nothing of it, and the game where
    several variants replay it (its file's games may decide, ``replay.record.agreement``)."""

    untagged: bool
    key: str
    silent: bool
    game: Game | None = None


def _told(game: Game) -> _Told:
    """The game's variant as ``pdn validate`` tells it, before its file's games are seen."""
    told = told_variant(game)
    untagged = game.gametype is None
    if told is not None:
        return _Told(untagged, variant_key(told), False)
    replayed = replay_game(game)
    return _Told(untagged, variant_key(replayed.variant), replayed.silent,
                 game if replayed.open_variant else None)
