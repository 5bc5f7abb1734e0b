"""PDF and chart images for the CLI: a QApplication to draw with (offscreen without a display), then the same
painters the GUI's File > Export uses."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def ensure_qt_app() -> Any:
    """A QApplication for drawing; without a display, Qt's offscreen platform (no window is ever shown)."""
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(["rigplan"])


def write_drawn(plan: Any, fmt: str, out: Path, chart: str, width: int, height: int, dpi: int) -> None:
    _app = ensure_qt_app()  # noqa: F841 - must outlive the drawing
    if fmt == "pdf":
        from rigplan.render.pdf import write_pdf

        write_pdf(plan, out)
        return
    from rigplan.render.images import write_chart

    write_chart(plan, chart, out, fmt, width=width, height=height, dpi=dpi)
