"""The house rules, run by the test command (and so by CI): lint, format, types and the layer contracts.

Each check runs the real tool from this venv over the repository and fails with the tool's own output, so a failure
names the file and line. The contracts themselves are in pyproject.toml ([tool.importlinter]); docs/architecture.md
explains them.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(tool: str, *args: str, timeout: float = 600) -> None:
    exe = shutil.which(tool, path=str(BIN)) or shutil.which(tool)
    assert exe, f"{tool} is not installed: pip install -e '.[test]'"
    out = subprocess.run([exe, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        pytest.fail(f"{tool} {' '.join(args)} failed ({out.returncode}):\n{out.stdout}\n{out.stderr}", pytrace=False)


def test_ruff_check() -> None:
    _run("ruff", "check", ".")


def test_ruff_format() -> None:
    _run("ruff", "format", "--check", ".")


@pytest.mark.slow
def test_mypy() -> None:
    _run("mypy", "app/rigplan")


def test_import_contracts() -> None:
    """Layers point down, cli never imports gui, Qt stays in gui and render, no cycles ([tool.importlinter])."""
    _run("lint-imports", "--no-cache", "--no-logo")


def test_benchmarks_import_nothing_from_tests() -> None:
    """A benchmark runs without pytest and without the test modules (shared reference code lives in benchmarks/)."""
    import ast

    offenders = []
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0].startswith(("test", "conftest"))]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in {"pytest", "pytestqt"}]
    assert offenders == []
