"""The variant each game of a run is read as, as ``pdn validate`` reads it, so that an engine
is started for the game's own variant.

A game's variant is the one ``--variant``/``--force-variant``, its GameType tag or its record
tells (``replay.record.replayer.told_variant``; a replay where only one tells); a game that several
variants replay takes its file's variant where that replays it too (``replay.record.agreement``),
and one whose record tells nothing, its neighbours' (``replay.record.silent``). An archive of mixed
variants is read game by game.

>>> from pdn.reader import read_games
>>> games = list(read_games("1. ed4 dc5 *\\n\\n1. 11-15 23-19 *\\n\\n1. 32-28 19-23 *"))
>>> [reading.variant.name for reading in game_readings(games)]
['russian', 'english', 'international']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby

from pdn.game import Game
from replay.record.agreement import agree_file
from replay.record.inference import keyed_variant, variant_key
from replay.record.replayer import replay_game, told_variant
from replay.record.silent import follow_file
from replay.rules.variants import Rules, Variant, with_rules


@dataclass(frozen=True)
class Reading:
    """How one game is read: its ``variant`` (the squares' numbering and any rule options
    included), and what ``replay_game`` is given to read it so: ``follow`` (the variant of
    its neighbours, for a record that tells nothing) and ``shown`` (its file's variant, for
    one that several variants replay)."""

    variant: Variant
    follow: Variant | None = None
    shown: Variant | None = None
    silent: bool = False  # the record tells nothing of its variant
    open_: bool = False  # several variants replay it: its file's games may decide

    @property
    def key(self) -> str:
        return variant_key(self.variant)


def game_readings(games: Sequence[Game], default: Variant | None = None,
                  override: Variant | None = None, *, rules: Rules | None = None
                  ) -> list[Reading]:
    """The ``Reading`` of each game, in order; the games of one source (``Game.source``, in
    a run) are read together, as ``pdn validate`` reads a file."""
    return [reading for _, reading in read_games_as_validate(games, default, override,
                                                             rules=rules)]


def read_games_as_validate(games: Iterable[Game], default: Variant | None = None,
                           override: Variant | None = None, *, rules: Rules | None = None
                           ) -> Iterator[tuple[Game, Reading]]:
    """Each game with its ``Reading``, in order, as ``game_readings`` reads them, from games
    that come one by one: those waiting for their file's verdict are held in a bounded
    window (``replay.record.held``), so that memory does not grow with the archive."""
    for _, group in groupby(games, key=lambda game: game.source):
        yield from _file_readings(group, default, override, rules)


def _file_readings(games: Iterable[Game], default: Variant | None, override: Variant | None,
                   rules: Rules | None) -> Iterator[tuple[Game, Reading]]:
    def again(item: tuple[Game, Reading], key: str) -> tuple[Game, Reading]:
        game, _ = item
        shown = keyed_variant(key)
        replayed = replay_game(game, default, override, rules=rules, shown=shown)
        return game, Reading(replayed.variant, shown=shown)

    def followed(item: tuple[Game, Reading], key: str) -> tuple[Game, Reading]:
        game, _ = item
        follow = keyed_variant(key)
        return game, Reading(with_rules(follow, rules), follow=follow)

    told = ((game, _told(game, default, override, rules)) for game in games)
    agreed = agree_file(told, lambda item: None if item[1].silent else item[1].key,
                        lambda item: item[1].open_, again)
    yield from follow_file(agreed, lambda item: item[1].silent, lambda item: item[1].key,
                           followed)


def _told(game: Game, default: Variant | None, override: Variant | None,
          rules: Rules | None) -> Reading:
    """The game's reading before its file's other games are seen."""
    variant = told_variant(game, default, override, rules=rules)
    if variant is not None:
        return Reading(variant)
    replayed = replay_game(game, default, override, rules=rules)
    return Reading(replayed.variant, silent=replayed.silent, open_=replayed.open_variant)


__all__ = ["Reading", "game_readings", "read_games_as_validate"]
