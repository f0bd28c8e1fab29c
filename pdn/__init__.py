"""PDN notation: reading, writing, squares and FEN, with no rules of play.

>>> games = list(read_games('[Event "x"]\\n1. c3-d4 f6-g5 *'))
>>> games[0].tags["Event"], [p.record.text for p in games[0].moves.plies]
('x', ['c3-d4', 'f6-g5'])
"""

from pdn.model import Game
from pdn.reader import read_games, read_headers, visit_games
from pdn.writer import write_game, write_games

__all__ = ["Game", "read_games", "read_headers", "visit_games", "write_game", "write_games"]
