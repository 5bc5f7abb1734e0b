"""Screenshots of the Workload panel on its own (issue 28), filling the Xvfb screen, on the 2x RTX 4090 example build
against three offers: Llama 3.1 8B LoRA (fits), Llama 3.1 70B full fine-tuning (does not fit as set), ResNet-50
(a measured model, 10 hours on a V100 per job); and the
panel where the user meets it, as the Workload tab beside the break-even chart in the main window
(workload-window-SIZE.png).

    xvfb-run -s "-screen 0 1280x720x24" python tools/screenshots_workload.py --size 1280x720
    xvfb-run -s "-screen 0 1920x1080x24" python tools/screenshots_workload.py --size 1920x1080
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from shots import pump  # noqa: E402

OFFERS = ["lambda:gpu_1x_a100:us-east-1", "aws:p4d.24xlarge:us-east-1", "aws:g6e.xlarge:us-east-1",
          "aws:p3.2xlarge:us-east-1"]  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", required=True)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    a = ap.parse_args()
    from PySide6.QtWidgets import QApplication

    from rigplan.cloud.offers import load_offers
    from rigplan.files import load
    from rigplan.gui.workload.panel import WorkloadPanel
    from rigplan.model.assumptions import Pricing
    from rigplan.model.workload import Task, WorkloadSpec

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    offers = load_offers()
    chart = [(offers.get(i), Pricing.ON_DEMAND) for i in OFFERS if offers.get(i)]
    panel = WorkloadPanel(load(ROOT / "examples" / "2x-rtx-4090.rigplan"), offers, None, chart)
    panel.setWindowTitle("Workload")
    panel.show()
    panel.setGeometry(app.primaryScreen().availableGeometry())
    for name, spec in (
        ("workload", WorkloadSpec(model="llama-3.1-8b", task=Task.LORA, tokens=2e8)),
        ("workload-no-fit", WorkloadSpec(model="llama-3.1-70b", task=Task.FULL, tokens=2e8)),
        ("workload-measured", WorkloadSpec(model="resnet50", v100_hours=10)),  # a measured model (Lambda)
    ):
        panel.set_spec(spec)
        pump(app, 0.3)
        path = a.out / f"{name}-{a.size}.png"
        pix = app.primaryScreen().grabWindow(0) if app.platformName() == "xcb" else panel.grab()
        path.parent.mkdir(parents=True, exist_ok=True)
        pix.save(str(path))
        print(f"wrote {path} ({pix.width()}x{pix.height()})")
    panel.close()
    window_shot(app, a.out / f"workload-window-{a.size}.png")
    return 0


def window_shot(app: object, path: Path) -> None:
    from rigplan.gui.mainwindow import COSTS_TAB
    from rigplan.model.workload import Task, WorkloadSpec
    from shots import grab, screen_window

    with screen_window() as (app, w, _):
        w.files.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
        w.tabs.setCurrentIndex(COSTS_TAB)
        w.costs.ensure_charts()
        tabs = w.costs.chart_tabs
        tabs.setCurrentIndex([tabs.tabText(i) for i in range(tabs.count())].index("Workload"))
        w.costs.workload.set_spec(WorkloadSpec(model="qwen2.5-32b", task=Task.QLORA, tokens=2e8))
        pump(app, 0.5)
        grab(app, w, path)
        print(f"wrote {path}")


if __name__ == "__main__":
    raise SystemExit(main())
