"""Screenshots of File > Import > PCPartPicker list (issue 19): the review dialog over the real window, after a
real import of tests/data/pcpartpicker/budget.txt, and the imported build in the window.

    python tools/screenshots_import.py [--out docs/screenshots]     # both sizes, each on its own Xvfb
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

from shots import each_size, grab, pump, screen_window  # noqa: E402

SIZES = ("1280x720", "1920x1080")
LIST = ROOT / "tests" / "data" / "pcpartpicker" / "budget.txt"


def take(out: Path, size: str) -> int:
    from rigplan.gui.imports.import_dialog import PasteListDialog, ReviewMatchesDialog
    from rigplan.imports.list_import import apply_picks, to_build
    from rigplan.model import Build

    with screen_window() as (app, w, _):
        screen = app.primaryScreen().availableGeometry()

        def shot(name: str) -> None:
            grab(app, w, out / name)

        paste = PasteListDialog(w.catalog, w)
        paste.load_file(LIST)
        paste.show()
        paste.move(screen.center() - paste.rect().center())
        if size == "1920x1080":
            shot("import-paste.png")
        paste.accept()
        while paste.busy:  # the list is matched in a worker thread; the result comes back as a signal
            pump(app, seconds=0.1)
        assert paste.imported is not None, paste.error.text()
        review = ReviewMatchesDialog(paste.imported, w)
        review.resize(min(1100, screen.width() - 40), min(460, screen.height() - 60))
        review.show()
        review.move(screen.center() - review.rect().center())
        review.combos[4].setCurrentIndex(1)  # the user has confirmed the GPU; three lines still to check
        shot(f"import-review-{size}.png")
        apply_picks(paste.imported, review.choices(), w.catalog)
        build = to_build(paste.imported, w.catalog, assumptions=w.doc.build.assumptions)
        review.close()
        w.doc.reset(Build(assumptions=build.assumptions), None)
        w.doc.edit(build, "Import PCPartPicker list")
        shot(f"import-build-{size}.png")
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
