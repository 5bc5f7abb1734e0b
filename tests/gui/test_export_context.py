"""Issue 40, major 2 and "outputs in the build's currency and words": the user's notes, the electricity price with
its region, the use and the one rate reach the PDF and the Markdown, and a GBP build's part and hourly prices are in
GBP beside its GBP total (they were USD)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from rigplan.exports.markdown import to_markdown
from rigplan.exports.plan import make_plan
from rigplan.files import load
from rigplan.render.pdf import write_pdf

ROOT = Path(__file__).resolve().parents[2]
NOTE = "Quote from the shop: 2 weeks delivery, ask Sam about the 5-year warranty."


def gbp_build():  # noqa: ANN201
    b = load(ROOT / "examples" / "2x-rtx-4090.rigplan")
    return b.model_copy(update={"notes": NOTE, "assumptions": b.assumptions.model_copy(update={"currency": "GBP"})})


def test_markdown_has_notes_electricity_use_and_one_currency() -> None:
    plan = make_plan(gbp_build())
    md = to_markdown(plan)
    assert f"**Your notes:** {NOTE}" in md
    assert re.search(r"\*\*Electricity:\*\* £0\.264 per kWh, Great Britain: Ofgem price cap", md)
    assert "**Use:** 8 h of training and 4 h idle a day, over 3 years" in md
    assert "**Currency:** every amount is in GBP; prices quoted in others converted at GBP " in md
    parts = [ln for ln in md.splitlines() if ln.startswith("| ") and "2025-07-23" in ln]
    assert len(parts) == 8 and all(" £" in ln and "USD" not in ln for ln in parts)  # rigplan.wording's "£"
    offers = [ln for ln in md.splitlines() if ln.count("|") > 6 and ("aws" in ln.lower() or "lambda" in ln.lower())]
    assert offers and all("USD" not in ln and "£" in ln for ln in offers)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) not installed")
def test_pdf_has_notes_electricity_use_and_gbp_lines(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    plan = make_plan(gbp_build())
    out = tmp_path / "report.pdf"
    write_pdf(plan, out)
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    first = " ".join(text.split("\f")[0].split())
    assert "Your notes: " + NOTE in first  # the user's note, at the top of page 1
    assert "Electricity: £0.264 per kWh, Great Britain" in first
    assert "8 h of training and 4 h idle a day" in first
    assert "every amount is in GBP; prices quoted in others converted at GBP 0." in first
    assert "USD" not in re.sub(r"GBP [\d.]+ per USD", "", first)  # only the rate says USD: no USD part or hour
    assert "£2,2" in first  # an RTX 4090 line converted (USD 2,995.99 at about 0.74-0.80 GBP per USD)
