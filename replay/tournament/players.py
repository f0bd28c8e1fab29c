"""One player behind the spellings of a name, matched as ``pdn dedupe`` matches names.

Names are cleaned to ``Last, First`` (``replay.archive.tags.clean_name``); spellings with the
same words in any order are one player (``Kees Thijssen`` ~ ``Thijssen Kees``); then a name
whose given names agree, as far as both go, with those of exactly one other player of the
same surname is that player (``Heusdens, R.`` ~ ``Heusdens, Ron``;
``replay.archive.dedupe.names_compatible``), accents aside (``Gérard`` ~ ``Gerard``). A
name that fits two players (``Jansen, G.`` beside ``Jansen, Gerard`` and ``Jansen, Gert``)
stays apart: guessing would move a game to the wrong row.

>>> players = Players(["Sijbrands, T.", "T. Sijbrands", "Ton Sijbrands", "Sijbrands Ton"])
>>> sorted({players.key("Sijbrands, T."), players.key("Sijbrands Ton")})
['Ton Sijbrands']
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable

from replay.archive.dedupe import names_compatible
from replay.archive.tags import NO_NAME, clean_name, name_words

UNKNOWN_PLAYER = "?"


def _unaccented(name: str) -> str:
    """A name without its accents (``Gérard`` → ``Gerard``): archives in Latin-1 and in
    ASCII write the same player both ways."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def _surname_forms(name: str) -> list[str]:
    """A cleaned name as ``Last, First`` in each way it can be read: as it is when it has a
    comma, else with the surname after the first, second, ... word (``Ton Sijbrands`` →
    ``Sijbrands, Ton``), since which word is the surname cannot be told."""
    words = name.split()
    if "," in name or len(words) < 2:
        return [name]
    return [f"{' '.join(words[k:])}, {' '.join(words[:k])}" for k in range(1, len(words))]


class Players:
    """The players of an event from the names written in its games."""

    def __init__(self, names: Iterable[str | None]):
        written = Counter(name.strip() for name in names if name and not NO_NAME.match(name))
        groups: dict[frozenset[str], Counter[str]] = {}
        for name, times in written.items():
            groups.setdefault(name_words(_unaccented(clean_name(name))), Counter())[name] += times
        merged = self._merged(groups)
        self._keys: dict[str, str] = {}
        for members in merged:
            spellings = Counter()
            for words in members:
                spellings.update(groups[words])
            shown = self._shown(spellings)
            for name in spellings:
                self._keys[name] = shown

    @staticmethod
    def _merged(groups: dict[frozenset[str], Counter[str]]) -> list[list[frozenset[str]]]:
        """Word groups joined where a group's name fits exactly one other group."""
        words = list(groups)
        sample = {w: _unaccented(clean_name(groups[w].most_common(1)[0][0])) for w in words}
        parent = {w: w for w in words}

        def root(w: frozenset[str]) -> frozenset[str]:
            while parent[w] != w:
                w = parent[w]
            return w

        forms = {w: _surname_forms(sample[w]) for w in words}
        for w in words:
            fits = [o for o in words if o != w and any(
                names_compatible(a, b) for a in forms[w] for b in forms[o])]
            if len(fits) == 1:
                a, b = root(w), root(fits[0])
                if a != b:
                    parent[a] = b
        joined: dict[frozenset[str], list[frozenset[str]]] = {}
        for w in words:
            joined.setdefault(root(w), []).append(w)
        return list(joined.values())

    @staticmethod
    def _shown(spellings: Counter[str]) -> str:
        """The name a table shows: the fullest spelling (most letters), the most used first,
        written ``First Last`` when it has no initials, else as cleaned."""
        best = max(spellings, key=lambda name: (sum(map(str.isalpha, name)), spellings[name]))
        cleaned = clean_name(best)
        last, comma, first = cleaned.partition(",")
        if comma and all(len(part) > 2 and not part.endswith(".") for part in first.split()):
            return f"{first.strip()} {last.strip()}".strip()
        return cleaned

    def key(self, name: str | None) -> str:
        """The player a written name stands for (``?`` for an unknown name)."""
        if not name or NO_NAME.match(name):
            return UNKNOWN_PLAYER
        return self._keys.get(name.strip(), name.strip())

    def spellings(self) -> dict[str, list[str]]:
        """Per player, the spellings read (only players written more than one way)."""
        found: dict[str, list[str]] = {}
        for name, key in self._keys.items():
            found.setdefault(key, []).append(name)
        return {key: sorted(names) for key, names in found.items() if len(names) > 1}
