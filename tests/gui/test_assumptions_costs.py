"""The assumptions panel's cost-model fields (precision, scaling per side, resale curve, job mode, exchange rate),
driven with qtbot on the real main window and the 2x RTX 4090 example: what the user sets reaches the build's
assumptions, and the summary shows the result."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import click, open_costs, pick, tick, type_into

from rigplan.costs.fx import load_fx
from rigplan.costs.perf import key, load_perf
from rigplan.gui.mainwindow import MainWindow
from rigplan.model import Pricing
from rigplan.model.assumptions import DATA_LOADER_BOUND_SCALING, Precision
from rigplan.model.build import ChartOffer


@pytest.fixture
def window(qtbot, window: MainWindow, examples_dir: Path) -> MainWindow:  # noqa: ANN001
    """The conftest window (no dialog may block) with the 2-GPU example open."""
    w = window
    assert w.files.open_path(examples_dir / "2x-rtx-4090.rigplan", ask=False)
    w.doc.set_comparison([ChartOffer(offer="aws:p3.2xlarge:us-east-1", pricing=Pricing.ON_DEMAND)])  # in the file
    open_costs(qtbot, w)  # the Costs tab and its Assumptions panel on screen: its fields take clicks
    return w


def p3_speed(w: MainWindow) -> float:
    (o,) = w.costs.report.offers
    return o.speedup


def test_precision_changes_the_speed_ratio(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    form = window.costs.form
    mixed = p3_speed(window)
    pick(qtbot, form.precision, data=Precision.FP32)
    assert window.doc.build.assumptions.precision is Precision.FP32
    assert p3_speed(window) != pytest.approx(mixed)  # a 4090 gains less from mixed precision than a V100


def test_scaling_per_side_and_the_data_loader_preset(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    form = window.costs.form
    measured = p3_speed(window)
    # the default is fitted (the 4090's own measured 2-GPU run here), said in the box's tooltip while in use
    assert "own measured multi-GPU runs" in form.optional["scaling_desktop"].auto.toolTip()
    click(qtbot, form.loader_bound)
    a = window.doc.build.assumptions
    assert a.scaling_desktop == a.scaling_cloud == DATA_LOADER_BOUND_SCALING
    two = 2 ** load_perf().models[key("RTX 4090")].own_scaling  # the 4090's own measured 2-GPU run (1.71x)
    assert p3_speed(window) == pytest.approx(measured / two * 1.18, rel=1e-3)  # two cards, 0.18 for the second
    tick(qtbot, form.optional["scaling_desktop"].auto, True)  # back to measured
    assert window.doc.build.assumptions.scaling_desktop is None
    assert p3_speed(window) == pytest.approx(measured, rel=1e-6)


def test_resale_curve_and_fixed_share(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    form = window.costs.form
    assert [s.value() for s in form.curve_spins] == [65, 52, 42, 28]  # RigPlan's curve, shown while in use
    assert "Resale 42%" in window.costs.breakeven_text()
    tick(qtbot, form.curve_auto, False)
    type_into(qtbot, form.curve_spins[2], "30")  # retained after 3 years
    assert window.doc.build.assumptions.resale_curve == (0.65, 0.52, 0.30, 0.28)
    assert window.costs.report.resale_share == pytest.approx(0.30)
    field = form.optional["resale_fraction"]
    tick(qtbot, field.auto, False)
    type_into(qtbot, field.spin, "10")
    assert window.doc.build.assumptions.resale_fraction == pytest.approx(0.10)
    assert "Resale 10% (set by the user)" in window.costs.breakeven_text()


def test_job_mode(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    form = window.costs.form
    assert not form.job_size.isEnabled()
    pick(qtbot, form.job_mode, data="job_hours")  # job of GPU-hours
    type_into(qtbot, form.job_size, "400")
    a = window.doc.build.assumptions
    assert a.job_hours == 400 and a.job_days is None
    p3 = window.costs.offers.get("aws:p3.2xlarge:us-east-1")
    rent = 400 * p3.hourly(Pricing.ON_DEMAND)  # 400 V100-hours on the one-V100 instance
    text = window.costs.breakeven_text()
    assert f"Job on AWS 1x V100: {window.money(rent)} rented" in text and "owning wins after <b>" in text
    pick(qtbot, form.job_mode, data="job_days")  # job of days
    type_into(qtbot, form.job_size, "12")
    a = window.doc.build.assumptions
    assert a.job_days == 12 and a.job_hours is None
    assert "Job on AWS 1x V100" in window.costs.breakeven_text()  # named as the chart names the p3.2xlarge


def test_currency_converts_at_the_reference_rate(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    form = window.costs.form
    usd = window.costs.report.upfront
    pick(qtbot, form.currency, "EUR")
    fx = load_fx()
    assert window.doc.build.assumptions.currency == "EUR" and window.doc.build.assumptions.fx_rate is None
    assert window.costs.report.upfront == pytest.approx(usd * fx.rates["EUR"])
    assert form.optional["fx_rate"].spin.value() == pytest.approx(fx.rates["EUR"], abs=1e-4)
    assert fx.date in form.optional["fx_rate"].auto.toolTip()
    assert f"ECB reference rate of {fx.date}" in window.costs.breakeven_text()
    rate = form.optional["fx_rate"]
    tick(qtbot, rate.auto, False)
    type_into(qtbot, rate.spin, "1")
    assert window.costs.report.upfront == pytest.approx(usd)
    assert "set by the user" in window.costs.breakeven_text()
    pick(qtbot, form.currency, "TWD")  # no ECB rate: the user's rate still applies, no relabel
    assert window.doc.build.assumptions.currency == "TWD" and window.doc.build.assumptions.fx_rate == 1.0
    click(qtbot, rate.auto)  # tick: back to the ECB rate, which TWD does not have: refused under the field, build kept
    assert "no reference rate for TWD" in form.message_for(rate.spin)
    assert window.doc.build.assumptions.fx_rate == 1.0
    assert not rate.auto.isChecked() and rate.spin.value() == 1.0  # what is shown is what the build holds
    pick(qtbot, form.currency, "USD")  # prices are in USD: no rate to keep, the row is off
    assert window.doc.build.assumptions.fx_rate is None and not rate.isEnabled()


def test_a_file_in_a_currency_without_a_rate(qtbot, window: MainWindow, tmp_path: Path) -> None:  # noqa: ANN001
    build = window.doc.build
    twd = build.model_copy(update={"assumptions": build.assumptions.model_copy(update={"currency": "TWD"})})
    window.costs.set_build(twd)  # e.g. a hand-edited file: said in the summary, no exception
    assert "no reference rate for TWD" in window.costs.breakeven_text()


def test_unknown_speed_is_shown_as_unknown(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    offer = "aws:dl1.24xlarge:us-east-1@quoted-2022-02-08"
    window.doc.set_comparison([ChartOffer(offer=offer, pricing=Pricing.ON_DEMAND)])
    assert window.costs.report.offers == [] and len(window.costs.report.speed_unknown) == 1
    assert "speed ratio <b>unknown</b>" in window.costs.breakeven_text()
    (u,) = window.costs.report.speed_unknown
    assert window.costs.compare.column_texts(2)[1:] == [
        f"{u.breakeven_instance_hours:,.0f} h"
    ]  # break-even in hours only


def test_the_parts_table_and_the_cost_model_agree_on_a_gpu(catalog) -> None:  # noqa: ANN001
    from rigplan.costs.perf import gpu_speed, key
    from rigplan.gui.parts.partsmodel import columns_for
    from rigplan.model import Kind

    perf = load_perf()
    speed_col = next(c for c in columns_for(Kind.GPU, perf) if c[0] == "Speed")[1]
    table = catalog.table(Kind.GPU)
    for chipset in ("GeForce GTX 1070 Ti", "GeForce RTX 4060 Ti", "GeForce RTX 4090"):
        i = table.column("chipset").index(chipset)
        gpu = table.part(i)
        ours = gpu_speed(perf, gpu)
        assert speed_col(table.columns, i) == round(ours.value, 2), chipset  # the Speed column is the model's figure
    assert (
        gpu_speed(perf, table.part(table.column("chipset").index("GeForce GTX 1070 Ti"))).value
        == perf.chipsets[key("GeForce GTX 1070 Ti")].value
    )


def test_workload_choice_changes_the_speed_ratio(qtbot, window: MainWindow) -> None:  # noqa: ANN001
    """Issue 27: the workload's own speed. All models is the default; ResNet-50 is one of Lambda's measured models."""
    from rigplan.model.assumptions import Workload

    form = window.costs.form
    assert Workload(form.workload.currentData()) is Workload.ALL
    assert form.workload.currentText() == "All models (geometric mean)"
    every = p3_speed(window)
    pick(qtbot, form.workload, data=Workload.RESNET50)
    assert window.doc.build.assumptions.workload is Workload.RESNET50
    assert p3_speed(window) < every  # a 4090 gains less over a V100 on ResNet-50 than on the 7-model mean
    pick(qtbot, form.workload, data=Workload.TACOTRON2_DATALOADER_BOUND)
    assert "data-loader bound" in form.workload.currentText()
