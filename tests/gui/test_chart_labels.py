"""Issue 29, Major 3: with six offers on the chart and the assumptions open at 1280 wide, each break-even label
names its offer (provider and GPUs; two Lambda offers never read the same), no two labels overlap and none is cut by
the plot's edge; the cost-breakdown bars are named under every bar, the last one included, without collisions,
in the app and in the exported chart (rigplan.render, used by the PDF)."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import show_tab
from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from rigplan.gui.mainwindow import MainWindow
from rigplan.model.build import ChartOffer

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "2x-rtx-4090.rigplan"


def _six_offers(window: MainWindow, qtbot) -> None:  # noqa: ANN001
    window.resize(1280, 720)
    window.files.open_path(EXAMPLE, ask=False)
    show_tab(qtbot, window.tabs, "Costs")
    window.costs.ensure_charts()
    by_type = {o.instance_type: o.id for o in window.costs.offers.offers if o.provider == "lambda" and o.gpu_count == 2}
    chosen = {c.offer for c in window.costs.comparison}
    more = [ChartOffer(offer=i) for i in sorted(by_type.values()) if i not in chosen][:2]
    window.doc.set_comparison(list(window.costs.comparison) + more)
    window.costs.show_assumptions(True)
    qtbot.wait(200)
    window.costs.recompute()
    assert len(window.costs._drawn) == 6


def _text_specs(axis) -> list[tuple[QRectF, str]]:  # noqa: ANN001
    img = QImage(10, 10, QImage.Format.Format_ARGB32)
    p = QPainter(img)
    try:
        specs = axis.generateDrawSpecs(p)
    finally:
        p.end()
    return [(rect, text) for rect, _, text in specs[2]]


def test_breakeven_labels_name_the_offer_and_never_overlap_or_clip(window: MainWindow, qtbot) -> None:  # noqa: ANN001
    _six_offers(window, qtbot)
    chart = window.costs.chart("breakeven")
    plot = chart.widget.getPlotItem().vb.sceneBoundingRect()
    drawn = [o for o, (line, _) in zip(window.costs._drawn, chart.markers, strict=False) if line.isVisible()]
    shown = [(o, text) for o, (line, text) in zip(window.costs._drawn, chart.markers, strict=False) if text.isVisible()]
    assert len(shown) >= 4 and len(drawn) == 6  # every break-even keeps its dashed line
    labels = [t.textItem.toPlainText() for _, t in shown]
    for label, (o, _) in zip(labels, shown, strict=True):
        offer = window.costs.offers.get(o.offer)
        assert offer is not None
        # "Lambda 2x A100 11.5 mo", not "Lambda 11.5 mo"; or, with no room left above the curves, "11.5 mo" alone
        assert offer.gpus_text in label or label.split()[-1] == "mo" and len(label.split()) == 2
    rects = [t.mapRectToScene(t.boundingRect()) for _, t in shown]
    # Issue 40: the labels keep to the top of the plot; the curves and their crossings stay in view below them
    assert max(r.bottom() for r in rects) - plot.top() <= 0.45 * plot.height()
    for n, r in enumerate(rects):
        assert plot.left() - 1 <= r.left() and r.right() <= plot.right() + 1, labels[n]  # never clipped
        for m in range(n):
            assert not r.adjusted(1, 1, -1, -1).intersects(rects[m]), (labels[n], labels[m])


def test_breakdown_bars_are_all_named_without_collisions(window: MainWindow, qtbot) -> None:  # noqa: ANN001
    _six_offers(window, qtbot)
    show_tab(qtbot, window.costs.chart_tabs, "Cost breakdown")
    qtbot.wait(100)
    axis = window.costs.chart("breakdown").plot.getAxis("bottom")
    specs = _text_specs(axis)
    assert len(specs) == 7  # Own and six offers: the last bar keeps its label
    rects = [r for r, _ in specs]
    for n in range(1, len(rects)):
        assert rects[n - 1].right() <= rects[n].left() + 1, (specs[n - 1][1], specs[n][1])


def test_exported_breakdown_names_every_bar(window: MainWindow, qtbot) -> None:  # noqa: ANN001
    from PySide6.QtCore import QSize

    from rigplan.exports.plan import make_plan
    from rigplan.render.images import breakdown_plot, lay_out

    _six_offers(window, qtbot)
    plan = make_plan(window.doc.build, catalog=window.costs.offers, perf=window.costs.perf)
    w = breakdown_plot(plan)
    lay_out(w, QSize(700, 420))
    axis = w.getAxis("bottom")
    specs = _text_specs(axis)
    assert len(specs) == len(plan.cost.offers) + 1 >= 6
    for n in range(1, len(specs)):
        assert specs[n - 1][0].right() <= specs[n][0].left() + 1, (specs[n - 1][1], specs[n][1])
