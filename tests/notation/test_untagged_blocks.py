"""A file of games without tags, one a line (an opening book), has no sure game end: the
main process cuts it at likely ends into blocks of about a partition, as it cuts a tagged
file, instead of holding it whole up to the block limit (the results of a block's games
are held at once: 200,000 such games in one block took 1.2 GB)."""

from __future__ import annotations

import io

from pdn import PdnText, read_games
from pdn.chunks import block_chunks, split_blocks
from pdn.reader import parse_chunks


def one_line_games(shared_data, count: int) -> str:
    """The movetext of OCA 2.0's first ``count`` games, each on one line, without tags."""
    text = (shared_data / "english" / "OCA_2.0.pdn").read_text(encoding="latin-1")
    moves = [" ".join(line for line in part.splitlines() if not line.startswith("["))
             for part in text.split("\n\n")]
    moves = [" ".join(line.split()) for line in moves if line.strip()]
    return "".join(line + "\n" for line in moves[:count])


def test_untagged_games_are_cut_into_blocks_of_about_the_size_asked(shared_data):
    text = one_line_games(shared_data, 3_000)
    size = 1 << 12
    blocks = list(split_blocks(io.StringIO(text), size))
    assert "".join(block.text for block in blocks) == text
    assert len(blocks) > len(text) // (2 * size)
    assert max(len(block.text) for block in blocks[:-1]) <= size
    lines = 1
    for block in blocks:  # each numbered from its first line in the whole text
        assert block.line == lines
        lines += block.text.count("\n")


def test_the_blocks_hold_the_games_the_whole_text_holds(shared_data):
    text = one_line_games(shared_data, 3_000)
    whole = [(game.line, str(game.moves)) for game in read_games(PdnText(text))]
    cut = [(game.line, str(game.moves))
           for block in split_blocks(io.StringIO(text), 1 << 12)
           for game in parse_chunks(block_chunks(block))]
    assert len(whole) == 3_000 and cut == whole
