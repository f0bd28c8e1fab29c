"""The rule of imports between the layers (docs/architecture.md): notation (``pdn``) imports
no rules and no tools; the rules core (``replay``'s own modules) imports only notation and
itself; the run machinery (``replay.run``) only notation; the tools (``replay``'s
subpackages) import notation, the core, the run machinery and other tools, with no circle
between two tools; the command line (``pdn.cli``) sits on top and nothing imports it.

Every import counts, those inside functions too, read from the source with ``ast``."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTATION, CORE, RUN, CLI = "pdn", "replay", "replay.run", "pdn.cli"
FACADES = {"replay"}  # replay/__init__.py names the tools' entry points, imported lazily
ALLOWED = {NOTATION: {NOTATION}, CORE: {NOTATION, CORE}, RUN: {NOTATION, RUN}}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[0] == "cli":
        parts = ["pdn", *parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _unit(module: str) -> str:
    """The layer or tool a module belongs to: pdn, pdn.cli, replay (the core), replay.X."""
    parts = module.split(".")
    if parts[:2] == ["pdn", "cli"]:
        return CLI
    if parts[0] == "pdn":
        return NOTATION
    package = ROOT.joinpath(*parts[:2])
    return f"replay.{parts[1]}" if len(parts) > 1 and package.is_dir() else CORE


def _imports(path: Path, module: str) -> set[str]:
    names = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                names.add(".".join([*base, *([node.module] if node.module else [])]))
            else:
                names.add(node.module or "")
    return {name for name in names if name.split(".")[0] in ("pdn", "replay")}


def _edges() -> dict[tuple[str, str], list[str]]:
    """(importing unit, imported unit) -> the imports that make the arrow."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for folder in ("pdn", "replay", "cli"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = _module(path)
            if module in FACADES:
                continue
            for target in _imports(path, module):
                here, there = _unit(module), _unit(target)
                if here != there:
                    edges[here, there].append(f"{module} -> {target}")
    return edges


def test_notation_core_and_run_machinery_import_only_the_layers_below():
    wrong = [arrow for (here, there), arrows in _edges().items() if here in ALLOWED
             and there not in ALLOWED[here] for arrow in arrows]
    assert wrong == []


def test_nothing_imports_the_command_line():
    assert [arrow for (here, there), arrows in _edges().items() if there == CLI
            for arrow in arrows] == []


def test_no_circle_between_two_tools():
    graph: dict[str, set[str]] = defaultdict(set)
    for here, there in _edges():
        graph[here].add(there)

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    circles = sorted(unit for unit in list(graph) if unit in reach(unit))
    assert circles == []


@pytest.mark.parametrize("module", ["replay.rules.board", "replay.archive.select", "pdn.cli.app"])
def test_the_map_sees_each_layer(module):
    """The check cannot pass by reading nothing: modules of each layer are found and
    import something of the project."""
    path = ROOT / (module.replace("pdn.cli", "cli").replace(".", "/") + ".py")
    assert _imports(path, module)
