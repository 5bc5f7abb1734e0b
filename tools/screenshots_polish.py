"""Screenshots for issue 29 (the polish round): the 2x RTX 4090 example in EUR, Parts and Costs tabs.

xvfb-run -a -s "-screen 0 1280x720x24" python tools/screenshots_polish.py --tag after --out docs/screenshots
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from shots import ROOT, grab, pump, screen_size, screen_window  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--tag", default="after")
    args = ap.parse_args()
    with screen_window() as (app, w, _tmp):
        size = screen_size(app)
        w.files.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
        a = w.doc.build.assumptions.model_copy(update={"currency": "EUR"})
        w.doc.set_assumptions(a)
        pump(app, 0.5)
        from rigplan.model import Kind

        w.picker.set_kind(Kind.CPU)
        pump(app, 0.3)
        grab(app, w, args.out / f"currency-parts-{args.tag}-{size}.png")
        w.picker.set_kind(Kind.GPU)
        w.picker.compatible_only.setChecked(False)
        pump(app, 0.3)
        grab(app, w, args.out / f"picker-gpu-{args.tag}-{size}.png")
        w.picker.compatible_only.setChecked(True)
        w.tabs.setCurrentIndex(1)
        pump(app, 1.5)
        grab(app, w, args.out / f"currency-costs-{args.tag}-{size}.png")
        # Major 3: six offers (two more Lambda ones) with the assumptions open
        from rigplan.model.build import ChartOffer

        by_type = {o.instance_type: o.id for o in w.costs.offers.offers if o.provider == "lambda" and o.gpu_count == 2}
        extra = sorted(by_type.values())
        chosen = [c.offer for c in w.costs.comparison]
        more = [ChartOffer(offer=i) for i in extra if i not in chosen][:2]
        w.doc.set_comparison(list(w.costs.comparison) + more)
        w.costs.show_assumptions(True)
        pump(app, 1.5)
        grab(app, w, args.out / f"charts-many-{args.tag}-{size}.png")
        w.costs.chart_tabs.setCurrentIndex(1)
        pump(app, 1.0)
        grab(app, w, args.out / f"charts-breakdown-{args.tag}-{size}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
