"""Issue 35, round four of "nothing lost, nothing injected, nothing hangs": saves after a read, concurrent saves, the
one safe read, config.json bounds, suggest --include. Real files, real processes, a real FIFO. The terminal and export
sanitiser is in test_reliability4_text.py, the folders in test_reliability4_folders.py, the window in
tests/gui/test_reliability4_gui.py (docs/reliability.md, "Round four")."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rigplan.cli.main import run_cli
from rigplan.files import load, save
from rigplan.files.safeio import _rotate_backup

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "2x-rtx-4090.rigplan"


def rigplan(*args: str, data: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(data), "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "rigplan", *args], capture_output=True, text=True, cwd=ROOT, timeout=timeout, env=env
    )


def one_line_refusal(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rigplan: "), out.stderr
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr
    return lines[0]


# --- Every save after a read goes through the fingerprinted write --------------------------------------------------


def test_workload_save_never_replaces_a_save_made_after_it_read_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rigplan workload B --save` read B, then another window saved B while it computed: the command is refused with
    "changed", exit 2, and the other save is what B holds (it used to be replaced, exit 0)."""
    import rigplan.workload.jobs as jobs

    path = tmp_path / "b.rigplan"
    save(load(EXAMPLE), path)
    other = load(EXAMPLE).model_copy(update={"notes": "saved by another window meanwhile"})
    real = jobs.comparison_json

    def another_save_meanwhile(*args: object, **kwargs: object) -> object:
        save(other, path)  # after the command read the file, before it writes
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jobs, "comparison_json", another_save_meanwhile)
    code = run_cli(["workload", str(path), "--model", "llama-3.1-8b", "--task", "lora", "--save"])
    err = capsys.readouterr().err
    assert code == 2
    assert "changed by another window or program" in err and len(err.strip().splitlines()) == 1
    assert load(path).notes == "saved by another window meanwhile"
    # Without a change in between the same command saves.
    monkeypatch.setattr(jobs, "comparison_json", real)
    assert run_cli(["workload", str(path), "--model", "llama-3.1-8b", "--task", "lora", "--save"]) == 0
    assert load(path).workload is not None and load(path).notes == "saved by another window meanwhile"


def test_import_prices_over_the_build_it_read_is_refused_when_the_build_changed_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import rigplan.imports.price_file as price_file

    path = tmp_path / "b.rigplan"
    save(load(EXAMPLE), path)
    part = load(EXAMPLE).items[0].part
    prices = tmp_path / "p.csv"
    prices.write_text(f"id,price,currency\n{part.id},123.45,USD\n", encoding="utf-8")
    real = price_file.apply_to_build

    def another_save_meanwhile(*args: object, **kwargs: object) -> object:
        save(load(EXAMPLE).model_copy(update={"notes": "meanwhile"}), path)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(price_file, "apply_to_build", another_save_meanwhile)
    assert run_cli(["import", "prices", str(prices), "--build", str(path), "-o", str(path)]) == 2
    assert "changed by another window or program" in capsys.readouterr().err
    assert load(path).notes == "meanwhile"


def test_every_cli_command_that_reads_and_writes_a_build_saves_through_the_fingerprint() -> None:
    """The audit as a test: in app/rigplan/cli, a module that loads a build and writes a build does it with
    load_tracked + save_after_read (the fingerprinted write), never load + save."""
    offenders = []
    for module in sorted((ROOT / "app" / "rigplan" / "cli").glob("*.py")):
        tree = ast.parse(module.read_text("utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            calls = {c.func.id for c in ast.walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)}
            if calls & {"load", "load_tracked"} and "save" in calls:
                offenders.append(f"{module.name}:{fn.name}")
    assert offenders == []


def test_a_backup_already_linked_to_the_file_leaves_no_temporary_name(tmp_path: Path) -> None:
    """rename(2) of one hard link onto another link of the same file does nothing (POSIX): the .bak.*.tmp stayed."""
    target = tmp_path / "b.rigplan"
    target.write_text("x", encoding="utf-8")
    os.link(target, tmp_path / "b.rigplan.bak")  # what a concurrent save has just done
    assert _rotate_backup(target, 0o644) is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.rigplan", "b.rigplan.bak"]


SAVER = """
import sys
from rigplan.files import load, save
build = load(sys.argv[1])
for i in range(int(sys.argv[3])):
    save(build.model_copy(update={"notes": f"{sys.argv[2]} {i}"}), sys.argv[4])
"""


def test_two_processes_saving_at_once_leave_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "b.rigplan"
    save(load(EXAMPLE), target)
    procs = [
        subprocess.Popen([sys.executable, "-c", SAVER, str(EXAMPLE), name, "150", str(target)])
        for name in ("first", "second")
    ]
    assert [p.wait(timeout=240) for p in procs] == [0, 0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.rigplan", "b.rigplan.bak"]
    assert load(target).notes in ("first 149", "second 149")
    assert load(tmp_path / "b.rigplan.bak").notes.split()[0] in ("first", "second")
