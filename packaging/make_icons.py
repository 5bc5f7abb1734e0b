"""Render resources/icons/rigplan.svg to the hicolor PNG sizes, a Windows .ico (16-256 px) and a macOS .icns
(16-1024 px, Retina sizes included) with Qt's SVG renderer; packaging/icon_files.py writes the two containers.

QT_QPA_PLATFORM=offscreen python packaging/make_icons.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))
from icon_files import ICNS_TYPES, ICO_SIZES, icns_bytes, ico_bytes  # noqa: E402

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


def png(img: QImage) -> bytes:
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    return bytes(buf.data())


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
    # Each size drawn from the SVG (a 16 px icon scaled down from 256 loses its lines).
    pngs = {size: png(render(renderer, size)) for size in {*ICO_SIZES, *ICNS_TYPES.values()}}
    (ICONS / "rigplan.ico").write_bytes(ico_bytes({s: pngs[s] for s in ICO_SIZES}))
    (ICONS / "rigplan.icns").write_bytes(icns_bytes(pngs))
    print(f"wrote {len(SIZES)} PNGs, rigplan.ico and rigplan.icns under {ICONS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
