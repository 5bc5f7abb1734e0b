"""The CLI imports only the command it runs (rigplan.cli.main.build_parser): `rigplan prices status` never loads the
rules, the suggester or the workload planner. Registering all twelve command modules cost every CLI run about 0.3 s
of CPU before it read its first argument (issue 34, suite time). The one-command parser reads its arguments exactly
as the full one does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rigplan.cli.main import COMMAND_MODULES, build_parser

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = str(ROOT / "examples" / "2x-rtx-4090.rigplan")

LISTS_MODULES = (
    "import sys, json\n"
    "from rigplan.cli.main import run_cli\n"
    "rc = run_cli(sys.argv[1:])\n"
    "print(json.dumps([rc, sorted(m for m in sys.modules if m.startswith('rigplan.'))]), file=sys.stderr)\n"
)


def test_a_command_imports_only_what_it_needs(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", LISTS_MODULES, "prices", "status"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    rc, modules = json.loads(out.stderr.strip().splitlines()[-1])
    assert rc == 0, out.stderr
    assert "rigplan.cli.prices" in modules
    heavy = ("rigplan.suggest", "rigplan.rules", "rigplan.workload", "rigplan.cli.suggest", "rigplan.cli.check")
    assert [m for m in modules if m.startswith(heavy)] == []


@pytest.mark.parametrize(
    "args",
    [
        ["check", EXAMPLE, "--json"],
        ["import", "prices", "p.csv", "--catalog", "--json"],
        ["suggest", "--budget", "3000", "--gpus", "2"],
        ["prices", "update", "--timeout", "5"],
        ["parts", "list", "--kind", "psu", "--where", "wattage>=1600", "--limit", "3"],
        ["export", EXAMPLE, "--format", "md"],
    ],
    ids=lambda a: a[0],
)
def test_the_one_command_parser_reads_as_the_full_one(args: list[str]) -> None:
    one = build_parser(args[0])
    assert set(one._subparsers._group_actions[0].choices) == {args[0]}  # type: ignore[union-attr]
    assert vars(one.parse_args(args)) == vars(build_parser().parse_args(args))


def test_without_a_command_word_every_command_is_there() -> None:
    choices = build_parser("--help")._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert {("import_cmd" if c == "import" else c) for c in choices} == set(COMMAND_MODULES)
