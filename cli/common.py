"""What every command shares besides its options (``cli.options``): exit codes, errors in red
on stderr, and a progress bar on a terminal."""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import IntEnum
from typing import TYPE_CHECKING, NoReturn

from pdn.i18n import N_

if TYPE_CHECKING:
    from rich.console import Console

    from pdn.i18n import Catalog

class ExitCode(IntEnum):
    """The exit status of every command, one table (``EXIT_STATUS_HELP``, the README)."""

    OK = 0  # all well
    SOME_GAMES = 1  # some games (or positions of a FEN file) invalid or unreadable
    USAGE = 2  # a usage error, or an input that cannot be opened or decoded


EXIT_STATUS_HELP = ("Exit status, for every command: 0 all well; 1 some games invalid or "
                    "unreadable (the others done); 2 a usage error, or an input that cannot "
                    "be opened or decoded.")


def games_exit(some_games: bool) -> ExitCode:
    """OK, or SOME_GAMES when some games were invalid or unreadable."""
    return ExitCode.SOME_GAMES if some_games else ExitCode.OK


_SPOKEN: dict[str, Catalog] = {}  # the language chosen, once a command asks for it


def speak(words: Catalog) -> None:
    """Make ``words`` the language of what the command says to people (its ``--lang``)."""
    _SPOKEN["words"] = words


def forget_spoken() -> None:
    """Forget the language chosen: the next ``spoken`` reads the environment again."""
    _SPOKEN.clear()


def spoken() -> Catalog:
    """The language of the messages for people: the command's ``--lang`` where it has one,
    else the first of LC_ALL, LC_MESSAGES, LANG that is set (docs/languages.md)."""
    if "words" not in _SPOKEN:
        from pdn.i18n import catalog, choose

        _SPOKEN["words"] = catalog(choose())
    return _SPOKEN["words"]


# The reasons the system gives for a file it cannot open or write, as catalog entries: a
# message that ends in one is said in the user's language whole.
SYSTEM_REASONS = (N_("No such file or directory"), N_("Permission denied"),
                  N_("Is a directory"), N_("Not a directory"), N_("No space left on device"),
                  N_("Read-only file system"), N_("File name too long"))


def fail(message: str, code: int = ExitCode.USAGE, *, translate: bool = True) -> NoReturn:
    """Print an error in red to stderr, in the user's language where the catalog has all of
    it (``spoken``; a message of no entry, and click's usage errors with ``translate`` off,
    stay English), and exit with ``code``."""
    from rich.markup import escape

    words = spoken() if translate else None
    label = words.gettext(N_("error")) if words else "error"
    text = words.wholly(message) if words else message
    stderr_console().print(f"[red]{escape(label)}:[/red] {escape(for_people(text))}")
    sys.exit(code)


def stderr_console() -> Console:
    """A rich console on stderr for notes, errors and progress bars."""
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def input_size(sources: list[str]) -> int | None:
    """The bytes to read from the sources (None when standard input is among them)."""
    from replay.archive.stream import total_size

    return total_size(sources)


@contextmanager
def progress_bar(label: str, total: int | Callable[[], int | None] | None,
                 console: Console | None = None) -> Iterator[Callable[[int], None] | None]:
    """A callback advancing a progress bar by an amount of ``total`` (characters read, or
    games; or a function giving it, asked on a terminal only), shown on stderr when it is a
    terminal; None off a terminal or without a total. Anything printed meanwhile on the
    terminal appears above the bar. ``label`` is a catalog entry (``N_("tabulating")``),
    shown in the user's language (``spoken``)."""
    from replay.run.runner import ClusterWatch, watch_clusters

    if console is None and _never_terminal():  # no console to make (rich costs a start-up)
        with watch_clusters(ClusterWatch(lambda link: _say_dashboard(stderr_console(), link),
                                         lambda submitted, done: None)):
            yield None
        return
    console = console or stderr_console()
    if console.is_terminal and callable(total):
        total = total()
    if not (console.is_terminal and total):
        with watch_clusters(ClusterWatch(lambda link: _say_dashboard(console, link),
                                         lambda submitted, done: None)):
            yield None
        return
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeRemainingColumn,
    )

    # Lines printed to stdout go above the bar only when stdout is a terminal too: output
    # piped or redirected to a file must stay there.
    with Progress("[progress.description]{task.description}", BarColumn(),
                  TaskProgressColumn(), TimeRemainingColumn(), TextColumn("{task.fields[count]}"),
                  console=console, transient=True,
                  redirect_stdout=_is_terminal(sys.stdout)) as bar:
        words = spoken()
        task = bar.add_task(words.gettext(label), total=total, count="")
        tasks = bar.add_task(words.gettext(N_("dask tasks done")), total=None, visible=False,
                             count="")

        def opened(link: str | None) -> None:
            _say_dashboard(console, link)
            bar.update(tasks, visible=True)

        def counted(submitted: int, done: int) -> None:
            bar.update(tasks, total=submitted, completed=done, count=f"{done}/{submitted}")

        with watch_clusters(ClusterWatch(opened, counted)):
            yield lambda amount: bar.advance(task, amount)


def _say_dashboard(console: Console, link: str | None) -> None:
    """The dashboard's address of a Dask cluster, on stderr (nothing when it has none)."""
    if link is None:
        return
    import importlib.util

    said = (N_("dask dashboard: {link}") if importlib.util.find_spec("bokeh")
            else N_("dask dashboard: {link} (its pages need bokeh installed)"))
    console.print(spoken().gettext(said).format(link=link), markup=False)


# Control characters a terminal acts on (C0 but tab and line feed, DEL, C1: ESC starts both
# CSI and OSC sequences, and U+009B is a CSI of its own).
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    r"""``text`` with the control characters a terminal acts on shown escaped (``\x1b``);
    tabs and line breaks kept. For what only a terminal shows (a rich table): data written
    to a file or a pipe goes through ``write_out`` or ``echo``, changed on a terminal only.

    >>> escape_controls("a\x1b]0;title\x07b\x1b[2Jc\x9b1m\td")
    'a\\x1b]0;title\\x07b\\x1b[2Jc\\x9b1m\td'
    """
    return _CONTROLS.sub(lambda match: match.group().encode("unicode_escape").decode(), text)


def for_people(text: str) -> str:
    r"""A message as stderr shows it: the bytes of a file name that are not UTF-8 (which
    Python holds as lone surrogates, shown ``\udcff`` by stderr) written as ``\xff``, as
    ``replay.run.partitions.shown_name`` writes them in reports.

    >>> for_people("cannot start '/tmp/\udcffeng'")
    "cannot start '/tmp/\\xffeng'"
    """
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a surrogate no file name makes: left to stderr's own escape
        return text


def write_out(text: str, stream=None) -> None:
    """Write data to stdout (or ``stream``) as it is, save that on a terminal its control
    characters are shown escaped (``\x1b``) rather than obeyed: escapes in a tag must not
    drive the terminal, and the data piped or redirected is never changed."""
    stream = stream or sys.stdout
    stream.write(escape_controls(text) if _is_terminal(stream) else text)


def echo(text: str, err: bool = False, **style: object) -> None:
    """``typer.echo`` (``typer.secho`` with ``style``), a line break after ``text``, by the
    rule of ``write_out``: its control characters escaped on a terminal only."""
    import typer

    if err:
        text = for_people(text)
    if _is_terminal(sys.stderr if err else sys.stdout):
        text = escape_controls(text)
    if style:
        typer.secho(text, err=err, **style)  # type: ignore[arg-type]
    else:
        typer.echo(text, err=err)


class StdoutLines:
    """Lines for stdout in blocks of about ``block`` characters, each block one
    ``typer.echo`` (one write and flush), where ``echo`` flushes every line: the same bytes in
    the same order. On a terminal each line goes at once (its controls escaped as ``echo``
    does, unless ``escape`` is off: JSON escapes its own); a line for stderr, or styled,
    first sends the lines before it. ``flush`` sends the rest."""

    def __init__(self, block: int = 1 << 16, escape: bool = True) -> None:
        self.block, self.escape, self.at_once = block, escape, _is_terminal(sys.stdout)
        self._lines: list[str] = []
        self._size = 0

    def echo(self, text: str, err: bool = False, **style: object) -> None:
        """``cli.common.echo``, buffered for stdout."""
        if err or style or self.at_once:
            self.flush()
            if self.escape or err or style:
                echo(text, err=err, **style)
            else:
                import typer

                typer.echo(text)
            return
        self._lines.append(text)
        self._size += len(text) + 1
        if self._size >= self.block:
            self.flush()

    def __enter__(self) -> StdoutLines:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.flush()  # also when the run stops early: no line kept back is lost

    def flush(self) -> None:
        """Send the lines kept."""
        if self._lines:
            import typer

            self._lines.append("")
            typer.echo("\n".join(self._lines), nl=False)
            self._lines.clear()
            self._size = 0


def _never_terminal() -> bool:
    """Whether rich's console on stderr would not be a terminal, told without making one:
    stderr is not a terminal and no variable (FORCE_COLOR, TTY_COMPATIBLE) says otherwise."""
    return not (_is_terminal(sys.stderr) or "FORCE_COLOR" in os.environ
                or "TTY_COMPATIBLE" in os.environ)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class StdoutError(OSError):
    """Standard output refused a write (a full disk, ``> /dev/full``, an I/O error)."""


class _GuardedStdout(io.FileIO):
    """File descriptor 1 whose refused writes raise ``StdoutError``, so that they are told
    apart from the errors of the files a command reads or writes. A closed pipe (``| head``)
    stays a ``BrokenPipeError``: it ends the command as it always did."""

    def write(self, data) -> int:  # type: ignore[override]
        try:
            return super().write(data)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise StdoutError(error.errno, error.strerror) from None


def guard_stdout() -> None:
    """Make ``sys.stdout`` write through ``_GuardedStdout`` (the same encoding, errors and
    line buffering): for the ``pdn`` process itself, before its command writes anything."""
    stdout = sys.stdout
    try:
        descriptor = stdout.fileno()
    except (AttributeError, OSError, ValueError):  # no file descriptor: left as it is
        return
    stdout.flush()
    raw = _GuardedStdout(descriptor, "w", closefd=False)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw), encoding=stdout.encoding,
                                  errors=stdout.errors, line_buffering=stdout.line_buffering)


def _stdout_error(error: BaseException | None) -> StdoutError | None:
    """The ``StdoutError`` in ``error``'s chain of causes, if any."""
    while error is not None and not isinstance(error, StdoutError):
        error = error.__cause__ or error.__context__
    return error


def stdout_refused(error: BaseException) -> bool:
    """Whether ``error`` is standard output refusing a write (``StdoutError``, raised where
    ``guard_stdout`` was called)."""
    return _stdout_error(error) is not None


def fail_stdout(error: BaseException) -> NoReturn:
    """Standard output refused a write (``stdout_refused``): an error saying so, as an output
    given with ``-o`` that cannot be written is said (exit status 2). What stdout still holds
    is dropped, so that Python's last flush does not fail again with a traceback."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # no file descriptor (a test's captured stdout)
        pass
    refused = _stdout_error(error) or error
    fail(N_("standard output: cannot write: {reason}").format(
        reason=getattr(refused, "strerror", None) or refused))


CANNOT_READ = N_("{file}: cannot read: {reason}")
CANNOT_WRITE = N_("{file}: cannot write: {reason}")
CANNOT_READ_OR_WRITE = N_("{file}: cannot read or write: {reason}")


def fail_io(error: OSError, name: str = "", doing: str = CANNOT_READ) -> NoReturn:
    """An OSError as an error naming its file: an output that could not be written says
    "cannot write" (``replay.run.output.WriteError``), standard output refusing a write says
    so (``fail_stdout``), anything else says ``doing``."""
    from replay.run.output import WriteError

    if isinstance(error, WriteError):
        fail(str(error))
    if stdout_refused(error):
        fail_stdout(error)
    fail(doing.format(file=error.filename or name, reason=error.strerror or error))
