"""Screenshots of issue 29's cut-offs at the screen size it runs on: the Parts tab (picker's Price column, findings
text), the Costs tab (offers table, breakdown bar labels), the Costs summary of a build with no GPU, the window at
860 px wide (the picker's search box) and the Compare dialog (legend, axis numbers, wording).

    xvfb-run -a -s "-screen 0 1280x720x24" python tools/screenshots_cutoffs.py --tag before
    xvfb-run -a -s "-screen 0 1920x1080x24" python tools/screenshots_cutoffs.py --tag after
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shots import ROOT, grab, pump, screen_window  # noqa: E402

EX = ROOT / "examples"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--tag", default="after")
    args = ap.parse_args()
    from rigplan.gui.mainwindow import COSTS_TAB
    from rigplan.model import Kind

    with screen_window() as (app, w, _tmp):
        screen = app.primaryScreen().size()
        size = f"{screen.width()}x{screen.height()}"
        name = f"{args.tag}-{size}.png"
        w.files.open_path(EX / "2x-rtx-4090.rigplan", ask=False)
        w.picker.set_kind(Kind.GPU)
        pump(app, 0.5)
        grab(app, w, args.out / f"cutoff-parts-{name}")
        w.tabs.setCurrentIndex(COSTS_TAB)
        pump(app, 1.0)
        grab(app, w, args.out / f"cutoff-costs-{name}")
        w.costs.chart_tabs.setCurrentIndex(1)
        pump(app, 0.8)
        grab(app, w, args.out / f"cutoff-breakdown-{name}")
        w.costs.chart_tabs.setCurrentIndex(0)
        # A build without a GPU: the summary says why there is no break-even
        build = w.doc.build
        no_gpu = build.model_copy(update={"items": [i for i in build.items if i.kind is not Kind.GPU]})
        w.doc.edit(no_gpu, "Remove the GPUs")
        pump(app, 0.8)
        grab(app, w, args.out / f"cutoff-costs-no-gpu-{name}")
        if screen.width() <= 1280:  # the narrow window (a half-screen tile on a small laptop)
            w.files.open_path(EX / "2x-rtx-4090.rigplan", ask=False)
            w.tabs.setCurrentIndex(0)
            w.resize(860, w.height())
            pump(app, 0.8)
            grab(app, w, args.out / f"cutoff-narrow-{args.tag}-860x{screen.height()}.png")
    compare_shot(args.out / f"cutoff-compare-{name}")
    if screen.width() <= 1280:
        exports(args.out, args.tag)
    return 0


def exports(out: Path, tag: str) -> None:
    """The exported break-even chart (PNG and SVG) and the PDF report of the example with a workload saved (its
    Workload section and the chart page), pages rendered by poppler's pdftoppm as a reader sees them."""
    import subprocess
    import tempfile

    from rigplan.exports.plan import make_plan
    from rigplan.files import load
    from rigplan.model.workload import Task, WorkloadSpec
    from rigplan.render.images import write_chart
    from rigplan.render.pdf import write_pdf
    from rigplan.workload.describe import plan_lines

    build = load(EX / "2x-rtx-4090.rigplan")
    plan = make_plan(build)
    write_chart(plan, "breakeven", out / f"export-breakeven-{tag}.png", "png")
    write_chart(plan, "breakeven", out / f"export-breakeven-{tag}.svg", "svg")
    build = build.model_copy(update={"workload": WorkloadSpec(model="llama-3.1-8b", task=Task.LORA, tokens=1e8)})
    plan = make_plan(build)
    plan.workload_lines = plan_lines(build, [(c.offer, c.pricing) for c in plan.offers])
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "report.pdf"
        write_pdf(plan, pdf)
        subprocess.run(["pdftoppm", "-r", "80", "-png", str(pdf), str(out / f"report-workload-{tag}")], check=True)
    print(f"wrote the exports of {tag} in {out}")


def compare_shot(path: Path) -> None:
    from PySide6.QtWidgets import QApplication

    from rigplan.exports.plan import make_plan
    from rigplan.files import load
    from rigplan.gui.compare.compare_view import comparison_dialog

    app = QApplication.instance()
    dlg = comparison_dialog(None, make_plan(load(EX / "2x-rtx-4090.rigplan")))
    for f in ("budget-1-gpu.rigplan", "4-gpu-threadripper.rigplan"):
        dlg.view.add_file(EX / f)
    dlg.show()
    dlg.setGeometry(app.primaryScreen().availableGeometry())
    pump(app, 0.8)
    grab(app, dlg, path)
    dlg.close()


if __name__ == "__main__":
    raise SystemExit(main())
