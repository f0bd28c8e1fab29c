"""Every example of the README and of ``docs/*.md`` runs: each ```python block (exec'd in order
per file, in one namespace; ``>>>`` lines checked as doctests) and each command line of every
```sh block (``pdn`` through its typer app, in a temporary folder where the file names the
example uses exist).

The names the examples use stand for the bundled samples or for small pieces of the public
archives (``NAMES``); examples that cannot run here say why (``CANNOT_RUN``), and the exit code
of each command is 0 unless ``EXIT_CODES`` says otherwise, with the reason. A block preceded by
``<!-- no-test: reason -->`` is skipped with that reason.
"""

from __future__ import annotations

import doctest
import re
import shlex
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import ROOT, SHARED_DATA, require
from pdn.cli.app import app
from typer.testing import CliRunner

from pdn.reader import iter_chunks

SAMPLES = ROOT / "samples"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# ---- what the examples' names stand for --------------------------------------------------


@dataclass(frozen=True)
class Samples:
    """Sample files (relative to ``samples/``) joined into one file, or copied into a folder
    for a name that ends in ``/``."""

    paths: tuple[str, ...]


@dataclass(frozen=True)
class Archive:
    """The first ``games`` games of files of the public archives (relative to
    ``../shared/data``), one file each (joined into one for a file name)."""

    paths: tuple[str, ...]
    games: int


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Database:
    """A database ``pdn index`` makes of what another name stands for."""

    of: str


Provider = Samples | Archive | Text | Database

RUSSIAN = ("russian/ivanov_petrov_full.pdn", "russian/ivanov_petrov_short.pdn",
           "russian/scoresheet_with_errors.pdn")  # the last has an illegal move: invalid
EVERY_SAMPLE = tuple(str(path.relative_to(SAMPLES)) for path in sorted(SAMPLES.glob("*/*.pdn")))
OCA = ("english/OCA_2.0.pdn",)
SMALL = 200  # games of an archive file: enough to find something, small enough to run fast

NAMES: dict[str, Provider] = {
    "games.pdn": Samples(RUSSIAN),
    "archive/": Samples(EVERY_SAMPLE),
    "scoresheets/": Samples(RUSSIAN),
    "big/": Samples(EVERY_SAMPLE),
    "big.pdn": Samples(RUSSIAN),
    "club.pdn": Samples(RUSSIAN[:1]),
    "game.pdn": Samples(("international/sample_game.pdn", "thai/sample_game.pdn")),
    "a.pdn": Samples(RUSSIAN[:1]),
    "b/": Samples(("international/sample_game.pdn", "thai/sample_game.pdn")),
    "positions.txt": Text("W:Wa1:Bc3,f4\nW:Wc3,g3:Bd4\n"),
    "games.db": Database("games.pdn"),
    "oca.pdn": Archive(OCA, SMALL),
    "OCA_2.0.pdn": Archive(OCA, SMALL),
    "oca.db": Database("oca.pdn"),
    "../shared/data/games-checkers/russian": Archive(
        ("games-checkers/russian/World_Championship_1998.pdn",
         "games-checkers/russian/First_Computers_Match_Moscow_1998.pdn"), SMALL),
    "../shared/data": Archive(("english/OCA_2.0.pdn", "english/tinsley.pdn",
                               "games-checkers/russian/World_Championship_1998.pdn"), 100),
    "wk2007.pdn": Archive(("international/fmjd_wk2007_all_games.pdn",), 190),
    "nk2003.pdn": Archive(("games-checkers/internt/nk2003-amsterdam.pdn",), 91),
    "results.txt": Text("Valneris - Georgiev=1-1\nMisans - Schwarzman=1-1\n"),
    "wc1998.pdn": Archive(("games-checkers/russian/World_Championship_1998.pdn",), 460),
    "cup.pdn": Text("".join(
        f'[White "{w}"][Black "{b}"][Round "{r}"][Result "{x}"] 1. 32-28 *\n' for w, b, r, x in (
            ("Ann", "Bob", "1.1", "2-0"), ("Bob", "Ann", "1.2", "1-1"),
            ("Cas", "Dan", "1.1", "1-1"), ("Dan", "Cas", "1.2", "1-1"),
            ("Cas", "Dan", "1.3", "2-0"), ("Dan", "Cas", "1.4", "1-1"),
            ("Ann", "Cas", "2.1", "1-1"), ("Cas", "Ann", "2.2", "1-1")))),
    "olympiad.pdn": Text("".join(
        f'[White "{w}"][Black "{b}"][Round "{r}"][Result "{x}"] 1. 32-28 *\n' for w, b, r, x in (
            ("Ann", "Cas", "1.1", "2-0"), ("Dan", "Bob", "1.2", "1-1"),
            ("Ann", "Dan", "2.1", "0-2"), ("Cas", "Bob", "2.2", "1-1")))),
    "teams.txt": Text("Ann = North\nBob = North\nCas = South\nDan = South\n"),
}

# Examples that cannot run here, by a piece of their command line.
CANNOT_RUN: dict[str, str] = {
    "make demo": "builds a venv and installs the toolkit into it (the suite runs in one)",
    "make test": "runs the whole test suite, this test included",
    "dask ssh": "starts a Dask cluster over SSH on other hosts",
    "helm ": "installs a Dask cluster on Kubernetes",
    "tcp://": "needs a running Dask cluster at that address",
    "s3://": "needs an object store (S3)",
    "/data/big.pdn": "a file on a cluster's shared folder",
}

# Exit codes other than 0 that the README documents, by the command line.
INVALID = ("games.pdn, archive/ and scoresheets/ hold a scoresheet with an illegal move: some "
           "records are invalid")
EXIT_CODES: dict[str, tuple[int, str]] = {
    "pdn validate games.pdn": (1, INVALID),
    "pdn validate archive/ --variant english": (1, INVALID),
    "pdn validate scoresheets/ --warnings": (1, INVALID),
    "pdn validate games.pdn --json > report.jsonl": (1, INVALID),
    "pdn validate big/ --json -o reports/": (1, INVALID),
    "pdn validate games.pdn --report report.html": (1, INVALID),
    "pdn validate games.pdn --suggest": (1, INVALID),
    "pdn validate games.pdn --suggest --report r.html": (1, INVALID),
    "pdn validate games.pdn --suggest --report report.html": (1, INVALID),
    "pdn convert games.pdn --to full --repair": (1, INVALID),
    "pdn convert games.pdn --to full -o games-full.pdn": (1, INVALID),
    "pdn convert games.pdn --to short -f text --layout inline": (1, INVALID),
    "pdn convert games.pdn --to numeric --numbering N0": (1, INVALID),
    "pdn convert games.pdn --to pdn": (1, INVALID),
    "pdn convert games.pdn -f json": (1, INVALID),
    "pdn info archive/ --json": (1, "archive/ holds a scoresheet with lost moves written '-'"),
    "pdn view games.pdn -o games.html": (1, INVALID),
    "pdn stats archive/ -t openings -o openings.csv --plot archive.png": (1, INVALID),
    "pdn stats big.pdn --runner dask -o games.jsonl": (1, INVALID),
    "pdn standings wk2007.pdn": (1, "the 2007 World Championship records two games as *"),
}


def materialise(name: str, folder: Path, made: dict[str, str]) -> str:
    """Make what ``name`` stands for in ``folder``; the path to give the command instead."""
    if name in made:
        return made[name]
    provider = NAMES[name]
    local = re.sub(r"[^\w.]+", "-", name.strip("./")) or "data"
    target = folder / local
    directory = name.endswith("/") or (isinstance(provider, Archive) and not name.endswith(
        (".pdn", ".txt")))
    if isinstance(provider, Samples):
        _write(target, [(path, (SAMPLES / path).read_text(encoding="utf-8"))
                        for path in provider.paths], directory)
    elif isinstance(provider, Archive):
        if not SHARED_DATA.is_dir():
            pytest.skip(f"{name} stands for the public archives: ../shared/data is not present")
        _write(target, [(path, _first_games(SHARED_DATA / path, provider.games))
                        for path in provider.paths], directory)
    elif isinstance(provider, Text):
        target.write_text(provider.text, encoding="utf-8")
    else:
        source = materialise(provider.of, folder, made)
        result = CliRunner().invoke(app, ["index", source, "-o", str(target)])
        assert result.exit_code == 0, result.output
    made[name] = local + ("/" if name.endswith("/") else "")
    return made[name]


def _write(target: Path, files: list[tuple[str, str]], directory: bool) -> None:
    if not directory:
        target.write_text("\n\n".join(text for _, text in files), encoding="utf-8")
        return
    for path, text in files:
        (target / path).parent.mkdir(parents=True, exist_ok=True)
        (target / path).write_text(text, encoding="utf-8")


def _first_games(path: Path, games: int) -> str:
    """The text of about the first ``games`` games of a file, as written there."""
    chunks = iter_chunks(path)
    return "".join(chunk.text for _, chunk in zip(range(games), chunks, strict=False))


# ---- the blocks of the documents -----------------------------------------------------------

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)
OPT_OUT = re.compile(r"<!--\s*no-test:\s*(.*?)\s*-->\s*$")


@dataclass(frozen=True)
class Block:
    document: Path
    line: int
    language: str
    text: str
    opt_out: str | None  # the reason given with <!-- no-test: ... -->

    @property
    def name(self) -> str:
        return f"{_shown(self.document)}:{self.line}"


def _shown(document: Path) -> str:
    """A document's path as the test names it: from the project's folder."""
    return str(document.relative_to(ROOT)) if document.is_relative_to(ROOT) else str(document)


def blocks(document: Path) -> Iterator[Block]:
    text = document.read_text(encoding="utf-8")
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        before = text[:match.start()].rstrip("\n").rsplit("\n", 1)[-1]
        opt_out = OPT_OUT.search(before)
        yield Block(document, line, match.group(1), match.group(2),
                    opt_out.group(1) if opt_out else None)


def examples(language: str) -> list[Block]:
    return [block for document in DOCUMENTS for block in blocks(document)
            if block.language == language]


# ---- running them --------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    block: Block
    line: int  # in the document
    text: str  # the command line without its comment, words as the shell splits them

    @property
    def name(self) -> str:
        return f"{_shown(self.block.document)}:{self.line}: {self.text}"


def commands() -> Iterator[Command]:
    """The command lines of every shell block (comments and blank lines left out)."""
    for block in examples("sh"):
        for offset, line in enumerate(block.text.splitlines(), 1):
            words = shlex.split(line, comments=True)
            if words:
                yield Command(block, block.line + offset, shlex.join(words).replace("'>'", ">"))


def cannot_run(command: str) -> str | None:
    return next((why for piece, why in CANNOT_RUN.items() if piece in command), None)


@pytest.mark.parametrize("command", list(commands()), ids=lambda command: command.name)
def test_the_shell_examples_run(command: Command, tmp_path: Path,
                                monkeypatch: pytest.MonkeyPatch):
    if command.block.opt_out:
        pytest.skip(command.block.opt_out)
    if (why := cannot_run(command.text)) is not None:
        pytest.skip(why)
    words = shlex.split(command.text)
    output = None
    if ">" in words:
        at = words.index(">")
        words, output = words[:at], words[at + 1]
    assert words[0] == "pdn", "not a pdn command: say why it cannot run in CANNOT_RUN"
    if "--runner" in words and words[words.index("--runner") + 1] == "dask":
        require(find_spec("distributed") is not None, "dask.distributed (the dask extra)")
    monkeypatch.chdir(tmp_path)
    made: dict[str, str] = {}
    args = [materialise(word, tmp_path, made) if word in NAMES else word for word in words[1:]]
    result = CliRunner().invoke(app, args)
    expected, _ = EXIT_CODES.get(command.text, (0, ""))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == expected, (
        f"exited {result.exit_code}, the docs say {expected}:\n{result.output[-3000:]}")
    if output is not None:
        (tmp_path / output).write_text(result.stdout, encoding="utf-8")


def python_documents() -> list[Path]:
    return sorted({block.document for block in examples("python")})


@pytest.mark.parametrize("document", python_documents(),
                         ids=_shown)
def test_the_python_examples_run(document: Path, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    made: dict[str, str] = {}
    namespace: dict = {"__name__": "__docs__"}
    for block in blocks(document):
        if block.language != "python":
            continue
        if block.opt_out:
            continue
        for name in NAMES:
            if re.search(rf"[\"']{re.escape(name)}[\"']", block.text):
                assert materialise(name, tmp_path, made) == name, "name it as the docs do"
        failure = run_python(block, namespace)
        assert failure is None, f"{block.name}: {failure}"


def run_python(block: Block, namespace: dict) -> str | None:
    """Run a Python block in ``namespace``: as a doctest when it shows ``>>>`` lines."""
    if not re.search(r"^\s*>>> ", block.text, re.M):
        code = compile("\n" * block.line + block.text, str(block.document), "exec")  # its lines
        exec(code, namespace)
        return None
    test = doctest.DocTestParser().get_doctest(textwrap.dedent(block.text), namespace,
                                               block.name, str(block.document), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append, clear_globs=False)
    return "".join(report) or None


# ---- the runner itself ---------------------------------------------------------------------


def test_a_block_is_found_with_its_line_language_and_opt_out(tmp_path: Path):
    document = tmp_path / "page.md"
    document.write_text("# Page\n\n```sh\npdn --help  # the commands\n```\n\n"
                        "<!-- no-test: needs a printer -->\n```python\nprint(1)\n```\n",
                        encoding="utf-8")
    first, second = blocks(document)
    assert (first.line, first.language, first.text, first.opt_out) == (
        3, "sh", "pdn --help  # the commands\n", None)
    assert (second.line, second.language, second.opt_out) == (8, "python", "needs a printer")


def test_an_output_shown_wrong_fails_and_the_namespace_is_shared(tmp_path: Path):
    def block(text: str) -> Block:
        return Block(tmp_path / "page.md", 1, "python", text, None)

    namespace: dict = {}
    assert run_python(block("x = 20 + 1\n"), namespace) is None
    assert run_python(block(">>> x * 2\n42\n"), namespace) is None  # x from the block before
    failure = run_python(block(">>> x * 2\n41\n"), namespace)
    assert failure is not None and "Expected:\n    41\nGot:\n    42" in failure


def test_every_entry_of_the_tables_is_used_by_an_example():
    texts = [command.text for command in commands()]
    python = "".join(block.text for block in examples("python"))
    assert set(EXIT_CODES) <= set(texts)
    assert all(any(piece in text for text in texts) for piece in CANNOT_RUN)
    used = {word for text in texts for word in shlex.split(text)}
    assert all(name in used or f'"{name}"' in python
               or any(isinstance(p, Database) and p.of == name for p in NAMES.values())
               for name in NAMES)
