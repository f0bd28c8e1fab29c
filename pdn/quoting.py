"""Input text quoted in a message: cut short and with control characters escaped.

>>> shown("11-15\\x1b[2J")
'11-15\\\\x1b[2J'
"""

from __future__ import annotations


def shown(text: str, limit: int = 20) -> str:
    """Input text fit to quote in a message: at most ``limit`` characters, control characters
    escaped (hostile bytes must not drive the terminal)."""
    cut = text[:limit]
    safe = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in cut)
    return safe + ("…" if len(text) > limit else "")
