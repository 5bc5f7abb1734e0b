"""Text exports parsed back: the Markdown table's rows, total and findings, the parts CSV and the cost-curve CSV equal
the real core's figures (rules.check, the cost model), and `rigplan export` prints exactly the same text."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from pathlib import Path

import pytest

from rigplan.cli.main import run_cli
from rigplan.cloud.offers import load_offers
from rigplan.costs.analysis import analyse
from rigplan.exports.markdown import to_markdown
from rigplan.exports.plan import DEFAULT_CHART_OFFERS, make_plan
from rigplan.exports.tables import costs_csv, parts_csv
from rigplan.files import load
from rigplan.model.assumptions import Pricing
from rigplan.model.common import Price
from rigplan.rules import check
from rigplan.wording import money

ROOT = Path(__file__).resolve().parents[1]
TWO_GPU = ROOT / "examples" / "2x-rtx-4090.rigplan"
BROKEN_PSU = ROOT / "examples" / "broken" / "psu-wattage.rigplan"
DAY = dt.date(2026, 11, 23)


def table_rows(md: str) -> list[list[str]]:
    """Cells of every pipe-table row (header and separator rows left out)."""
    rows = []
    for line in md.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            rows.append(cells)
    return rows


def amount(text: str) -> float:
    return float(re.sub(r"[^\d.]", "", text))


def test_markdown_parts_total_and_findings_equal_the_model() -> None:
    build = load(BROKEN_PSU)
    plan = make_plan(build, today=DAY)
    md = to_markdown(plan)
    rows = table_rows(md)
    parts = [r for r in rows if r[0] not in ("Part", "Cloud offer", "**Total**") and len(r) == 5 and r[2].isdigit()]
    assert [(r[1], int(r[2])) for r in parts] == [(i.part.name, i.quantity) for i in build.items]
    for r, item in zip(parts, build.items, strict=True):
        if item.unit_price is None:
            assert r[3] == "no price"
            continue
        assert amount(r[3]) == pytest.approx(item.unit_price.amount)
        assert r[4] == item.unit_price.date.isoformat()
    total = next(r for r in rows if r[0] == "**Total**")
    priced = [i for i in build.items if i.unit_price]
    expected = sum(i.unit_price.amount * i.quantity for i in priced)
    assert amount(total[3].split("**")[1]) == pytest.approx(expected, abs=0.005)
    unpriced = len(build.items) - len(priced)
    assert ("at least" in total[3]) == bool(unpriced)
    # One line per finding, each naming its rule; the broken example's own error among them.
    report = check(build)
    assert report.errors()
    lines = [line for line in md.splitlines() if line.startswith("- ")]
    prefix = {"error": "- **Error**: ", "warning": "- **Warning**: ", "note": "- Note: "}
    findings = [line for line in lines if not line.startswith("- Not checked")]
    assert len(findings) == len(report.findings)
    for f in report.findings:
        assert any(f"`{f.rule}`" in line and line.startswith(prefix[f.severity.value]) for line in lines)
    assert f"**Checks:** {report.summary()}." in md
    assert "`psu-wattage`" in md


def test_markdown_breakeven_and_power_equal_the_cost_model() -> None:
    build = load(TWO_GPU)
    plan = make_plan(build, today=DAY)
    md = to_markdown(plan)
    catalog = load_offers()
    # The same offers through the cost model's own entry point, one pricing at a time.
    for offer_id, pricing in DEFAULT_CHART_OFFERS:
        result = analyse(build, [catalog.get(offer_id)], pricing=pricing).offers[0]
        name = plan.offer_names()[(offer_id, pricing)]  # the charts' name, the instance in the next column
        row = next(r for r in table_rows(md) if r[0] == name and r[2] == pricing.value)
        assert row[1].startswith(catalog.get(offer_id).instance_type + ", ")
        assert row[4] == f"{result.speedup:.2f}"
        assert f"after {result.breakeven_days:,.0f} days" in row[5]
    power = check(build).power
    assert f"{power.load_w:.0f} W at full load" in md
    assert f"{power.psu_w} W PSU at {power.sizing_w / power.psu_w:.0%} load" in md


def test_markdown_escapes_pipes_and_says_no_price(tmp_path: Path) -> None:
    build = load(TWO_GPU)
    items = list(build.items)
    items[0] = items[0].model_copy(update={"part": items[0].part.model_copy(update={"name": "A | B", "price": None})})
    plan = make_plan(build.model_copy(update={"items": tuple(items)}), today=DAY)
    md = to_markdown(plan)
    row = next(r for r in table_rows(md) if r[1] == "A \\| B")
    assert row[3] == "no price"
    total = next(r for r in table_rows(md) if r[0] == "**Total**")
    parts = money("USD", plan.cost.own_breakdown["parts"])
    assert total[3] == f"**at least {parts} (1 part without a price)**"


def test_parts_csv_rows_equal_the_build() -> None:
    build = load(TWO_GPU)
    # The parts end at the first blank row; the build's setting follows it (tests/test_exports_csv_settings.py)
    rows = list(csv.DictReader(io.StringIO(parts_csv(make_plan(build, today=DAY)).split("\n\n")[0])))
    assert len(rows) == len(build.items)
    for row, item in zip(rows, build.items, strict=True):
        p = item.unit_price
        assert row == {
            "kind": item.kind.value,
            "name": item.part.name,
            "quantity": str(item.quantity),
            "unit_price": f"{p.amount:.2f}",
            "currency": p.currency,
            "price_date": p.date.isoformat(),
            "source": p.source,
        }


def test_parts_csv_unknown_price_is_empty_not_zero() -> None:
    build = load(TWO_GPU)
    items = list(build.items)
    items[1] = items[1].model_copy(update={"part": items[1].part.model_copy(update={"price": None})})
    items[2] = items[2].model_copy(update={"price_override": Price(amount=99.5, currency="EUR", source="my shop")})
    text = parts_csv(make_plan(build.model_copy(update={"items": tuple(items)})))
    rows = list(csv.DictReader(io.StringIO(text.split("\n\n")[0])))  # the parts, before the setting table
    assert (rows[1]["unit_price"], rows[1]["currency"], rows[1]["price_date"]) == ("", "", "")
    assert (rows[2]["unit_price"], rows[2]["currency"], rows[2]["source"]) == ("99.50", "EUR", "my shop")


def test_costs_csv_is_the_models_curves() -> None:
    plan = make_plan(load(TWO_GPU), today=DAY)
    rows = list(csv.reader(io.StringIO(costs_csv(plan))))
    head, body = rows[0], rows[1:]
    assert head[:3] == ["day", "hours_of_training", "own_USD"]
    assert head[3:] == [f"{o.id} {o.pricing.value} (USD)" for o in plan.cost.offers] and len(head) == 6
    assert len(body) == len(plan.cost.days)
    for i in (0, 100, len(body) - 1):  # the last day carries the resale
        assert float(body[i][0]) == plan.cost.days[i]
        assert float(body[i][2]) == pytest.approx(plan.cost.own_curve[i], abs=0.006)
        for j, o in enumerate(plan.cost.offers):
            assert float(body[i][3 + j]) == pytest.approx(o.curve[i], abs=0.006)


def test_cli_export_prints_the_same_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plan = make_plan(load(TWO_GPU))
    for fmt, text in (("md", to_markdown(plan)), ("csv", parts_csv(plan)), ("costs-csv", costs_csv(plan))):
        assert run_cli(["export", str(TWO_GPU), "--format", fmt]) == 0
        assert capsys.readouterr().out == text
    out = tmp_path / "parts.md"
    assert run_cli(["export", str(TWO_GPU), "-f", "md", "-o", str(out)]) == 0
    assert out.read_text("utf-8") == to_markdown(plan)


def test_cli_export_instance_sets_the_offers(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(["export", str(TWO_GPU), "-f", "costs-csv", "--instance", "g5.xlarge", "--pricing", "spot"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert head == "day,hours_of_training,own_USD,aws:g5.xlarge:us-east-1 spot (USD)"
    plan = make_plan(load(TWO_GPU), [("aws:g5.xlarge:us-east-1", Pricing.SPOT)])
    assert [o.id for o in plan.cost.offers] == ["aws:g5.xlarge:us-east-1"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", "missing.rigplan.yaml", "-f", "md"], "no such file"),
        (["export", str(TWO_GPU), "-f", "pdf"], "give -o"),
        (["export", str(TWO_GPU), "-f", "md", "--instance", "nope.xlarge"], "unknown instance"),
        (["export", str(TWO_GPU), "-f", "md", "-o", "/nonexistent-dir/x.md"], "cannot write"),
        (["export", str(TWO_GPU), "-f", "docx"], "invalid choice"),
        (["export", str(TWO_GPU), "-f", "md", "--pricing", "spot"], "give --instance too"),
    ],
)
def test_cli_export_bad_input_is_one_line_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(args) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_docs_markdown_sample_is_the_real_output() -> None:
    text = (ROOT / "docs" / "exports.md").read_text("utf-8")
    (sample,) = re.findall(r"<!-- markdown-sample -->\n```markdown\n(.*?)```", text, flags=re.S)
    made = dt.date.fromisoformat(re.search(r"on (\d{4}-\d\d-\d\d)\. Estimates", sample).group(1))
    assert sample == to_markdown(make_plan(load(TWO_GPU), today=made))


def test_power_line_says_two_psus_as_the_check_does(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "examples" / "broken" / "wall-circuit.rigplan"
    power = check(load(path)).power
    assert power.recommended_psu_w > 2800  # more than any PSU sold: the check says two PSUs
    run_cli(["check", str(path)])
    assert "recommended over 2800 W (two PSUs)" in capsys.readouterr().out
    md = to_markdown(make_plan(load(path), today=DAY))
    assert f"{power.psu_w} W PSU at {power.sizing_w / power.psu_w:.0%} load (recommended over 2800 W: two PSUs)" in md


def test_markdown_lists_the_notes_of_the_model() -> None:
    build = load(BROKEN_PSU)
    plan = make_plan(build, [("aws:p3.2xlarge:us-east-1", Pricing.SPOT)], today=DAY)
    assert plan.notes  # no spot price for p3.2xlarge (left out), one part without a price
    md = to_markdown(plan)
    notes = next(line for line in md.splitlines() if line.startswith("*Notes:* "))
    for n in plan.notes:
        assert n in notes


def test_job_mode_lines_equal_the_job_model() -> None:
    from rigplan.costs.analysis import cost_build, offer_input
    from rigplan.costs.jobs import jobs

    build = load(TWO_GPU)
    a = build.assumptions.model_copy(update={"job_hours": 400.0, "jobs_per_year": 10.0})
    build = build.model_copy(update={"assumptions": a})
    md = to_markdown(make_plan(build, today=DAY))
    own = cost_build(build).own
    catalog = load_offers()
    inputs = [offer_input(catalog.get(i), a, None, own.throughput, pricing=p) for i, p in DEFAULT_CHART_OFFERS]
    results = jobs(own, inputs, a)
    assert "**By the job:**" in md and len(results) == 3
    for j in results:
        line = f"${j.cloud_cost:,.2f} a job to rent; owning wins after {j.jobs_to_win} jobs ({j.years_to_win:.1f} years"
        assert line in md


def test_total_in_another_currency_says_it_is_converted() -> None:
    build = load(TWO_GPU)
    euro = build.model_copy(update={"assumptions": build.assumptions.model_copy(update={"currency": "EUR"})})
    plan = make_plan(euro, today=DAY)
    total = next(r for r in table_rows(to_markdown(plan)) if r[0] == "**Total**")
    rate = plan.cost.own_breakdown["parts"] / sum(i.unit_price.amount * i.quantity for i in build.items)
    shown = re.fullmatch(r"converted at EUR ([\d.]+) per USD", total[1])
    assert shown and float(shown.group(1)) == pytest.approx(rate, rel=1e-5)
    assert total[3] == f"**€{plan.cost.own_breakdown['parts']:,.2f}**"
    assert "converted" not in next(r for r in table_rows(to_markdown(make_plan(build))) if r[0] == "**Total**")[1]
