"""The house rules, run by the test command (and so by CI): lint, format, types, the layer contracts, complexity and
module length.

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


def test_no_function_is_radon_e_or_f() -> None:
    """Cyclomatic complexity: no function at radon's grade E (31-40) or F (41+) anywhere in the package; split it by
    the decisions it takes instead. radon's exit code is 0 whatever it finds, so the listing itself is the verdict."""
    exe = shutil.which("radon", path=str(BIN)) or shutil.which("radon")
    assert exe, "radon is not installed: pip install -e '.[test]'"
    out = subprocess.run([exe, "cc", "-s", "-n", "E", "app/rigplan"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    offenders = [line.strip() for line in out.stdout.splitlines() if line.startswith(" ")]
    assert offenders == [], "functions at radon E/F:\n" + out.stdout


MAX_LINES = 400
WHY = "over 400 lines"  # the module docstring's sentence saying why it is longer


def test_no_module_over_400_lines_without_saying_why() -> None:
    """A module past 400 lines is split by responsibility, or its docstring says why not ("Over 400 lines: ...")."""
    import ast

    long = []
    for folder in ("app", "tools", "benchmarks", "tests"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            text = path.read_text("utf-8")
            if text.count("\n") <= MAX_LINES:
                continue
            doc = ast.get_docstring(ast.parse(text)) or ""
            if WHY not in doc.lower():
                long.append(f"{path.relative_to(ROOT)}: {text.count(chr(10))} lines")
    assert long == []


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
