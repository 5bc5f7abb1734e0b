"""Issue 29: `rigplan compare --out FILE.md|FILE.pdf` writes the whole comparison; a bad name is one line, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from rigplan.cli.main import run_cli
from rigplan.exports.compare import compare, figure_rows
from rigplan.exports.plan import make_plan
from rigplan.files import load

EX = Path(__file__).resolve().parents[1] / "examples"
BUILDS = [str(EX / "2x-rtx-4090.rigplan"), str(EX / "budget-1-gpu.rigplan")]


def test_markdown_comparison(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cmp.md"
    assert run_cli(["compare", *BUILDS, "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {out}"
    text = out.read_text("utf-8")
    cmp = compare([make_plan(load(Path(b))) for b in BUILDS])
    for row in figure_rows(cmp):
        assert "| " + " | ".join(row) + " |" in text
    assert "| * CPU | AMD Ryzen 9 7950X | AMD Ryzen 5 7600 |" in text


def test_bad_out_names_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["compare", *BUILDS, "--out", str(tmp_path / "cmp.txt")]) == 2
    err = capsys.readouterr().err
    assert "give a .md or .pdf file name" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    copy = tmp_path / "a.md"
    copy.write_bytes(Path(BUILDS[0]).read_bytes())
    assert run_cli(["compare", str(copy), BUILDS[1], "--out", str(copy)]) == 2
    assert "also the input" in capsys.readouterr().err
    assert copy.read_bytes() == Path(BUILDS[0]).read_bytes()
