"""The options the commands share, each defined once with one name and one meaning.

| option | meaning |
|---|---|
| ``PATHS`` | files, directories (searched for record files) or ``-`` for stdin |
| ``--encoding`` | the input's text encoding (default: detected) |
| ``--variant/-v`` | the variant of games without a GameType tag (default: told from each record) |
| ``--ignore-gametype`` | use ``--variant`` even where a game's GameType tag says otherwise |
| ``--rule/-r NAME=VALUE`` | a rule option set on top of every game's variant (repeatable) |
| ``--no-forced-capture`` | the same as ``--rule forced-capture=no`` |
| ``--jobs/-j`` | worker processes (0: one per usable core when the input is large) |
| ``--runner`` | ``local`` (this machine's processes) or ``dask`` (a Dask cluster) |
| ``--scheduler`` | with ``--runner dask``: a running cluster's scheduler (else a local cluster) |
| ``--output/-o`` | where to write (atomically; ``-`` or nothing: stdout, where a stream fits) |
| ``--json`` | one JSON object per line instead of text |
| ``--verbose`` | every note printed (else a kind repeated is shown once with its count) |

``pdn moves`` and ``pdn perft`` work on one position, not on games: there ``--variant`` is the
variant of that position (``VariantOption``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from pdn.i18n import N_, Catalog
from replay.rules.choice import RulesChoice
from replay.rules.variants import (
    RULE_OPTIONS,
    UnknownRuleError,
    UnknownVariantError,
    Variant,
    get_variant,
    parse_rules,
    variant_names,
    with_rules,
)
from replay.run import RUNNERS

from .common import fail


def parse_variant(text: str) -> Variant:
    """Typer parser for a variant: a name, an alias or a GameType number."""
    try:
        return get_variant(text)
    except UnknownVariantError as error:
        raise typer.BadParameter(str(error)) from None


PathsArgument = Annotated[list[str], typer.Argument(
    help="PDN files, directories (searched for *.pdn, *.phn and *.txt) or - for stdin.",
    show_default=False)]
EncodingOption = Annotated[str | None, typer.Option(
    "--encoding", help="Input encoding (default: detected; UTF-8, Windows-1251 or Latin-1).")]
UntaggedVariantOption = Annotated[Variant | None, typer.Option(
    "--variant", "-v", parser=parse_variant, metavar="VARIANT",
    help="Variant of games without a GameType tag (default: told from each record: its "
    "Variant tag, FEN, squares and moves; see docs/inference.md).")]
IgnoreGameTypeOption = Annotated[bool, typer.Option(
    "--ignore-gametype", help="Use --variant even where a game's GameType tag says otherwise.")]
VariantOption = Annotated[Variant, typer.Option(
    "--variant", "-v", parser=parse_variant, metavar="VARIANT",
    help=f"Variant name or GameType number ({', '.join(variant_names())}).")]
GameVariantOption = Annotated[Variant | None, typer.Option(
    "--game-variant", parser=parse_variant, metavar="VARIANT",
    help="Select the games of this variant (by GameType tag, --variant, or as told from the "
    "record).")]
RulesOption = Annotated[list[str] | None, typer.Option(
    "--rule", "-r", metavar="NAME=VALUE",
    help="Set a rule on top of each game's variant (repeatable; docs/rules.md): " + "; ".join(
        f"{o.name}={'|'.join(o.values)}" for o in RULE_OPTIONS.values()) + ".")]
NoForcedCaptureOption = Annotated[bool, typer.Option(
    "--no-forced-capture", help="Captures are optional, a house rule (the same as --rule "
    "forced-capture=no).")]
# Selection criteria, shared by pdn filter and pdn search.
TagOption = Annotated[list[str] | None, typer.Option(
    "--tag", metavar="NAME=VALUE", help="A tag matches a glob, or a regex written /re/ "
    "(repeatable).")]
PlayerOption = Annotated[list[str] | None, typer.Option(
    metavar="NAME",
    help="A player on either side; names match ignoring case, spacing and word order.")]
WhiteOption = Annotated[list[str] | None, typer.Option(metavar="NAME", help="The White player.")]
BlackOption = Annotated[list[str] | None, typer.Option(metavar="NAME", help="The Black player.")]
DateFromOption = Annotated[str | None, typer.Option(
    metavar="DATE", help="Played on or after (1990, 1990.06, 1990.06.01).")]
DateToOption = Annotated[str | None, typer.Option(metavar="DATE", help="Played on or before.")]
MovesOption = Annotated[str | None, typer.Option(
    help='Games starting with these moves, in any notation ("1.c3-d4 f6-g5", "cd4 fg5").')]
PositionOption = Annotated[str | None, typer.Option(
    metavar="FEN", help="Games reaching this position (side to move included).")]
MaterialOption = Annotated[str | None, typer.Option(
    help='Material at the end, e.g. "W:3K1M B:1K" (K kings, M men).')]
MaterialAnyPlyOption = Annotated[bool, typer.Option(
    help="--material at any ply rather than at the end.")]
JOBS_PER_CORE = 4  # more processes than this only wait for a core and take memory
MAX_JOBS = JOBS_PER_CORE * (os.cpu_count() or 1)


def capped_jobs(jobs: int) -> int:
    """--jobs, at most ``MAX_JOBS`` (four per core): more is lowered to that, with a note."""
    if jobs > MAX_JOBS:
        from .common import stderr_console

        stderr_console().print(f"note: --jobs {jobs} lowered to {MAX_JOBS} "
                               f"({JOBS_PER_CORE} per core of this machine)")
        return MAX_JOBS
    return jobs


JobsOption = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, metavar="N", callback=capped_jobs,
    help="Worker processes, each reading its own byte ranges of the files. Default 0: one "
    "per core this process may use, once more than 256 KB have been read (smaller input, or "
    f"one core: this process alone); 1: this process alone. At most {JOBS_PER_CORE} per "
    f"core, {MAX_JOBS} here.")]
RunnerOption = Annotated[str, typer.Option(
    "--runner", metavar="RUNNER",
    help="local (this machine's processes) or dask (a Dask cluster; the dask extra).")]
SchedulerOption = Annotated[str | None, typer.Option(
    "--scheduler", metavar="ADDRESS", envvar="DASK_SCHEDULER_ADDRESS", show_envvar=True,
    help="With --runner dask: a running cluster's scheduler (tcp://host:8786); without it a "
    "local cluster of --jobs worker processes.")]
OutputOption = Annotated[str | None, typer.Option(
    "--output", "-o", metavar="FILE",
    help="Write here (atomically, never over an input); - or nothing: stdout.", show_default=False)]
JsonOption = Annotated[bool, typer.Option("--json", help="One JSON object per line.")]
VerboseOption = Annotated[bool, typer.Option(
    "--verbose", help="Print every note; without it a kind repeated in a file (or a game) is "
    "shown once with its count.")]
LangOption = Annotated[str | None, typer.Option(
    "--lang", help="The language of the messages for people: en, ru or th (default: from "
    "LC_ALL, LC_MESSAGES or LANG, else English). JSON, codes and PDN stay as they are.",
    show_default=False)]


def words_for(lang: str | None) -> Catalog:
    """The catalog of ``--lang``, else of the environment's language (a usage error names
    the languages there are)."""
    from pdn.i18n import catalog, check_language, choose

    if lang is not None:
        try:
            check_language(lang)
        except ValueError as error:
            from .common import fail

            fail(str(error))
    from .common import speak

    words = catalog(choose(lang))
    speak(words)
    return words


def variant_choice(variant: Variant | None, ignore_gametype: bool = False,
                   rules: list[str] | None = None, no_forced_capture: bool = False) -> RulesChoice:
    """The shared variant options as one value; a usage error (exit 2) when they are bad."""
    if ignore_gametype and variant is None:
        fail(N_("--ignore-gametype needs --variant"))
    return RulesChoice(variant, variant if ignore_gametype else None,
                       rule_options(rules, no_forced_capture) or None)


def check_engine(engine: str, engine_cmd: str | None, choices: tuple[str, ...]) -> None:
    """A usage error (exit 2) for a bad ``--engine`` / ``--engine-cmd`` pair: ``choices``
    are the engines the command takes (``builtin``, ``hub``, perhaps ``none``)."""
    if engine not in choices:
        fail(f"--engine is {', '.join(choices[:-1])} or {choices[-1]}, not {engine!r}")
    if engine_cmd is not None and not engine_cmd.strip():
        fail('--engine-cmd is empty: give the Hub engine\'s command, e.g. --engine-cmd '
             '"dame hub", or leave it out for the built-in engine')
    if engine == "hub" and engine_cmd is None:
        fail('give the Hub engine with --engine-cmd, e.g. --engine-cmd "dame hub"')
    if engine_cmd is not None and engine == "none":
        fail("--engine none takes no --engine-cmd")


def rule_options(rules: list[str] | None, no_forced_capture: bool = False) -> dict[str, str]:
    """The --rule options (and --no-forced-capture) as a checked mapping; a usage error when
    one is malformed or unknown."""
    try:
        changes = parse_rules(rules or [])
    except UnknownRuleError as error:
        raise typer.BadParameter(str(error), param_hint="--rule") from None
    if no_forced_capture:
        changes["forced-capture"] = "no"
    return changes


def ruled_variant(variant: Variant, rules: list[str] | None, no_forced_capture: bool = False
                  ) -> Variant:
    """One position's variant with the user's --rule options set."""
    return with_rules(variant, rule_options(rules, no_forced_capture))


def check_runner(runner: str, scheduler: str | None) -> None:
    """A usage error (exit 2) for a bad choice of runner."""
    if runner not in RUNNERS:
        fail(N_("--runner must be local or dask, not '{value}'").format(value=runner))
    if scheduler and runner != "dask":
        fail(N_("--scheduler needs --runner dask"))


def output_path(output: str | None) -> Path | None:
    """The file an --output names (None for stdout)."""
    return None if output in (None, "-") else Path(output)
