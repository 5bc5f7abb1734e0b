"""Saving and reopening never lose data or hang (issue 14), core and CLI: conflicts, backups, autosave recovery,
special files and bounded numbers. Each test reproduces an attack that lost data, crashed or hung before; the GUI
side is in tests/gui/test_safe_saving_gui.py, the bad files themselves in tests/test_bad_build_files.py, the random
sequences in tests/test_stateful.py and kills in tests/test_kill.py."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rigplan.files import BuildFileError, FileChangedError, ReadOnlyFileError, load, load_tracked, save
from rigplan.files.autosave import AutosaveStore
from rigplan.model import Build

ROOT = Path(__file__).resolve().parents[1]
POSIX = os.name == "posix"


@pytest.fixture
def build(examples_dir: Path) -> Build:
    return load(examples_dir / "budget-1-gpu.rigplan")


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=timeout, env=env)


# --- 1. two windows on one file -----------------------------------------------------------------------------------


def test_second_window_cannot_overwrite_what_the_first_saved(tmp_path: Path, build: Build) -> None:
    path = tmp_path / "shared.rigplan.yaml"
    save(build, path)
    _, first_fp = load_tracked(path)  # window 1 opens
    _, second_fp = load_tracked(path)  # window 2 opens the same file
    first = save(build.model_copy(update={"name": "From window 1"}), path, expected=first_fp)
    with pytest.raises(FileChangedError, match="changed by another window or program"):
        save(build.model_copy(update={"name": "From window 2"}), path, expected=second_fp)
    assert load(path).name == "From window 1"  # nothing of window 1 lost
    # Window 1 keeps saving: its fingerprint is the one it wrote.
    save(build.model_copy(update={"name": "Window 1 again"}), path, expected=first.fingerprint)
    assert load(path).name == "Window 1 again"


def test_a_touch_is_not_a_change_but_an_edit_of_the_same_size_is(tmp_path: Path, build: Build) -> None:
    path = tmp_path / "b.rigplan.yaml"
    fp = save(build.model_copy(update={"name": "AAAA"}), path).fingerprint
    os.utime(path, (time.time() + 100, time.time() + 100))
    fp = save(build, path, expected=fp).fingerprint  # same bytes, new time: fine
    text = path.read_text("utf-8").replace("Budget single-GPU learner", "Budget single-GPU LEARNER")
    path.write_text(text, "utf-8")  # same size, other content
    with pytest.raises(FileChangedError):
        save(build, path, expected=fp)
    assert "LEARNER" in path.read_text("utf-8")


# --- 2. recovery that always finds its autosave -----------------------------------------------------------------

CRASHER = """
import os, signal, sys
from pathlib import Path
from rigplan.files.autosave import AutosaveStore
from rigplan.model import Build
# The process id written in the sidecar belongs to a live process (the test itself): the id was reused.
store = AutosaveStore(Path(sys.argv[1]), pid=int(sys.argv[2]))
store.save(Build(name=sys.argv[3]), Path("/elsewhere/orig.rigplan.yaml"))
print("saved", flush=True)
if sys.argv[4] == "crash":
    os.kill(os.getpid(), signal.SIGKILL)
sys.stdin.readline()  # stay alive until the test says so
"""


@pytest.mark.skipif(not POSIX, reason="SIGKILL is POSIX")
def test_autosave_of_a_killed_instance_is_offered_even_when_its_pid_is_reused(tmp_path: Path) -> None:
    res = run("-c", CRASHER, str(tmp_path), str(os.getpid()), "Crashed", "crash")
    assert res.returncode == -signal.SIGKILL and "saved" in res.stdout
    (found,) = AutosaveStore(tmp_path).orphans()
    assert found.name == "Crashed" and found.original == "/elsewhere/orig.rigplan.yaml"
    assert found.load().name == "Crashed"


def test_autosave_of_a_live_instance_is_never_offered_even_when_its_pid_looks_dead(tmp_path: Path) -> None:
    dead = int(run("-c", "import os; print(os.getpid())").stdout)
    live = subprocess.Popen(
        [sys.executable, "-c", CRASHER, str(tmp_path), str(dead), "Still running", "live"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert live.stdout and live.stdout.readline().strip() == "saved"
        assert AutosaveStore(tmp_path).orphans() == []
    finally:
        live.communicate("\n", timeout=30)
    # It ended without removing its autosave (as after a crash): now it is offered.
    assert [o.name for o in AutosaveStore(tmp_path).orphans()] == ["Still running"]


def test_an_autosave_killed_before_its_sidecar_is_still_offered_whole(tmp_path: Path) -> None:
    crashed = AutosaveStore(tmp_path)
    crashed.save(Build(name="First autosave"), None)
    crashed.meta.unlink()  # killed between writing the autosave and its sidecar
    crashed.lock.release()  # and the OS dropped its lock
    (found,) = AutosaveStore(tmp_path).orphans()
    assert (found.name, found.pid) == ("First autosave", crashed.pid)


@pytest.mark.skipif(not POSIX, reason="flock is POSIX")
def test_autosave_still_works_where_files_cannot_be_locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import fcntl

    def no_locks(*_: object) -> None:  # an NFS mount without a lock daemon
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    store = AutosaveStore(tmp_path)
    store.save(Build(name="Unsaved"), None)
    assert load(store.file).name == "Unsaved" and not store.lock.path.exists()
    assert AutosaveStore(tmp_path).orphans() == []  # no lock file: the pid check says this process is alive


# --- 3. backups -----------------------------------------------------------------------------------------------------


@pytest.mark.skipif(not POSIX, reason="POSIX permission bits")
def test_backup_keeps_the_permissions_of_the_original(tmp_path: Path, build: Build) -> None:
    path = tmp_path / "b.rigplan.yaml"
    save(build, path)
    os.chmod(path, 0o640)
    result = save(build.model_copy(update={"name": "Second"}), path)
    bak = path.with_name(path.name + ".bak")
    assert load(bak).name == build.name and load(path).name == "Second"
    assert stat.S_IMODE(bak.stat().st_mode) == 0o640 and stat.S_IMODE(path.stat().st_mode) == 0o640
    assert result.backup_error is None


def test_a_backup_that_cannot_be_written_is_reported_and_the_old_one_kept(tmp_path: Path, build: Build) -> None:
    path = tmp_path / "b.rigplan.yaml"
    save(build, path)
    bak = path.with_name(path.name + ".bak")
    bak.mkdir()  # something that is not a file sits where the backup goes
    (bak / "keep.txt").write_text("mine")
    result = save(build.model_copy(update={"name": "Second"}), path)
    assert result.backup_error is not None and "could not be written" in result.backup_error
    assert load(path).name == "Second"
    assert (bak / "keep.txt").read_text() == "mine"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def _fill(folder: Path, leave: int) -> None:
    """Fill the file system until about `leave` bytes are free."""
    st = os.statvfs(folder)
    free = st.f_bavail * st.f_frsize
    with (folder / "filler").open("wb") as fh:
        fh.write(b"\0" * max(0, free - leave))


def test_room_for_the_new_file_but_not_a_copy_still_keeps_the_old_version(full_disk: Path, build: Build) -> None:
    path = full_disk / "b.rigplan.yaml"
    big = build.model_copy(update={"notes": "x" * 60_000})  # about 70 KB: only one more copy fits
    save(big, path)
    _fill(full_disk, leave=100_000)
    result = save(big.model_copy(update={"name": "Second"}), path)
    assert result.backup_error is None
    assert load(path).name == "Second"
    assert load(path.with_name(path.name + ".bak")).name == build.name  # the old version, kept


def test_no_hard_links_and_no_room_reports_the_backup_and_keeps_the_old_bak(
    full_disk: Path, build: Build, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = full_disk / "b.rigplan.yaml"
    big = build.model_copy(update={"notes": "x" * 60_000})
    save(big.model_copy(update={"name": "First"}), path)
    save(big.model_copy(update={"name": "Second"}), path)  # .bak = First
    _fill(full_disk, leave=100_000)

    def no_links(*_: object, **__: object) -> None:  # a FAT or SMB volume: the OS refuses hard links
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    result = save(big.model_copy(update={"name": "Third"}), path)
    assert (
        result.backup_error
        and "No space left" in result.backup_error
        and "previous backup is kept" in (result.backup_error)
    )
    assert load(path).name == "Third"
    assert load(path.with_name(path.name + ".bak")).name == "First"


@pytest.mark.skipif(not POSIX, reason="POSIX permission bits")
def test_write_protected_file_is_replaced_only_when_the_caller_says_so(tmp_path: Path, build: Build) -> None:
    path = tmp_path / "b.rigplan.yaml"
    save(build, path)
    os.chmod(path, 0o444)
    with pytest.raises(ReadOnlyFileError, match="write-protected"):
        save(build.model_copy(update={"name": "Second"}), path)
    assert load(path).name == build.name
    save(build.model_copy(update={"name": "Second"}), path, replace_read_only=True)
    assert load(path).name == "Second" and stat.S_IMODE(path.stat().st_mode) == 0o444


# --- 7. special files -------------------------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_fifo_is_refused_on_open_and_on_save_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.rigplan.yaml"
    os.mkfifo(fifo)
    res = run("-m", "rigplan", "check", str(fifo), timeout=30)  # blocked for ever before
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "named pipe (FIFO)" in res.stderr
    code = (
        "import sys\nfrom rigplan.files import save, BuildFileError\nfrom rigplan.model import Build\n"
        "try:\n    save(Build(), sys.argv[1])\nexcept BuildFileError as e:\n    print(e.message)\n"
    )
    res = run("-c", code, str(fifo), timeout=30)
    assert "named pipe (FIFO), not a regular file" in res.stdout
    assert stat.S_ISFIFO(fifo.stat().st_mode) and sorted(p.name for p in tmp_path.iterdir()) == ["pipe.rigplan.yaml"]


@pytest.mark.skipif(not POSIX, reason="POSIX device files and symlinks")
def test_devices_folders_and_symlink_loops_are_refused_with_one_line(tmp_path: Path, build: Build) -> None:
    loop = tmp_path / "a.rigplan.yaml"
    loop.symlink_to(tmp_path / "b.rigplan.yaml")
    (tmp_path / "b.rigplan.yaml").symlink_to(loop)
    # Never /dev/null itself: code without this fix would replace the system's /dev/null with a regular file.
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        device = tmp_path / "no-device-without-root"
    cases = [(str(tmp_path), "this is a folder"), (str(loop), "symbolic links form a loop")]  # RuntimeError before
    if device.exists():
        cases.append((str(device), "this is a device"))
    for target, words in cases:
        with pytest.raises(BuildFileError) as err:
            save(build, target)
        assert words in err.value.message and "\n" not in str(err.value)
        with pytest.raises(BuildFileError) as err:
            load(target)
        assert words in err.value.message
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


# --- 5, 6, 8, 10: crashes and small ones, through the CLI ------------------------------------------------------------


def test_deep_nesting_and_huge_integers_exit_2_with_one_line() -> None:
    for name, words in (
        ("deep-nesting", "nested more than 32 levels deep"),  # segfault before
        ("huge-integer", "a number with 5000 digits is too long"),  # "internal error: ValueError" before
        ("duplicate-items", "the key 'items' appears twice"),  # loaded with no parts before
    ):
        res = run("-m", "rigplan", "check", str(ROOT / "tests" / "data" / "bad" / f"{name}.rigplan.yaml"))
        assert res.returncode == 2, (name, res.returncode, res.stderr)
        assert res.stderr.count("\n") == 1 and words in res.stderr and "internal error" not in res.stderr


def test_utf16_with_a_byte_order_mark_opens(tmp_path: Path, build: Build) -> None:
    path = tmp_path / "b.rigplan.yaml"
    save(build, path)
    path.write_bytes(path.read_text("utf-8").encode("utf-16"))  # Python writes the BOM
    assert load(path) == build


def test_negative_zero_is_stored_as_zero(tmp_path: Path, build: Build) -> None:
    path = tmp_path / "b.rigplan.yaml"
    save(build, path)
    text = path.read_text("utf-8")
    text = text.replace("amount: 196.97", "amount: -0.0").replace("shipping: 0.0", "shipping: -0.0")
    text = text.replace("storage_gb: 0.0", "storage_gb: -0.0")
    path.write_text(text, "utf-8")
    loaded = load(path)
    save(loaded, path)
    saved = path.read_text("utf-8")
    assert "-0.0" not in saved and "amount: 0.0" in saved and "shipping: 0.0" in saved


def test_a_mistyped_command_is_a_usage_error_not_a_gui(tmp_path: Path) -> None:
    res = run("-m", "rigplan", "chek", str(tmp_path / "build.rigplan.yaml"), timeout=60)  # a hung GUI before
    assert res.returncode == 2
    assert res.stderr == (
        "rigplan: 'chek' is neither a command nor an existing file; did you mean 'check'? "
        "commands: catalog, check, compare, cost, export, import, instances, parts, prices, schema, suggest, workload\n"
    )
    res = run("-m", "rigplan", "no-such-build.rigplan.yaml", timeout=60)
    assert res.returncode == 2 and "neither a command nor an existing file" in res.stderr


# --- 9. no NaN or infinity, ever ----------------------------------------------------------------------------------


def _strict_json(text: str) -> object:
    def refuse(token: str) -> object:
        raise AssertionError(f"{token} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_cost_json_has_no_infinity_for_huge_arguments() -> None:
    res = run("-m", "rigplan", "cost", "--build-cost", "1e308", "--load-watts", "1e308", "--instance", "p3.2xlarge")
    assert res.returncode == 2 and "--build-cost must be at most 1,000,000,000" in res.stderr  # Infinity before
    res = run(
        "-m",
        "rigplan",
        "cost",
        "--build-cost",
        "1e9",
        "--load-watts",
        "100000",
        "--instance",
        "p3.2xlarge",
        "--json",
    )
    assert res.returncode == 0, res.stderr
    out = _strict_json(res.stdout)
    assert isinstance(out, dict) and out["build_cost"] == 1e9


def test_print_json_writes_null_for_non_finite_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    from rigplan.cli.output import print_json

    print_json({"total": float("inf"), "parts": [1.5, float("nan")], "ok": 2})
    assert _strict_json(capsys.readouterr().out) == {"total": None, "parts": [1.5, None], "ok": 2}


def test_largest_allowed_build_costs_stay_finite(tmp_path: Path, build: Build) -> None:
    """Every bound at its maximum at once: the totals and the cost curves are still finite numbers."""
    import numpy as np

    from rigplan.cloud.offers import load_offers
    from rigplan.costs.analysis import analyse
    from rigplan.costs.perf import load_perf
    from rigplan.model import BuildItem, Price
    from rigplan.model.assumptions import MAX_GB, MAX_UNIT_PRICE
    from rigplan.model.build import MAX_ITEMS, MAX_QUANTITY
    from rigplan.model.common import MAX_AMOUNT

    expensive = BuildItem(part=build.items[-1].part, quantity=MAX_QUANTITY, price_override=Price(amount=MAX_AMOUNT))
    items = (*build.items, *[expensive] * (MAX_ITEMS - len(build.items)))
    a = build.assumptions.model_copy(
        update={"storage_gb": MAX_GB, "storage_per_gb_month": MAX_UNIT_PRICE, "egress_gb_month": MAX_GB}
    )
    huge = Build.model_validate({**build.model_dump(), "items": items, "assumptions": a.model_dump()})
    path = tmp_path / "huge.rigplan.yaml"
    save(huge, path)
    assert load(path) == huge
    offers = [o for o in load_offers().offers if o.ondemand_usd_h][:3]
    report = analyse(huge, offers, load_perf())
    assert np.isfinite(report.upfront) and np.isfinite(report.own_curve).all()
    assert all(np.isfinite(v) for v in report.own_breakdown.values())
    for r in report.offers:
        assert all(np.isfinite(v) for v in r.cost_at_horizon.values())
