"""The Qt exports read back: the PDF's text (pdftotext) carries the model's figures, the PNG has the asked size and
DPI, and the SVG draws every curve of the chart in its colour and names it in the legend."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from rigplan.cli.main import run_cli
from rigplan.exports.plan import breakeven_text, make_plan
from rigplan.files import load
from rigplan.render.images import OFFER_COLORS, OWN_COLOR, write_chart
from rigplan.render.pdf import write_pdf
from rigplan.wording import least, money, unpriced_text

ROOT = Path(__file__).resolve().parents[2]
TWO_GPU = ROOT / "examples" / "2x-rtx-4090.rigplan"
BROKEN_PSU = ROOT / "examples" / "broken" / "psu-wattage.rigplan"
needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler-utils) not installed")


def pdf_text(path: Path) -> list[str]:
    """Text of each page, whitespace collapsed (table cells come out in reading order, not as rows)."""
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    return [" ".join(page.split()) for page in out.stdout.split("\f") if page.strip()]


@needs_poppler
@pytest.mark.parametrize("path", [TWO_GPU, BROKEN_PSU])
def test_pdf_text_carries_the_models_figures(qapp, tmp_path: Path, path: Path) -> None:  # noqa: ANN001
    plan = make_plan(load(path))
    out = tmp_path / "report.pdf"
    write_pdf(plan, out)
    pages = pdf_text(out)
    # a broken build with many findings runs longer: issue 25 added rules, and issue 29 an Instance column in the
    # offers table (each offer named as the chart names it, then its instance and region)
    assert 1 <= len(pages) <= 5
    first = pages[0]
    assert plan.build.name in first
    for item in plan.build.items:
        p = item.unit_price
        assert (money(p.currency, p.amount) if p else "no price") in first
    unpriced = plan.costing.own.unpriced
    n = len(unpriced)  # issue 19's wording: "(1 part without a price)" under Item, "at least USD ..." as price
    missing = f"({unpriced_text(n)}) " if n else ""
    assert f"Total {missing}{least(n)}{money('USD', plan.cost.own_breakdown['parts'])}" in first
    power = plan.report.power
    assert f"{power.load_w:.0f} W at full load" in first and f"{power.wall_load_w:.0f} W training" in first
    flat = first.replace("- ", "-")  # a rule id wrapped at its hyphen
    assert plan.report.findings
    for f in plan.report.findings:
        assert f"({f.rule})" in flat
    # the summary may flow onto a second page (a broken build's many findings push the offers table on); the charts
    # start on a page of their own
    at = next(i for i, page in enumerate(pages) if "Cumulative cost: owning vs renting the same work" in page)
    summary = " ".join(pages[:at])
    for c in plan.offers:
        assert breakeven_text(plan, c.offer.id, c.pricing) in summary
    charts = pages[at]
    assert "Cumulative cost: owning vs renting the same work" in charts and "Cost at the horizon" in charts
    # Both charts label their zero: at page size the break-even chart dropped its "$0" tick label (issue 29).
    breakeven, breakdown = charts.split("Cost at the horizon")
    assert "$0 0 " in breakeven and "$0 Own" in breakdown
    for name in plan.offer_names().values():  # the chart labels name the offers as the offer table does (issue 29)
        assert name in breakeven
    last = "\n".join(pages[at + 1 :])  # the sources and assumptions pages (two when many findings push them on)
    assert "Data sources" in last and "Assumptions" in last
    for item in plan.build.items:
        if item.unit_price:
            assert item.unit_price.date.isoformat() in last
    for c in plan.offers:
        assert c.offer.id in last


def _svg_strokes(path: Path) -> tuple[set[str], str]:
    root = ET.parse(path).getroot()
    strokes = {el.get("stroke", "").lower() for el in root.iter() if el.get("stroke")}
    texts = " ".join(" ".join(el.itertext()) for el in root.iter() if el.tag.endswith("text"))
    return strokes, " ".join(texts.split())


def test_svg_has_every_curve_in_its_colour_and_legend(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    plan = make_plan(load(TWO_GPU))
    out = tmp_path / "breakeven.svg"
    write_chart(plan, "breakeven", out, "svg", width=900, height=500)
    strokes, text = _svg_strokes(out)
    assert OWN_COLOR in strokes and "Own this build" in text
    assert len(plan.cost.offers) == 3
    for n, o in enumerate(plan.cost.offers):
        assert OFFER_COLORS[n] in strokes
        assert plan.offer_name(o.id, o.pricing) in text  # the one name the Costs tab gives it (issue 29)
    root = ET.parse(out).getroot()
    assert (root.get("width"), root.get("height")) == ("317mm", "176mm") or root.get("viewBox") == "0 0 900 500"


def test_png_has_the_asked_size_and_dpi(qapp, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    out = tmp_path / "costs.png"
    args = ["export", str(TWO_GPU), "-f", "png", "--chart", "breakdown", "--width", "1600", "--height", "900"]
    assert run_cli([*args, "--dpi", "192", "-o", str(out)]) == 0
    img = QImage(str(out))
    assert (img.width(), img.height()) == (1600, 900)
    assert round(img.dotsPerMeterX() * 0.0254) == 192
    # Not blank: the bars' colours are drawn (parts blue, compute red).
    colors = {img.pixelColor(x, y).name() for x in range(0, 1600, 8) for y in range(0, 900, 8)}
    assert {"#4c72b0", "#c44e52"} <= colors


def test_cli_pdf_and_bad_output_path(qapp, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: ANN001
    out = tmp_path / "r.pdf"
    assert run_cli(["export", str(TWO_GPU), "-f", "pdf", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert re.search(rb"/Count 3", out.read_bytes())
    assert run_cli(["export", str(TWO_GPU), "-f", "pdf", "-o", str(tmp_path / "no" / "r.pdf")]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and err.count("\n") == 1


def test_sensitivity_svg_names_every_assumption_of_the_model(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    from rigplan.costs.analysis import sensitivity

    plan = make_plan(load(TWO_GPU))
    bars = sensitivity(plan.costing.own, plan.inputs[0], plan.build.assumptions)
    out = tmp_path / "tornado.svg"
    assert run_cli(["export", str(TWO_GPU), "-f", "svg", "--chart", "sensitivity", "-o", str(out)]) == 0
    root = ET.parse(out).getroot()
    fills = {el.get("fill", "").lower() for el in root.iter()}
    _, text = _svg_strokes(out)
    assert {"#4c72b0", "#dd8452"} <= fills
    assert len(bars) == 6 and all(b.name in text for b in bars)
    assert plan.offer_name(plan.inputs[0].id, plan.inputs[0].pricing) in text


@needs_poppler
def test_pdf_charts_are_vector_graphics(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    out = tmp_path / "r.pdf"
    write_pdf(make_plan(load(TWO_GPU)), out)
    listing = subprocess.run(["pdfimages", "-list", str(out)], capture_output=True, text=True, check=True).stdout
    assert listing.splitlines()[2:] == []  # header lines only: no raster image anywhere, the charts are paths


@needs_poppler
def test_a_new_empty_build_exports_every_format(qapp, tmp_path: Path) -> None:  # noqa: ANN001
    from rigplan.exports.markdown import to_markdown
    from rigplan.exports.tables import costs_csv, parts_csv
    from rigplan.model.build import Build

    plan = make_plan(Build(name="Empty"))
    md = to_markdown(plan)
    assert "**$0.00**" in md and "`missing-gpu`" in md and "| speed ratio unknown |" in md
    parts, setting = parts_csv(plan).split("\n\n")
    assert parts.splitlines() == ["kind,name,quantity,unit_price,currency,price_date,source"]
    assert "\nparts_total,0,USD,every line priced\n" in setting  # no line: nothing unpriced, total 0
    assert costs_csv(plan).splitlines()[0] == "day,hours_of_training,own_USD"  # no curve without a known speed
    write_pdf(plan, tmp_path / "e.pdf")
    assert (
        "No problems found" not in pdf_text(tmp_path / "e.pdf")[0]
        and "(missing-gpu)" in pdf_text(tmp_path / "e.pdf")[0]
    )
    for which in ("breakeven", "breakdown", "sensitivity"):
        write_chart(plan, which, tmp_path / f"{which}.svg", "svg")
        assert ET.parse(tmp_path / f"{which}.svg").getroot().tag.endswith("svg")
