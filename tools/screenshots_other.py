"""Screenshots of the build table with Other items (issue 29): a real PCPartPicker list with fans, an OS, a riser
cable, a monitor, peripherals and a UPS imported into the real window (its total is the list's $4,636.76), and the
Other item dialog editing the fans.

    python tools/screenshots_other.py [--out docs/screenshots]     # both sizes, each on its own Xvfb
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from shots import each_size, grab, pump, screen_window  # noqa: E402

SIZES = ("1280x720", "1920x1080")
LIST = ROOT / "tests" / "data" / "pcpartpicker" / "with-extras.txt"


def take(out: Path, size: str) -> int:
    from rigplan.catalog import load_catalog
    from rigplan.gui.parts.other_items import OtherItemDialog
    from rigplan.imports.list_import import apply_picks, match_list, to_build
    from rigplan.model import Build

    with screen_window() as (app, w, _):
        result = match_list(LIST.read_text("utf-8"), load_catalog())
        best = {n: ln.match.best.part_id for n, ln in enumerate(result.lines) if ln.status == "uncertain" and ln.match}
        apply_picks(result, {n: p for n, p in best.items() if p}, w.catalog)  # as "Take the best candidates"
        build = to_build(result, w.catalog, assumptions=w.doc.build.assumptions)
        fans = build.other[0].model_copy(update={"watts": 1.5})  # a wall figure the user typed
        build = build.model_copy(update={"other": (fans, *build.other[1:])})
        w.doc.reset(Build(assumptions=build.assumptions), None)
        w.doc.edit(build, "Import PCPartPicker list")
        table = w.build_panel.table
        table.setCurrentCell(w.build_panel.other_row(0), 1)
        table.scrollToItem(table.item(w.build_panel.other_row(len(build.other) - 1), 1))
        pump(app)
        grab(app, w, out / f"other-items-{size}.png")
        if size == "1920x1080":
            dlg = OtherItemDialog(w, "USD", w.doc.build.other[0])
            dlg.show()
            screen = app.primaryScreen().availableGeometry()
            dlg.move(screen.center() - dlg.rect().center())
            grab(app, w, out / "other-items-dialog.png")
            dlg.close()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--one", metavar="WxH")
    a = ap.parse_args()
    if a.one:
        return take(a.out, a.one)
    return each_size(__file__, [(size, "1") for size in SIZES], ["--out", str(a.out)])


if __name__ == "__main__":
    sys.exit(main())
