"""Issue 19: totals that say what they are. With parts that have no price, every total reads "at least $X (N parts
without a price)": Markdown export, comparison rows, the cost CLI (text and JSON) and the Costs tab summary."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rigplan.catalog import Catalog
from rigplan.exports.compare import compare, figure_rows
from rigplan.exports.markdown import to_markdown
from rigplan.exports.plan import make_plan
from rigplan.files import save
from rigplan.gui.costs.costs_text import summary_html  # plain functions: no Qt widget is made
from rigplan.model import Build, BuildItem
from rigplan.model.parts import Gpu, Psu
from rigplan.wording import BreakEven, at_least, checks_summary, money

ROOT = Path(__file__).resolve().parents[1]
I5_13400F = "22546c6c-9af1-4646-a9af-0ede3444c6b7"


def three_unpriced(catalog: Catalog) -> Build:
    cpu = catalog.get(I5_13400F)
    assert cpu is not None and cpu.price is not None
    gpu = Gpu(id="custom-a", name="Mystery GPU", custom=True, tdp_w=300)
    gpu2 = Gpu(id="custom-b", name="Other GPU", custom=True, tdp_w=300)
    psu = Psu(id="custom-c", name="Mystery PSU", custom=True, wattage=1000)
    items = (BuildItem(part=cpu), BuildItem(part=gpu), BuildItem(part=gpu2), BuildItem(part=psu))
    return Build(name="Three unpriced", items=items)


def test_wording() -> None:
    assert at_least("$1,234.00", 0) == "$1,234.00"
    assert at_least("$1,234.00", 1) == "at least $1,234.00 (1 part without a price)"
    assert at_least("$1,234.00", 3) == "at least $1,234.00 (3 parts without a price)"


def test_markdown_and_comparison_say_at_least(catalog: Catalog) -> None:
    build = three_unpriced(catalog)
    price = catalog.get(I5_13400F).price.amount  # type: ignore[union-attr]
    plan = make_plan(build)
    md = to_markdown(plan)
    assert f"**at least ${price:,.2f} (3 parts without a price)**" in md
    assert f"at least ${plan.cost.upfront:,.2f} up front" in md
    rows = {r[0]: r[1:] for r in figure_rows(compare([plan, make_plan(build)]))}
    assert rows["Parts cost"] == [f"at least ${price:,.2f} (3 parts without a price)"] * 2
    assert rows["Up front"][0].startswith("at least $")
    html = summary_html(plan.cost, [], lambda v: f"${v:,.2f}", 3)
    assert f"Owning: <b>at least ${plan.cost.upfront:,.2f} (3 parts without a price)</b> up front" in html


def test_cost_cli_says_at_least(catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "b.rigplan.yaml"
    save(three_unpriced(catalog), path)
    cmd = [sys.executable, "-m", "rigplan", "cost", str(path), "--instance", "p3.2xlarge"]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    first = out.stdout.splitlines()[0]
    assert first.startswith("Three unpriced: at least $") and "(3 parts without a price) up front" in first
    assert "Owning at the horizon: at least $" in out.stdout
    data = json.loads(subprocess.run([*cmd, "--json"], capture_output=True, text=True, cwd=ROOT).stdout)
    assert data["build_cost_is_lower_bound"] is True
    assert data["unpriced_parts"] == ["Mystery GPU", "Other GPU", "Mystery PSU"]


def test_money_is_one_format_for_every_currency() -> None:
    """rigplan.wording.money: the sign before the amount for the four currencies with one, the ISO code and a space
    for the others (as the window writes them), a minus before the sign, and no amount is never 0."""
    assert money("USD", 1234.5) == "$1,234.50"
    assert money("EUR", 402.744) == "€402.74"
    assert money("GBP", 903) == "£903.00"
    assert money("JPY", 150000, 0) == "¥150,000"
    assert money("CHF", 1234.5) == "CHF 1,234.50"
    assert money("USD", -5000, 0) == "-$5,000"
    assert money("USD", -0.001) == "$0.00"  # rounds to zero: no "-$0.00"
    assert money("USD", 3.06, 3) == "$3.060"
    assert [money("USD", v) for v in (None, float("nan"), float("inf"))] == ["no price"] * 3


def test_breakeven_status_and_the_summary_have_one_wording() -> None:
    from rigplan.rules.findings import Finding, NotChecked, Report, Severity

    assert [s.value for s in BreakEven] == [
        "breaks-even",
        "at-horizon-with-resale",
        "never",
        "from-day-one",
        "speed-unknown",
    ]  # the values --json and the files write, unchanged
    assert json.dumps({"s": BreakEven.NEVER}) == '{"s": "never"}'
    assert BreakEven.BREAKS_EVEN.words == ""
    assert all(s.words for s in BreakEven if s is not BreakEven.BREAKS_EVEN)
    assert checks_summary(0, 0, 0, 0) == "no problems found"
    assert checks_summary(1, 2, 0, 3) == "1 error, 2 warnings; 3 not checked"
    assert checks_summary(0, 0, 1, 0) == "1 note"
    report = Report(
        findings=[
            Finding(Severity.ERROR, "a", "x"),
            Finding(Severity.NOTE, "b", "y"),
            Finding(Severity.NOTE, "c", "z"),
        ],
        not_checked=[NotChecked("d", "why")],
    )
    assert report.summary() == "1 error, 2 notes; 1 not checked"
