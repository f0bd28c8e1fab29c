"""The variants' names as players say them, for pages in another language than English.

English pages keep the variant's key (``russian``), as they always have; another language
names it as its players do (``русские шашки``, ``หมากฮอสแบบรัสเซีย``; docs/languages.md).

>>> from pdn.i18n import catalog
>>> variant_title("russian", catalog("en")), variant_title("russian", catalog("ru"))
('russian', 'русские шашки')
"""

from __future__ import annotations

from pdn.i18n import N_, Catalog

TITLES = {
    "russian": N_("Russian draughts"), "brazilian": N_("Brazilian draughts"),
    "pool": N_("Pool checkers"), "international": N_("International draughts"),
    "canadian": N_("Canadian draughts"), "english": N_("English draughts (checkers)"),
    "spanish": N_("Spanish draughts"), "portuguese": N_("Portuguese draughts"),
    "czech": N_("Czech draughts"), "italian": N_("Italian draughts"),
    "frisian": N_("Frisian draughts"), "thai": N_("Thai checkers (mak-hos)"),
    "turkish": N_("Turkish draughts"),
}


def variant_title(name: str, words: Catalog) -> str:
    """The variant ``name`` as ``words``' language names it (English: the name as it is)."""
    if words.language == "en" or name not in TITLES:
        return name
    return words.gettext(TITLES[name])


__all__ = ["TITLES", "variant_title"]
