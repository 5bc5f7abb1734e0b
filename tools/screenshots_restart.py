"""Screenshots for issue 29, Major 2: quit on the Costs tab on a 1280x720 screen, start again on the same settings.

    xvfb-run -a -s "-screen 0 1280x720x24" python tools/screenshots_restart.py quit --settings /tmp/s.ini
    xvfb-run -a -s "-screen 0 1920x1080x24" python tools/screenshots_restart.py start --settings /tmp/s.ini \\
        --png docs/screenshots/restart-after-1920x1080.png
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

from shots import ROOT, grab, pump  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("phase", choices=["quit", "start"])
    ap.add_argument("--settings", type=Path, required=True)
    ap.add_argument("--png", type=Path)
    args = ap.parse_args()
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from rigplan.gui.app import create_window

    app = QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    with tempfile.TemporaryDirectory() as tmp:
        w = create_window(QSettings(str(args.settings), QSettings.Format.IniFormat), data=Path(tmp) / "data")
        w.show()
        if args.phase == "quit":
            w.setGeometry(app.primaryScreen().availableGeometry())
            pump(app, 0.5)
            w.files.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
            w.tabs.setCurrentIndex(1)
            pump(app, 1.0)
        else:
            pump(app, 1.0)
            print(f"window {w.width()}x{w.height()}, findings shown: {w.findings_dock.isVisible()}")
            if args.png:
                grab(app, w, args.png)
        w.doc.undo_stack.setClean()
        w.close()
        pump(app, 0.2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
