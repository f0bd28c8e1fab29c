"""The rule of imports between the floors (docs/architecture.md), read from the source.

Floors, from the ground up: notation (``pdn``); the rules of play (``replay.rules``) and, beside
them, the run machinery (``replay.run``); the record read on the rules (``replay.record``);
reference data (``replay.reference``); the tools (``replay``'s other folders); the public
front door (``replay/__init__.py``); the command line (``pdn.cli``). A module imports only
its own folder and the floors below; tools may import other tools. There is no circle of
imports anywhere, between two modules or through many, and no folder's C includes a file of a
floor above it.

Every import counts, those inside functions and under ``if TYPE_CHECKING:`` too, read with
``ast``; a C file's ``#include "..."`` too."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Each unit's floor; every tool folder of replay/ not named here is on TOOLS' floor.
FLOORS = {"pdn": 0, "replay.rules": 1, "replay.run": 1, "replay.record": 2,
          "replay.reference": 3, "replay": 5, "pdn.cli": 6}
TOOLS = 4
# replay/'s root holds the front door and at most this many other modules: the rest are in
# the folders of their floor.
LOOSE_AT_ROOT = 4


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[0] == "cli":
        parts = ["pdn", *parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> dict[str, Path]:
    return {_module(path): path for folder in ("pdn", "replay", "cli")
            for path in sorted((ROOT / folder).rglob("*.py"))}


MODULES = _sources()


def _unit(module: str) -> str:
    """The folder a module belongs to: pdn, pdn.cli, replay (its root), replay.X."""
    parts = module.split(".")
    if parts[:2] == ["pdn", "cli"]:
        return "pdn.cli"
    if parts[0] == "pdn":
        return "pdn"
    if len(parts) > 1 and ROOT.joinpath(*parts[:2]).is_dir():
        return f"replay.{parts[1]}"
    return "replay"


def _floor(unit: str) -> int:
    return FLOORS.get(unit, TOOLS)


def _target(name: str) -> str | None:
    """The module of the project an imported name is (or is in), None if none."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(path: Path, module: str) -> set[str]:
    """The project's modules ``module`` imports, every import of its source counted."""
    names = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    found = {_target(name) for name in names if name.split(".")[0] in ("pdn", "replay")}
    # ``from replay.rules import native`` names the package too: the submodule is the import
    return {name for name in found if name and name != module
            and not any(other.startswith(name + ".") for other in found)}


def _graph() -> dict[str, set[str]]:
    return {module: _imports(path, module) for module, path in MODULES.items()}


GRAPH = _graph()


def imports_up(graph: dict[str, set[str]]) -> list[str]:
    """The imports of a floor above the importer's (tools may import other tools)."""
    return [f"{module} -> {target}" for module, targets in graph.items() for target in targets
            if _unit(module) != _unit(target) and _floor(_unit(target)) >= _floor(_unit(module))
            and not _floor(_unit(module)) == _floor(_unit(target)) == TOOLS]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of a graph: its strongly connected components of more than one node
    (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:  # a few hundred modules: well within the recursion limit
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = [stack.pop()]
            while component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _folders(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The graph of the folders: an arrow where a module of one imports one of another."""
    folders: dict[str, set[str]] = defaultdict(set)
    for module, targets in graph.items():
        folders[_unit(module)].update(_unit(target) for target in targets
                                      if _unit(target) != _unit(module))
    return folders


def test_no_module_imports_a_floor_above_its_own():
    assert imports_up(GRAPH) == []


def test_no_circle_of_imports_between_modules():
    assert circles(GRAPH) == []


def test_no_circle_between_folders():
    assert circles(_folders(GRAPH)) == []


def test_nothing_imports_the_command_line():
    assert [f"{module} -> {target}" for module, targets in GRAPH.items() for target in targets
            if _unit(target) == "pdn.cli" and _unit(module) != "pdn.cli"] == []


def test_c_sources_include_only_their_folder_and_the_floors_below():
    wrong = []
    for path in sorted([*ROOT.glob("pdn/**/*.c"), *ROOT.glob("replay/**/*.c")]):
        unit = _unit(_module(path))
        for name in re.findall(r'^\s*#\s*include\s+"([^"]+)"', path.read_text(encoding="utf-8"),
                               re.MULTILINE):
            included = _unit(_module((path.parent / name).resolve()))
            if included != unit and _floor(included) >= _floor(unit):
                wrong.append(f"{path.relative_to(ROOT)} includes {name}")
    assert wrong == []


def test_the_root_of_replay_shows_its_floors_as_folders():
    loose = sorted(path.name for path in (ROOT / "replay").glob("*.py")
                   if path.name != "__init__.py")
    assert len(loose) <= LOOSE_AT_ROOT, loose
    assert sorted(path.name for path in (ROOT / "replay").glob("*.c")) == []


@pytest.mark.parametrize(("module", "expected"), [
    ("replay.rules.position", {"replay.rules.movegen", "replay.rules.move"}),
    ("replay.record.board", {"replay.record.resolve", "replay.rules.position"}),
    ("replay.archive.select", {"replay.record.criteria"}),
    ("pdn.cli.app", {"pdn.cli.command", "pdn.cli.common"}),  # command modules: imported by name
])
def test_the_map_sees_each_floor(module, expected):
    """The checks cannot pass by reading nothing: modules of each floor are found with the
    imports they make."""
    assert expected <= GRAPH[module]


def test_the_checks_see_a_circle_and_an_import_up():
    """A made graph: the checks find what they look for."""
    made = {"replay.rules.board": {"replay.record.board"},  # a rule reaching up, in a circle
            "replay.record.board": {"replay.rules.board"},
            "replay.archive.run": {"replay.stats.tables"},  # two tools in a circle
            "replay.stats.tables": {"replay.archive.run"},
            "replay.convert.games": {"replay.validate.report"}}  # tool to tool: allowed
    assert imports_up(made) == ["replay.rules.board -> replay.record.board"]
    assert circles(made) == [["replay.archive.run", "replay.stats.tables"],
                             ["replay.record.board", "replay.rules.board"]]
    assert circles(_folders(made)) == [["replay.archive", "replay.stats"],
                                       ["replay.record", "replay.rules"]]
