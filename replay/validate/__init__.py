"""Validating game records: the library behind ``pdn validate`` and ``pdn info``.

- ``reports``: read, replay and report, one plain ``GameReport`` per game, over whole sources;
- ``dataset``: the reports written as a dataset folder by the workers;
- ``repair`` and ``repair_words``: the slips a game's record may hold, and their sentences;
- ``report``, ``report_diagram``, ``report_pdf``: the arbiter's report (Markdown, HTML, PDF);
- ``summary``: what a file holds (``pdn info``).

>>> from replay.validate import report_games
>>> import pdn
>>> [str(report.status) for report in report_games(pdn.read_games("1. cd4 fg5 2. gh4 *"))]
['valid']
"""

from replay.validate.reports import (
    GameReport,
    problem_line,
    report_game,
    report_games,
    suggestion_lines,
    validate_sources,
)

__all__ = ["GameReport", "problem_line", "report_game", "report_games", "suggestion_lines",
           "validate_sources"]
