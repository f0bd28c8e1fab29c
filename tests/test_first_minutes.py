"""What a newcomer meets first: ``make demo`` says what it does and how long it takes, ``make
docs`` builds from the installed tree without reinstalling, and the documentation site fails
to build on a broken link or anchor (MkDocs' ``validation`` settings under ``strict``)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from conftest import ROOT, require


def _make(*args: str, venv: Path) -> str:
    """What ``make -n`` would run, with the venv at ``venv`` (a dry run: nothing installed)."""
    require(shutil.which("make") is not None, "make")
    done = subprocess.run(["make", "--no-print-directory", "-n", *args, f"VENV={venv}"],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    return done.stdout


@pytest.fixture
def installed(tmp_path: Path) -> Path:
    """A venv that looks installed: ``pdn`` and ``mkdocs`` are there."""
    (tmp_path / "bin").mkdir()
    for name in ("pdn", "mkdocs", "python"):
        (tmp_path / "bin" / name).write_text("#!/bin/sh\n")
        (tmp_path / "bin" / name).chmod(0o755)
    return tmp_path


def test_the_install_says_what_it_does_and_how_long_before_it_starts(installed: Path):
    steps = _make("-B", str(installed / "bin" / "pdn"), venv=installed).splitlines()
    assert steps[0].startswith("echo") and "one to three minutes" in steps[0], steps
    assert any("pip install" in step for step in steps[2:])


def test_docs_build_from_the_installed_tree_even_after_an_edit_of_the_rules_core(
        installed: Path):
    """An edited compiled module makes ``.venv/bin/pdn`` out of date; ``make docs`` reads the
    sources, so it neither reinstalls nor recompiles (it did, for 2 min 47 s)."""
    steps = _make("-W", "replay/rules/position.py", "docs", venv=installed)
    assert "mkdocs build --strict" in steps
    assert "pip install --quiet -e" not in steps, steps


def test_the_readme_says_how_long_the_tests_take_and_names_a_quick_subset():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "15–25 minutes" in readme and "make test-quick" in readme
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    quick = makefile.split("QUICK_TESTS = ", 1)[1].split("\n", 1)[0].split()
    assert quick and all((ROOT / path).exists() for path in quick), quick


def _build(config: Path, site: Path) -> subprocess.CompletedProcess:
    require(find_spec("mkdocs") is not None, "MkDocs (the docs extra)")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f",
                           str(config), "-d", str(site)], cwd=config.parent,
                          capture_output=True, text=True, env={"NO_MKDOCS_2_WARNING": "1",
                                                               "PATH": "/usr/bin:/bin"})


def test_the_site_builds_with_every_anchor_found(tmp_path: Path):
    """The three anchors that pointed at nothing (statistics.md and validate.md to
    #running-on-a-cluster, usage.md to #variants-and-rule-options) now point at headings."""
    built = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert built.returncode == 0, built.stderr[-3000:]


def test_a_broken_anchor_fails_the_build_under_the_projects_settings(tmp_path: Path):
    require(find_spec("mkdocs") is not None and find_spec("yaml") is not None,
            "MkDocs and PyYAML (the docs extra)")
    import yaml

    settings = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n## Installing\n\nSee [there](other.md#nowhere).\n")
    (docs / "other.md").write_text("# Other\n\nBack [home](index.md#installing).\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"site_name": "t", "docs_dir": str(docs),
                                      "strict": settings["strict"],
                                      "validation": settings["validation"]}))
    built = _build(config, tmp_path / "site")
    assert built.returncode != 0
    assert "'other.md' does not contain an anchor '#nowhere'" in built.stderr, built.stderr
    (docs / "index.md").write_text("# Home\n\n## Installing\n\nSee [there](other.md#other).\n")
    assert _build(config, tmp_path / "site").returncode == 0
