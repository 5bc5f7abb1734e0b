"""Kill test: a process saving in a loop is killed with SIGKILL at random moments, 100 times. The file on disk is
always one complete version, never a mix or an empty file."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rigplan.files import load

ROOT = Path(__file__).resolve().parents[1]
KILLS = 100

# The saver alternates two different builds for ever; it prints once it has saved at least once.
SAVER = """
import sys
from pathlib import Path
from rigplan.files import load, save
a = load(sys.argv[1])
b = a.model_copy(update={"name": "Version B", "notes": "x" * 20000})
target = Path(sys.argv[2])
n = 0
while True:
    save(b if n % 2 else a, target)
    n += 1
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")
def test_sigkill_during_saves_never_corrupts(tmp_path: Path, examples_dir: Path) -> None:
    source = examples_dir / "budget-1-gpu.rigplan.yaml"
    target = tmp_path / "build.rigplan.yaml"
    names = {load(source).name, "Version B"}
    rng = random.Random(20261122)
    # One long-lived interpreter would be faster, but each kill ends the process: fork a fresh saver per round
    # from a small Python that has the imports done, so each round costs milliseconds, not a full start-up.
    forker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, sys, signal\n"
            "from rigplan.files import load, save\n"
            f"code = {SAVER!r}\n"
            "pid = 0\n"
            "for line in sys.stdin:\n"
            "    if line.startswith('kill'):\n"
            "        os.kill(pid, signal.SIGKILL)\n"
            "        os.waitpid(pid, 0)\n"
            "        print('dead', flush=True)\n"
            "        continue\n"
            "    pid = os.fork()\n"
            "    if pid == 0:\n"
            "        sys.argv = ['saver', " + repr(str(source)) + ", " + repr(str(target)) + "]\n"
            "        exec(code)\n"
            "    print(pid, flush=True)\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert forker.stdin and forker.stdout
    survived = 0
    try:
        for _ in range(KILLS):
            forker.stdin.write("go\n")
            forker.stdin.flush()
            assert int(forker.stdout.readline()) > 0
            deadline = time.time() + 10
            while not target.exists() and time.time() < deadline:
                time.sleep(0.001)
            time.sleep(rng.uniform(0.0, 0.03))
            forker.stdin.write("kill\n")
            forker.stdin.flush()
            assert forker.stdout.readline().strip() == "dead"
            build = load(target)  # raises on a torn or empty file
            assert build.name in names
            survived += 1
    finally:
        forker.kill()
        forker.wait()
    assert survived == KILLS
    # Evidence that kills landed inside saves: a kill between creating the temporary file and renaming it leaves
    # that file behind (and never touches the target).
    leftovers = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    print(f"{survived} kills survived; {len(leftovers)} landed mid-write")
    assert leftovers, "no kill landed during a save: the test did not exercise the dangerous window"
