"""Annotate games with an engine: an evaluation after every main-line move, mistakes and
blunders marked, the engine's better move as a variation, and tables per ply, game and player.

Every position of the main line is searched once (the one before each move and the last
one). For the move from position *P* to *Q* the mover's evaluation drops by
``E(P) - (-E(Q))``, both in men from the side to move of each position, each clamped to
``±Thresholds.cap`` (a won or lost end counts as the cap). A drop of ``mistake`` men or more
marks the move ``?`` (NAG 2), of ``blunder`` men or more ``??`` (NAG 4), when the move is not
the one the engine chose in *P*; the engine's move and its line are then added as a variation.

A move's accuracy follows lichess (lila ``AccuracyPercent``): ``103.1668·e^(−0.04354·Δ) −
3.1669`` clipped to 0–100, Δ the drop of the mover's winning chance ``100 / (1 + e^(−E))``
(``E`` in men); a player's accuracy is the mean over their moves.

The evaluation is written as lidraughts writes it (``[%eval 0.35]``: men from White's point
of view; ``[%eval #-3]``: a win in 3 moves for Black), which ``pdn.commands`` reads back.
"""

from __future__ import annotations

import copy
import math
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from pdn.game import Game
from pdn.i18n import N_
from pdn.model import Line, MoveRecord, Ply
from replay.engine.limits import EngineError, Info, Limit, Score, VariantRefused
from replay.engine.readings import Reading, game_readings

if TYPE_CHECKING:
    import pandas as pd

    from replay.engine.hub import HubEngine
    from replay.record.board import Board

NAG_MISTAKE, NAG_BLUNDER = 2, 4  # PGN/PDN: $2 "?", $4 "??"


@dataclass(frozen=True)
class Thresholds:
    """When a move is a mistake or a blunder: the drop of the mover's evaluation in men;
    evaluations are clamped to ``±cap`` men first (a decided game stays decided)."""

    mistake: float = 0.5
    blunder: float = 1.0
    cap: float = 5.0


@dataclass
class PlyRow:
    """One analysed ply: what was played, what the engine thought before and after."""

    game: int
    source: str | None  # the file's name, bytes that are not UTF-8 written \xff
    ply: int
    move_number: int
    side: str
    player: str
    move: str
    best: str | None
    eval_before: float | None  # mover's view, men, clamped
    eval_after: float | None  # mover's view, men, clamped
    eval_white: str | None  # the [%eval] text written after the move
    drop: float | None
    accuracy: float | None
    judgement: str  # "", "mistake", "blunder"
    depth: int | None


@dataclass
class GameAnalysis:
    """A game annotated: the new ``Game`` (a copy), a row per ply, and what went wrong."""

    game: Game
    rows: list[PlyRow] = field(default_factory=list)
    problem: str | None = None  # why the analysis stops before the game's end, if it does


def men(score: Score | None, cap: float) -> float | None:
    """A score in men from the mover's side, clamped to ``±cap``; a won/lost end is ``±cap``."""
    if score is None:
        return None
    if score.mate is not None:
        return cap if score.mate > 0 else -cap
    if score.centi is None:
        return None
    return max(-cap, min(cap, score.centi / 100))


def eval_text(score: Score, white_to_move: bool) -> str:
    """A score of the side to move as lidraughts' ``%eval`` value (White's point of view):
    men with two decimals, or ``#N`` a win in N moves (negative: for Black).

    >>> eval_text(Score(centi=35), True), eval_text(Score(centi=35), False)
    ('0.35', '-0.35')
    >>> eval_text(Score(centi=1995, mate=5), False)
    '#-3'
    """
    sign = 1 if white_to_move else -1
    if score.mate is not None:
        moves = (abs(score.mate) + 1) // 2
        return f"#{sign * moves if score.mate > 0 else -sign * moves}"
    return f"{sign * (score.centi or 0) / 100:.2f}"


def winning_chance(evaluation: float) -> float:
    """The mover's winning chance in per cent for an evaluation in men."""
    return 100 / (1 + math.exp(-evaluation))


def move_accuracy(before: float, after: float) -> float:
    """lichess's accuracy of a move from the mover's evaluations before and after (men)."""
    drop = max(0.0, winning_chance(before) - winning_chance(after))
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


def move_record(board: Board, move) -> MoveRecord:
    """A move of ``board`` as a record in the notation its GameType prescribes."""
    import re

    text = board.text(move, "pdn")
    separator = next((mark for mark in ("x", ":", "-") if mark in text), "")
    return MoveRecord(text, tuple(re.split(r"[-x:]", text)), separator)


def _variation(board: Board, pv: list, plies: int) -> Line:
    here = board.copy()
    line = Line()
    for move in pv[:plies]:
        line.plies.append(Ply(move_record(here, move)))
        here.push(move)
    return line


def analyse_game(engine: HubEngine, game: Game, limit: Limit,
                 thresholds: Thresholds = Thresholds(), *, variation_plies: int = 10,
                 default=None, override=None, rules=None, reading: Reading | None = None,
                 annotator: str | None = None, number: int | None = None,
                 searched: Callable[[], None] | None = None) -> GameAnalysis:
    """Search every main-line position of ``game`` and return it annotated (a copy: the
    game given is not changed) with its rows; ``searched`` is called after each position
    (progress within a game: ``positions_of`` counts them). The game is read as ``reading``
    says (``replay.engine.readings``: its file's games may decide its variant), else on its
    own; ``engine`` must have been started for that variant. An engine that fails raises
    ``EngineError``; a record that stops replaying is analysed as far as it goes
    (``problem`` says why)."""
    from replay.record.replayer import replay_game
    from replay.rules.movegen import WHITE

    game = copy.deepcopy(game)
    tree = replay_game(game, default, override, rules=rules,
                       follow=reading.follow if reading else None,
                       shown=reading.shown if reading else None)
    nodes = tree.mainline()
    analysis = GameAnalysis(game)
    if tree.errors:
        analysis.problem = N_("analysed up to ply {ply}: {reason}").format(
            ply=len(nodes), reason=tree.errors[0].message)
    if not nodes:
        return analysis
    boards = [node.board_before() for node in nodes] + [nodes[-1].board]
    new_game = getattr(engine, "new_game", None)
    if new_game is not None:  # each game from a clean slate: as if analysed alone
        new_game()
    infos: list[Info | None] = []
    for board in boards:
        infos.append(engine.analyse(board, limit) if board.legal_moves() else None)
        if searched is not None:
            searched()
        if infos[-1] is not None and infos[-1].score is None:
            raise EngineError(_no_evaluation(engine.name, limit))
    cap = thresholds.cap
    if infos[0] is not None:  # the start's evaluation, so that the rows can be read back
        game.moves.comments.append(f"[%eval {eval_text(infos[0].score, boards[0].turn == WHITE)}]")
    for index, node in enumerate(nodes):
        before_info, after_info = infos[index], infos[index + 1]
        board = boards[index]
        before = men(before_info.score, cap) if before_info else None
        if after_info is None:  # the move ends the game: the mover has won
            after, written = cap, None
        else:
            after = -men(after_info.score, cap)
            written = eval_text(after_info.score, boards[index + 1].turn == WHITE)
            node.ply.comments.append(f"[%eval {written}]")
        best = before_info.pv[0] if before_info and before_info.pv else None
        drop = max(0.0, before - after) if before is not None else None
        judgement = ""
        if drop is not None and best is not None and best != node.move:
            if drop >= thresholds.blunder:
                judgement = "blunder"
            elif drop >= thresholds.mistake:
                judgement = "mistake"
        if judgement:
            node.ply.nags.append(NAG_BLUNDER if judgement == "blunder" else NAG_MISTAKE)
            node.ply.variations.append(_variation(board, before_info.pv, variation_plies))
        side = node.side
        analysis.rows.append(PlyRow(
            game=number or game.index, source=_shown(game.source), ply=index + 1,
            move_number=node.move_number,
            side=side, player=game.tags.get(side, "?") or "?", move=board.text(node.move, "pdn"),
            best=board.text(best, "pdn") if best is not None else None,
            eval_before=before, eval_after=after, eval_white=written,
            drop=None if drop is None else round(drop, 2),
            accuracy=None if before is None else round(move_accuracy(before, after), 1),
            judgement=judgement, depth=before_info.depth if before_info else None))
    if annotator:
        game.tags["Annotator"] = annotator
    return analysis


def _shown(source: str | None) -> str | None:
    """A source's name fit for any UTF-8 output (``\\xff`` for bytes that are not UTF-8)."""
    from replay.run.partitions import shown_name

    return None if source is None else shown_name(source)


def _written_men(evaluation, white_to_move: bool, cap: float) -> float | None:
    """A ``pdn.commands.Eval`` (White's view) as men from the side to move, clamped."""
    if evaluation is None:
        return None
    if evaluation.mate is not None:
        white = cap if evaluation.mate > 0 else -cap
    else:
        white = max(-cap, min(cap, evaluation.pieces))
    return white if white_to_move else -white


def rows_of_annotated(game: Game, number: int | None = None,
                      thresholds: Thresholds = Thresholds()) -> list[PlyRow]:
    """The rows of a game ``analyse_game`` annotated before (a stopped run's output), read
    from its ``[%eval]`` comments, NAGs and variations: the engine's move is known only
    where a variation gives it, the depth not at all."""
    from pdn.commands import eval_of
    from replay.record.replayer import replay_game
    from replay.rules.movegen import WHITE

    tree = replay_game(game)
    nodes = tree.mainline()
    cap = thresholds.cap
    rows: list[PlyRow] = []
    previous = eval_of(game.moves.comments)
    for index, node in enumerate(nodes):
        board = node.board_before()
        mover_white = board.turn == WHITE
        before = _written_men(previous, mover_white, cap)
        written = node.ply.eval
        after = _written_men(written, mover_white, cap)
        if written is None and not node.board.legal_moves():
            after = cap
        judgement = ("blunder" if NAG_BLUNDER in node.nags
                     else "mistake" if NAG_MISTAKE in node.nags else "")
        best = node.variations[0][0].move if judgement and node.variations else None
        drop = None if before is None or after is None else max(0.0, before - after)
        rows.append(PlyRow(
            game=number or game.index, source=_shown(game.source), ply=index + 1,
            move_number=node.move_number, side=node.side,
            player=game.tags.get(node.side, "?") or "?", move=board.text(node.move, "pdn"),
            best=board.text(best, "pdn") if best is not None else None,
            eval_before=before, eval_after=after,
            eval_white=None if written is None else _eval_value(written),
            drop=None if drop is None else round(drop, 2),
            accuracy=None if drop is None else round(move_accuracy(before, after), 1),
            judgement=judgement, depth=None))
        previous = written
    return rows


def _eval_value(evaluation) -> str:
    if evaluation.mate is not None:
        return f"#{evaluation.mate}"
    return f"{evaluation.pieces:.2f}"


def _no_evaluation(name: str, limit: Limit) -> str:
    """The refusal of an engine that searched without an evaluation, a catalog entry."""
    if limit.depth is not None:
        return N_("engine {name} gave no evaluation at depth {depth} (Scan 2.0 reports one "
                  "from depth 12 on)").format(name=name, depth=limit.depth)
    return N_("engine {name} gave no evaluation at {limit} (Scan 2.0 reports one from "
              "depth 12 on)").format(name=name, limit=limit_text(limit))


def limit_text(limit: Limit) -> str:
    """A limit in words: ``depth 12``, ``0.5 s a move``."""
    if limit.depth is not None:
        return f"depth {limit.depth}"
    if limit.movetime is not None:
        return f"{limit.movetime:g} s a move"
    return "its limit"


def game_key(game: Game) -> tuple:
    """What tells a game again in an output written before: its seven tags and moves (a tag
    missing and its unknown value, ``?`` or ``????.??.??`` as the writer fills it in, are
    one)."""
    from pdn.writer import SEVEN_TAGS, format_move

    def known(value: str) -> str:
        return "" if set(value) <= set("?. ") else value

    return (tuple(known(game.tags.get(name, "")) for name in SEVEN_TAGS[:6]),
            tuple(format_move(ply.record) for ply in game.moves.plies))


def analysed_games(path) -> dict[tuple, Game]:
    """The games an earlier (maybe stopped) run has written to ``path``, by ``game_key``."""
    from pathlib import Path

    from pdn.reader import read_games

    if not Path(path).is_file():
        return {}
    return {game_key(game): game for game in read_games(Path(path))}


@dataclass
class Outcome:
    """One game's fate in ``annotate_games``: its analysis, or the error that stopped it."""

    index: int
    analysis: GameAnalysis | None
    error: str | None = None


def positions_of(game: Game) -> int:
    """The positions ``analyse_game`` searches in a game that replays to its end: the
    start and the position after each main-line move."""
    return len(game.moves.plies) + 1


def annotate_games(games: Iterable[Game], start_engine: Callable[[str], HubEngine],
                   limit: Limit, thresholds: Thresholds = Thresholds(), *, jobs: int = 1,
                   progress: Callable[[int], None] | None = None,
                   readings: Sequence[Reading] | None = None,
                   **options) -> Iterator[Outcome]:
    """Annotate games with ``jobs`` engine processes (``start_engine(variant)`` starts one),
    yielding an ``Outcome`` per game in input order. Each game is analysed by an engine
    started for its own variant, the one ``pdn validate`` reads it as (``readings``, one per
    game, else ``game_readings`` of the games): an archive of mixed variants is analysed
    game by game. A game whose variant the engine does not play (``VariantRefused``) is not
    analysed, its outcome says why, and the others go on; an engine that fails on a game
    is restarted for the next one, the game's outcome carrying the error. Every engine is
    closed when the iteration ends, is stopped, or fails. ``progress`` (called from the
    workers' threads) is given 1 per position searched, and when a game ends the rest of its
    ``positions_of`` (a game that stops early, or fails): the amounts add up to the sum of
    ``positions_of`` over the games."""
    if readings is None:
        games = list(games)
        readings = game_readings(games, options.get("default"), options.get("override"),
                                 rules=options.get("rules"))
    tasks: queue.Queue = queue.Queue()
    results: queue.Queue = queue.Queue()
    engines: list[HubEngine] = []
    refused: dict[str, str] = {}  # variant → why the engine does not play it
    lock = threading.Lock()
    stopped = threading.Event()

    def work() -> None:
        engine: HubEngine | None = None
        count = 0  # the positions searched in the game at hand

        def searched() -> None:
            nonlocal count
            count += 1
            if progress is not None:
                progress(1)

        while not stopped.is_set():
            task = tasks.get()
            if task is None:
                break
            index, game = task
            count = 0
            reading = readings[index]
            name = reading.variant.name
            try:
                if name in refused:
                    raise VariantRefused(refused[name])
                if (engine is None or engine.variant != name
                        or engine.process.poll() is not None):
                    if engine is not None:
                        engine.quit()
                        engine = None
                    engine = start_engine(name)
                    with lock:
                        engines.append(engine)
                    if stopped.is_set():  # the run ended while it started
                        break
                outcome = Outcome(index, analyse_game(engine, game, limit, thresholds,
                                                      number=index + 1, searched=searched,
                                                      reading=reading, **options))
            except VariantRefused as error:
                refused[name] = str(error)
                outcome = Outcome(index, None, N_("not analysed: {reason}").format(
                    reason=error))
            except EngineError as error:
                if engine is not None:
                    engine.close()
                engine = None
                outcome = Outcome(index, None, str(error))
            except BaseException as error:  # handed to the main thread
                outcome = Outcome(index, None, f"{type(error).__name__}: {error}")
            try:
                if progress is not None and positions_of(game) > count:
                    progress(positions_of(game) - count)
            finally:  # the main thread waits for every outcome
                results.put(outcome)
        if engine is not None:
            engine.quit()

    items = enumerate(games)
    workers = [threading.Thread(target=work, daemon=True) for _ in range(max(1, jobs))]
    fed, ended = 0, False  # games handed to the workers: a few ahead of the one awaited

    def feed() -> None:
        nonlocal fed, ended
        item = None if ended else next(items, None)
        if item is not None:
            tasks.put(item)
            fed += 1
        elif not ended:  # the end, told to each worker once
            ended = True
            for _ in workers:
                tasks.put(None)

    for worker in workers:
        worker.start()
    for _ in range(2 * len(workers)):
        feed()
    waiting: dict[int, Outcome] = {}
    want = 0
    try:
        while want < fed:
            while want not in waiting:
                outcome = results.get()
                waiting[outcome.index] = outcome
            yield waiting.pop(want)
            want += 1
            feed()
    finally:
        stopped.set()
        for _ in range(2):  # again after the workers end: one may have started an engine
            with lock:
                for engine in engines:
                    engine.close()
            for worker in workers:
                worker.join(timeout=10)


def rows_frame(rows: Iterable[PlyRow]) -> pd.DataFrame:
    """The ply rows as a DataFrame."""
    import pandas as pd

    return pd.DataFrame([asdict(row) for row in rows], columns=list(PlyRow.__annotations__))


def _summary(grouped) -> pd.DataFrame:
    """Moves, mean accuracy, mistakes and blunders of each group of ply rows."""
    return grouped.agg(moves=("ply", "size"), accuracy=("accuracy", "mean"),
                       mistakes=("judgement", lambda j: int((j == "mistake").sum())),
                       blunders=("judgement", lambda j: int((j == "blunder").sum())))


def games_table(plies: pd.DataFrame) -> pd.DataFrame:
    """A row per game: each side's player, accuracy, mistakes and blunders."""
    import pandas as pd

    if plies.empty:
        return pd.DataFrame(columns=["game", "white", "black", "plies", "white_accuracy",
                                     "white_mistakes", "white_blunders", "black_accuracy",
                                     "black_mistakes", "black_blunders"])
    sides = _summary(plies.groupby(["game", "side"], sort=False)).reset_index()
    names = plies.groupby(["game", "side"], sort=False)["player"].first().unstack()
    wide = sides.pivot(index="game", columns="side",
                       values=["accuracy", "mistakes", "blunders"])
    table = pd.DataFrame({"game": wide.index})
    table["white"] = names.get("White", pd.Series(dtype=str)).reindex(wide.index).values
    table["black"] = names.get("Black", pd.Series(dtype=str)).reindex(wide.index).values
    table["plies"] = plies.groupby("game")["ply"].size().reindex(wide.index).values
    for side in ("White", "Black"):
        for column in ("accuracy", "mistakes", "blunders"):
            values = (wide[column][side] if side in wide[column]
                      else pd.Series(index=wide.index, dtype=float))
            table[f"{side.lower()}_{column}"] = values.values
    table["white_accuracy"] = table["white_accuracy"].astype(float).round(1)
    table["black_accuracy"] = table["black_accuracy"].astype(float).round(1)
    for column in ("white_mistakes", "white_blunders", "black_mistakes", "black_blunders"):
        table[column] = table[column].astype("Int64")
    return table


def players_table(plies: pd.DataFrame) -> pd.DataFrame:
    """A row per player over every game: games, moves, accuracy, mistakes and blunders, the
    most accurate first."""
    import pandas as pd

    if plies.empty:
        return pd.DataFrame(columns=["player", "games", "moves", "accuracy", "mistakes",
                                     "blunders"])
    table = _summary(plies.groupby("player", sort=False))
    table.insert(0, "games", plies.groupby("player", sort=False)["game"].nunique())
    table["accuracy"] = table["accuracy"].round(1)
    table = table.reset_index().sort_values(["accuracy", "player"], ascending=[False, True])
    return table.reset_index(drop=True)


__all__ = ["GameAnalysis", "Outcome", "PlyRow", "Thresholds", "analyse_game",
           "analysed_games", "annotate_games", "eval_text", "game_key", "games_table",
           "move_accuracy", "move_record", "players_table", "rows_frame",
           "rows_of_annotated"]
