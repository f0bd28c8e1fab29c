"""What a file holds, without replaying it: games, variants, results and reading errors (the
library behind ``pdn info``).

>>> summary = summarise('[GameType "25"]\\n1. c3-d4 1-0\\n\\n1. 11-15 *')
>>> summary["games"], summary["variants"], summary["inferred"], summary["results"]
(2, {'25': 1, 'none': 1}, {'english': 1}, {'1-0': 1, '*': 1})
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from pdn.reader import Source, read_games
from replay.inference import candidates

NO_GAMETYPE = "none"


def summarise(source: Source, encoding: str | None = None) -> dict[str, Any]:
    """The summary of one source (``pdn info --json``'s line): ``file``, ``games``,
    ``errors`` (each with game, line, column, code and message), ``variants`` (counted by GameType
    tag, ``none`` without one), ``inferred`` (for games without one: the variant their tags
    and squares tell, without replaying; ``pdn validate`` replays to confirm it) and
    ``results``. Raises OSError when the source cannot be read."""
    games = 0
    errors: list[dict[str, Any]] = []
    variants: Counter[str] = Counter()
    inferred: Counter[str] = Counter()
    results: Counter[str] = Counter()
    for game in read_games(source, encoding=encoding):
        games += 1
        gametype = game.gametype
        written = game.tags.get("GameType") or NO_GAMETYPE
        variants[str(gametype.number) if gametype else written] += 1
        if gametype is None:
            inferred[candidates(game).variants[0].name] += 1
        results[(game.headers_result or "?").strip() or "?"] += 1
        errors += [{"game": game.index, "line": d.line, "column": d.column, "code": d.code,
                    "message": d.message} for d in game.errors]
    name = os.fspath(source) if isinstance(source, os.PathLike) else source
    return {"file": name if isinstance(name, str) and "\n" not in name else None,
            "games": games, "errors": errors, "variants": dict(variants.most_common()),
            "inferred": dict(inferred.most_common()), "results": dict(results.most_common())}
