"""The grammar on small records written for each quirk real archives show (docs/notation.md)."""

from __future__ import annotations

import pytest

from pdn.parser import load_parser
from pdn.reader import read_games


def one(text: str):
    """The single game of ``text``, asserting it was read without errors."""
    games = list(read_games(text))
    assert len(games) == 1, games
    assert not games[0].errors, games[0].errors
    return games[0]


def records(text: str) -> list[tuple]:
    return [(p.record.squares, p.record.separator, p.record.origin_file)
            for p in one(text).moves.plies]


def test_the_grammar_builds_lalr_tables():
    parser, _ = load_parser()
    assert parser.lark.options.parser == "lalr"


@pytest.mark.parametrize(("text", "squares", "separator"), [
    ("c3-d4", ("c3", "d4"), "-"),
    ("c3:e5", ("c3", "e5"), ":"),
    ("c3xe5", ("c3", "e5"), "x"),
    ("E3-D4", ("e3", "d4"), "-"),       # uppercase squares (Russian test.pdn)
    ("c3d4", ("c3", "d4"), ""),         # no separator (PDN 3.0 reading form a3b4)
    ("h2:c7:a5:e1", ("h2", "c7", "a5", "e1"), ":"),   # Russian turning-point path
    ("a3xc5xe7", ("a3", "c5", "e7"), "x"),            # Czech full path
    ("11-15", ("11", "15"), "-"),
    ("22x15", ("22", "15"), "x"),
    ("26x17x10x1", ("26", "17", "10", "1"), "x"),     # OCA full jump paths
    ("47x38x24x13x36", ("47", "38", "24", "13", "36"), "x"),
    ("06-11", ("6", "11"), "-"),        # leading zeros (France 2021)
    ("1- 7", ("1", "7"), "-"),          # space-padded (candidate95)
])
def test_full_and_numeric_moves_are_one_record(text, squares, separator):
    assert records(f"1. {text} *") == [(squares, separator, None)]


@pytest.mark.parametrize(("text", "origin", "squares", "separator"), [
    ("ed4", "e", ("d4",), ""),
    ("b:d6", "b", ("d6",), ":"),
    ("bxd6", "b", ("d6",), "x"),
    ("fb2", "f", ("b2",), ""),          # a short capture written without a mark (WC 1998)
])
def test_short_russian_records_keep_the_file_letter(text, origin, squares, separator):
    assert records(f"1. {text} *") == [(squares, separator, origin)]


def test_move_numbers_with_and_without_space_and_black_numbers():
    game = one("1.32-28 19-23 2. 37-32 2... 14-19 *")
    plies = game.moves.plies
    assert [(p.number, p.black_number) for p in plies] == [(1, False), (None, False), (2, False),
                                                            (2, True)]


def test_moves_keep_their_line_and_column_after_a_number_on_the_previous_line():
    game = one("1. 32-28 19-23 6.\n  50x39 *")
    record = game.moves.plies[2].record
    assert (record.line, record.column) == (2, 3)


def test_placeholders_for_lost_moves():
    games = list(read_games("1. - - 2. ... 32-28 *"))
    plies = games[0].moves.plies
    assert [p.record.placeholder for p in plies] == [True, True, True, False]
    # "..." is PDN's unknown move; a bare "-" is not PDN and is reported, the game still read
    assert [d.code for d in games[0].errors] == ["lost-move", "lost-move"]


@pytest.mark.parametrize("mark", ["!", "?", "!!", "??", "!?", "?!", "(!)", "(?)", "(!?!!!)"])
def test_strength_marks_glued_or_apart(mark):
    assert one(f"1. 32-28{mark} 19-23 {mark} *").moves.plies[0].record.strength == mark
    assert one(f"1. 32-28 {mark} 19-23 *").moves.plies[0].record.strength == mark


def test_a_star_glued_to_a_move_is_a_star_move_not_a_separator():
    game = one("1. 32-28 19-23* 2. 37-32 *")       # lynx-r parse_simple.pdn: 27-20*
    assert game.moves.plies[1].nags == [7] and len(game.moves.plies) == 3


@pytest.mark.parametrize("mark", ["+", "x", "X", "×", "=", "#"])
def test_trailing_annotation_marks_are_not_moves(mark):
    assert len(one(f"1. 32-28 19-23 {mark} *").moves.plies) == 2
    assert len(one(f"1. 32-28 19-23{mark if mark in '+=#×' else ''} *").moves.plies) == 2


def test_nags_comments_line_comments_and_escape_lines():
    game = one("% escape line\n1. 32-28 $1 {a  comment\n over lines} 19-23 ; to the end\n*")
    first, second = game.moves.plies
    assert first.nags == [1] and first.comments == ["a comment over lines"]
    assert second.comments == ["to the end"]


def test_nested_variations():
    game = one("1. 32-28 19-23 (1... 18-23 2. 38-32 (2. 37-32 23-29)) 2. 28x19 *")
    variation = game.moves.plies[1].variations[0]
    assert [p.record.squares for p in variation.plies] == [("18", "23"), ("38", "32")]
    assert variation.plies[1].variations[0].plies[1].record.squares == ("23", "29")


def test_nemesis_comments_in_parentheses_are_comments_not_variations():
    # British_Computer_Championship_2002.pdn: prose in ( ), even with moves and one nesting
    game = one("9-13 22-18 (Roberto's first choice, 16-20 (outside a db!) is sound.) 11-16 *")
    plies = game.moves.plies
    assert len(plies) == 3 and not plies[1].variations
    assert plies[1].comments == ["Roberto's first choice, 16-20 (outside a db!) is sound."]


def test_a_parenthesised_group_without_prose_is_a_variation():
    game = one("1. 32-28 19-23 (1... 18-23 {prose inside braces} 2. 38-32) *")
    assert len(game.moves.plies[1].variations) == 1


def test_setup_in_the_movetext():
    game = one('/FEN "W:W31-50:B1-20"/ 1. 32-28 /FEN "B:W28:B19"/ 19-23 *')
    assert game.moves.setup == "W:W31-50:B1-20"
    assert game.moves.plies[0].setup == "B:W28:B19"


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*",
                                    "1:0", "0:1", "1/2:1/2"])
def test_every_result_token(result):
    game = one(f"1. 32-28 19-23 {result}")
    assert game.result == result and len(game.moves.plies) == 2


def test_a_result_is_never_read_out_of_a_move():
    # "1-18" must not lex as the result 1-1 followed by 8 (wiegerw/pdn doc/issues.rst)
    assert one("1. 1-18 *").moves.plies[0].record.squares == ("1", "18")


def test_star_separates_games_without_tags():
    games = list(read_games("1. 32-28 * 1. 33-28 1-0 1. 34-29 *"))
    assert [g.result for g in games] == ["*", "1-0", "*"]


@pytest.mark.parametrize(("tag", "name", "value"), [
    ('[Event "x"]', "Event", "x"),
    ("[Round 17]", "Round", "17"),                       # unquoted value (Russian test.pdn)
    ('[Event       "padded"]', "Event", "padded"),       # padded names (abatsiev)
    ("[Empty]", "Empty", ""),                            # BrunoGUI
    ('[Comment "C:\\nemesis\\games\\b.xml"]', "Comment", "C:\\nemesis\\games\\b.xml"),
    ('[Site "\\"64\\", 1974"]', "Site", '"64", 1974'),    # escaped quotes (Cat.A1)
    ('[Path "C:\\dir\\"]', "Path", "C:\\dir\\"),         # a backslash before the closing quote
    ('[Said "he said \\"hi\\"]', "Said", 'he said "hi\\'),  # the last \\" closes
    ('[Event "a\\" b]', "Event", '"a\\" b'),            # junk after the closing quote
    ('[Event "a" "b"]', "Event", '"a" "b"'),             # two values: read as they are
    ('[Path "C:\\\\"]', "Path", "C:\\"),                 # an escaped backslash, then the end
    ('[Event "a\\"b]c"]', "Event", 'a"b]c'),            # an escaped quote, then a bracket
    ('[Event "x\\"]"]', "Event", 'x"]'),               # as the writer writes x"]
])
def test_tag_forms(tag, name, value):
    assert one(f"{tag}\n1. 32-28 *").tags[name] == value


def test_invalid_tags_are_kept():
    game = one('[Game # 612]\n[Event "x"]\n1. e3-d4 *')  # Russian test.pdn
    assert game.tags["Game"] == "# 612"
    odd = next(read_games('[&#x00c9;v&#x00e9;nement Finale]\n1. 32-28 *'))  # OUAGA 2024
    assert [d.severity for d in odd.diagnostics] == ["warning"]


def test_literal_backslash_r_after_tags():
    assert one('[Event "x"]\\r\n[Site "y"]\\r\n1. 32-28 *').tags == {"Event": "x", "Site": "y"}


def test_a_comment_before_the_first_tag_is_the_files_kept_apart_from_the_moves():
    game = one('{ 200 games of Abatsiev }\n[Event "x"]\n1. 32-28 *')
    assert game.tags == {"Event": "x"} and game.preamble == ["200 games of Abatsiev"]
    assert game.moves.comments == []


def test_whole_game_on_one_line():
    games = list(read_games('[Event "a"] [Result "1-0"] 1.32-28 19-23 1-0\n'
                            '[Event "b"] [Result "-"] 1.33-28 -\n'))
    assert [(g.tags["Event"], len(g.moves.plies), g.result) for g in games] == [
        ("a", 2, "1-0"), ("b", 1, "-")]   # a closing "-" with Result "-" is the result (BrunoGUI)


def test_a_game_glued_after_a_result_starts_a_new_game():
    games = list(read_games('[Event "a"]\n1. 32-28 0-1[Event "b"]\n[Site "s"]\n1. 33-28 *'))
    assert [g.tags for g in games] == [{"Event": "a"}, {"Event": "b", "Site": "s"}]
    assert games[1].line == 2


def test_lidraughts_clock_comments():
    game = one("1. 32-28 {[%clock w0:10:00 B0:10:00]} 19-23 {Black resigns.} 2-0")
    assert game.moves.plies[0].comments == ["[%clock w0:10:00 B0:10:00]"]


def test_without_lark_cython_the_pure_python_parser_reads_the_same(monkeypatch):
    import sys
    from importlib import resources

    from pdn.movetext import GameTransformer
    from pdn.parser import PdnParser

    text = '[Event "x"]\n1. 32-28 {c} 19-23 (1... 18-23 $1) 2. 37-32! 1-0'
    monkeypatch.setitem(sys.modules, "lark_cython", None)
    transformer = GameTransformer()
    parser = PdnParser(resources.files("pdn").joinpath("grammar.lark").read_text(), transformer)
    transformer.start_chunk(1)
    def values(games):
        return [(g.tags, g.moves, g.result, g.diagnostics, g.line) for g in games]

    assert values(parser.parse(text)) == values(read_games(text))


def test_a_result_inside_a_line_comment_does_not_end_the_game():
    game = one("1. 32-28 ;} 1/2-1/2\n19-23 *")
    assert len(game.moves.plies) == 2 and game.moves.plies[0].comments == ["} 1/2-1/2"]


def test_a_run_of_moves_is_split_with_each_moves_line_and_column() -> None:
    """The lexer makes one MOVE token of moves that only whitespace separates; every record
    still gets its own place, and a closing 1-1 (which reads as a move) stays the result."""
    text = "1. 11-15 23-19\n2. 9-14  22-17\n3.\n 5-9 {c} 17x10 1-1"
    game = next(read_games(text))
    placed = [(p.record.text, p.number, p.record.line, p.record.column)
              for p in game.moves.plies]
    assert placed == [("11-15", 1, 1, 4), ("23-19", None, 1, 10), ("9-14", 2, 2, 4),
                      ("22-17", None, 2, 10), ("5-9", 3, 4, 2), ("17x10", None, 4, 10)]
    assert game.moves.plies[4].comments == ["c"]
    assert game.result == "1-1"


def test_words_in_a_line_comment_do_not_make_a_variation_a_nemesis_comment():
    # the writer puts a comment holding "}" after ";", up to the end of the line; the words
    # and ")" in it belong to that comment, not to a parenthesised prose comment
    game = one("1. 32-28 19-23 (1... 18-23 ;see OX) here\n2. 38-32) 2. 28x19 *")
    (variation,) = game.moves.plies[1].variations
    assert [p.record.squares for p in variation.plies] == [("18", "23"), ("38", "32")]
    assert variation.plies[0].comments == ["see OX) here"]
    assert len(game.moves.plies) == 3
