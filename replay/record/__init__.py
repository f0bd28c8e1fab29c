"""A written record on the rules: a move text resolved to its legal move, moves named in
every notation, the replayer and its game tree, editing, move lines, the variant told from a
record, the friendly ``Board`` and its diagrams. It imports ``pdn`` and ``replay.rules``."""
