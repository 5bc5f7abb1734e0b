"""Screenshots of Cloud prices > Update in the real window: the progress dialog while a catalog downloads, then the
offers table with the new dated prices and the "Cloud prices: updated ..." line. The catalog is served from
127.0.0.1 (tests/prices_server.py, the test catalog in gpuhunt's format): nothing is fetched from the internet.

    xvfb-run -s "-screen 0 1280x720x24" python tools/screenshots_prices.py --size 1280x720
    xvfb-run -s "-screen 0 1920x1080x24" python tools/screenshots_prices.py --size 1920x1080
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

from shots import grab, pump, screen_window  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", required=True)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    a = ap.parse_args()
    from prices_server import serve

    with tempfile.TemporaryDirectory() as xdg, serve("slow") as (url, _):
        os.environ["XDG_DATA_HOME"] = xdg  # the prices folder: a scratch one, not the user's
        with screen_window() as (app, w, _):
            take(app, w, url, a.out, a.size)
    return 0


def take(app: Any, w: Any, url: str, out: Path, size: str) -> None:
    from PySide6.QtWidgets import QProgressDialog

    def shot(name: str) -> None:
        pump(app, 0.4, turns=0)
        grab(app, w, out / name)

    w.files.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
    w.tabs.setCurrentIndex(1)
    w.costs.ensure_charts()
    pump(app, 0.5, turns=0)
    w.prices.url, w.prices.providers = url, ("aws", "lambdalabs")
    finished: list[str] = []
    w.prices.done.connect(finished.append)
    w.prices.act_update.trigger()
    dialog = w.findChild(QProgressDialog)
    while dialog.value() < 150 and not finished:
        pump(app, 0.05, turns=0)
    shot(f"prices-update-progress-{size}.png")
    while not finished:
        pump(app, 0.1, turns=0)
    print(finished[0])
    panel = w.costs.offers_panel
    panel.words.setText("g4dn.xlarge")
    pump(app, 0.2, turns=0)
    panel.view.scrollToBottom()  # the charted offers stay listed above whatever the filter; show the new rows
    shot(f"prices-updated-{size}.png")


if __name__ == "__main__":
    sys.exit(main())
