"""The help and the usage errors of every command, in one style.

Help names what a value is (``FILE``, ``NAME=VALUE``, ``N``), never its Python type, and a
flag takes no value so shows none. A usage error (a missing argument, a bad value, an unknown
option or command) is printed as every other error is, ``error: ...`` on stderr (see
``cli.common.fail``), with exit status 2.
"""

from __future__ import annotations

import sys
from typing import Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from .values import plain_runtime


class _NamedArgument(TyperArgument):
    """An argument shown by its name alone (``PATHS``), without a type after it."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None


def plain_metavars(params: list) -> list:
    """The parameters with a metavar each: their own, else none for a flag, else their name
    in capitals (``--encoding ENCODING``); their plain values checked without pydantic
    (``cli.values``)."""
    for param in params:
        plain_runtime(param)
        if isinstance(param, TyperArgument):
            if param.metavar is None:
                param.metavar = (param.name or "").upper()
            param.__class__ = _NamedArgument
        elif isinstance(param, TyperOption) and param.metavar is None:
            param.metavar = "" if param.is_flag or param.count else (param.name or "").upper()
    return params


# Options renamed, kept working under their old names for one release (not in the help).
RENAMED_OPTIONS = {"--engine": "--runner"}


def renamed_options(args: list[str], known: set[str]) -> list[str]:
    """The arguments with an option's old name replaced by its new one (``--engine dask``
    or ``--engine=dask`` becomes ``--runner ...``) where the command has the new option.

    >>> renamed_options(["a.pdn", "--engine=dask", "--jobs", "2"], {"--runner", "--jobs"})
    ['a.pdn', '--runner=dask', '--jobs', '2']
    """
    renamed = []
    for arg in args:
        if arg == "--":
            renamed.extend(args[len(renamed):])
            break
        name, equals, value = arg.partition("=")
        new = RENAMED_OPTIONS.get(name)
        renamed.append(f"{new}{equals}{value}" if new in known else arg)
    return renamed


def reflowed(text: str | None) -> str | None:
    """Help text with each paragraph on one line, for rich to wrap to the terminal: a
    docstring's line breaks would otherwise stay where they are, mid-sentence.

    >>> reflowed("Remove duplicate games,\\n    keeping one.\\n\\n    Exit status: 0 done.")
    'Remove duplicate games, keeping one.\\n\\nExit status: 0 done.'
    """
    if not text:
        return text
    import inspect

    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in paragraph.splitlines())
                         for paragraph in paragraphs)


class PdnCommand(TyperCommand):
    """A command whose help shows plain metavars, whose help paragraphs are wrapped to the
    terminal, and which takes the old names of renamed options."""

    def __init__(self, *args: Any, **settings: Any) -> None:
        super().__init__(*args, **settings)
        self.help = reflowed(self.help)

    def get_params(self, ctx: Any) -> list:
        return plain_metavars(super().get_params(ctx))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        known = {name for param in self.params for name in getattr(param, "opts", ())}
        return super().parse_args(ctx, renamed_options(list(args), known))


class PdnGroup(TyperGroup):
    """The ``pdn`` group: plain metavars, and usage errors as ``error: ...`` lines."""

    def get_params(self, ctx: Any) -> list:
        return plain_metavars(super().get_params(ctx))

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any
             ) -> Any:
        from .common import forget_spoken

        forget_spoken()  # each run chooses its language afresh (tests run many in one process)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            sys.stdout.flush()  # a stdout that refuses the last lines is said here, not at exit
        except typer.Abort:
            print("aborted", file=sys.stderr)
            code = 1
        except Exception as error:
            from .common import fail_stdout, stdout_refused

            if stdout_refused(error):
                fail_stdout(error)  # a full disk or /dev/full on stdout, in any command
            if _is_output_error(error):
                from .common import fail

                fail(str(error))  # an output refused or that cannot be written, anywhere
            if not _is_usage_error(error):
                raise
            usage_error(error)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def _is_output_error(error: Exception) -> bool:
    from replay.run.output import OutputError, WriteError

    return isinstance(error, (OutputError, WriteError))


def _is_usage_error(error: Exception) -> bool:
    from typer._click.exceptions import ClickException

    return isinstance(error, ClickException)


def usage_error(error: Any) -> None:
    """Print a usage error as ``error: ...`` with where to find the usage; exit 2."""
    from typer._click.exceptions import NoArgsIsHelpError

    from .common import fail

    message = error.format_message()
    if isinstance(error, NoArgsIsHelpError):  # no arguments: the help, on stdout, is the answer
        print(message)
        sys.exit(error.exit_code)
    if not message:  # no arguments, with rich's help: already printed
        sys.exit(error.exit_code)
    context = getattr(error, "ctx", None)
    where = f" (see {context.command_path} --help)" if context is not None else ""
    fail(message[:1].lower() + message[1:].rstrip(".") + where, error.exit_code,
         translate=False)  # click's own words stay English (docs/languages.md)


class PdnTyper(typer.Typer):
    """A Typer app whose commands are ``PdnCommand`` and whose group is ``PdnGroup``."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(cls=PdnGroup, **settings)

    def command(self, name: str | None = None, **settings: Any) -> Any:
        settings.setdefault("cls", PdnCommand)
        return super().command(name, **settings)
