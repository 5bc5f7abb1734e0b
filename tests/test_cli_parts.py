"""The CLI as a user runs it: a real subprocess, real output, real exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rigplan(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rigplan", *args], capture_output=True, text=True, cwd=cwd or ROOT, timeout=120
    )


def test_version() -> None:
    out = rigplan("--version")
    assert out.returncode == 0
    assert out.stdout.startswith("RigPlan ")


def test_list_4090_json_matches_opendb() -> None:
    out = rigplan("parts", "list", "--kind", "gpu", "--search", "4090", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["count"] == len(data["parts"]) > 20
    assert all("4090" in p["name"] and p["kind"] == "gpu" for p in data["parts"])
    by_id = {p["id"]: p for p in data["parts"]}
    # Straight from the OpenDB records.
    strix = by_id["d2fa0e60-8fa4-4703-a741-ced72bac4e74"]
    assert (strix["length_mm"], strix["tdp_w"], strix["power_connectors"]) == (
        358,
        450,
        {"pin6": 0, "pin8": 0, "pin16": 1, "eps8": 0},  # eps8: the EPS input field the model gained for issue 25
    )
    lc = by_id["0f19eb6a-59be-46b5-9d32-5473acf029c5"]
    assert (lc["length_mm"], lc["tdp_w"], lc["slot_width"]) == (293, 450, 3)
    assert by_id["14277324-f4d4-4a71-b034-91df4ffd643e"]["power_connectors"] is None


def test_plain_list_and_show() -> None:
    out = rigplan("parts", "list", "--kind", "psu", "--where", "wattage>=1600", "--limit", "3")
    assert out.returncode == 0
    assert "Efficiency" in out.stdout and "3 of " in out.stdout
    show = rigplan("parts", "show", "da1773b7-ca1f-43ac-9235-24e781c2ceba")
    assert show.returncode == 0
    assert "ADATA XPG FUSION 1600" in show.stdout and "$599.99" in show.stdout


def test_bad_input_is_one_line_and_exit_2() -> None:
    for args, expect in (
        (("parts", "list", "--kind", "gpus"), "unknown kind 'gpus'"),
        (("parts", "show", "no-such-id"), "no part with id 'no-such-id'"),
        (("parts", "list", "--kind", "gpu", "--where", "length~3"), "cannot read filter"),
        (("parts", "frobnicate"), "invalid choice"),
    ):
        out = rigplan(*args)
        assert out.returncode == 2, args
        assert out.stderr.count("\n") == 1 and expect in out.stderr, out.stderr
        assert "Traceback" not in out.stderr


def test_schema_command() -> None:
    out = rigplan("schema", "build")
    assert out.returncode == 0
    assert json.loads(out.stdout)["title"] == "RigPlan build file"
