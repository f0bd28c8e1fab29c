"""How each game's rules are chosen, as one value that every tool's settings hold.

>>> from replay.rules.variants import RUSSIAN, ENGLISH
>>> choice = RulesChoice(default=RUSSIAN)
>>> choice.variant_for(None).name, choice.variant_for(ENGLISH).name
('russian', 'english')
>>> RulesChoice(RUSSIAN, override=RUSSIAN).variant_for(ENGLISH).name
'russian'
"""

from __future__ import annotations

from dataclasses import dataclass

from replay.rules.variants import Rules, Variant


@dataclass(frozen=True)
class RulesChoice:
    """``default``: the variant of games without a GameType tag (None: told from each record,
    docs/inference.md); ``override``: the variant of every game, whatever its tag says
    (``--ignore-gametype``); ``rules``: rule options set on top of either (``--rule``,
    docs/rules.md)."""

    default: Variant | None = None
    override: Variant | None = None
    rules: Rules | None = None

    def variant_for(self, tagged: Variant | None) -> Variant | None:
        """The variant a game is played in, given the variant its tags name (None: no
        GameType tag), before any rule option: the override, else the tag, else the
        default."""
        return self.override or tagged or self.default
