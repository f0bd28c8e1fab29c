"""Writing output files safely: all or nothing, never over an input, never over a device.

Every output of every command is written by ``atomic_writer`` (or ``write_atomically``),
which applies one rule to what the path names (``output_target``):

- a regular file, or a name not yet taken: written in a temporary file beside it and
  renamed over it only when the block ends without an exception (Ctrl-C included), so an
  interrupted or failed run leaves no half-written file and the old one as it was; a file
  replaced keeps its permissions (a 0600 output stays 0600), a new one gets 0666 less the
  umask; the temporary, ``.NAME.PID.RANDOM.part`` (``RANDOM``: eight characters of
  ``mkstemp``), names the process writing it, and the parts of processes gone (killed with
  ``kill -9``, which no ``finally`` survives) are removed from a folder the first time a
  process writes there;
- a symbolic link: followed to its target, which is written by this rule; the link is kept;
- a device, a FIFO or an open descriptor (``/dev/null``, ``/dev/stdout``, ``/dev/fd/3``, a
  named pipe): written in place, streamed, without a temporary (what went out is out); a
  named pipe that no program reads is refused at once (``open_in_place``), never waited on;
- a folder: refused (``OutputError``).

A failure to write (a full or read-only disk, a file-size limit) is a ``WriteError``, which
names the output and says "cannot write". ``check_outputs`` refuses, before any work, an
output that is one of the inputs or another output of the same command.
"""

from __future__ import annotations

import errno
import io
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO

LINK_HOPS = 40  # as Linux's own limit on symbolic links followed in one path
_DESCRIPTOR_FOLDER = re.compile(r"/proc/[^/]+/fd")


class OutputError(ValueError):
    """An output path that must not be written (an input, another output, a folder)."""


class WriteError(OSError):
    """An output that could not be written; ``str()`` names it and says why."""

    def __str__(self) -> str:
        return f"{self.filename}: cannot write: {self.strerror}"


@dataclass(frozen=True)
class Target:
    """Where an output goes: ``path`` to write, ``in_place`` for a device, FIFO or open
    descriptor (streamed into as it is), else a regular file replaced atomically."""

    path: Path
    in_place: bool
    descriptor: bool = False  # /dev/stdout, /dev/fd/N: the caller's own open file


def output_target(path: str | os.PathLike) -> Target:
    """How ``path`` is written, by the rule of this module. Raises ``OutputError`` for a
    folder, ``WriteError`` for a loop of symbolic links."""
    followed, descriptor = _follow_links(os.fspath(path))
    if descriptor:
        return Target(Path(path), in_place=True, descriptor=True)
    try:
        mode = os.stat(followed).st_mode
    except FileNotFoundError:
        return Target(Path(followed), in_place=False)
    except OSError as error:
        raise as_write_error(error, path) from None
    if stat.S_ISDIR(mode):
        raise OutputError(f"{path}: is a folder, not a file: name a file in it")
    return Target(Path(followed), in_place=not stat.S_ISREG(mode))


def _follow_links(path: str) -> tuple[str, bool]:
    """The path a chain of symbolic links from ``path`` ends at, and whether it goes through
    a process's open descriptors (``/proc/<pid>/fd/N``, as ``/dev/stdout`` does), whose
    link text is no path to follow (``pipe:[1234]``)."""
    current = os.path.abspath(path)
    for _ in range(LINK_HOPS):
        parent = os.path.realpath(os.path.dirname(current))
        here = os.path.join(parent, os.path.basename(current))
        if _DESCRIPTOR_FOLDER.fullmatch(parent):
            return here, True
        if not os.path.islink(here):
            return here, False
        current = os.path.join(parent, os.readlink(here))
    raise WriteError(errno.ELOOP, os.strerror(errno.ELOOP), path)


class _GuardedFile(io.FileIO):
    """A file whose failed writes raise ``WriteError`` naming the output."""

    def __init__(self, descriptor: int, name: str | os.PathLike) -> None:
        super().__init__(descriptor, "w", closefd=True)
        self.output_name = os.fspath(name)

    def write(self, data) -> int | None:  # type: ignore[override]
        try:
            return super().write(data)
        except OSError as error:
            raise as_write_error(error, self.output_name) from None


def as_write_error(error: OSError, name: str | os.PathLike) -> WriteError:
    """``error``, met writing the output ``name``, as a ``WriteError`` naming it."""
    if isinstance(error, WriteError):
        return error
    number = error.errno or errno.EIO
    return WriteError(number, error.strerror or os.strerror(number), os.fspath(name))


def _stream(descriptor: int, name: str | os.PathLike, binary: bool, encoding: str) -> IO:
    buffered = io.BufferedWriter(_GuardedFile(descriptor, name))
    if binary:
        return buffered
    return io.TextIOWrapper(buffered, encoding=encoding, newline="")


def plain_writer(path: str | os.PathLike, *, binary: bool = True, encoding: str = "utf-8"
                 ) -> IO:
    """A stream on the file ``path``, created or emptied, written directly: for files with
    a commit rule of their own (a dataset's parts, ``replay.run.dataset``). Its failures, opening
    included, are ``WriteError``s naming it."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    except OSError as error:
        raise as_write_error(error, path) from None
    return _stream(handle, path, binary, encoding)


@contextmanager
def atomic_writer(path: str | os.PathLike, *, encoding: str = "utf-8",
                  binary: bool = False) -> Iterator[IO]:
    """A stream for the output ``path``, written by the rule of this module: a regular
    file's content replaces it atomically when the block succeeds; a device, FIFO or open
    descriptor is streamed into in place."""
    target = output_target(path)
    if target.in_place:
        with _in_place(target, path, binary, encoding) as stream:
            yield stream
        return
    final = target.path
    try:
        mode = stat.S_IMODE(os.stat(final).st_mode)  # a file replaced keeps its mode
    except OSError:
        mode = 0o666 & ~_umask()
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        clear_dead_parts(final.parent)
        handle, temporary = tempfile.mkstemp(prefix=f".{final.name}.{os.getpid()}.",
                                             suffix=".part", dir=final.parent)
    except OSError as error:
        raise as_write_error(error, path) from None
    try:
        with _stream(handle, path, binary, encoding) as stream:
            yield stream  # what the caller's block raises goes on as it is
            stream.flush()
            _written(lambda: os.fsync(stream.fileno()), path)
        _written(lambda: os.chmod(temporary, mode), path)  # mkstemp made it 0600
        _written(lambda: os.replace(temporary, final), path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# A temporary of ``atomic_writer``: ".NAME.PID." then mkstemp's eight characters, ".part".
_PART = re.compile(r"\..+\.([0-9]+)\.[a-z0-9_]{8}\.part")
_CLEARED: set[Path] = set()  # the folders whose dead parts this process removed


def clear_dead_parts(folder: Path) -> list[Path]:
    """Remove the temporaries of ``atomic_writer`` in ``folder`` whose process is gone (a
    process killed with SIGKILL leaves its part behind), once per folder and process; the
    parts removed. A part of a living process, or of one not told gone, is left; so is any
    other file."""
    if folder in _CLEARED:
        return []
    _CLEARED.add(folder)
    removed = []
    try:
        with os.scandir(folder) as entries:
            names = [entry.name for entry in entries if entry.name.endswith(".part")]
    except OSError:
        return []
    for name in names:
        found = _PART.fullmatch(name)
        if found is None or _alive(int(found.group(1))):
            continue
        try:
            (folder / name).unlink()
        except OSError:
            continue
        removed.append(folder / name)
    return removed


def _alive(pid: int) -> bool:
    """Whether process ``pid`` may exist (one of another user's counts as alive)."""
    if pid <= 0 or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def sync_folder(folder: Path) -> bool:
    """Put the data of every file written in ``folder`` on disk at once, before they are
    renamed into place: Linux's ``syncfs`` on the folder's file system, one call where a
    ``fsync`` a file costs a disk flush each (5 ms a file on this project's machine: 20 s
    for the 3,829 files of a split of OCA 2.0). False, nothing done, where the system has
    no ``syncfs``: the caller then syncs each file. Its failure is a ``WriteError``."""
    syncfs = _syncfs()
    if syncfs is None:
        return False
    handle = os.open(folder, os.O_RDONLY)
    try:
        if syncfs(handle) != 0:
            from ctypes import get_errno

            code = get_errno()
            raise WriteError(code, os.strerror(code), str(folder))
    finally:
        os.close(handle)
    return True


@cache
def _syncfs() -> Callable[[int], int] | None:
    """The C library's ``syncfs`` (Linux), None elsewhere; ``ctypes`` is imported here, by
    the few commands that write a folder of files, not at every command's start."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None


def _written(step, name: str | os.PathLike) -> None:
    """One step of putting the output in place; its failure a ``WriteError``."""
    try:
        step()
    except OSError as error:
        raise as_write_error(error, name) from None


def open_in_place(target: Target, name: str | os.PathLike) -> int:
    """A descriptor for writing a device, FIFO or descriptor target as it is: never
    truncated or replaced (an open descriptor is appended to, so ``>> log`` keeps what the
    log held). A named pipe is opened without waiting for a reader: one that no program
    reads is a ``WriteError`` at once (opening it for writing would block until a reader
    came, for ever if none does); its writes then block as usual while the reader is slow."""
    flags = os.O_WRONLY | (os.O_APPEND if target.descriptor else 0)
    try:
        fifo = stat.S_ISFIFO(os.stat(target.path).st_mode)
    except OSError:
        fifo = False
    try:
        handle = os.open(target.path, flags | (os.O_NONBLOCK if fifo else 0))
    except OSError as error:
        if fifo and error.errno == errno.ENXIO:
            raise WriteError(errno.ENXIO, "a named pipe that no program reads: start its "
                             "reader first", os.fspath(name)) from None
        raise as_write_error(error, name) from None
    if fifo:
        os.set_blocking(handle, True)
    return handle


def in_place_writer(target: Target, name: str | os.PathLike, *, encoding: str = "utf-8"
                    ) -> IO:
    """A text stream on a device, FIFO or descriptor target, opened by ``open_in_place``,
    for a command that writes it game by game over its run; the caller closes it."""
    return _stream(open_in_place(target, name), name, False, encoding)


@contextmanager
def _in_place(target: Target, name: str | os.PathLike, binary: bool, encoding: str
              ) -> Iterator[IO]:
    """A device, FIFO or descriptor opened as it is (``open_in_place``)."""
    handle = open_in_place(target, name)
    with _stream(handle, name, binary, encoding) as stream:
        yield stream
        stream.flush()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: str | os.PathLike, text: str) -> None:
    """Write a whole text file by the rule of ``atomic_writer``."""
    with atomic_writer(path) as stream:
        stream.write(text)


def same_file(first: str | os.PathLike, second: str | os.PathLike) -> bool:
    """Whether two paths name one file: the same resolved path, or (both existing) the same
    device and inode, so a hard link or another spelling is told apart by nothing."""
    try:
        if os.path.realpath(first) == os.path.realpath(second):
            return True
        return os.path.samefile(first, second)
    except (OSError, ValueError):
        return False


def _is_regular_or_new(path: str | os.PathLike) -> bool:
    """A regular file or a name not yet taken (what an output would replace)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return not os.path.lexists(path) or os.path.islink(path)


def refuse_overwriting_inputs(output: str | os.PathLike, inputs: Iterable[str | os.PathLike]
                              ) -> None:
    """Raise OutputError when ``output`` is one of the input files (by samefile, or the same
    path once links are resolved), or a folder."""
    check_outputs({str(output): output}, inputs)


def check_outputs(outputs: Mapping[str, str | os.PathLike | None],
                  inputs: Iterable[str | os.PathLike] = ()) -> None:
    """Refuse (``OutputError``) any output of one command that is an input, a folder, or
    the same file as another of its outputs. ``outputs`` maps the option's name (how the
    message names it) to its path; None and ``-`` (stdout) are skipped, and so are devices
    for the outputs among themselves (``/dev/null`` may take two of them)."""
    named = [(option, path) for option, path in outputs.items()
             if path is not None and os.fspath(path) != "-"]
    sources = [source for source in inputs if os.fspath(source) != "-"
               and "://" not in os.fspath(source)]
    for option, path in named:
        output_target(path)  # a folder, or a loop of links, is refused now
        for source in sources:
            if same_file(path, source):
                where = "" if option == os.fspath(path) else f" ({option})"
                raise OutputError(f"refusing to write {path}{where}: it is also an input")
    for index, (option, path) in enumerate(named):
        for other, second in named[index + 1:]:
            if _is_regular_or_new(path) and same_file(path, second):
                raise OutputError(f"{option} {path} and {other} {second} are the same file: "
                                  "give each output its own")
