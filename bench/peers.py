"""Peer libraries for side-by-side benchmark figures: py-draughts and pydraughts.

Both peers import as ``draughts``, so each lives in its own venv under
``<repo>/.bench-venvs/<name>`` (gitignored), created on first use and reused.
Every measurement runs in a subprocess of that venv's interpreter (``python -I``)
and comes back as JSON. A peer that cannot be installed is reported as
unavailable (``{"available": False, "error": ...}``), never raised.

Findings from reading the installed sources (py-draughts 1.10.1, pydraughts 0.6.7);
bench/PEERS.md has the same notes with the measured figures.

py-draughts (PyPI ``py-draughts``, import ``draughts``)
  * Variants (board classes): Standard/International (10x10, GameType 20), American
    (8x8, GameType 23 in its PDN output), Russian (25), Brazilian (26), Frisian (40),
    Frysk! (40), Antidraughts and Breakthrough (International rules, other results).
    No English (21), Italian, Czech, Turkish or Pool board.
  * No public perft. Its own tests (``test/test_move_generation_perf.py``, installed
    as a top-level ``test`` package) recurse over ``board.legal_moves`` with
    ``push``/``pop`` and count leaves at depth 0; ``engines/turbo.py`` has a
    bulk-counting perft for International only. We run that same push/pop recursion,
    with ``bulk=True`` counting ``len(legal_moves)`` at the last ply, as our perft does.
  * Duplicate captures: the move generator merges capture chains with the same
    origin, destination and *set* of captured squares into one move (before any
    variant filter), so a king's circular capture run taken either way round is one
    move; routes that land on different squares stay separate. Russian
    ``W:WKb4:Bc3,e3,e5,c5`` gives 3 moves (pydraughts: 4, one per route).
  * "American" does NOT enforce compulsory capture: ``legal_moves`` offers quiet
    moves and captures together (``captures_optional=True``), so its perft is
    7, 49, 379, 2872, 23582, 189143 instead of English checkers' 7, 49, 302, 1469,
    7361, 36768, and replay accepts games that skip a forced capture. White moves
    first from squares 21-32, so English PDN (Black first from 1-12, e.g. the OCA
    archive) is rejected on move one unless renumbered n -> 33-n (a 180 degree turn
    of the board, which keeps every move legal); ``py_draughts_replay`` does that.
  * Russian perft 7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586: depth 8
    is 929,899 (= ``pdn perft`` default), not the per-route 929,905 (= ``pdn perft
    --keep-duplicates``), because of the merging above. It enforces the FMJD-64
    "a king must land where it can keep capturing" rule and promotes mid-capture.
  * PDN: ``<VariantBoard>.from_pdn(text)`` (a classmethod on ``BaseBoard``; there is
    no ``XBoard``) replays ONE game and raises ``ValueError`` on an illegal move; there
    is no multi-game reader. Moves are found by a regex for numeric ``32-28``/``26x17``
    or full algebraic ``c3-d4``/``e3:g5`` (8x8 boards). Short Russian notation
    (``gf4``, ``cd4``) is not recognised: such a game "parses" with zero moves and no
    error, so results count zero-move games separately. ``/FEN`` setup is rejected;
    a ``[FEN]`` tag is honoured. Split capture segments are joined.

pydraughts (PyPI ``pydraughts``, import ``draughts``)
  * Variants: standard, english (alias american; compulsory capture), italian,
    russian, brazilian, turkish, frisian, frysk!, antidraughts, breakthrough.
  * No perft. Nodes are counted with the public ``Board.legal_moves()`` / ``push`` /
    ``pop``; every ``Move`` object is built with all its notations, each push
    pickles/rebuilds board state and ``pop`` rebuilds the board from a FEN, so it
    manages roughly 1-1.5 thousand nodes/s: depth is capped at
    ``PYDRAUGHTS_MAX_DEPTH``. Russian counts match py-draughts to depth 5, but a
    capture is counted once per route (see above).
  * ``draughts.PDN.PDNReader(pdn_text=...)`` reads every game in a string. After the
    first game it re-splits the whole remaining text for each game, so it is
    quadratic: 100 games ~0.1 s, 400 ~1.5 s, 2,000 ~40 s. Games/s therefore depends
    on N and every figure carries its N. Without a GameType tag it guesses the
    variant from the first move. A file-leading ``{comment}`` before the first tag
    block spoils the first game; short Russian notation (``gf4``) makes the reader
    raise ``ValueError`` for the whole text.
  * Replay: ``Board(variant, fen)`` then ``board.push(Move(board, pdn_move=m))``
    per move (``Move`` raises ``KeyError`` for an illegal move). A few hundred
    moves/s. Russian ``pdn_move`` takes ``c3-d4`` or numbers a1=1, c1=2, ... h8=32 (our
    GameType ``25,W,8,8,N0,0``), but a capture only with ``x``: ``f4:h6`` (PDN 3.0's
    Russian mark) raises ``KeyError``; bench/validate.py writes its games for it so.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
VENV_ROOT = REPO_ROOT / ".bench-venvs"
DATA_DIR = REPO_ROOT.parent / "shared" / "data"

PYDRAUGHTS_MAX_DEPTH = 5
PYDRAUGHTS_MAX_REPLAY_GAMES = 200
PYDRAUGHTS_MAX_READ_GAMES = 3000
INSTALL_TIMEOUT_S = 900
RUN_TIMEOUT_S = 900

# Our variant names -> the peer's names (only variants the peer really has).
PY_DRAUGHTS_VARIANTS: dict[str, str] = {
    "international": "StandardBoard",
    "standard": "StandardBoard",
    "american": "AmericanBoard",
    "russian": "RussianBoard",
    "brazilian": "BrazilianBoard",
    "frisian": "FrisianBoard",
    "frysk": "FryskBoard",
    "antidraughts": "AntidraughtsBoard",
    "breakthrough": "BreakthroughBoard",
}
PYDRAUGHTS_VARIANTS: dict[str, str] = {
    "international": "standard",
    "standard": "standard",
    "english": "english",
    "american": "english",
    "italian": "italian",
    "russian": "russian",
    "brazilian": "brazilian",
    "turkish": "turkish",
    "frisian": "frisian",
    "frysk": "frysk!",
    "antidraughts": "antidraughts",
    "breakthrough": "breakthrough",
}


@dataclass(frozen=True)
class Peer:
    """A peer library: its venv folder name, pip requirement and distribution name."""

    name: str
    requirement: str
    dist: str

    @property
    def venv(self) -> Path:
        """The peer's venv folder."""
        return VENV_ROOT / self.name

    @property
    def python(self) -> Path:
        """The peer venv's interpreter."""
        return self.venv / "bin" / "python"


PY_DRAUGHTS = Peer("py-draughts", "py-draughts>=1.10,<1.11", "py-draughts")
PYDRAUGHTS = Peer("pydraughts", "pydraughts>=0.6.7,<0.7", "pydraughts")
PEERS: tuple[Peer, ...] = (PY_DRAUGHTS, PYDRAUGHTS)

_ready: dict[str, str | None] = {}  # peer name -> None when ready, else the install error


@contextlib.contextmanager
def _lock(path: Path) -> Iterator[None]:
    """Hold an exclusive file lock (two bench scripts may create a venv at once)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def ensure_peer(peer: Peer) -> str | None:
    """Create/reuse the peer's venv and install it; return None if ready, else the error."""
    if peer.name in _ready:
        return _ready[peer.name]
    marker = peer.venv / ".peer-installed"
    error: str | None = None
    with _lock(VENV_ROOT / f".{peer.name}.lock"):
        if not (marker.is_file() and marker.read_text() == peer.requirement
                and peer.python.exists()):
            error = _install(peer, marker)
    _ready[peer.name] = error
    return error


def _install(peer: Peer, marker: Path) -> str | None:
    """Build the venv and pip-install the peer; return the error text on failure."""
    marker.unlink(missing_ok=True)
    steps = [
        [sys.executable, "-m", "venv", "--clear", str(peer.venv)],
        [str(peer.python), "-m", "pip", "install", "--quiet", peer.requirement],
    ]
    log = []
    for cmd in steps:
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True,
                                  timeout=INSTALL_TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{' '.join(cmd[:4])}: {exc}"
        log.append(proc.stdout + proc.stderr)
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
            return f"{' '.join(cmd[:5])} exited {proc.returncode}: {' | '.join(tail)}"
    (peer.venv / "install.log").write_text("\n".join(log))
    marker.write_text(peer.requirement)
    return None


def installed(peer: Peer) -> bool:
    """Whether the peer's venv is ready, without installing anything (for tests)."""
    marker = peer.venv / ".peer-installed"
    return marker.is_file() and marker.read_text() == peer.requirement and peer.python.exists()


def available(peer: Peer) -> bool:
    """Whether the peer is installed (installing it on first call)."""
    return ensure_peer(peer) is None


def install_all() -> int:
    """Install every peer into its venv (``make test-deps`` and CI call this through
    ``--install``); print each outcome; return the number that failed."""
    failed = 0
    for peer in PEERS:
        error = ensure_peer(peer)
        failed += error is not None
        print(f"{peer.name}: {'ready in ' + str(peer.venv) if error is None else error}")
    return failed


# ---------------------------------------------------------------------------
# Code run inside the peer venvs. Each script reads a JSON object ``ARGS`` from
# stdin and prints one JSON line. Helpers shared by the scripts come first.
# ---------------------------------------------------------------------------

_COMMON = r'''
import json, re, sys, time
from importlib.metadata import version as _version
ARGS = json.loads(sys.stdin.read())

def emit(**out):
    out.setdefault("error", None)
    out["version"] = _version(ARGS["dist"])
    print(json.dumps(out))

def read_text(path):
    with open(path, "rb") as fh:
        raw = fh.read()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")

def split_games(text):
    """Cut a PDN file into games: a tag line after movetext starts a new game."""
    games, cur, has_tag, has_moves = [], [], False, False
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("["):
            if has_tag and has_moves:
                games.append("\n".join(cur))
                cur, has_moves = [], False
            has_tag = True
        elif s and not s.startswith("{") and not s.startswith("%"):
            has_moves = True
        cur.append(line)
    if any(x.strip() for x in cur):
        games.append("\n".join(cur))
    return games

def load_games():
    if ARGS.get("texts") is not None:
        games = []
        for t in ARGS["texts"]:
            games.extend(split_games(t))
    else:
        games = split_games(read_text(ARGS["path"]))
    n = ARGS.get("max_games")
    return games if n is None else games[:n]
'''

# The perft walk both peers run; each script first sets ``board`` and ``legal(board)``
# (a property in py-draughts, a method in pydraughts).
_PERFT_WALK = r'''
bulk = ARGS["bulk"]

def perft(b, depth):
    if depth == 0:
        return 1
    moves = legal(b)
    if bulk and depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        b.push(m)
        total += perft(b, depth - 1)
        b.pop()
    return total

t0 = time.perf_counter()
nodes = perft(board, ARGS["depth"])
dt = time.perf_counter() - t0
emit(nodes=nodes, seconds=dt, nodes_per_s=nodes / dt if dt else None)
'''

_PY_DRAUGHTS_PERFT = r'''
import draughts
board = getattr(draughts, ARGS["board"])
board = board.from_fen(ARGS["fen"]) if ARGS.get("fen") else board()

def legal(b):
    return b.legal_moves
''' + _PERFT_WALK

_PYDRAUGHTS_PERFT = r'''
from draughts import Board
board = Board(ARGS["variant"], ARGS.get("fen") or "startpos")

def legal(b):
    return b.legal_moves()
''' + _PERFT_WALK

_PYDRAUGHTS_READ = r'''
from collections import Counter
from draughts.PDN import PDNReader
games = load_games()
if ARGS["per_game"]:
    parsed, moves, variants, failed = 0, 0, Counter(), 0
    t0 = time.perf_counter()
    for g in games:
        try:
            r = PDNReader(pdn_text=g)
        except Exception:
            failed += 1
            continue
        parsed += len(r.games)
        for pg in r.games:
            moves += len(pg.moves)
            variants[pg.variant] += 1
    dt = time.perf_counter() - t0
    err = f"{failed} games raised" if failed else None
else:
    text = "\n\n".join(games)
    t0 = time.perf_counter()
    try:
        r = PDNReader(pdn_text=text)
        err = None
    except Exception as exc:
        r, err = None, f"{type(exc).__name__}: {exc}"
    dt = time.perf_counter() - t0
    parsed = len(r.games) if r else 0
    moves = sum(len(g.moves) for g in r.games) if r else 0
    variants = Counter(g.variant for g in r.games) if r else Counter()
emit(games_in=len(games), games_parsed=parsed, moves_parsed=moves, seconds=dt,
     games_per_s=parsed / dt if dt else None, variants=dict(variants), error=err)
'''

_PY_DRAUGHTS_REPLAY = r'''
import draughts
from collections import Counter
Board = getattr(draughts, ARGS["board"])
games = load_games()
_MOVE = re.compile(r"(?<![\w/])\d+(?:[-x:]\d+)+(?![\w/])")

def _flip(m):
    t = m.group(0)
    squares = [int(s) for s in re.split("[-x:]", t)]
    if not all(1 <= s <= 32 for s in squares):
        return t
    sep = re.search("[-x:]", t).group(0)
    return sep.join(str(33 - s) for s in squares)

def flip(game):
    lines = game.split("\n")
    return "\n".join(ln if ln.lstrip().startswith("[") else _MOVE.sub(_flip, ln) for ln in lines)

def english_first(game):
    body = "\n".join(ln for ln in game.split("\n") if not ln.lstrip().startswith("["))
    body = re.sub(r"\{[^}]*\}", " ", body)
    m = _MOVE.search(body)
    return bool(m) and int(re.split("[-x:]", m.group(0))[0]) <= 12

renumber = ARGS["english_numbering"]
flipped = 0
if renumber is None:
    american = ARGS["board"] == "AmericanBoard"
    todo = [american and english_first(g) for g in games]
else:
    todo = [renumber] * len(games)
texts = []
for g, f in zip(games, todo):
    texts.append(flip(g) if f and "[FEN" not in g else g)
    flipped += bool(f and "[FEN" not in g)

accepted = moves = zero = 0
errors = Counter()
t0 = time.perf_counter()
for text in texts:
    try:
        b = Board.from_pdn(text)
    except Exception as exc:
        errors[type(exc).__name__] += 1
        continue
    n = len(b._moves_stack)
    accepted += 1
    moves += n
    zero += n == 0
dt = time.perf_counter() - t0
emit(games_in=len(texts), games_accepted=accepted, zero_move_games=zero, moves=moves,
     seconds=dt, moves_per_s=moves / dt if dt else None, renumbered_games=flipped,
     rejected_by=dict(errors))
'''

_PYDRAUGHTS_REPLAY = r'''
from collections import Counter
from draughts import Board, Move
from draughts.PDN import PDNReader
games = load_games()
parsed, errors = [], Counter()
for g in games:  # parsing is NOT timed (pydraughts_read measures it)
    try:
        parsed.extend(PDNReader(pdn_text=g).games)
    except Exception as exc:
        errors["PDNReader " + type(exc).__name__] += 1
accepted = moves = 0
t0 = time.perf_counter()
for g in parsed:
    variant = ARGS["variant"] or g.variant or "standard"
    try:
        b = Board(variant, g.tags.get("FEN", "startpos"))
        for m in g.moves:
            b.push(Move(b, pdn_move=m))
    except Exception as exc:
        errors[type(exc).__name__] += 1
        continue
    accepted += 1
    moves += len(b.move_stack)
dt = time.perf_counter() - t0
emit(games_in=len(games), games_parsed=len(parsed), games_accepted=accepted, moves=moves,
     seconds=dt, moves_per_s=moves / dt if dt else None, rejected_by=dict(errors))
'''


def _run(peer: Peer, script: str, args: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Run ``script`` in the peer's venv with ``args``; return its JSON result."""
    result: dict[str, Any] = {"peer": peer.name, "available": False, "version": None}
    error = ensure_peer(peer)
    if error is not None:
        return {**result, "error": f"unavailable: {error}"}
    result["available"] = True
    payload = json.dumps({**args, "dist": peer.dist})
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    try:
        proc = subprocess.run([str(peer.python), "-I", "-c", _COMMON + script], input=payload,
                              capture_output=True, text=True, timeout=timeout, check=False,
                              cwd=peer.venv, env=env)
    except subprocess.TimeoutExpired:
        return {**result, "error": f"timed out after {timeout:.0f} s"}
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
        return {**result, "error": f"exit {proc.returncode}: {tail}"}
    return {**result, **json.loads(lines[-1])}


def _unsupported(peer: Peer, variant: str, known: dict[str, str]) -> dict[str, Any]:
    """The result for a variant the peer does not have."""
    return {"peer": peer.name, "available": available(peer), "version": None,
            "error": f"variant {variant!r} not supported (has: {', '.join(sorted(known))})"}


def _source(path: str | os.PathLike[str] | None, texts: Sequence[str] | None) -> dict[str, Any]:
    """The ``path``/``texts`` arguments for a child script (exactly one must be given)."""
    if (path is None) == (texts is None):
        raise ValueError("give exactly one of path or texts")
    if texts is not None:
        return {"texts": list(texts), "path": None}
    return {"texts": None, "path": str(Path(path).resolve())}  # type: ignore[arg-type]


def py_draughts_perft(variant: str, depth: int, *, bulk: bool = True, fen: str | None = None,
                      timeout: float = RUN_TIMEOUT_S) -> dict[str, Any]:
    """Perft with py-draughts: ``nodes``, ``seconds``, ``nodes_per_s``.

    Timed region: only the recursion (board already built). Each node reads the
    ``legal_moves`` property (bitboard generator, builds ``Move`` objects) and
    recurses with ``push``/``pop``. ``bulk=True`` returns ``len(legal_moves)`` at
    the last ply instead of pushing each leaf (as our perft does); ``bulk=False``
    is py-draughts' own test-suite perft. Captures with the same origin, destination
    and captured set count once. ``american`` has optional captures (not English
    checkers). Variants: keys of ``PY_DRAUGHTS_VARIANTS``.
    """
    board = PY_DRAUGHTS_VARIANTS.get(variant)
    if board is None:
        return _unsupported(PY_DRAUGHTS, variant, PY_DRAUGHTS_VARIANTS)
    args = {"board": board, "depth": depth, "bulk": bulk, "fen": fen}
    out = _run(PY_DRAUGHTS, _PY_DRAUGHTS_PERFT, args, timeout)
    return {**out, "variant": variant, "depth": depth, "bulk": bulk}


def pydraughts_perft(variant: str, depth: int, *, bulk: bool = True, fen: str | None = None,
                     timeout: float = RUN_TIMEOUT_S) -> dict[str, Any]:
    """Node count with pydraughts (it has no perft): ``nodes``, ``seconds``, ``nodes_per_s``.

    Timed region: only the recursion over the public API: ``Board.legal_moves()``
    (full multi-capture expansion, one ``Move`` object per move with every notation),
    ``push`` and ``pop`` (which rebuilds the board from a FEN). ``bulk=True`` counts
    ``len(legal_moves())`` at the last ply. A capture counts once per route. Depth is
    capped at ``PYDRAUGHTS_MAX_DEPTH`` (about 1,000-1,500 nodes/s): deeper raises
    ``ValueError``. ``english``/``american`` has compulsory capture.
    """
    if depth > PYDRAUGHTS_MAX_DEPTH:
        raise ValueError(f"pydraughts perft depth {depth} > cap {PYDRAUGHTS_MAX_DEPTH}")
    name = PYDRAUGHTS_VARIANTS.get(variant)
    if name is None:
        return _unsupported(PYDRAUGHTS, variant, PYDRAUGHTS_VARIANTS)
    args = {"variant": name, "depth": depth, "bulk": bulk, "fen": fen}
    out = _run(PYDRAUGHTS, _PYDRAUGHTS_PERFT, args, timeout)
    return {**out, "variant": variant, "depth": depth, "bulk": bulk}


def pydraughts_read(path: str | os.PathLike[str] | None = None, max_games: int = 200, *,
                    texts: Sequence[str] | None = None, per_game: bool = False,
                    timeout: float = RUN_TIMEOUT_S) -> dict[str, Any]:
    """Time pydraughts' ``PDNReader`` on the first ``max_games`` games of a PDN file.

    Untimed: reading the file (UTF-8, else Latin-1) and cutting it into games at tag
    blocks that follow movetext, keeping the first ``max_games``. Timed, by default:
    one ``PDNReader(pdn_text=...)`` over those games joined by blank lines, which is
    what a user does and is quadratic in N (so games/s falls as N grows). With
    ``per_game=True``: one ``PDNReader`` per game (linear). Returns ``games_in``,
    ``games_parsed``, ``moves_parsed`` (move tokens, not validated), ``seconds``,
    ``games_per_s``, ``variants``. ``max_games`` is capped at
    ``PYDRAUGHTS_MAX_READ_GAMES``.
    """
    if max_games > PYDRAUGHTS_MAX_READ_GAMES:
        raise ValueError(f"max_games {max_games} > cap {PYDRAUGHTS_MAX_READ_GAMES}")
    args = {**_source(path, texts), "max_games": max_games, "per_game": per_game}
    return _run(PYDRAUGHTS, _PYDRAUGHTS_READ, args, timeout)


def py_draughts_replay(path: str | os.PathLike[str] | None = None, variant: str = "russian", *,
                       texts: Sequence[str] | None = None, max_games: int | None = None,
                       english_numbering: bool | None = None,
                       timeout: float = RUN_TIMEOUT_S) -> dict[str, Any]:
    """Time py-draughts replaying and validating PDN games with ``<Board>.from_pdn``.

    Untimed: reading and cutting the file into games (as in ``pydraughts_read``) and,
    for English-numbered games, renumbering squares n -> 33-n so Black's first move
    becomes py-draughts' White-first American orientation (``english_numbering``:
    None = per game when ``variant="american"`` and the first move starts on 1-12).
    Timed: one ``Board.from_pdn(text)`` per game: its own tag/movetext scan, then
    ``push_uci`` of each move against ``legal_moves`` (raises on an illegal move).
    ``moves_per_s`` = moves of accepted games / time of all games (rejected ones
    included). ``zero_move_games`` counts games accepted with no move recognised
    (e.g. short Russian notation ``gf4``), which are not really validated.
    """
    board = PY_DRAUGHTS_VARIANTS.get(variant)
    if board is None:
        return _unsupported(PY_DRAUGHTS, variant, PY_DRAUGHTS_VARIANTS)
    args = {**_source(path, texts), "board": board, "max_games": max_games,
            "english_numbering": english_numbering}
    return {**_run(PY_DRAUGHTS, _PY_DRAUGHTS_REPLAY, args, timeout), "variant": variant}


def pydraughts_replay(path: str | os.PathLike[str] | None = None, variant: str | None = None, *,
                      texts: Sequence[str] | None = None, max_games: int = 20,
                      timeout: float = RUN_TIMEOUT_S) -> dict[str, Any]:
    """Time pydraughts replaying and validating PDN games (at most ``max_games``).

    Untimed: reading/cutting the file and ``PDNReader`` on each game. Timed: per
    game ``Board(variant, FEN tag or "startpos")`` then ``board.push(Move(board,
    pdn_move=m))`` for each move (``Move`` looks the move up among the legal moves and
    raises on an illegal one). ``variant=None`` uses the variant PDNReader took from
    GameType or guessed from the first move. ``moves_per_s`` = moves of accepted
    games / time of all games. Capped at ``PYDRAUGHTS_MAX_REPLAY_GAMES`` (a few
    hundred moves/s).
    """
    if max_games > PYDRAUGHTS_MAX_REPLAY_GAMES:
        raise ValueError(f"max_games {max_games} > cap {PYDRAUGHTS_MAX_REPLAY_GAMES}")
    name = None
    if variant is not None:
        name = PYDRAUGHTS_VARIANTS.get(variant)
        if name is None:
            return _unsupported(PYDRAUGHTS, variant, PYDRAUGHTS_VARIANTS)
    args = {**_source(path, texts), "variant": name, "max_games": max_games}
    return {**_run(PYDRAUGHTS, _PYDRAUGHTS_REPLAY, args, timeout), "variant": variant}


# ---------------------------------------------------------------------------


def _fmt(value: Any) -> str:
    """Format a number for the table."""
    if isinstance(value, float):
        return f"{value:,.2f}" if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return "-" if value is None else str(value)


def _row(label: str, res: dict[str, Any], size_key: str, rate_key: str) -> str:
    """One table line for a result."""
    peer = f"{res['peer']} {res.get('version') or ''}".strip()
    if res.get("error") and rate_key not in res:
        return f"{label:<36} {peer:<20} ERROR {res['error']}"
    note = f"  ({res['error']})" if res.get("error") else ""
    for key in ("zero_move_games", "renumbered_games"):
        if res.get(key):
            note += f"  {key}={res[key]}"
    if res.get("rejected_by"):
        note += f"  rejected={res['rejected_by']}"
    return (f"{label:<36} {peer:<20} {_fmt(res.get(size_key)):>10} {_fmt(res.get('seconds')):>8}"
            f" {_fmt(res.get(rate_key)):>10}{note}")


def main(argv: Sequence[str] | None = None) -> int:
    """Print a short table of every peer measurement on small inputs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA_DIR, help="shared data folder")
    parser.add_argument("--big", action="store_true",
                        help="larger inputs (Russian perft 8, 2,000 games)")
    parser.add_argument("--install", action="store_true",
                        help="only install the peers into their venvs (exit 1 if one fails)")
    ns = parser.parse_args(argv)
    if ns.install:
        return 1 if install_all() else 0
    english = ns.data / "english" / "OCA_2.0.pdn"
    russian = ns.data / "games-checkers" / "russian" / "abatsiev.pdn"
    d_pd, d_pyd, n_read, n_rep, n_pyd = (8, 4, 2000, 2000, 30) if ns.big else (6, 3, 200, 300, 5)

    print(f"{'measurement':<36} {'peer':<20} {'size':>10} {'seconds':>8} {'rate':>10}")
    rows = [
        (f"perft russian d{d_pd} bulk (nodes/s)", py_draughts_perft("russian", d_pd), "nodes"),
        ("perft american d6 bulk (nodes/s)", py_draughts_perft("american", 6), "nodes"),
        ("perft international d5 bulk (nodes/s)", py_draughts_perft("international", 5),
         "nodes"),
        (f"perft russian d{d_pyd} bulk (nodes/s)", pydraughts_perft("russian", d_pyd), "nodes"),
        (f"perft english d{d_pyd} bulk (nodes/s)", pydraughts_perft("english", d_pyd), "nodes"),
    ]
    for label, res, size in rows:
        print(_row(label, res, size, "nodes_per_s"))
    print(_row(f"PDNReader OCA {n_read} games (games/s)", pydraughts_read(english, n_read),
               "games_parsed", "games_per_s"))
    print(_row(f"replay OCA {n_rep} games (moves/s)",
               py_draughts_replay(english, "american", max_games=n_rep), "moves", "moves_per_s"))
    print(_row("replay abatsiev russian (moves/s)", py_draughts_replay(russian, "russian"),
               "moves", "moves_per_s"))
    print(_row(f"replay OCA {n_pyd} games (moves/s)", pydraughts_replay(english, max_games=n_pyd),
               "moves", "moves_per_s"))
    print(_row(f"replay abatsiev {n_pyd} games (moves/s)",
               pydraughts_replay(russian, "russian", max_games=n_pyd), "moves", "moves_per_s"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
