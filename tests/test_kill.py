"""Kill test: a process saving in a loop is killed with SIGKILL at random moments, 100 times per mode. The file on
disk is always one complete version, never a mix or an empty file; so is its .bak; and after a kill during an
autosave, recovery finds the autosave and it loads.

Modes: "save" (the normal save, .bak by hard link), "backup-copy" (a file system without hard links, where the
.bak is a copy: a long window in the .bak rotation), and "autosave" (AutosaveStore.save, then orphans()).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rigplan.files import load
from rigplan.files.autosave import AutosaveStore

pytestmark = pytest.mark.slow  # each test here takes several seconds (subprocesses, searches, fuzzing)

ROOT = Path(__file__).resolve().parents[1]
KILLS = 100

# The saver alternates two different builds for ever.
SAVER = """
import os, sys
from pathlib import Path
from rigplan.files import load, save
from rigplan.files.autosave import AutosaveStore
mode, source, target = sys.argv[1], sys.argv[2], Path(sys.argv[3])
a = load(source)
b = a.model_copy(update={"name": "Version B", "notes": "x" * 20000})
if mode == "backup-copy":
    def no_links(*args, **kwargs):  # FAT, exFAT, some SMB shares: the OS refuses hard links
        raise OSError(1, "Operation not permitted")
    os.link = no_links
store = AutosaveStore(target.parent / "autosave")
n = 0
while True:
    if mode == "autosave":
        store.save(b if n % 2 else a, target)
    else:
        save(b if n % 2 else a, target)
    n += 1
"""


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_mtime_ns


def _saving(mode: str, target: Path, pid: int, before: tuple[int, int] | None) -> bool:
    """The new saver has finished one save, so it is inside its loop: its autosave file exists, or the target was
    replaced (a save renames a new file over it). Only the target existing was not enough: under load the kill
    came before the forked saver had even read its source, and no kill landed mid-write."""
    if mode == "autosave":
        return any((target.parent / "autosave").glob(f"autosave-{pid}-*.rigplan"))
    now = _stamp(target)
    return now is not None and now != before


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL is POSIX")
@pytest.mark.parametrize("mode", ["save", "backup-copy", "autosave"])
def test_sigkill_during_saves_never_corrupts(mode: str, tmp_path: Path, examples_dir: Path) -> None:
    source = examples_dir / "budget-1-gpu.rigplan"
    target = tmp_path / "build.rigplan.yaml"
    bak = target.with_name(target.name + ".bak")
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
            "from rigplan.files.autosave import AutosaveStore\n"
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
            f"        sys.argv = ['saver', {mode!r}, {str(source)!r}, {str(target)!r}]\n"
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
    recovery = AutosaveStore(tmp_path / "autosave")
    try:
        for _ in range(KILLS):
            before = _stamp(target)
            forker.stdin.write("go\n")
            forker.stdin.flush()
            pid = int(forker.stdout.readline())
            assert pid > 0
            deadline = time.time() + 10
            while not _saving(mode, target, pid, before) and time.time() < deadline:
                time.sleep(0.001)
            time.sleep(rng.uniform(0.0, 0.03))
            forker.stdin.write("kill\n")
            forker.stdin.flush()
            assert forker.stdout.readline().strip() == "dead"
            if mode == "autosave":
                # The killed instance's lock died with it: its autosave is offered, and loads.
                (mine,) = [o for o in recovery.orphans() if o.pid == pid]
                recovered = AutosaveStore.try_load(mine)
                assert not isinstance(recovered, str), recovered
                assert recovered.name in names and mine.name == recovered.name
                AutosaveStore.discard(mine)
            else:
                assert load(target).name in names  # raises on a torn or empty file
                if bak.exists():
                    assert load(bak).name in names
            survived += 1
    finally:
        forker.kill()
        forker.wait()
    assert survived == KILLS
    # Evidence that kills landed inside the dangerous window: a kill between creating a temporary file and renaming
    # it leaves that file behind (and never touches the target, its .bak or the autosave).
    folder = tmp_path / "autosave" if mode == "autosave" else tmp_path
    leftovers = [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
    in_backup = [n for n in leftovers if ".bak." in n]
    print(f"{mode}: {survived} kills survived; {len(leftovers)} landed mid-write, {len(in_backup)} in the .bak")
    assert leftovers, "no kill landed during a save: the test did not exercise the dangerous window"
    if mode == "backup-copy":
        assert in_backup, "no kill landed during the .bak rotation"
