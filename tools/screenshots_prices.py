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
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))
sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", required=True)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    a = ap.parse_args()
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication, QProgressDialog

    from prices_server import serve
    from rigplan.gui.app import create_window

    app = QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    with tempfile.TemporaryDirectory() as tmp, serve("slow") as (url, _):
        os.environ["XDG_DATA_HOME"] = tmp  # the prices folder: a scratch one, not the user's
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        w = create_window(settings, data=Path(tmp) / "data")
        w.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
        w.showMaximized()
        w.setGeometry(app.primaryScreen().availableGeometry())
        w.tabs.setCurrentIndex(1)
        w.costs.ensure_charts()

        def pump(seconds: float) -> None:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                app.processEvents()
                time.sleep(0.01)

        def shot(name: str) -> None:
            pump(0.4)
            pix = app.primaryScreen().grabWindow(0) if app.platformName() == "xcb" else w.grab()
            pix.save(str(a.out / name))
            print(f"wrote {a.out / name} ({pix.width()}x{pix.height()})")

        pump(0.5)
        w.prices.url, w.prices.providers = url, ("aws", "lambdalabs")
        finished: list[str] = []
        w.prices.done.connect(finished.append)
        w.prices.act_update.trigger()
        dialog = w.findChild(QProgressDialog)
        while dialog.value() < 150 and not finished:
            pump(0.05)
        shot(f"prices-update-progress-{a.size}.png")
        while not finished:
            pump(0.1)
        print(finished[0])
        panel = w.costs.offers_panel
        panel.words.setText("g4dn.xlarge")
        pump(0.2)
        panel.view.scrollToBottom()  # the charted offers stay listed above whatever the filter; show the new rows
        shot(f"prices-updated-{a.size}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
