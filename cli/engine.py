"""The options that choose where the work runs: ``--engine`` and ``--scheduler``."""

from __future__ import annotations

from typing import Annotated

import typer

ENGINE_CHOICES = ("local", "dask")

EngineOption = Annotated[str, typer.Option(
    "--engine", help="local (this machine's processes) or dask (a Dask cluster; the dask "
    "extra).")]
SchedulerOption = Annotated[str | None, typer.Option(
    "--scheduler", envvar="DASK_SCHEDULER_ADDRESS", show_envvar=True,
    help="With --engine dask: a running cluster's scheduler (tcp://host:8786); without it a "
    "local cluster of --jobs worker processes.")]


def check_engine(engine: str, scheduler: str | None) -> str | None:
    """A usage error's message for a bad choice of engine, else None."""
    if engine not in ENGINE_CHOICES:
        return f"--engine must be local or dask, not '{engine}'"
    if scheduler and engine != "dask":
        return "--scheduler needs --engine dask"
    return None
