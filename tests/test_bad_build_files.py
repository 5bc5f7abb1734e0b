"""Bad input, file by file: a clear message, exit code 2, nothing changed on disk. Safe saves and autosave."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from rigplan.catalog import Catalog
from rigplan.files import BuildFileError, load, missing_from_catalog, save
from rigplan.files.autosave import AutosaveStore
from rigplan.model import Build, BuildItem, Kind
from rigplan.model.build import FORMAT_VERSION

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
BAD = sorted((DATA / "bad").glob("*.rigplan.yaml"))

# file -> words the one-line message must contain
EXPECTED = {
    "absurd-quantity": "items.5.quantity: Input should be less than or equal to 64",
    "billion-laughs": "YAML aliases (*name) are not allowed",
    "empty": "the file is empty",
    "infinite-quantity": "items.0.quantity: Input should be a finite number",
    "malformed": "line 6, column 1:",
    "nan-price": "price.amount: Value error, must be a finite number",
    "negative-price": "price.amount: Input should be greater than or equal to 0",
    "negative-quantity": "items.0.quantity: Input should be greater than or equal to 1",
    "newer-version": f"format version 7, but this RigPlan reads up to version {FORMAT_VERSION}",
    "not-a-build": "expected a RigPlan build (a mapping), found list",
    "not-utf8": "not UTF-8 text (bad byte at offset 49)",
    "python-tag": "unsupported YAML tag",
    "unknown-currency": "unknown currency code 'XYZ'",
    "wrong-shape": "items.0.quantity: Input should be a valid integer",
    # Round two (issue 14): each of these crashed, hung or silently dropped data before.
    "duplicate-items": "line 249: the key 'items' appears twice (first at line 4)",
    "deep-nesting": "line 3: lists or mappings are nested more than 32 levels deep",
    "huge-integer": "line 34: a number with 5000 digits is too long",
    "huge-price": "items.0.part.cpu.price.amount: Input should be less than or equal to 1000000000",
    "huge-storage": "assumptions.storage_gb: Input should be less than or equal to 100000000",
    "huge-watts": "items.0.part.cpu.tdp_w: Input should be less than or equal to 10000",
    "impossible-date": "line 12: a value cannot be read (month must be in 1..12)",
    "nul-byte": "NUL byte at offset 52: this is not a text file",
    "utf16-no-bom": "UTF-16 text without a byte-order mark; save it as UTF-8",
}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_bad_file_has_an_expected_message() -> None:
    assert {p.name.removesuffix(".rigplan.yaml") for p in BAD} == set(EXPECTED)


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_file_gives_a_clear_message(path: Path) -> None:
    before = digest(path)
    with pytest.raises(BuildFileError) as err:
        load(path)
    assert EXPECTED[path.name.removesuffix(".rigplan.yaml")] in err.value.message
    assert "\n" not in str(err.value)
    assert digest(path) == before


def test_cli_check_exits_2_with_one_line_for_every_bad_file() -> None:
    code = (
        "import io, sys, json, contextlib\n"
        "from rigplan.cli.main import run_cli\n"
        "out = {}\n"
        "for f in sys.argv[1:]:\n"
        "    err = io.StringIO()\n"
        "    with contextlib.redirect_stderr(err):\n"
        "        rc = run_cli(['check', f])\n"
        "    out[f] = [rc, err.getvalue()]\n"
        "print(json.dumps(out))\n"
    )
    res = subprocess.run([sys.executable, "-c", code, *map(str, BAD)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    for f, (rc, err) in json.loads(res.stdout).items():
        assert rc == 2, f
        assert err.count("\n") == 1 and err.startswith("rigplan: ") and "Traceback" not in err, (f, err)


def test_size_limit_refused_before_parsing(tmp_path: Path) -> None:
    big = tmp_path / "big.rigplan.yaml"
    with big.open("wb") as fh:
        fh.write(b"format: rigplan-build\nformat_version: 1\nnotes: '")
        fh.write(b"x" * (11 * 1024 * 1024))
        fh.write(b"'\n")
    with pytest.raises(BuildFileError) as err:
        load(big)
    assert "limited to 10 MB" in err.value.message


def test_directory_and_missing_paths(tmp_path: Path) -> None:
    with pytest.raises(BuildFileError, match="this is a folder"):
        load(tmp_path)
    with pytest.raises(BuildFileError, match="no such file"):
        load(tmp_path / "nope.rigplan.yaml")
    dangling = tmp_path / "link.rigplan.yaml"
    dangling.symlink_to(tmp_path / "gone.rigplan.yaml")
    with pytest.raises(BuildFileError, match="no such file"):
        load(dangling)


def test_unknown_part_opens_with_its_snapshot_and_a_note(catalog: Catalog) -> None:
    build = load(DATA / "unknown-part.rigplan.yaml")
    assert build.first(Kind.CPU) is not None and build.first(Kind.CPU).name == "AMD Ryzen 5 7600"
    notes = missing_from_catalog(build, catalog)
    assert len(notes) == 1 and "no longer in the catalog" in notes[0]
    out = subprocess.run(
        [sys.executable, "-m", "rigplan", "check", str(DATA / "unknown-part.rigplan.yaml")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0 and "no longer in the catalog" in out.stdout


def test_v1_file_still_opens() -> None:
    build = load(DATA / "v1" / "budget-1-gpu-v1.rigplan.yaml")
    assert build.name == "Budget single-GPU learner" and build.count(Kind.GPU) == 1


def test_save_keeps_permissions_and_writes_through_symlinks(tmp_path: Path, examples_dir: Path) -> None:
    build = load(examples_dir / "budget-1-gpu.rigplan")
    real = tmp_path / "real" / "mine.rigplan.yaml"
    real.parent.mkdir()
    save(build, real)
    os.chmod(real, 0o600)
    link = tmp_path / "link.rigplan.yaml"
    link.symlink_to(real)
    save(build.model_copy(update={"name": "Renamed"}), link)
    assert link.is_symlink() and load(real).name == "Renamed"
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert load(real.with_name(real.name + ".bak")).name == build.name
    assert not list(real.parent.glob(".*.tmp"))  # no temporary file left behind


def test_failed_save_leaves_the_old_file(tmp_path: Path, examples_dir: Path) -> None:
    build = load(examples_dir / "budget-1-gpu.rigplan")
    target = tmp_path / "ro" / "b.rigplan.yaml"
    target.parent.mkdir()
    save(build, target)
    before = digest(target)
    with pytest.raises(BuildFileError, match="cannot write here|could not save"):
        save(build, tmp_path / "no-such-dir" / "b.rigplan.yaml")
    assert digest(target) == before


def test_autosave_per_instance_and_orphans(tmp_path: Path, catalog: Catalog) -> None:
    gpu = catalog.get("d2fa0e60-8fa4-4703-a741-ced72bac4e74")
    build = Build(name="Unsaved", items=(BuildItem(part=gpu, quantity=2),))
    mine = AutosaveStore(tmp_path)
    other = AutosaveStore(tmp_path)
    mine.save(build, None)
    other.save(build.model_copy(update={"name": "Other"}), None)
    assert mine.file != other.file and mine.file.exists() and other.file.exists()
    assert mine.orphans() == []  # both instances (this process) are alive
    # A crashed instance: its pid no longer exists.
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    ghost = AutosaveStore(tmp_path, pid=int(dead.stdout))
    ghost.save(build.model_copy(update={"name": "Crashed"}), Path("/somewhere/x.rigplan.yaml"))
    assert mine.orphans() == []  # its lock is held: alive, whatever its pid says
    ghost.lock.release()  # what the OS does when the process dies (a real kill: tests/test_safe_saving.py)
    (found,) = mine.orphans()
    assert found.name == "Crashed" and found.items == 2 and found.original == "/somewhere/x.rigplan.yaml"
    assert found.load().count(Kind.GPU) == 2
    AutosaveStore.discard(found)
    assert mine.orphans() == [] and not ghost.file.exists()
    mine.remove()
    assert not mine.file.exists() and other.file.exists()
