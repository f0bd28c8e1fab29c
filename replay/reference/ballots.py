"""The opening ballots of the FMJD Drawing Table 64 (Russian draughts), by code.

Source: FMJD, "Drawing Table 64" (results.fmjd.org, page_id=2), as transcribed in
lidraughts' rules library (Mind-Sports-Games/strategygames,
``src/main/scala/draughts/OpeningTable.scala``, ``categoriesFMJD``). The codes are the table's
own (category-number in Roman numerals); the table gives no other names, so neither do we.
Only ballots reached by play from the start position are listed (1-I to 11-III); from 11-IV on
the table relocates pieces, and such games start from a FEN.

Moves are in Russian short notation (origin file, destination), captures without a mark.
"""

from __future__ import annotations

from functools import cache

FMJD_64 = """
1-I ab4 ba5 ba3 ab6 ab2 dc5
1-II ab4 ba5 ba3 cb6 cb2 de5
1-III ab4 ba5 ba3 cb6 gh4 fe5
1-IV ab4 ba5 ba3 fe5 gh4
1-V ab4 ba5 ed4 ab6 fe3 ba7
1-VI ab4 ba5 ed4 ab6 fe3 dc5
1-VII ab4 ba5 ed4 ab6 fe3 fe5
1-VIII ab4 ba5 ed4 ab6 fe3 hg5
1-IX ab4 ba5 ed4 dc5 bd6 ce5
1-X ab4 ba5 gh4 fe5 hg3
1-XI ab4 bc5 ba5 cb4 ed4 fe5
1-XII ab4 bc5 ba5 cb4 ed4 fg5
1-XIII ab4 bc5 ba5 cb4 ed4 hg5
1-XIV ab4 bc5 ba5 cb4 gf4 fe5
1-XV ab4 bc5 ba5 cb4 gh4
1-XVI ab4 dc5 bd6 ec5 gh4
2-I ab4 dc5 bd6 ce5 ef4
2-II ab4 de5 ba5 fg5 ef4
2-III ab4 de5 ba3 fg5
2-IV ab4 de5 ba3 fg5 gf4
2-V ab4 de5 ed4 hg5 ba5
2-VI ab4 fe5 gh4 gf6 fg3
2-VII ab4 fg5 ba5 gf6 ed4
2-VIII ab4 fg5 ba3 ef6 ed4
2-IX ab4 hg5 ba3 gf4
2-X cb4 ba5 dc3 fe5 gh4 cb6
2-XI cb4 ba5 dc3 hg5
2-XII cb4 ba5 ef4
2-XIII cb4 ba5 gh4 ac3 bd4 de5
2-XIV cb4 bc5 bc3 fe5 ed4
2-XV cb4 bc5 bc3 fg5 ed4
2-XVI cb4 bc5 dc3 ab6
3-I cb4 bc5 dc3 fe5
3-II cb4 bc5 dc3 fe5 ef4 ef6
3-III cb4 bc5 dc3 fe5 gh4 ab6
3-IV cb4 bc5 dc3 fe5 gh4 gf6
3-V cb4 bc5 ed4 ce3 fd4 cb6
3-VI cb4 bc5 ed4 ce3 fd4 de5
3-VII cb4 dc5 bd6 ec5 gf4 ba5
3-VIII cb4 dc5 bd6 ce5 gh4 ba5
3-IX cb4 de5 dc3 fg5
3-X cb4 de5 gh4 cd6
3-XI cb4 fe5 bc3 gf6 cb2 fg5
3-XII cb4 fe5 bc3 gf6 ed4
3-XIII cb4 fe5 dc3 gf6
3-XIV cb4 fg5 ed4 ef6
3-XV cb4 fg5 ed4 gf4
3-XVI cb4 hg5 ba5 gh4 ed4
4-I cb4 hg5 gf4 gh4 fg5 ba5
4-II cd4 ba5 bc3 ab6 ef4
4-III cd4 ba5 bc3 ab6 gf4
4-IV cd4 ba5 bc3 de5
4-V cd4 ba5 bc3 fe5
4-VI cd4 ba5 bc3 hg5 ab2
4-VII cd4 ba5 dc3 de5 gf4
4-VIII cd4 ba5 dc3 de5 gh4
4-IX cd4 ba5 dc3 fg5 gh4 ab6
4-X cd4 ba5 ef4 dc5
4-XI cd4 ba5 ef4 cb6 de3 dc5
4-XII cd4 ba5 ef4 cb6 fe3 ab4
4-XIII cd4 ba5 ef4 fg5 fe3 ab4
4-XIV cd4 ba5 gf4 de5
4-XV cd4 ba5 gf4 fe5 df6 eg5
4-XVI cd4 bc5 db6 ac5 bc3 de5
5-I cd4 bc5 db6 ca5
5-II cd4 bc5 db6 ca5 ed4
5-III cd4 dc5 dc3 fe5
5-IV cd4 dc5 gh4 fe5
5-V cd4 de5 bc3 ef4 eg5 fh4
5-VI cd4 de5 gh4 ec3 bd4 fe5
5-VII cd4 fe5 df6 ge5 gh4
5-VIII cd4 fg5 bc3 ef6 ab2
5-IX cd4 fg5 bc3 gf6 ab2 de5
5-X cd4 fg5 dc3 ef6 ed2 bc5
5-XI cd4 fg5 gh4 dc5 hf6 eg5
5-XII cd4 fg5 gh4 ef6
5-XIII cd4 hg5 bc3 gh4
5-XIV cd4 hg5 bc3 gh4 cb4 de5
5-XV cd4 hg5 gf4 gh4 fg5 dc5
5-XVI cd4 hg5 gf4 gh4 fg5 de5
6-I cd4 hg5 gf4 gh4 fg5 fe5
6-II ed4 ba5 fe3 ab6
6-III ed4 ba5 fe3 de5 gh4 ab6
6-IV ed4 ba5 fe3 de5 gh4 cb6
6-V ed4 ba5 fe3 fe5
6-VI ed4 ba5 fe3 fg5 gf2 gh4
6-VII ed4 ba5 fe3 hg5 gf2
6-VIII ed4 ba5 gf4 fg5
6-IX ed4 bc5 db6 ca5
6-X ed4 bc5 db6 ca5 ab4 ab6
6-XI ed4 bc5 db6 ca5 ab4 hg5
6-XII ed4 dc5 cb4 ce3 fd4 fg5
6-XIII ed4 dc5 cb4 ce3 df4 cd6
6-XIV ed4 dc5 gh4 ce3 fd4 ba5
6-XV ed4 de5 ab4 cd6
6-XVI ed4 de5 ab4 ed6
7-I ed4 de5 gf4 eg3 fh4 hg5
7-II ed4 fe5 df6 ge5 ab4 hg5
7-III ed4 fe5 df6 eg5 fe3
7-IV ed4 fg5 fe3 bc5
7-V ed4 fg5 fe3 ef6
7-VI ed4 fg5 fe3 ef6 gf2 bc5
7-VII ed4 fg5 gh4 ba5
7-VIII ed4 fg5 gh4 ef6
7-IX ed4 fg5 gh4 gf6
7-X ed4 hg5 cb4 gf4
7-XI ed4 hg5 cb4 gh4
7-XII ed4 hg5 fe3 gf4
7-XIII ef4 ba5 de3 ab6 cd4 dc5
7-XIV ef4 ba5 de3 cb6 cd2 fe5
7-XV ef4 ba5 fe3 ab6 gf2 fg5
7-XVI ef4 ba5 fe3 fe5 cd4
8-I ef4 bc5 de3 ab6 cd4 fg5
8-II ef4 bc5 fe3 cb6 cd4 fe5
8-III ef4 dc5 cb4 ed6
8-IV ef4 dc5 cb4 ed6 gh4 de5
8-V ef4 dc5 de3
8-VI ef4 dc5 fe3
8-VII ef4 dc5 gh4 ed6 hg3 fe5
8-VIII ef4 de5
8-IX ef4 de5 fd6 ec5 de3
8-X ef4 de5 fd6 ce5 de3 fg5
8-XI ef4 fe5 cd4 ec3 bd4
8-XII ef4 fe5 de3
8-XIII ef4 fe5 de3 ba5 ab4 cb6
8-XIV ef4 fg5 cb4 ge3 fd4
8-XV ef4 fg5 fe3 gh4 gf2 ba5
8-XVI ef4 fg5 fe3 gh4 gf2 de5
9-I gf4 ba5 hg3 ab6 gh4 de5
9-II gf4 dc5 cb4 ba5
9-III gf4 dc5 cd4 ed6
9-IV gf4 dc5 hg3 ed6 gh4 fe5
9-V gf4 de5
9-VI gf4 de5 fd6 ce5 fg3 bc7
9-VII gf4 de5 fd6 ce5 ab4
9-VIII gf4 de5 fd6 ec5 hg3
9-IX gf4 fe5 ab4 eg3 fh4 gf6
9-X gf4 fe5 ed4
9-XI gf4 fe5 fg3 ef6 ab4
9-XII gh4 ba5 fg3 ab6 gf2 fg5
9-XIII gh4 ba5 fg3 de5 ed4
9-XIV gh4 ba5 fg3 fe5 ed4
9-XV gh4 ba5 fg3 hg5 gf2
9-XVI gh4 ba5 hg3 fe5 ed4
10-I gh4 bc5 cd4 fe5
10-II gh4 bc5 ed4 ce3 df4 cb6
10-III gh4 bc5 ed4 ce3 fd4 de5
10-IV gh4 dc5 fg3 fe5 ed4
10-V gh4 dc5 hg3 fe5
10-VI gh4 de5 ab4 cd6
10-VII gh4 de5 hg3 bc5
10-VIII gh4 de5 hg3 cd6
10-IX gh4 fe5 cd4 ec3 bd4 ba5
10-X gh4 fe5 ed4 dc5
10-XI gh4 fe5 ef4 eg3 hf4 ba5
10-XII gh4 fe5 fg3 gf6
10-XIII gh4 fg5 hf6 ge5 ab4 fg7
10-XIV gh4 fg5 hf6 ge5 ed4 fg7
10-XV gh4 fg5 hf6 eg5 ed4
10-XVI gh4 hg5 ef4 ge3 df4 ba5
11-I gh4 hg5 ef4 ge3 df4 bc5
11-II gh4 hg5 hg3 gh6
11-III cb4 dc5
"""

BALLOT_PLIES = 6  # the longest ballot of the table


def _replay_ballot(tokens: list[str]) -> tuple[str, ...]:
    """A ballot's moves in full notation; raises ValueError when a token is not exactly one
    legal move (a transcription slip)."""
    from replay.record.board import Board
    from replay.record.notation import full_text

    board = Board()
    texts = []
    for token in tokens:
        file, destination = token[0], token[1:]
        matches = [move for move in board.legal_moves()
                   if board.name(move.origin)[0] == file
                   and board.name(move.destination) == destination]
        if len(matches) != 1:
            raise ValueError(f"ballot move '{token}' matches {len(matches)} legal moves")
        texts.append(full_text(board, matches[0]))
        board.push(matches[0])
    return tuple(texts)


@cache
def fmjd_ballots() -> dict[tuple[str, ...], str]:
    """Ballot code by its moves in full notation (``("c3-d4", "f6-g5", ...)``)."""
    table = {}
    for line in FMJD_64.strip().splitlines():
        code, *tokens = line.split()
        table[_replay_ballot(tokens)] = code
    return table


def ballot_of(opening: list[str]) -> str | None:
    """The code of the longest ballot the opening (moves in full notation) starts with."""
    table = fmjd_ballots()
    for length in range(min(len(opening), BALLOT_PLIES), 1, -1):
        code = table.get(tuple(opening[:length]))
        if code:
            return code
    return None
