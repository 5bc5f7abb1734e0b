"""docs/cost-model.md's worked examples are tests: each ```sh command runs, and every `path` = value after it on the
following "Expect:" paragraph must equal the JSON it prints. The fit figures in the doc match parts/gpu_perf.yaml."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from cli_in_process import rigplan_in_process
from rigplan.costs.perf import load_perf
from rigplan.model import Assumptions

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "cost-model.md").read_text("utf-8")
EXAMPLES = re.findall(r"```sh\n(rigplan cost [^\n]+)\n```\n(?:(?!```).)*?Expect: (.*?)(?:\n\n|\Z)", DOC, flags=re.S)


def dig(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data[int(part)] if part.isdigit() else data[part]
    return data


def test_the_doc_has_examples() -> None:
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize("command, expect", EXAMPLES, ids=[f"example-{i}" for i in range(len(EXAMPLES))])
def test_worked_example(command: str, expect: str) -> None:
    args = shlex.split(command)[1:]
    out = rigplan_in_process(*args, cwd=ROOT)  # the command's answer, not the process (tests/cli_in_process.py)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    pairs = re.findall(r"`([\w.]+)` = (\"[^\"]*\"|null|-?[\d.]+)", expect)
    assert pairs, expect
    for path, value in pairs:
        assert dig(data, path) == json.loads(value), (command, path)


def test_the_doc_states_the_fit_and_scaling_the_data_holds() -> None:
    for precision in ("mixed", "fp32"):
        loo = load_perf(precision=precision).leave_one_out
        assert f"{loo['median_abs_error'] * 100:.0f} % ({precision})" in DOC.replace("**", "")
        assert f"{loo['worst_abs_error'] * 100:.0f} %" in DOC
    perf = load_perf()
    assert f"**{perf.scaling['pcie'].exponent:.3f}**" in DOC and f"**{perf.scaling['sxm'].exponent:.3f}**" in DOC
    f = perf.fit
    assert f"{f['intercept']:.3f} + {f['fp32_tflops_exponent']:.3f} log(FP32 TFLOPS)" in DOC


def test_every_assumption_has_a_row_in_the_defaults_table() -> None:
    table = DOC.split("## Defaults and their sources")[1].split("**Cloud prices.**")[0]
    for name in Assumptions.model_fields:
        assert f"`{name}`" in table, name
