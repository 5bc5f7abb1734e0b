"""Issue 29: the exported charts (PNG, SVG, the PDF's page) match the Costs tab: months on the x axis, amounts in
the build's currency, a label per break-even naming the offer, placed above every curve and inside the plot; the
legend under the plot, where it covers nothing and is never cut; the SVG has a white background and its "Own this
build" line keeps its 3 px width in any viewer; the Compare chart's legend and axis too."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QImage

from rigplan.exports.compare import compare
from rigplan.exports.plan import Plan, make_plan
from rigplan.files import load
from rigplan.render.images import (
    breakdown_plot,
    breakeven_plot,
    comparison_plot,
    lay_out,
    write_chart,
)

EX = Path(__file__).resolve().parents[2] / "examples"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def plan() -> Plan:
    return make_plan(load(EX / "2x-rtx-4090.rigplan"))


def _texts(w: pg.PlotWidget) -> list[pg.TextItem]:
    return [i for i in w.getPlotItem().items if isinstance(i, pg.TextItem) and i.isVisible()]


def _curve_tops(w: pg.PlotWidget) -> float:
    return max(float(max(c.getData()[1])) for c in w.getPlotItem().listDataItems())


@pytest.mark.parametrize("size", [QSize(1200, 700), QSize(700, 480)])
def test_the_breakeven_image_reads_as_the_screen(qtbot, plan: Plan, size: QSize) -> None:  # noqa: ANN001
    w = breakeven_plot(plan)
    lay_out(w, size)
    try:
        assert w.getAxis("bottom").labelText == "Months from purchase"
        assert w.getAxis("left").tickStrings([20000.0], 1.0, 10000.0) == ["$20,000"]
        vb = w.getPlotItem().vb
        plot_area = vb.sceneBoundingRect()
        texts = _texts(w)
        offers = [o for o in plan.cost.offers if o.status == "breaks-even"]
        assert len(texts) == len(offers) >= 2
        shown = sorted(t.textItem.toPlainText() for t in texts)
        for o in offers:  # named as the screen names it ("AWS 1x V100 3.2 mo"), with the months
            months = f"{o.breakeven_days / (365.25 / 12):,.1f} mo"
            assert any(months in s for s in shown), (months, shown)
        assert any(s.startswith("AWS 1x V100 ") for s in shown) and any(s.startswith("Lambda 1x A100 ") for s in shown)
        rects = [t.sceneBoundingRect() for t in texts]
        top = _curve_tops(w)
        for n, r in enumerate(rects):
            assert plot_area.contains(r), (r, plot_area)  # never cut by the plot's edge
            assert vb.mapSceneToView(r.bottomLeft()).y() > top  # above every curve: covers none
            assert not any(r.intersects(o) for o in rects[n + 1 :])  # no two labels overlap
    finally:
        w.close()


@pytest.mark.parametrize("make", [breakeven_plot, breakdown_plot])
def test_the_legend_sits_under_the_plot_whole(qtbot, plan: Plan, make) -> None:  # noqa: ANN001
    w = make(plan)
    lay_out(w, QSize(710, 520))  # about the PDF's half page
    try:
        legend = w.getPlotItem().legend
        box = legend.sceneBoundingRect()
        assert not box.intersects(w.getPlotItem().vb.sceneBoundingRect())  # covers no curve and no bar
        assert QRectF(w.viewport().rect()).contains(box)  # and is not cut
        assert len(legend.items) >= 4
    finally:
        w.close()


def test_a_euro_build_exports_euro_ticks(qtbot) -> None:  # noqa: ANN001
    build = load(EX / "2x-rtx-4090.rigplan")
    eur = build.model_copy(update={"assumptions": build.assumptions.model_copy(update={"currency": "EUR"})})
    w = breakeven_plot(make_plan(eur))
    try:
        assert w.getAxis("left").tickStrings([5000.0, -5000.0], 1.0, 5000.0) == ["€5,000", "-€5,000"]
        assert "(EUR)" in w.getAxis("left").labelText
    finally:
        w.close()


def test_the_svg_has_a_background_and_a_thick_own_line(qtbot, plan: Plan, tmp_path: Path) -> None:  # noqa: ANN001
    path = tmp_path / "c.svg"
    write_chart(plan, "breakeven", path, "svg", width=1000, height=600)
    root = ET.parse(path).getroot()
    first = next(root.iter(f"{SVG}rect"))
    group = next(g for g in root.iter(f"{SVG}g") if first in list(g))
    assert group.get("fill") == "#ffffff" and (first.get("width"), first.get("height")) == ("1000", "600")
    own = [g for g in root.iter(f"{SVG}g") if g.get("stroke") == "#222222" and g.get("stroke-width") == "3"]
    assert own  # the curve (and its legend sample)
    for g in own:
        # drawn in the image's own units: a viewer that ignores vector-effect cannot scale the 3 px stroke away
        assert g.get("transform") in (None, "matrix(1,0,0,1,0,0)"), g.get("transform")
        for p in g.iter(f"{SVG}path"):
            xs = [float(v.split(",")[0]) for v in p.get("d", "").replace("M", " ").replace("L", " ").split()]
            assert xs and all(0 <= x <= 1000 for x in xs)


def test_the_png_is_opaque_at_its_size(qtbot, plan: Plan, tmp_path: Path) -> None:  # noqa: ANN001
    path = tmp_path / "c.png"
    write_chart(plan, "breakeven", path, "png", width=900, height=500)
    img = QImage(str(path))
    assert (img.width(), img.height()) == (900, 500)
    assert img.pixelColor(2, 2).name() == "#ffffff" and img.pixelColor(2, 2).alpha() == 255


def test_the_compare_chart_legend_fits_a_narrow_pane(qtbot) -> None:  # noqa: ANN001
    plans = [make_plan(load(EX / f)) for f in ("2x-rtx-4090.rigplan", "budget-1-gpu.rigplan")]
    cmp = compare(plans)
    w = comparison_plot(cmp)
    lay_out(w, QSize(460, 620))  # the Compare dialog's chart pane at 1280x720
    try:
        legend = w.getPlotItem().legend
        box = legend.sceneBoundingRect()
        assert QRectF(w.viewport().rect()).contains(box)
        assert not box.intersects(w.getPlotItem().vb.sceneBoundingRect())
        assert w.getPlotItem().vb.sceneBoundingRect().right() <= w.viewport().width()  # the plot is not cut either
        assert w.getAxis("left").tickStrings([20000.0], 1.0, 10000.0) == ["$20,000"]
        assert "V100" in w.getAxis("bottom").labelText and "hours of training" in w.getAxis("bottom").labelText
    finally:
        w.close()
