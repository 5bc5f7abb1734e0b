"""Issue 18: build files are NAME.rigplan (YAML inside); NAME.rigplan.yaml, .yaml and .yml builds still open; the CLI's
-o and the autosaves use the new name, and autosaves left by earlier versions are still recovered."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_in_process import rigplan_in_process
from rigplan import BUILD_SUFFIX, OPEN_SUFFIXES
from rigplan.files import is_build_name, load, save, with_build_suffix
from rigplan.files.autosave import AutosaveStore

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("typed", "saved"),
    [
        ("box", "box.rigplan"),
        ("2x 4090 v2", "2x 4090 v2.rigplan"),  # a dot in the name is not an extension
        ("box.rigplan", "box.rigplan"),
        ("Box.RIGPLAN", "Box.RIGPLAN"),
        ("box.rigplan.yaml", "box.rigplan.yaml"),  # typed by the user: kept
        ("box.yaml", "box.yaml"),
        ("box.yml", "box.yml"),
        ("box.txt", "box.txt.rigplan"),
    ],
)
def test_where_a_build_is_saved(tmp_path: Path, typed: str, saved: str) -> None:
    assert with_build_suffix(tmp_path / typed) == tmp_path / saved


def test_build_names() -> None:
    assert BUILD_SUFFIX == ".rigplan" and OPEN_SUFFIXES == (".rigplan", ".rigplan.yaml", ".yaml", ".yml")
    assert all(is_build_name(f"x{s}") for s in OPEN_SUFFIXES)
    assert not is_build_name("x.json") and not is_build_name("rigplan")


def test_every_example_is_a_dot_rigplan_file(examples_dir: Path) -> None:
    files = sorted(p.name for p in examples_dir.rglob("*") if p.is_file())
    assert files and all(name.endswith(".rigplan") for name in files), files


def test_new_and_old_names_load_the_same_build(examples_dir: Path, tmp_path: Path) -> None:
    build = load(examples_dir / "2x-rtx-4090.rigplan")
    for name in ("copy.rigplan", "copy.rigplan.yaml", "copy.yaml", "copy.yml"):
        shutil.copy(examples_dir / "2x-rtx-4090.rigplan", tmp_path / name)
        assert load(tmp_path / name) == build
    save(build, tmp_path / "again.rigplan")
    assert (tmp_path / "again.rigplan").read_text("utf-8").startswith("format: rigplan-build\n")  # YAML inside
    assert load(tmp_path / "again.rigplan") == build


def test_cli_reads_every_name(examples_dir: Path, tmp_path: Path) -> None:
    for name in ("a.rigplan", "a.rigplan.yaml"):
        shutil.copy(examples_dir / "budget-1-gpu.rigplan", tmp_path / name)
        out = subprocess.run(
            [sys.executable, "-m", "rigplan", "check", str(tmp_path / name), "--json"],
            capture_output=True, text=True, cwd=ROOT, timeout=120,
        )  # fmt: skip
        assert out.returncode == 0 and json.loads(out.stdout)["ok"] is True, out.stderr


@pytest.mark.usefixtures("cli_gets_the_session_catalog")  # tests/conftest.py says when and why
def test_suggest_output_gets_the_extension(tmp_path: Path) -> None:
    # through run_cli, the entry point `python -m rigplan` calls (tests/cli_in_process.py): the file written is tested
    args = ("suggest", "--budget", "5000", "--gpus", "2", "--min-vram", "24", "-o", str(tmp_path / "mybox"))
    out = rigplan_in_process(*args, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["mybox.rigplan"]
    assert f"Written to {tmp_path / 'mybox.rigplan'}" in out.stdout
    assert load(tmp_path / "mybox.rigplan").items


def dead_pid() -> int:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_autosaves_use_the_new_name_and_old_ones_are_still_recovered(examples_dir: Path, tmp_path: Path) -> None:
    build = load(examples_dir / "budget-1-gpu.rigplan")
    mine = AutosaveStore(tmp_path)
    mine.save(build, None)
    assert mine.file.name.endswith(".rigplan") and not mine.file.name.endswith(".rigplan.yaml")
    assert mine.meta.exists() and mine.meta.name == mine.file.name.removesuffix(".rigplan") + ".json"
    # Left by a RigPlan that saved autosave-<pid>-<token>.rigplan.yaml, crashed, and had no lock file yet.
    pid = dead_pid()
    old = tmp_path / f"autosave-{pid}-0badc0de.rigplan.yaml"
    shutil.copy(examples_dir / "2x-rtx-4090.rigplan", old)
    (tmp_path / f"autosave-{pid}-0badc0de.rigplan.json").write_text(
        json.dumps({"name": "2x RTX 4090 workstation", "saved_at": "2026-11-20T10:00:00", "pid": pid}), "utf-8"
    )
    # A lock of the old style whose autosave is gone (swept), and one of the new style (swept too).
    (tmp_path / f"autosave-{pid}-00000000.rigplan.lock").write_text("", "utf-8")
    (tmp_path / f"autosave-{pid}-11111111.lock").write_text("", "utf-8")
    (found,) = mine.orphans()
    assert found.path == old and found.name == "2x RTX 4090 workstation"
    assert found.items == sum(i.quantity for i in load(old).items)
    assert found.load() == load(examples_dir / "2x-rtx-4090.rigplan")
    assert not (tmp_path / f"autosave-{pid}-00000000.rigplan.lock").exists()
    assert not (tmp_path / f"autosave-{pid}-11111111.lock").exists()
    assert mine.lock.path.exists()  # this instance's own lock stays
    AutosaveStore.discard(found)
    assert not old.exists() and not (tmp_path / f"autosave-{pid}-0badc0de.rigplan.json").exists()
    mine.close()
