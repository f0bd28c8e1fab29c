"""Damage real records the way archives and strangers do, and check what must survive.

Shared by ``tests/test_robustness.py`` (hypothesis, bounded in time) and ``bench/fuzz.py``
(hours-long runs). Issue 8: no exception escapes reading, replaying, validating, converting,
writing or tabulating a game, and one broken game never hides the good games around it.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from pdn.reader import iter_chunks, read_games
from pdn.writer import write_game
from replay.convert.games import convert_game
from replay.rules.variants import ENGLISH, INTERNATIONAL, RUSSIAN, Variant
from replay.stats.rows import game_row
from replay.validate.reports import report_game

MUTATIONS = ("flip", "delete", "duplicate", "truncate", "swap")
MARKER = "Robust"  # a tag naming each good game, to find it again after the damage
_MOVE = re.compile(rb"(?<![\w.])[a-h]?\d{1,2}[-x:][a-h]?\d{1,2}(?![\w])")


@dataclass(frozen=True)
class Archive:
    """A real archive and the variant of its games without a GameType tag."""

    path: str  # relative to the shared data folder
    variant: Variant


ARCHIVES = (
    Archive("games-checkers/russian/World_Championship_1998.pdn", RUSSIAN),
    Archive("english/OCA_2.0.pdn", ENGLISH),
    Archive("international/fmjd_wk2007_all_games.pdn", INTERNATIONAL),
)


def valid_games(root: Path, archive: Archive, count: int) -> list[bytes]:
    """The texts of the first ``count`` games of an archive that read and replay cleanly."""
    found: list[bytes] = []
    for chunk in islice(iter_chunks(root / archive.path), count * 5):
        games = list(read_games(chunk.text))
        if len(games) == 1 and report_game(games[0], archive.variant).status == "valid":
            found.append(chunk.text.strip().encode("utf-8"))
        if len(found) == count:
            break
    return found


def mutate(data: bytes, kind: str, where: float, size: int, byte: int) -> bytes:
    """``data`` damaged once: a byte flipped, a stretch deleted or duplicated, the end cut
    off, or two moves swapped; ``where`` (0..1) places the damage, ``size`` is its length."""
    at = min(int(where * len(data)), max(len(data) - 1, 0))
    if kind == "flip":
        return data[:at] + bytes([data[at] ^ (byte or 1)]) + data[at + 1:] if data else data
    if kind == "delete":
        return data[:at] + data[at + size:]
    if kind == "duplicate":
        return data[:at] + data[at:at + size] * 2 + data[at + size:]
    if kind == "truncate":
        return data[:at]
    moves = list(_MOVE.finditer(data))
    if len(moves) < 2:
        return data
    first = moves[int(where * (len(moves) - 1))]
    second = moves[min(len(moves) - 1, moves.index(first) + max(size % 7, 1))]
    return (data[:first.start()] + second.group() + data[first.end():second.start()]
            + first.group() + data[second.end():])


def marked(text: bytes, name: str) -> bytes:
    """A game's text with a marker tag after its first line (the Event tag, which starts a
    game)."""
    first, _, rest = text.partition(b"\n")
    return first + f'\n[{MARKER} "{name}"]\n'.encode() + rest


def check_games_kept(before: list[bytes], damaged: bytes, after: list[bytes],
                     variant: Variant) -> None:
    """Read the good games around a damaged one, and replay, validate, convert, write and
    tabulate every game read; no game may carry an ``internal-error`` (an exception the
    reader did not expect) and every good game must come out valid exactly once. Raises
    AssertionError (or whatever escaped) when the toolkit fails."""
    good = [marked(text, f"g{number}") for number, text in enumerate(before + after)]
    data = b"\n\n".join(good[:len(before)] + [damaged] + good[len(before):]) + b"\n"
    seen: dict[str, list[str]] = {}
    for ordinal, game in enumerate(read_games(io.BytesIO(data)), 1):
        bugs = [d.message for d in game.diagnostics if d.code == "internal-error"]
        assert not bugs, bugs  # damage is bad input: rejecting it must not be an accident
        report = report_game(game, variant)
        conversion = convert_game(game, variant)
        row = game_row(game, ordinal, variant, None, 6, None)
        write_game(game)
        name = game.tags.get(MARKER)
        if name is not None:
            converted = conversion.game is not None and not conversion.report.errors
            seen.setdefault(name, []).append(
                f"{report.status}/{row['status']}/{'converted' if converted else 'not'}")
    for number in range(len(good)):
        assert seen.get(f"g{number}") == ["valid/valid/converted"], (number, seen)
