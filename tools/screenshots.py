"""The one screenshot tool: named scenarios of the real window, each on a real X server (Xvfb) per screen size.

    python tools/screenshots.py --list                                   # the scenarios and what they show
    python tools/screenshots.py --scenario costs --size 1280x720         # one scenario, one size
    python tools/screenshots.py --scenario costs --scenario compare      # each at its own sizes
    python tools/screenshots.py --all --tag after --out /tmp/shots       # everything

Sizes: 1280x720, 1920x1080 and 2560x1440 (a 2x screen: QT_SCALE_FACTOR=2). Needs xvfb-run; the PDF pages need
poppler's pdftoppm. Images go to docs/screenshots unless --out says otherwise; --tag (e.g. before/after) goes into
the names of the scenarios that take one. The machinery (window, grab, registry, runner) is in tools/shots.py.
It runs over 400 lines because it is the catalogue of scenarios, one short independent function each, kept in one
file so `--list` and the docs name one place; the shared machinery already lives in tools/shots.py.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shots import EX, ROOT, SCENARIOS, SIZES, Shot, pump, run_here, run_sizes, scenario  # noqa: E402

TWO = ("1280x720", "1920x1080")
LISTS = ROOT / "tests" / "data" / "pcpartpicker"


def tab(s: Shot, title: str) -> None:
    """Show the main window's tab (or the Costs tab's chart tab) with this title."""
    if title not in ("Parts", "Costs"):  # a chart tab: the charts (and the Workload tab) are made on first show
        s.w.tabs.setCurrentIndex(1)
        s.w.costs.ensure_charts()
    for tabs in (s.w.tabs, getattr(s.w.costs, "chart_tabs", None)):
        titles = [tabs.tabText(i).replace("&", "") for i in range(tabs.count())] if tabs else []
        if title in titles:
            if tabs is not s.w.tabs:
                s.w.tabs.setCurrentIndex(1)
                s.w.costs.ensure_charts()
            tabs.setCurrentIndex(titles.index(title))
    s.settle(0.8)


@scenario("costs")
def costs(s: Shot) -> None:
    """The README's Costs tab (read-out at month 18); assumptions open; at 1920 also main.png and picker-filter.png."""
    from rigplan.model import Kind

    s.open()
    tab(s, "Costs")
    s.w.costs.hover_at(18.0)
    s.save("costs")
    if s.size == "2560x1440":
        return
    shown = s.w.costs.side.isVisible()
    s.w.costs.show_assumptions(True)
    s.save(f"costs-assumptions-{s.size.split('x')[0]}.png", exact=True)
    s.w.costs.show_assumptions(shown)
    if s.size == "1920x1080":
        s.save("costs.png", exact=True)
        tab(s, "Parts")
        for kind, text in ((Kind.PSU, "1600"), (Kind.GPU, "vram>=16 length<=330 price<=800")):
            s.w.build_panel.select_kind(kind)
            s.w.picker.set_kind(kind)
            s.w.picker.compatible_only.setChecked(kind is Kind.PSU)
            s.w.picker.search.setText(text)
            s.w.picker._apply_text()
            s.save("main.png" if kind is Kind.PSU else "picker-filter.png", exact=True)


@scenario("parts")
def parts(s: Shot) -> None:
    """The Parts tab with the 2x RTX 4090 example: the CPU row selected, then the GPU row (the add/replace box)."""
    from rigplan.model import Kind

    s.open()
    s.w.build_panel.select_kind(Kind.CPU)
    s.save("parts")
    s.w.build_panel.select_kind(Kind.GPU)  # the first click of a double-click on the GPU's quantity
    s.save("parts-gpu-selected")


@scenario("compare", sizes=TWO)
def compare(s: Shot) -> None:
    """Compare: the 2x RTX 4090, budget and 4-GPU examples side by side (compare-1280.png, compare-1920.png)."""
    from rigplan.exports.plan import make_plan
    from rigplan.files import load
    from rigplan.gui.compare.compare_view import comparison_dialog

    dlg = comparison_dialog(s.w, make_plan(load(EX / "2x-rtx-4090.rigplan")))
    for f in ("budget-1-gpu.rigplan", "4-gpu-threadripper.rigplan"):
        dlg.view.add_file(EX / f)
    dlg.show()
    dlg.setGeometry(s.app.primaryScreen().availableGeometry())
    s.settle(0.8)
    s.save(f"compare-{s.size.split('x')[0]}.png" if not s.tag else "compare", exact=not s.tag)
    dlg.close()


@scenario("compare-currency", sizes=TWO)
def compare_currency(s: Shot) -> None:
    """Compare across currencies: the USD 2x RTX 4090, the budget example in GBP and the 4-GPU one in EUR, converted."""
    from rigplan.exports.plan import make_plan
    from rigplan.files import load, save
    from rigplan.gui.compare.compare_view import comparison_dialog

    dlg = comparison_dialog(s.w, make_plan(load(EX / "2x-rtx-4090.rigplan")))
    with tempfile.TemporaryDirectory(prefix="rigplan-shot-") as tmp:
        for f, cur, name in (("budget-1-gpu", "GBP", "UK budget learner"), ("4-gpu-threadripper", "EUR", "EU 4-GPU")):
            b = load(EX / f"{f}.rigplan")
            a = b.assumptions.model_copy(update={"currency": cur, "fx_rate": None, "electricity_per_kwh": None})
            save(b.model_copy(update={"name": name, "assumptions": a}), Path(tmp) / f"{f}-{cur}.rigplan")
            dlg.view.add_file(Path(tmp) / f"{f}-{cur}.rigplan")
    dlg.show()
    dlg.setGeometry(s.app.primaryScreen().availableGeometry())
    s.settle(0.8)
    s.save("compare-currency")
    dlg.close()


@scenario("export-menu", sizes=("1280x720",))
def export_menu(s: Shot) -> None:
    """File > Export open over the window (export-menu.png)."""
    from PySide6.QtCore import QPoint

    s.open()
    bar = s.w.menuBar()
    file_action = next(x for x in bar.actions() if x.text() == "&File")
    menu = file_action.menu()
    menu.popup(bar.mapToGlobal(bar.actionGeometry(file_action).bottomLeft()))
    pump(s.app, turns=10)
    sub = s.w.exporter.menu
    menu.setActiveAction(sub.menuAction())
    sub.popup(menu.mapToGlobal(menu.actionGeometry(sub.menuAction()).topRight() + QPoint(2, 0)))
    s.save("export-menu.png" if not s.tag else "export-menu", exact=not s.tag)
    sub.close()
    menu.close()


@scenario("report", sizes=("1280x720",))
def report(s: Shot) -> None:
    """The PDF report's pages as a reader sees them (pdftoppm -r 80): report-page-N.png; with a workload, notes and
    the chart: report-workload-TAG-N.png; the exported break-even chart: export-breakeven-TAG.png/.svg."""
    from rigplan.exports.plan import make_plan
    from rigplan.files import load
    from rigplan.model.workload import Task, WorkloadSpec
    from rigplan.render.images import write_chart
    from rigplan.render.pdf import write_pdf
    from rigplan.workload.describe import plan_lines

    tag = s.tag or "after"
    build = load(EX / "2x-rtx-4090.rigplan")
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "report.pdf"
        write_pdf(make_plan(build), pdf)
        subprocess.run(["pdftoppm", "-r", "80", "-png", str(pdf), str(s.out / "report-page")], check=True)
        plan = make_plan(build)
        write_chart(plan, "breakeven", s.out / f"export-breakeven-{tag}.png", "png")
        write_chart(plan, "breakeven", s.out / f"export-breakeven-{tag}.svg", "svg")
        spec = WorkloadSpec(model="llama-3.1-8b", task=Task.LORA, tokens=1e8)
        build = build.model_copy(update={"workload": spec, "notes": "Quote from the shop: 2 weeks delivery."})
        plan = make_plan(build)
        plan.workload_lines = plan_lines(build, [(c.offer, c.pricing) for c in plan.offers])
        write_pdf(plan, pdf)
        subprocess.run(["pdftoppm", "-r", "80", "-png", str(pdf), str(s.out / f"report-workload-{tag}")], check=True)
    print(f"wrote the report pages in {s.out}")


@scenario("cutoffs", sizes=TWO)
def cutoffs(s: Shot) -> None:
    """Issue 29's cut-offs: Parts (GPU picker), Costs, breakdown, a build without GPU, and 860 px wide at 1280."""
    from rigplan.model import Kind

    s.open()
    s.w.picker.set_kind(Kind.GPU)
    s.save("cutoff-parts")
    tab(s, "Costs")
    s.save("cutoff-costs")
    tab(s, "Cost breakdown")
    s.save("cutoff-breakdown")
    s.w.costs.chart_tabs.setCurrentIndex(0)
    build = s.w.doc.build
    s.w.doc.edit(build.model_copy(update={"items": [i for i in build.items if i.kind is not Kind.GPU]}), "No GPUs")
    s.settle(0.8)
    s.save("cutoff-costs-no-gpu")
    if s.size == "1280x720":
        s.open()
        tab(s, "Parts")
        s.w.resize(860, s.w.height())
        s.save("cutoff-narrow")


@scenario("findings", sizes=TWO)
def findings(s: Shot) -> None:
    """Findings of expert-corpus builds (tests/data/expert/cases.yaml) that docs/checks.md shows."""
    import yaml

    from rigplan.files import save
    from rigplan.model import Build, BuildItem, Kind

    cases = {c["id"]: c for c in yaml.safe_load((ROOT / "tests/data/expert/cases.yaml").read_text())}
    for case_id, stem in (
        ("tr2950x-on-x399", "findings-threadripper-tr4"),
        ("rtx-4090-on-three-8-pin", "findings-4090-adapter"),
        ("ws-psu-atx3-prime-tx1600-2022", "findings-tx1600-not-atx3"),
        ("two-4-slot-5090s-touching-on-the-x870e-taichi-lite", "findings-intake-gap"),
    ):
        items = []
        for kind, spec in cases[case_id]["parts"].items():
            t = s.w.catalog.table(Kind(kind))
            for prefix, qty in spec if isinstance(spec, list) else [(spec, 1)]:
                row = next(i for i, p in enumerate(t.ids) if p.startswith(prefix))
                items.append(BuildItem(part=t.part(row), quantity=qty))
        path = s.tmp / f"{case_id}.rigplan"
        save(Build(name=case_id, items=tuple(items)), path)
        s.w.files.open_path(path, ask=False)
        tab(s, "Parts")
        s.save(stem)


@scenario("import", sizes=TWO)
def import_list(s: Shot) -> None:
    """File > Import > PCPartPicker list: the paste dialog, the review dialog, the imported build."""
    from rigplan.gui.imports.import_dialog import PasteListDialog, ReviewMatchesDialog
    from rigplan.imports.list_import import apply_picks, to_build
    from rigplan.model import Build

    screen = s.app.primaryScreen().availableGeometry()
    paste = PasteListDialog(s.w.catalog, s.w)
    paste.load_file(LISTS / "budget.txt")
    paste.show()
    paste.move(screen.center() - paste.rect().center())
    if s.size == "1920x1080":
        s.save("import-paste.png" if not s.tag else "import-paste", exact=not s.tag)
    paste.accept()
    while paste.busy:  # the list is matched in a worker thread; the result comes back as a signal
        pump(s.app, seconds=0.1)
    assert paste.imported is not None, paste.error.text()
    review = ReviewMatchesDialog(paste.imported, s.w)
    review.resize(min(1100, screen.width() - 40), min(460, screen.height() - 60))
    review.show()
    review.move(screen.center() - review.rect().center())
    s.save("import-review")
    apply_picks(paste.imported, review.choices(), s.w.catalog)
    build = to_build(paste.imported, s.w.catalog, assumptions=s.w.doc.build.assumptions)
    review.close()
    s.w.doc.reset(Build(assumptions=build.assumptions), None)
    s.w.doc.edit(build, "Import PCPartPicker list")
    s.save("import-build")


@scenario("other-items", sizes=TWO)
def other_items(s: Shot) -> None:
    """A PCPartPicker list with fans, OS, cables, monitor, UPS imported: the Other items rows and their dialog."""
    from rigplan.gui.parts.other_items import OtherItemDialog
    from rigplan.imports.list_import import apply_picks, match_list, to_build
    from rigplan.model import Build

    result = match_list((LISTS / "with-extras.txt").read_text("utf-8"), s.w.catalog)
    best = {n: ln.match.best.part_id for n, ln in enumerate(result.lines) if ln.status == "uncertain" and ln.match}
    apply_picks(result, {n: p for n, p in best.items() if p}, s.w.catalog)  # as "Take the best candidates"
    build = to_build(result, s.w.catalog, assumptions=s.w.doc.build.assumptions)
    fans = build.other[0].model_copy(update={"watts": 1.5})  # a wall figure the user typed
    build = build.model_copy(update={"other": (fans, *build.other[1:])})
    s.w.doc.reset(Build(assumptions=build.assumptions), None)
    s.w.doc.edit(build, "Import PCPartPicker list")
    table = s.w.build_panel.table
    table.setCurrentCell(s.w.build_panel.other_row(0), 1)
    table.scrollToItem(table.item(s.w.build_panel.other_row(len(build.other) - 1), 1))
    s.save("other-items")
    if s.size == "1920x1080":
        dlg = OtherItemDialog(s.w, "USD", s.w.doc.build.other[0])
        dlg.show()
        dlg.move(s.app.primaryScreen().availableGeometry().center() - dlg.rect().center())
        s.save("other-items-dialog.png" if not s.tag else "other-items-dialog", exact=not s.tag)
        dlg.close()


@scenario("currency")
def currency(s: Shot) -> None:
    """The 2x RTX 4090 example switched to GBP: Parts, Costs, and 8 offers with the assumptions open."""
    from rigplan.model.build import ChartOffer

    s.open()
    s.w.doc.set_assumptions(s.w.doc.build.assumptions.model_copy(update={"currency": "GBP"}))
    s.settle(0.5)
    s.save("currency-parts")
    tab(s, "Costs")
    s.save("currency-costs")
    chosen = {c.offer for c in s.w.costs.comparison}
    more = [o.id for o in s.w.costs.offers.offers if o.gpu_count == 2 and o.id not in chosen]
    s.w.doc.set_comparison(list(s.w.costs.comparison) + [ChartOffer(offer=i) for i in sorted(more)[: 8 - len(chosen)]])
    s.w.costs.show_assumptions(True)
    s.settle(1.0)
    s.save("charts-many")


@scenario("prices", sizes=TWO)
def prices(s: Shot) -> None:
    """Cloud prices > Update from a local test catalog (tests/prices_server.py): progress, then the dated prices."""
    import os

    from PySide6.QtWidgets import QProgressDialog

    sys.path.insert(0, str(ROOT / "tests"))
    from prices_server import serve

    os.environ["XDG_DATA_HOME"] = str(s.tmp)  # the prices folder: a scratch one, not the user's
    with serve("slow") as (url, _):
        s.open()
        tab(s, "Costs")
        s.w.prices.url, s.w.prices.providers = url, ("aws", "lambdalabs")
        finished: list[str] = []
        s.w.prices.done.connect(finished.append)
        s.w.prices.act_update.trigger()
        dialog = s.w.findChild(QProgressDialog)
        while dialog.value() < 150 and not finished:
            pump(s.app, 0.05, turns=0)
        s.save("prices-update-progress")
        while not finished:
            pump(s.app, 0.1, turns=0)
        s.w.costs.offers_panel.words.setText("g4dn.xlarge")
        s.save("prices-updated")


def save_over(s: Shot, dlg: Any, stem: str) -> None:
    """The main window with the dialog over it, composed from the two windows' renderings (no compositor under
    Xvfb), saved as `stem`."""
    from PySide6.QtGui import QColor, QPainter, QPixmap

    shot = QPixmap(s.w.size())
    shot.fill(QColor("black"))
    painter = QPainter(shot)
    painter.drawPixmap(s.w.geometry().topLeft(), s.w.grab())
    painter.drawPixmap(dlg.geometry().topLeft(), dlg.grab())
    painter.end()
    shot.save(str(s.out / s.name(stem)))
    print("wrote", s.out / s.name(stem))


@scenario("suggest", sizes=TWO)
def suggest(s: Shot) -> None:
    """Suggest a build: the dialog after a $4,000 break-even question over the window, then the answer opened."""

    from rigplan.gui.suggest.suggest_dialog import SuggestDialog

    def answer(dlg: SuggestDialog) -> int:  # stands in for the modal loop: what a user does, then the screen
        dlg.show()
        dlg.goal.setCurrentIndex(dlg.goal.findText("The earliest break-even against a cloud offer"))
        dlg.budget.setValue(4000)
        dlg.max_gpus.setValue(2)
        dlg.run()
        while dlg.searching():  # the search runs in its worker thread; the answer comes back as a signal
            pump(s.app, seconds=0.2)
        pump(s.app, turns=20)
        save_over(s, dlg, "suggest-dialog")
        return int(dlg.open_button.isEnabled())

    SuggestDialog.exec = answer  # type: ignore[method-assign]
    s.w.menus.suggest.trigger()
    tab(s, "Costs")
    s.save("suggest-build")


def _without_listings(catalog: Any) -> Any:
    """The catalog without its dated retail listings: the tests' helper (tests/without_listings.py), one definition."""
    sys.path.insert(0, str(ROOT / "tests"))
    from without_listings import without_listings

    return without_listings(catalog)


@scenario("suggest-quote-build", sizes=TWO)
def suggest_quote_build(s: Shot) -> None:
    """Suggest a build, issue 37: $12,000 with three GPUs is answered on TRX40 and names a current workstation
    platform to quote; "Open the quote as new build" opens it, its CPU and board with no price, on the Parts tab.
    Since the sixth round the shipped catalog prices a TRX50 build, so this runs on it without its dated retail
    listings (tests/without_listings.py), the state of a catalog that prices no current workstation platform."""

    from rigplan.gui.suggest.suggest_dialog import SuggestDialog

    s.w.catalog = _without_listings(s.w.catalog)

    def answer(dlg: SuggestDialog) -> int:  # stands in for the modal loop: what a user does, then the screen
        dlg.show()
        dlg.budget.setValue(12000)
        dlg.gpus.setValue(3)
        dlg.run()
        while dlg.searching():
            pump(s.app, seconds=0.2)
        pump(s.app, turns=20)
        dlg.quote_button.click()
        return int(dlg.open_quote)

    SuggestDialog.exec = answer  # type: ignore[method-assign]
    s.w.menus.suggest.trigger()
    tab(s, "Parts")
    s.save("suggest-quote-build")


@scenario("suggest-older", sizes=TWO)
def suggest_older(s: Shot) -> None:
    """Suggest a build, issue 37: $5,000, one GPU, answered on a current platform (LGA 1700), the answer's end in
    view: the older platform (AM4) named beside it with its differences (two 24 GB cards had an AM4 alternative until
    gpu-intake-gap ruled out its pair of touching open-air cards); then $25,000 on a 240 V / 30 A circuit, whose
    RTX PRO 6000 cards are priced at NVIDIA's list price, said in the answer; then $5,000 with two GPUs of 24 GB, where
    the GPUs are traded for the essentials (RAM twice the GPU memory), said in the answer; then $12,000 with four
    GPUs, where a step of the balance order is not bought for want of a cooler rating, not of money, and says so;
    then $12,000 with three GPUs on the catalog without its dated retail listings, answered on TRX40 with the current
    workstation platform to quote named; then the same on the shipped catalog, answered on TRX50 (the 7960X and
    TRX50-SAGE at their Swiss listings, said), the TRX40 build named beside it with its saving."""
    from PySide6.QtGui import QTextCursor

    from rigplan.gui.suggest.suggest_dialog import SuggestDialog

    s.open()
    base = s.w.doc.build.assumptions
    for stem, a, values in (
        ("suggest-older", base, {"budget": 5000, "gpus": 1}),
        ("suggest-list-price", base.model_copy(update={"wall_voltage": 240.0, "wall_amps": 30.0}), {"budget": 25000}),
        ("suggest-trade", base, {"budget": 5000, "gpus": 2, "min_vram": 24}),
        ("suggest-reasons", base, {"budget": 12000, "gpus": 4}),
        ("suggest-quote", base, {"budget": 12000, "gpus": 3}),
        ("suggest-workstation", base, {"budget": 12000, "gpus": 3}),
    ):
        cat = _without_listings(s.w.catalog) if stem == "suggest-quote" else s.w.catalog
        dlg = SuggestDialog(cat, a, s.w)
        dlg.show()
        for name, value in values.items():
            getattr(dlg, name).setValue(value)
        dlg.run()
        while dlg.searching():  # the search runs in its worker thread; the answer comes back as a signal
            pump(s.app, seconds=0.2)
        pump(s.app, turns=20)
        if stem == "suggest-older":  # the end of the answer: runners-up, the older platform
            dlg.result_view.moveCursor(QTextCursor.MoveOperation.End)
        else:  # the list prices' line or the trade, below the parts, in the middle of the view
            find = {
                "suggest-list-price": "List prices:",
                "suggest-reasons": "not bought:",
                "suggest-quote": "Current platform to quote:",
                "suggest-workstation": "List prices:",
            }
            dlg.result_view.find(find.get(stem, "traded for the essentials"))
            bar = dlg.result_view.verticalScrollBar()
            bar.setValue(bar.value() + dlg.result_view.viewport().height() // 2)
        pump(s.app, turns=20)
        save_over(s, dlg, stem)
        dlg.close()


@scenario("workload")
def workload(s: Shot) -> None:
    """The Workload tab beside the break-even chart: Llama 3.1 8B LoRA, 70B full (no fit), ResNet-50 measured."""
    from rigplan.model.workload import Task, WorkloadSpec

    s.open()
    tab(s, "Workload")
    for stem, spec in (
        ("workload", WorkloadSpec(model="llama-3.1-8b", task=Task.LORA, tokens=2e8)),
        ("workload-no-fit", WorkloadSpec(model="llama-3.1-70b", task=Task.FULL, tokens=2e8)),
        ("workload-measured", WorkloadSpec(model="resnet50", v100_hours=10)),
    ):
        s.w.costs.workload.set_spec(spec)
        s.settle(0.5)
        s.save(stem)


@scenario("help")
def help_guide(s: Shot) -> None:
    """F1: the user guide's window over the main window, on Getting started and on Costs."""
    s.open()
    s.w.open_docs()
    dlg = s.w.docs_dialog
    screen = s.app.primaryScreen().availableGeometry()
    dlg.resize(min(1000, screen.width() - 40), min(680, screen.height() - 60))
    dlg.move(screen.center() - dlg.rect().center())
    s.save("help")
    dlg.open_page("3-costs.md")
    s.save("help-costs")
    dlg.close()


GUIDE_IMAGES = ROOT / "resources" / "guide" / "images"


@scenario("guide", sizes=("1280x720",))
def guide(s: Shot) -> None:
    """The user guide's screenshots (resources/guide/images, F1): Parts, findings, Costs, assumptions, Suggest,
    Workload, import review, the PDF's first page; then shrink them with pngquant if it is installed."""
    import shutil

    from rigplan.model import Kind
    from rigplan.model.workload import Task, WorkloadSpec

    out = GUIDE_IMAGES
    s.open()
    s.w.build_panel.select_kind(Kind.GPU)
    s.save(str(out / "parts.png"), exact=True)
    tab(s, "Costs")
    s.w.costs.hover_at(18.0)
    s.save(str(out / "costs.png"), exact=True)
    s.w.costs.show_assumptions(True)
    s.save(str(out / "costs-assumptions.png"), exact=True)
    tab(s, "Workload")
    s.w.costs.workload.set_spec(WorkloadSpec(model="llama-3.1-8b", task=Task.LORA, tokens=2e8))
    s.save(str(out / "workload.png"), exact=True)
    s.w.costs.show_assumptions(False)
    findings(Shot(s.app, s.w, s.tmp, s.size, "", s.tmp))  # into the scratch folder; the 4090 one is kept
    shutil.copy(s.tmp / "findings-4090-adapter-1280x720.png", out / "findings.png")
    import_list(Shot(s.app, s.w, s.tmp, s.size, "", s.tmp))
    shutil.copy(s.tmp / "import-review-1280x720.png", out / "import-review.png")
    s.open()
    suggest(Shot(s.app, s.w, s.tmp, s.size, "", s.tmp))
    shutil.copy(s.tmp / "suggest-dialog-1280x720.png", out / "suggest.png")
    report(Shot(s.app, s.w, s.tmp, s.size, "guide", s.tmp))
    shutil.copy(s.tmp / "report-workload-guide-1.png", out / "report.png")
    if shutil.which("pngquant"):  # shipped in the wheel and the bundle: keep them small
        for png in out.glob("*.png"):
            subprocess.run(["pngquant", "--quality", "80-100", "--skip-if-larger", "-f", "--ext", ".png", str(png)])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", action="append", default=[], choices=sorted(SCENARIOS), metavar="NAME")
    ap.add_argument("--all", action="store_true", help="every scenario")
    ap.add_argument("--size", action="append", default=[], choices=SIZES, help="default: each scenario's own sizes")
    ap.add_argument("--tag", default="", help="put into the names, e.g. before or after")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--list", action="store_true", help="print the scenarios")
    ap.add_argument("--here", action="store_true", help="run on the current display (what each Xvfb runs)")
    a = ap.parse_args()
    names = sorted(SCENARIOS) if a.all else a.scenario
    if a.list or not names:
        for n, (_, doc, sizes) in sorted(SCENARIOS.items()):
            print(f"{n:14} {doc} [{', '.join(sizes)}]")
        return 0
    a.out.mkdir(parents=True, exist_ok=True)
    if a.here:
        return run_here(names, a.out, a.tag)
    plan = {size: [n for n in names if a.size or size in SCENARIOS[n][2]] for size in (a.size or SIZES)}
    return run_sizes(__file__, {k: v for k, v in plan.items() if v}, ["--out", str(a.out), "--tag", a.tag])


if __name__ == "__main__":
    sys.exit(main())
