"""The rules of play: variants as data, the bitboard move generator and its native twin in C
(``_native.c``), ``Move``, positions and the rules' board, move numbers, draw rules and
endings, perft, and how a game's rules are chosen. It imports only ``pdn``."""
