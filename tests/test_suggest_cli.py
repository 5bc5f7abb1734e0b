"""`rigplan suggest` as a user runs it: the JSON keys, the build file it writes, and exit 2 with one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rigplan.costs.analysis import desktop_throughput
from rigplan.costs.perf import load_perf
from rigplan.files import load
from rigplan.rules import check

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rigplan", *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_json_answer_and_build_file(tmp_path: Path) -> None:
    out_file = tmp_path / "suggested.rigplan.yaml"
    out = run("suggest", "--budget", "5000", "--gpus", "2", "--min-vram", "24", "--json", "-o", str(out_file))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert {"total", "throughput", "binding", "runners_up", "build"} <= set(data)
    assert data["total"] <= 5000
    build = load(out_file)
    gpus = build.of_kind(build.items[1].kind)
    assert sum(i.quantity for i in gpus) == 2 and all((i.part.vram_gb or 0) >= 24 for i in gpus)  # type: ignore[union-attr]
    assert check(build).ok  # the written build passes every check
    total = sum(i.unit_price.amount * i.quantity for i in build.items if i.unit_price)
    assert abs(total - data["total"]) < 0.01
    tp, _, _ = desktop_throughput(build, load_perf(), build.assumptions)
    assert tp is not None and abs(tp - data["throughput"]) < 1e-3
    assert data["build"]["items"][1]["quantity"] == 2
    # Since issue 19 priced the Gigabyte WINDFORCE RTX 5090 ($1,999.99), two of them fit: nothing priced does better.
    assert data["binding"] == "catalog"


def test_runners_up_have_another_gpu_count() -> None:
    out = run("suggest", "--budget", "3000", "--max-gpus", "2", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    counts = {r["gpus"] for r in data["runners_up"]}
    chosen = data["build"]["items"][1]["quantity"]
    assert counts and chosen not in counts
    assert all(r["total"] <= 3000 and r["throughput"] <= data["throughput"] for r in data["runners_up"])


def test_impossible_constraints_exit_2_with_one_line() -> None:
    out = run("suggest", "--budget", "1500", "--gpus", "2", "--min-vram", "24")
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr
    assert lines[0].startswith("rigplan: no priced 2-GPU build with 24 GB per GPU fits $1,500: the cheapest is $")


def test_bad_input_exit_2() -> None:
    out = run("suggest", "--budget", "-5")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "budget must be positive" in out.stderr
