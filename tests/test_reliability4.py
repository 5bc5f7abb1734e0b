"""Issue 35, round four of "nothing lost, nothing injected, nothing hangs": saves after a read, concurrent saves, the
one safe read, config.json bounds, suggest --include. Real files, real processes, a real FIFO. The terminal and export
sanitiser is in test_reliability4_text.py, the folders in test_reliability4_folders.py, the window in
tests/gui/test_reliability4_gui.py (docs/reliability.md, "Round four")."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import time
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
import time
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


# --- config.json: the one safe read, bounded nesting, plausible sizes -----------------------------------------------


def llama_config(**over: object) -> str:
    cfg = {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}  # fmt: skip
    cfg.update(over)
    return json.dumps(cfg)


def special(tmp_path: Path, kind: str) -> str:
    if kind == "fifo":
        os.mkfifo(tmp_path / "config.json")
        return str(tmp_path / "config.json")
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    return "/dev/zero"  # only ever read (never written); a device is never made by the test


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
@pytest.mark.parametrize(
    "command",
    [
        ["workload", "--model", "{m}", "--instance", "g5.xlarge"],
        ["suggest", "--budget", "3000", "--fit-model", "{m}", "--fit-task", "inference"],
    ],
    ids=["workload", "suggest-fit-model"],
)
def test_a_fifo_or_device_as_the_model_is_refused_at_once(tmp_path: Path, kind: str, command: list[str]) -> None:
    """Hang guard: the process runs with a timeout; it used to wait on the FIFO forever and read /dev/zero until the
    memory ran out."""
    m = special(tmp_path, kind)
    start = time.monotonic()
    line = one_line_refusal(rigplan(*[a.format(m=m) for a in command], data=tmp_path / "data", timeout=60))
    assert ("named pipe (FIFO)" if kind == "fifo" else "a device") in line
    assert time.monotonic() - start < 50


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_shared_build_whose_workload_config_is_a_fifo_exports_without_hanging(tmp_path: Path) -> None:
    from rigplan.model.workload import WorkloadSpec

    os.mkfifo(tmp_path / "config.json")
    build = tmp_path / "shared.rigplan"
    save(load(EXAMPLE).model_copy(update={"workload": WorkloadSpec(model=str(tmp_path / "config.json"))}), build)
    assert "model: config.json" in build.read_text("utf-8")  # saved relative, as a shared build holds it
    for args in (["export", str(build), "--format", "md"], ["workload", str(build)], ["check", str(build)]):
        run = rigplan(*args, data=tmp_path / "data", timeout=60)
        assert "Traceback" not in run.stderr
        if run.returncode != 0:
            assert "named pipe (FIFO)" in one_line_refusal(run)
        else:
            assert "named pipe (FIFO)" in run.stdout + run.stderr or args[0] == "check"


@pytest.mark.parametrize(
    ("config", "task", "message"),
    [
        ("[" * 200_000 + "]" * 200_000, "lora", "nested more than 16 levels deep"),
        ('{"a": ' + "[" * 200_000 + "]" * 200_000 + "}", "lora", "nested more than 16 levels deep"),
        (llama_config(intermediate_size=10**303), "lora", "intermediate_size a 304-digit number, over 1,048,576"),
        (llama_config(intermediate_size=10**302), "full", "intermediate_size a 303-digit number, over 1,048,576"),
        (llama_config(intermediate_size=10**299), "lora", "intermediate_size a 300-digit number"),
        (llama_config(num_attention_heads=8192, num_key_value_heads=8192), "lora", "8,192 attention heads on a hidden"),
        (llama_config(vocab_size=4_000_000, hidden_size=131_072, num_attention_heads=1024, num_key_value_heads=1024,
                      intermediate_size=1_000_000, num_hidden_layers=1000), "lora", "over 10^13"),
        (llama_config(hidden_size=10**20), "lora", "describes an impossible model"),
    ],
    ids=["nested-200000", "nested-in-object", "ffn-1e303", "ffn-1e302-full", "ffn-1e299", "zero-width-heads",
         "over-1e13-params", "hidden-1e20"],
)  # fmt: skip
def test_implausible_configs_are_one_line_never_an_internal_error(
    tmp_path: Path, config: str, task: str, message: str
) -> None:
    path = tmp_path / "config.json"
    path.write_text(config, encoding="utf-8")
    run = rigplan("workload", "--model", str(path), "--task", task, "--instance", "p4d.24xlarge", data=tmp_path)
    line = one_line_refusal(run)
    assert message in line, line
    assert "inf" not in line.split() and not any(len(w) > 40 for w in line.split())


def test_every_released_shape_in_the_bundled_models_passes_the_bounds() -> None:
    """The bounds refuse no real model: every bundled architecture (from the makers' config.json) is plausible."""
    from rigplan.workload.models import bundled_models, plausible

    for m in bundled_models().values():
        assert plausible(m) is m


# --- suggest --include names a catalog part ------------------------------------------------------------------------


def test_suggest_include_of_an_unknown_id_is_one_line_naming_it(tmp_path: Path) -> None:
    line = one_line_refusal(rigplan("suggest", "--budget", "3000", "--include", "no-such-id", data=tmp_path))
    assert "--include 'no-such-id': no part with this id in the catalog" in line
    line = one_line_refusal(
        rigplan("suggest", "--budget", "3000", "--include", "nope-1", "--include", "nope-2", data=tmp_path)
    )
    assert "'nope-1'" in line and "'nope-2'" in line


def test_suggest_include_of_a_real_part_still_answers_with_it(tmp_path: Path) -> None:
    from rigplan.kinds import Kind

    gpu = next(i.part for i in load(ROOT / "examples" / "budget-1-gpu.rigplan").items if i.kind is Kind.GPU)
    run = rigplan("suggest", "--budget", "6000", "--include", gpu.id, "--json", data=tmp_path, timeout=240)
    assert run.returncode == 0, run.stderr
    assert gpu.id in run.stdout
