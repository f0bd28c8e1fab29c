"""What the tests import, against what ``make test`` installs: the README's test command must
pass on a fresh clone, where only the project's dependencies and the extras of the Makefile's
install recipe are present. Every third-party module a test module imports is one of those,
or the test asks for it first the suite's way for an optional component (``require`` of
``conftest``, or ``pytest.importorskip``): a guard before the import, in the same function (or
one around it) or in a fixture the function takes, that names the module or the extra it comes
with. A test that imports PyYAML before asking for MkDocs (the docs extra) fails here, not on a
newcomer's machine.

Every import counts, those inside functions too, read from the source with ``ast``."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
OWN = {"pdn", "replay", "cli"}  # the project's packages (cli installs as pdn.cli)
GUARDS = {"require", "importorskip"}


@dataclass(frozen=True)
class Import:
    """One import of a third-party module in a test module, with the guards before it."""

    path: Path
    line: int
    module: str
    guards: tuple[str, ...]  # the source text of each guard that runs before it


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def make_test_extras() -> list[str]:
    """The extras of the install recipe behind ``make test`` (the venv's ``$(BIN)/pdn``)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("\n$(BIN)/pdn:"):]
    recipe = recipe[:recipe.index("\n\n")]
    found = re.search(r"pip install [^\n]*-e '\.\[([a-z,]+)\]'", recipe)
    assert found, "the Makefile's install recipe names no extras"
    return found.group(1).split(",")


def _closure(requirements: list[str]) -> set[str]:
    """The distributions these requirements bring, following the installed ones' own
    requirements (with their markers and extras)."""
    seen: set[str] = set()
    todo = [(Requirement(text), "") for text in requirements]
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        if name in seen and not requirement.extras:
            continue
        seen.add(name)
        try:
            needs = metadata.requires(requirement.name) or []
        except metadata.PackageNotFoundError:
            continue
        for wanted in ("", *requirement.extras):
            todo += [(Requirement(text), wanted) for text in needs
                     if wanted or "extra ==" not in text]
    return seen


@cache
def installed_by_make_test() -> frozenset[str]:
    project = _project()
    extras = project["optional-dependencies"]
    wanted = [*project["dependencies"]]
    for extra in make_test_extras():
        wanted += extras[extra]
    return frozenset(_closure(wanted))


@cache
def extras_bringing() -> dict[str, frozenset[str]]:
    """Each extra of the project -> the distributions it brings."""
    return {extra: frozenset(_closure(needs))
            for extra, needs in _project()["optional-dependencies"].items()}


@cache
def _distributions() -> dict[str, list[str]]:
    return metadata.packages_distributions()


def distributions_of(module: str) -> set[str]:
    return {canonicalize_name(name) for name in _distributions().get(module, [])}


@cache
def local_modules() -> frozenset[str]:
    """Modules the tests import from the tree itself: their own helpers and ``bench/``."""
    names = set()
    for folder in (ROOT / "tests", ROOT / "bench"):
        names |= {path.stem for path in folder.rglob("*.py")}
        names |= {path.parent.name for path in folder.rglob("__init__.py")}
    return frozenset(names)


def _is_guard(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    function = node.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
    return name in GUARDS


def _guards(body: ast.AST, before: int, source: str) -> list[str]:
    return [ast.get_source_segment(source, node) or "" for node in ast.walk(body)
            if _is_guard(node) and node.lineno < before]


def _fixtures(paths: list[Path]) -> dict[str, list[str]]:
    """A fixture's name -> the guards in its body (fixtures of conftest files and of the
    module itself, looked up by name as pytest does)."""
    found: dict[str, list[str]] = {}
    for path in paths:
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef) and any(
                    "fixture" in ast.unparse(decorator) for decorator in node.decorator_list):
                found[node.name] = _guards(node, sys.maxsize, source)
    return found


def _imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name.split(".")[0] for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module.split(".")[0]]
    return []


def _third_party(module: str) -> bool:
    return not (module in sys.stdlib_module_names or module in OWN or module == "__future__"
                or module in local_modules())


def imports_of(path: Path) -> Iterator[Import]:
    """Every third-party import of a test module, each with the guards that run before it:
    those of the functions around it and of the fixtures they take."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    tests = ROOT / "tests"
    conftests = [folder / "conftest.py" for folder in path.parents
                 if (folder / "conftest.py").exists() and tests in (folder, *folder.parents)]
    fixtures = _fixtures([*conftests, path])

    def visit(node: ast.AST, around: list[ast.AST]) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from visit(child, [*around, child])
                continue
            for module in _imported(child):
                if not _third_party(module):
                    continue
                guards = [text for scope in around
                          for text in _guards(scope, child.lineno, source)]
                for scope in around[1:]:
                    for argument in scope.args.args:  # type: ignore[attr-defined]
                        guards += fixtures.get(argument.arg, [])
                yield Import(path, child.lineno, module, tuple(guards))
            yield from visit(child, around)

    module_level = ast.Module(body=[s for s in tree.body if not isinstance(
        s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)], type_ignores=[])
    yield from visit(tree, [module_level])


def covered(found: Import) -> bool:
    """Installed by ``make test``, or asked for by a guard that names the module, its
    distribution or an extra that brings it (only a module that is installed here tells its
    distribution: a guard for one that is not names the module itself)."""
    distributions = distributions_of(found.module)
    if distributions & installed_by_make_test():
        return True
    names = {found.module, *distributions}
    names |= {f"{extra} extra" for extra, brought in extras_bringing().items()
              if distributions & brought}
    return any(name in guard for guard in found.guards for name in names)


def _test_modules() -> list[Path]:
    return sorted((ROOT / "tests").rglob("*.py"))


def test_every_third_party_import_of_the_tests_is_installed_or_asked_for():
    missing = [f"{found.path.relative_to(ROOT)}:{found.line}: {found.module}"
               for path in _test_modules() for found in imports_of(path) if not covered(found)]
    assert not missing, ("imported by a test, neither installed by make test nor asked for "
                         "first with require() or pytest.importorskip():\n" + "\n".join(missing))


def test_the_check_finds_an_import_made_before_its_guard(tmp_path):
    """The case it was written for: PyYAML (with MkDocs, the docs extra) imported before the
    test asks for MkDocs; once asked for first, the same import is covered."""
    test = tmp_path / "test_yaml.py"
    test.write_text("def test_site():\n    import yaml\n"
                    "    require(find_spec('mkdocs'), 'MkDocs (the docs extra)')\n")
    (found,) = imports_of(test)
    assert found.module == "yaml" and not found.guards and not covered(found)
    test.write_text("def test_site():\n"
                    "    require(find_spec('mkdocs') and find_spec('yaml'), 'MkDocs')\n"
                    "    import yaml\n")
    (found,) = imports_of(test)
    assert found.guards and covered(found)


def test_a_fixture_that_asks_for_a_component_covers_the_tests_that_take_it(tmp_path):
    test = tmp_path / "test_cluster.py"
    test.write_text("import pytest\n\n@pytest.fixture\ndef cluster():\n"
                    "    require(find_spec('distributed'), 'dask.distributed (the dask extra)')\n\n"
                    "def test_work(cluster):\n    import not_a_real_module_here\n"
                    "    import distributed\n")
    unknown, distributed = [found for found in imports_of(test) if found.module != "pytest"]
    assert not covered(unknown)  # installed by nothing, and no guard names it
    assert covered(distributed)


def test_the_makefiles_install_recipe_is_read():
    extras = make_test_extras()
    assert "dev" in extras and set(extras) <= set(_project()["optional-dependencies"])
    assert {"lark", "pandas", "typer", "pytest"} <= installed_by_make_test()
