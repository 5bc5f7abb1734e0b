"""Render resources/icons/rigplan.svg to the hicolor PNG sizes, a Windows .ico and a macOS .icns (with Qt).

QT_QPA_PLATFORM=offscreen python packaging/make_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "resources" / "icons"
APP_ID = "io.github.rigplan.RigPlan"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def render(renderer: QSvgRenderer, size: int) -> QImage:
    img = QImage(size, size, QImage.Format.Format_ARGB32)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(p)
    p.end()
    return img


def main() -> int:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841 - QImage/QPainter need a GUI application
    renderer = QSvgRenderer(str(ICONS / "rigplan.svg"))
    if not renderer.isValid():
        print("rigplan.svg is not a valid SVG", file=sys.stderr)
        return 1
    for size in SIZES:
        out = ICONS / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        render(renderer, size).save(str(out))
    render(renderer, 256).save(str(ICONS / "rigplan.ico"))
    render(renderer, 512).save(str(ICONS / "rigplan.icns"))
    print(f"wrote {len(SIZES)} PNGs, rigplan.ico and rigplan.icns under {ICONS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
