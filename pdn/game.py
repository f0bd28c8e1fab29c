"""A game as the reader gives it: the record's values (``pdn.model.GameRecord``) and its PDN
text, ``str(game)``, written by ``pdn.writer``, which reads the values alone."""

from __future__ import annotations

from pdn.model import GameRecord
from pdn.writer import write_game


class Game(GameRecord):
    """One game: tags in file order, the movetext tree, the result token and diagnostics."""

    def __str__(self) -> str:
        """The game as PDN 3.0 text, as python-chess's ``str(game)`` gives its PGN.

        >>> from pdn.model import Line, MoveRecord, Ply
        >>> c3_d4 = Ply(MoveRecord("c3-d4", ("c3", "d4"), "-"), 1)
        >>> print(Game({"White": "Ivanov"}, Line([c3_d4]), "*"))
        [Event "?"]
        [Site "?"]
        [Date "????.??.??"]
        [Round "?"]
        [White "Ivanov"]
        [Black "?"]
        [Result "*"]
        <BLANKLINE>
        1. c3-d4 *
        """
        return write_game(self)
