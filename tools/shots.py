"""The one screenshot tool's machinery: the real main window on a throwaway settings file and data folder, filling
the Xvfb screen it runs on (there is no window manager to maximise it), a grab of the screen as it shows, a registry
of named scenarios, and the runner that starts one Xvfb per screen size.

    python tools/screenshots.py --list
    python tools/screenshots.py --scenario costs --size 1280x720 [--size 2560x1440] [--tag after]

A scenario is a function registered with @scenario("name"); it gets a Shot (the app, the window, where to write,
the screen size and tag) and saves what a user would see with shot.save("name").
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
sys.path.insert(0, str(ROOT / "app"))
SIZES = ("1280x720", "1920x1080", "2560x1440")
SCALES = {"2560x1440": "2"}  # a 2x screen: what a 27-inch 1440p monitor at 200 % shows (QT_SCALE_FACTOR)


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
            w.close()


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
    scale = float(os.environ.get("QT_SCALE_FACTOR", "1") or 1)
    return f"{round(size.width() * scale)}x{round(size.height() * scale)}"


@dataclass
class Shot:
    """What a scenario gets: the app and the real window, where to write, the screen size and the tag."""

    app: Any
    w: Any
    out: Path
    size: str
    tag: str
    tmp: Path

    def name(self, stem: str) -> str:
        """ "costs" -> "costs-after-1280x720.png" (no tag: "costs-1280x720.png")."""
        return f"{stem}-{self.tag + '-' if self.tag else ''}{self.size}.png"

    def save(self, stem: str, exact: bool = False) -> Path:
        """Grab the screen into stem-[tag-]WxH.png (exact=True: into `stem` as given, e.g. "main.png")."""
        path = self.out / (stem if exact else self.name(stem))
        grab(self.app, self.w, path)
        return path

    def settle(self, seconds: float = 0.5) -> None:
        pump(self.app, seconds)

    def open(self, name: str = "2x-rtx-4090.rigplan") -> None:
        self.w.files.open_path(EX / name, ask=False)
        self.settle(0.3)


Scenario = Callable[[Shot], None]
SCENARIOS: dict[str, tuple[Scenario, str, tuple[str, ...]]] = {}


def scenario(name: str, sizes: tuple[str, ...] = SIZES) -> Callable[[Scenario], Scenario]:
    """Register a scenario under `name`; `sizes` are the screens it is taken on when none is named. Its docstring's
    first line is what --list prints."""

    def register(fn: Scenario) -> Scenario:
        SCENARIOS[name] = (fn, (fn.__doc__ or "").strip().splitlines()[0] if fn.__doc__ else "", sizes)
        return fn

    return register


def run_here(names: list[str], out: Path, tag: str) -> int:
    """Run the scenarios on the current display (one window each)."""
    for name in names:
        fn = SCENARIOS[name][0]
        with screen_window() as (app, w, tmp):
            fn(Shot(app, w, out, screen_size(app), tag, tmp))
    return 0


def run_sizes(script: str, plan: dict[str, list[str]], args: list[str]) -> int:
    """For each size, run `script --here` with its scenarios on its own Xvfb screen (a 2x size at QT_SCALE_FACTOR=2,
    so the window lays out at half the pixels and the grab has the full size): the first failure's exit code."""
    for size, names in plan.items():
        env = {**os.environ, "QT_SCALE_FACTOR": SCALES.get(size, "1"), "QT_QPA_PLATFORM": "xcb"}
        cmd = ["xvfb-run", "-a", "-s", f"-screen 0 {size}x24", sys.executable, script, "--here", *args]
        for n in names:
            cmd += ["--scenario", n]
        done = subprocess.run(cmd, env=env, check=False)
        if done.returncode:
            return done.returncode
    return 0
