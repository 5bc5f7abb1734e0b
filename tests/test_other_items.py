"""Issue 29: "Other" line items (fans, OS, cables, UPS...) in a real build file, through the real cost model, the
CLI's check and cost (JSON and text), the Markdown, CSV and PDF exports and the comparison."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path

import pytest

from rigplan.cli.main import run_cli
from rigplan.costs.analysis import cost_build
from rigplan.costs.model import compute
from rigplan.costs.resale import resale_share
from rigplan.exports.compare import compare
from rigplan.exports.markdown import to_markdown
from rigplan.exports.plan import make_plan
from rigplan.exports.tables import parts_csv
from rigplan.files import BuildFileError, load, loads, save
from rigplan.files.buildfile import json_schema
from rigplan.model import Build, Price
from rigplan.model.other import OtherCategory, OtherItem

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "2x-rtx-4090.rigplan"
DAY = dt.date(2025, 7, 23)
FANS = OtherItem(
    name="Arctic P14 case fan",
    category=OtherCategory.FAN,
    quantity=3,
    price=Price(amount=9.99, currency="USD", date=DAY, source="Amazon"),
    watts=1.5,
)
OS = OtherItem(name="Windows 11 Pro", category=OtherCategory.OS, price=Price(amount=199.0, date=DAY, source="shop"))
UPS = OtherItem(name="APC SMT1500C", category=OtherCategory.UPS, price=Price(amount=382.96, date=DAY, source="B&H"))


@pytest.fixture(scope="module")
def with_other(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 2x RTX 4090 example with three Other items, saved as a real file."""
    build = load(EXAMPLE)
    path = tmp_path_factory.mktemp("other") / "with-other.rigplan"
    save(build.model_copy(update={"other": (FANS, OS, UPS)}), path)
    return path


def test_file_round_trip_and_format_version(with_other: Path) -> None:
    text = with_other.read_text("utf-8")
    assert "format_version: 4" in text and "other:" in text and "category: ups" in text
    build = load(with_other)
    assert build.other == (FANS, OS, UPS)
    assert load(EXAMPLE).other == () and "format_version: 4" not in EXAMPLE.read_text("utf-8")  # old files open
    schema = json_schema()
    assert "other" in schema["properties"] and schema["properties"]["format_version"]["maximum"] == 4


def test_costs_count_other_items_never_resold(with_other: Path) -> None:
    base, build = load(EXAMPLE), load(with_other)
    before, after = cost_build(base), cost_build(build)
    extras = 3 * 9.99 + 199.0 + 382.96
    assert after.own.parts_usd == pytest.approx(before.own.parts_usd + extras)
    assert after.own.not_resold_usd == pytest.approx(extras)
    # The fans' 3 x 1.5 W are fed by the PSU: they reach the wall through the power estimate (its training and idle
    # shares, its efficiency), not as wall watts; the UPS's power is not given: not counted, said so.
    from rigplan.rules.power import estimate_power

    power = estimate_power(build)
    assert after.own.load_wall_w == pytest.approx(power.wall_load_w) and after.own.idle_wall_w == power.wall_idle_w
    assert 0 < after.own.load_wall_w - before.own.load_wall_w < 4.5
    assert any("no power given for APC SMT1500C: not counted" in n for n in after.notes)
    assert not any("Windows 11 Pro" in n and "power" in n for n in after.notes)  # an OS draws nothing: no note
    a = build.assumptions
    r0, r1 = compute(before.own, [], a), compute(after.own, [], a)
    share = resale_share(a)[0]
    assert r1.resale == pytest.approx(r0.resale)  # resale is of the parts alone (docs/cost-model.md)
    assert r1.upfront - r0.upfront == pytest.approx(extras * (1 + a.tax_fraction))
    assert r1.resale == pytest.approx(before.own.parts_usd * share)


def test_cli_check_and_cost_list_them(with_other: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_cli(["check", str(with_other), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert [(o["name"], o["category"], o["quantity"]) for o in doc["other_items"]] == [
        ("Arctic P14 case fan", "fan", 3),
        ("Windows 11 Pro", "os", 1),
        ("APC SMT1500C", "ups", 1),
    ]
    assert doc["other_items"][2]["watts"] is None and doc["other_items"][0]["watts"] == 1.5  # unknown is null
    run_cli(["check", str(with_other)])
    text = capsys.readouterr().out
    fans = "Arctic P14 case fan (Case fans) x3: $9.99 (Amazon, 2025-07-23) each; 1.5 W each, fed by the PSU"
    assert fans in text
    assert "APC SMT1500C (UPS) x1: $382.96 (B&H, 2025-07-23) each; power not given" in text
    assert run_cli(["cost", str(with_other), "--instance", "aws:p3.2xlarge:us-east-1", "--json"]) == 0
    cost = json.loads(capsys.readouterr().out)
    assert cost["other_items_cost"] == pytest.approx(3 * 9.99 + 199.0 + 382.96, abs=0.01)
    assert len(cost["other_items"]) == 3
    assert any("never resold" in n for n in cost["notes"])


def test_exports_show_the_rows(with_other: Path) -> None:
    plan = make_plan(load(with_other), today=DAY)
    md = to_markdown(plan)
    assert "| Case fans | Arctic P14 case fan | 3 | $9.99 | 2025-07-23 |" in md
    assert "| UPS | APC SMT1500C | 1 | $382.96 | 2025-07-23 |" in md
    rows = list(csv.DictReader(io.StringIO(parts_csv(plan).split("\n\n")[0])))  # the parts, before the setting
    other = [r for r in rows if r["kind"].startswith("other/")]
    assert [(r["kind"], r["name"], r["quantity"], r["unit_price"]) for r in other] == [
        ("other/fan", "Arctic P14 case fan", "3", "9.99"),
        ("other/os", "Windows 11 Pro", "1", "199.00"),
        ("other/ups", "APC SMT1500C", "1", "382.96"),
    ]
    # The CSV's rows add up to the total the Markdown states (every line a buyer pays for is there).
    total = sum(float(r["unit_price"]) * int(r["quantity"]) for r in rows)
    assert f"**${total:,.2f}**" in md


def test_pdf_rows_and_comparison(with_other: Path) -> None:
    from rigplan.render.pdf import summary_html

    plan = make_plan(load(with_other), today=DAY)
    html = summary_html(plan)
    assert "<td>Operating system</td><td>Windows 11 Pro</td>" in html
    cmp = compare([make_plan(load(EXAMPLE), today=DAY), plan])
    rows = {r.kind.label: r for r in cmp.parts if isinstance(r.kind, OtherCategory)}
    assert rows["Case fans"].cells == ("", "3x Arctic P14 case fan") and rows["Case fans"].differs
    assert rows["UPS"].cells == ("", "APC SMT1500C")


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("{name: '', price: {amount: 5}}", "other.0.name"),
        ("{name: '   '}", "an Other item needs a name"),
        ("{name: fan, price: {amount: -5}}", "other.0.price.amount"),
        ("{name: fan, price: {amount: .nan}}", "other.0.price.amount"),
        ("{name: fan, quantity: 1000}", "other.0.quantity"),
        ("{name: fan, watts: .nan}", "watts must be a finite number"),
        ("{name: fan, category: toaster}", "other.0.category"),
    ],
)
def test_bad_other_items_in_a_file_are_one_clear_error(item: str, message: str) -> None:
    with pytest.raises(BuildFileError) as err:
        loads(f"format: rigplan-build\nformat_version: 4\nname: x\nother:\n- {item}\n", "bad.rigplan")
    assert message in err.value.message and "\n" not in err.value.message


def test_only_a_build_with_other_items_needs_version_4() -> None:
    """A build with Other items is written as version 4; one without stays 2 or 3 (older RigPlans open it)."""
    assert Build().format_version == 2
    assert Build(other=(OS,)).format_version == 4


def test_the_documented_snippet_loads() -> None:
    import re

    (block,) = re.findall(r"```yml\n(other:.*?)```", (ROOT / "docs" / "build-file.md").read_text("utf-8"), re.S)
    build = loads(f"format: rigplan-build\nformat_version: 4\nname: doc\n{block}", "build-file.md")
    assert [(o.category.value, o.quantity, o.watts) for o in build.other] == [("fan", 3, 1.5), ("os", 1, None)]


def test_unpriced_other_items_are_not_called_parts(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 29: "1 part and 2 other items without a price" in the Markdown, the PDF's total row and the cost CLI."""
    from rigplan.exports.plan import unpriced_other
    from rigplan.render.pdf import summary_html

    build = load(EXAMPLE)
    items = list(build.items)
    items[0] = items[0].model_copy(update={"part": items[0].part.model_copy(update={"price": None})})
    bare = [OS.model_copy(update={"price": None}), UPS.model_copy(update={"price": None, "name": items[1].part.name})]
    build = build.model_copy(update={"items": tuple(items), "other": (FANS, *bare)})
    plan = make_plan(build, today=DAY)
    assert plan.unpriced == (3, 2) and unpriced_other(build, plan.costing.own.unpriced) == 2
    assert "(1 part and 2 other items without a price)" in to_markdown(plan)
    assert "(1 part and 2 other items without a price)" in summary_html(plan)
    only_other = build.model_copy(update={"items": tuple(load(EXAMPLE).items)})
    assert "(2 other items without a price)" in to_markdown(make_plan(only_other, today=DAY))


def test_case_fans_count_in_the_psu_load_once() -> None:
    """Issue 29: fans are fed by the PSU, so a fan's watts size it and reach the wall through its efficiency (not
    added at the wall again); a UPS's or monitor's watts are on the wall, not the PSU; unknown fan watts are said."""
    from rigplan.costs.analysis import other_items_watts
    from rigplan.rules.power import estimate_power

    base = load(EXAMPLE)
    before = estimate_power(base)
    ups = UPS.model_copy(update={"watts": 20.0})
    with_fans = base.model_copy(update={"other": (FANS, ups)})
    after = estimate_power(with_fans)
    assert after.load_w == pytest.approx(before.load_w + 3 * 1.5)  # the fans, not the UPS
    assert any(line.label == "3x Arctic P14 case fan (Other item)" for line in after.lines)
    assert after.wall_load_w > before.wall_load_w  # through the PSU's efficiency
    assert other_items_watts(with_fans)[0] == 20.0  # only the UPS is added at the wall
    own_before, own_after = cost_build(base).own, cost_build(with_fans).own
    assert own_after.load_wall_w == pytest.approx(after.wall_load_w + 20.0)
    assert own_after.load_wall_w - own_before.load_wall_w < 20.0 + 3 * 1.5  # each watt counted once
    unknown = base.model_copy(update={"other": (FANS.model_copy(update={"watts": None}),)})
    est = estimate_power(unknown)
    assert est.load_w == before.load_w
    assert any("no watts given for Arctic P14 case fan" in n for n in est.notes)
    assert any("Arctic P14 case fan" in n for n in cost_build(unknown).notes)
