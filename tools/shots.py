"""What the screenshot tools share: the real main window on a throwaway settings file and data folder, filling the
Xvfb screen it runs on (there is no window manager to maximise it), and a grab of the screen as it shows.

    with screen_window() as (app, w, tmp):
        ...
        grab(app, w, out / "name.png")
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))


def pump(app: Any, seconds: float = 0.0, turns: int = 40) -> None:
    """Let the window settle: `turns` rounds of events, then more until `seconds` have passed."""
    for _ in range(turns):
        app.processEvents()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


@contextmanager
def screen_window(data: Path | None = None) -> Iterator[tuple[Any, Any, Path]]:
    """(QApplication, main window, a scratch folder). The window is marked saved on the way out, so closing it never
    asks; `data` (default: the scratch folder's data/) keeps autosaves and prices out of the user's folder."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from rigplan.gui.app import create_window

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setStyle("Fusion")
    with tempfile.TemporaryDirectory() as tmp:
        settings = QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat)
        w = create_window(settings, data=data or Path(tmp) / "data")
        w.show()
        w.setGeometry(app.primaryScreen().availableGeometry())
        pump(app, turns=20)
        try:
            yield app, w, Path(tmp)
        finally:
            w.doc.undo_stack.setClean()


def grab(app: Any, w: Any, path: Path) -> None:
    """The screen as the X server shows it (dialogs included); the window's own rendering off X11."""
    pump(app)
    pix = app.primaryScreen().grabWindow(0) if app.platformName() == "xcb" else w.grab()
    path.parent.mkdir(parents=True, exist_ok=True)
    pix.save(str(path))
    print(f"wrote {path} ({pix.width()}x{pix.height()})")


def screen_size(app: Any) -> str:
    """The screen's size as the screenshots' names spell it ("1280x720")."""
    size = app.primaryScreen().size()
    return f"{size.width()}x{size.height()}"


def each_size(script: str, sizes: list[tuple[str, str]], args: list[str]) -> int:
    """Run `script --one WxH *args` on its own Xvfb screen for each (size, Qt scale factor): the first failure's
    exit code, else 0."""
    for size, scale in sizes:
        env = {**os.environ, "QT_SCALE_FACTOR": scale, "QT_QPA_PLATFORM": "xcb"}
        cmd = ["xvfb-run", "-a", "-s", f"-screen 0 {size}x24", sys.executable, script, "--one", size, *args]
        done = subprocess.run(cmd, env=env, check=False)
        if done.returncode:
            return done.returncode
    return 0
