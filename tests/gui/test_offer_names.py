"""One name per cloud offer wherever a user reads it (issue 29): the Costs summary, the chart's break-even labels, the
side table, the tooltips and the bars, and the Markdown, PDF and chart exports."""

from __future__ import annotations

from pathlib import Path

from gui_helpers import show_tab

from rigplan.exports.markdown import to_markdown
from rigplan.exports.plan import job_lines, make_plan, name_lines
from rigplan.files import load
from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Pricing
from rigplan.model.build import ChartOffer

COMPARE = [
    ChartOffer(offer="aws:g7e.12xlarge:us-east-1", pricing=Pricing.SPOT),  # "AWS 2x RTXPRO6000"
    ChartOffer(offer="aws:g5.xlarge:us-east-1", pricing=Pricing.ON_DEMAND),  # both 1x A10G: named by instance
    ChartOffer(offer="aws:g5.2xlarge:us-east-1", pricing=Pricing.ON_DEMAND),
    ChartOffer(offer="lambda:gpu_1x_a100:us-east-1", pricing=Pricing.ON_DEMAND),
]


def test_the_costs_tab_names_each_offer_once(window: MainWindow, examples_dir: Path, qtbot) -> None:  # noqa: ANN001
    window.resize(1280, 720)
    window.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    show_tab(qtbot, window.tabs, "Costs")
    v = window.costs
    v.ensure_charts()
    v.set_build(window.doc.build.model_copy(update={"comparison": tuple(COMPARE)}))
    names = v.names()
    assert names[0] == "AWS 2x RTXPRO6000"
    assert {"AWS g5.xlarge 1x A10G", "AWS g5.2xlarge 1x A10G"} <= set(names)  # would read the same: instance added
    # The summary's earliest break-even names the offer as the chart's label and the side table do.
    summary = v.summary.text()
    earliest = summary.split("against ", 1)[1].split(".</", 1)[0].split(".<", 1)[0].rstrip(".")
    assert earliest in names and "g7e" not in summary
    labels = [t.textItem.toPlainText() for _, t in v.chart("breakeven").markers if t.isVisible()]
    assert any(label.startswith(earliest + " ") for label in labels)
    table = v.compare.column_texts(0)[1:]
    assert table == [v._names[c.offer] for c in COMPARE]
    tips = [v.compare.item(r, 0).toolTip().split("\n")[0] for r in range(1, v.compare.rowCount())]
    assert tips == table  # each tooltip opens with the same name, then the instance and its price date
    show_tab(qtbot, v.chart_tabs, "Cost breakdown")
    bars = v.chart("breakdown").tick_names[1:]
    assert bars[0].split("\n") == ["AWS", "2x RTXPRO6000", "spot"]


def test_exports_use_the_same_names(examples_dir: Path) -> None:
    build = load(examples_dir / "2x-rtx-4090.rigplan")
    plan = make_plan(build, [(c.offer, c.pricing) for c in COMPARE])
    names = plan.offer_names()
    assert names[("aws:g7e.12xlarge:us-east-1", Pricing.SPOT)] == "AWS 2x RTXPRO6000"
    md = to_markdown(plan)
    rows = [line.split(" | ") for line in md.splitlines() if line.startswith("| AWS") or line.startswith("| Lambda")]
    assert [r[0].lstrip("| ") for r in rows] == list(names.values())
    assert [r[1] for r in rows][:2] == ["g7e.12xlarge, us-east-1", "g5.xlarge, us-east-1"]
    # A job size gives job lines: each names its offer as the table does (this example has none by itself)
    jobs = build.model_copy(update={"assumptions": build.assumptions.model_copy(update={"job_hours": 400.0})})
    lines = job_lines(make_plan(jobs, [(c.offer, c.pricing) for c in COMPARE]))
    assert [line.split(" (")[0] for line in lines] == list(names.values())
    # One offer at two pricings: the name carries the pricing once, and so do the bars
    twice = make_plan(
        build, [("aws:g5.xlarge:us-east-1", Pricing.SPOT), ("aws:g5.xlarge:us-east-1", Pricing.ON_DEMAND)]
    )
    assert sorted(twice.offer_names().values()) == ["AWS g5.xlarge 1x A10G on-demand", "AWS g5.xlarge 1x A10G spot"]
    assert name_lines("AWS g5.xlarge 1x A10G spot", "spot") == ["AWS", "g5.xlarge", "1x A10G", "spot"]


def test_workload_lines_name_offers_as_the_export(examples_dir: Path) -> None:
    """The export's workload section (a language model and a measured one) names the offers as its tables do."""
    from rigplan.model.workload import Task, WorkloadSpec
    from rigplan.workload.describe import plan_lines

    build = load(examples_dir / "2x-rtx-4090.rigplan")
    for spec in (WorkloadSpec(model="resnet50", v100_hours=10), WorkloadSpec(model="mistral-7b", task=Task.QLORA)):
        b = build.model_copy(update={"workload": spec})
        plan = make_plan(b)
        names = list(plan.offer_names().values())
        lines = plan_lines(b, [(c.offer, c.pricing) for c in plan.offers], names)
        for name, c in zip(names, plan.offers, strict=True):
            assert any(line.startswith(f"{name} ({c.pricing.value}): ") for line in lines), (name, lines)
