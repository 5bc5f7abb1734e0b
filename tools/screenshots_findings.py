"""Screenshots of the findings for two builds whose verdicts issue 11 fixed (docs/checks.md uses them).

    xvfb-run -s "-screen 0 1920x1080x24" python tools/screenshots_findings.py [--size WxH]

The builds are two cases of the expert corpus (tests/data/expert/cases.yaml), written as build files:
a Threadripper 2950X on an X399 board with a TR4 cooler (a false cpu-socket error before: TR4 vs sTR4) and an RTX
4090 on a PSU with three 6+2-pin cables (a warning naming where each cable goes, where it was an error before).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from shots import pump, screen_window  # noqa: E402

CASES = {
    "tr2950x-on-x399": "findings-threadripper-tr4",
    "rtx-4090-on-three-8-pin": "findings-4090-adapter",
    # issue 25, third round: a 2022 PRIME TX-1600 is not ATX 3.x though it has 12VHPWR cables (Seasonic)
    "ws-psu-atx3-prime-tx1600-2022": "findings-tx1600-not-atx3",
}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="1920x1080")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    a = ap.parse_args()
    from rigplan.catalog import load_catalog
    from rigplan.files import save
    from rigplan.model import Build, BuildItem, Kind

    catalog = load_catalog()
    cases = {c["id"]: c for c in yaml.safe_load((ROOT / "tests/data/expert/cases.yaml").read_text())}
    with screen_window() as (app, w, tmp):
        for case_id, name in CASES.items():
            case = cases[case_id]
            items = []
            for kind, prefix in case["parts"].items():
                t = catalog.table(Kind(kind))
                row = next(i for i, pid in enumerate(t.ids) if pid.startswith(prefix))
                items.append(BuildItem(part=t.part(row)))
            path = tmp / f"{case_id}.rigplan"
            save(Build(name=case_id, items=tuple(items)), path)
            w.files.open_path(path, ask=False)
            w.tabs.setCurrentIndex(0)
            pump(app, turns=20)
            w.grab().save(str(a.out / f"{name}-{a.size}.png"))
            print("saved", a.out / f"{name}-{a.size}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
