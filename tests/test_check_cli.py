"""`rigplan check` as a user runs it: exit codes, JSON keys, and the broken examples naming their rule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BROKEN = sorted((ROOT / "examples" / "broken").glob("*.rigplan"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rigplan", *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_valid_examples_exit_0_with_the_json_keys() -> None:
    out = run("check", "examples/2x-rtx-4090.rigplan", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["ok"] is True
    assert {"ok", "findings", "not_checked", "power"} <= set(data)
    assert set(data["power"]) >= {"load_w", "idle_w", "wall_load_w", "psu_w", "recommended_psu_w"}
    assert data["power"]["psu_w"] == 1600
    power = data["power"]
    # Sizing figure (peak) vs running-cost figure (training): two purposes, two numbers (docs/checks.md).
    assert 1000 < power["load_w"] < power["wall_peak_w"] < 1440
    assert power["train_w"] < power["load_w"] and power["train_w"] < power["wall_load_w"] < power["wall_peak_w"]
    assert power["lower_bound"] is False
    for f in data["findings"]:
        assert set(f) == {"severity", "rule", "message", "parts", "hint"}
    for n in data["not_checked"]:
        assert set(n) == {"rule", "reason"} and n["reason"]


def test_every_broken_example_exits_1_and_names_its_rule() -> None:
    assert len(BROKEN) >= 10
    # One process for all files keeps this fast; the CLI entry point is the same.
    code = (
        "import json, sys, io, contextlib\n"
        "from rigplan.cli.main import run_cli\n"
        "res = {}\n"
        "for f in sys.argv[1:]:\n"
        "    buf = io.StringIO()\n"
        "    with contextlib.redirect_stdout(buf):\n"
        "        rc = run_cli(['check', f, '--json'])\n"
        "    res[f] = [rc, json.loads(buf.getvalue())]\n"
        "print(json.dumps(res))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, *map(str, BROKEN)], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    for path, (rc, data) in json.loads(out.stdout).items():
        rule = Path(path).name.removesuffix(".rigplan")
        assert rc == 1, path
        assert data["ok"] is False
        assert rule in {f["rule"] for f in data["findings"] if f["severity"] == "error"}, path


def test_plain_report_is_readable() -> None:
    out = run("check", "examples/broken/gpu-length.rigplan")
    assert out.returncode == 1
    assert "ERROR" in out.stdout and "[gpu-length] GPU is 304 mm long; the case takes at most 241 mm." in out.stdout
    assert "-> Choose a case with >= 304 mm of GPU clearance or a shorter card." in out.stdout
    assert "Not checked:" in out.stdout and "Power:" in out.stdout


def test_bad_input_exits_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.rigplan.yaml"
    bad.write_text("format: rigplan-build\nformat_version: 1\nitems: [\n", "utf-8")
    for args in (("check", str(bad)), ("check", str(tmp_path / "missing.rigplan.yaml")), ("check", str(tmp_path))):
        out = run(*args)
        assert out.returncode == 2, args
        assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr, out.stderr
