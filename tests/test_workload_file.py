"""The build file's workload (issue 28): a measured model is saved as its id and job size only (old files with the
language-model options still open), a config.json path is read from the build's folder whether saved relative or
absolute, a missing config is one clear line, and the PDF report has the Workload section the Markdown has."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from rigplan.cli.main import run_cli
from rigplan.files import load, save
from rigplan.files.buildfile import dumps
from rigplan.model.workload import MEASURED, Task, WorkloadSpec
from rigplan.workload.measured import measured_models

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "examples" / "2x-rtx-4090.rigplan"
PYTHIA = {"model_type": "gpt_neox", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32,
          "intermediate_size": 16384, "vocab_size": 50432, "tie_word_embeddings": False}  # fmt: skip


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run_cli(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_models_measured_ids_are_the_speed_tables() -> None:
    assert set(measured_models()) == MEASURED


def test_a_measured_workload_writes_only_its_model_and_job_size(tmp_path: Path) -> None:
    build = load(BUILD).model_copy(update={"workload": WorkloadSpec(model="resnet50", v100_hours=10)})
    doc = yaml.safe_load(dumps(build))
    assert doc["workload"] == {"model": "resnet50", "v100_hours": 10.0}
    path = tmp_path / "m.rigplan"
    save(build, path)
    assert load(path).workload == WorkloadSpec(model="resnet50", v100_hours=10)
    # a language model keeps its options
    llm = build.model_copy(update={"workload": WorkloadSpec(model="llama-3.1-8b", task=Task.QLORA, seq=4096)})
    assert yaml.safe_load(dumps(llm))["workload"] == {"model": "llama-3.1-8b", "task": "qlora", "seq": 4096, "batch": 1}


def test_an_older_file_with_the_language_model_defaults_still_opens(tmp_path: Path) -> None:
    text = BUILD.read_text().replace("format_version: 2", "format_version: 3")
    text += "workload:\n  model: bert-large\n  task: lora\n  seq: 2048\n  batch: 1\n  v100_hours: 5\n"
    path = tmp_path / "old.rigplan"
    path.write_text(text)
    build = load(path)
    assert build.workload is not None and build.workload.model == "bert-large" and build.workload.v100_hours == 5
    save(build, path)  # saved again: only what applies
    assert yaml.safe_load(path.read_text())["workload"] == {"model": "bert-large", "v100_hours": 5.0}


@pytest.mark.parametrize("where", ["relative", "absolute"])
def test_a_config_path_is_found_from_any_current_folder(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    (project / "cfg").mkdir(parents=True)
    config = project / "cfg" / "config.json"
    config.write_text(json.dumps(PYTHIA))
    path = project / "box.rigplan"
    saved = "cfg/config.json" if where == "relative" else str(config)
    path.write_text(BUILD.read_text() + f"workload:\n  model: {saved}\n  task: lora\n")
    monkeypatch.chdir(tmp_path)  # not the build's folder
    assert load(path).workload.model == str(config)  # type: ignore[union-attr]
    code, out, err = cli(capsys, "workload", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["model"]["params_b"] > 6


def test_a_missing_config_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "box.rigplan"
    path.write_text(BUILD.read_text() + "workload:\n  model: gone/config.json\n  task: lora\n")
    monkeypatch.chdir(ROOT)
    code, out, err = cli(capsys, "workload", str(path), "--json")
    assert code != 0 and "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert str(tmp_path / "gone" / "config.json") in lines[0] and "not found" in lines[0]
    code, md, err = cli(capsys, "export", str(path), "--format", "md")  # the export says it and goes on
    assert code == 0, err
    assert "not found" in md.split("**Workload")[1]


def test_the_pdf_report_has_the_workload_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("PySide6")
    from rigplan.exports.plan import make_plan
    from rigplan.render.pdf import workload_html
    from rigplan.workload.describe import plan_lines

    path = tmp_path / "box.rigplan"
    shutil.copy(BUILD, path)
    code, _, err = cli(capsys, "workload", str(path), "--model", "llama-3.1-8b", "--task", "lora", "--tokens", "1e8",
                       "--save")  # fmt: skip
    assert code == 0, err
    build = load(path)
    plan = make_plan(build)
    assert workload_html(plan) == ""  # not asked for: no section
    plan.workload_lines = plan_lines(build, [(c.offer, c.pricing) for c in plan.offers])
    html = workload_html(plan)
    assert "<h2>Workload</h2>" in html and "Llama 3.1 8B, lora, sequence 2,048" in html
    assert "GB per GPU: weights" in html and "Basis:" in html and "MFU" in html
    assert "a job; owning wins after" in html
    out = tmp_path / "r.pdf"
    code, _, err = cli(capsys, "export", str(path), "--format", "pdf", "--output", str(out))
    assert code == 0, err
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) reads the PDF's text")
    import subprocess

    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "Workload" in text and "Llama 3.1 8B" in text and "owning wins after" in text
