"""Screenshots of Parts catalog > Update and Edit > Correct a value... in the real window (issue 38): the progress
dialog while an OpenDB archive is converted, the change summary before switching, and the correction dialog. The
archive is built from the shipped catalog (tests/opendb_archive.py, one GPU's length changed, one GPU added); nothing
is fetched from the internet.

    python tools/screenshots_catalog.py            # both sizes, each on its own Xvfb screen
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

from shots import each_size, grab, pump, screen_window  # noqa: E402

GPU = "08690e09-bcad-4acd-99d9-72f0093db590"


def make_archive(path: Path) -> Path:
    import opendb_archive as oa
    from rigplan.catalog import load_catalog
    from rigplan.model.parts import Kind

    records = oa.shipped_records(load_catalog(ROOT / "parts"))
    new = {
        **next(r for r in records[Kind.GPU] if r["opendb_id"] == GPU),
        "opendb_id": "f0000000-0000-4000-8000-00000000beef",
        "metadata": {"name": "Zephyrine Quokka RTX 4090 Test Edition", "manufacturer": "Zephyrine"},
    }
    edit = lambda k, r: {**r, "length": 341} if r["opendb_id"] == GPU else r  # noqa: E731
    return oa.build(path, records, edit=edit, extra=[(Kind.GPU, new)])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--one", help="one size, on the screen this runs on (each_size passes it)")
    ap.add_argument("--archive", type=Path)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    a = ap.parse_args()
    if a.one is None:
        with tempfile.TemporaryDirectory() as tmp:
            archive = make_archive(Path(tmp) / "opendb.tar.gz")
            sizes = [("1280x720", "1"), ("1920x1080", "1")]
            return each_size(__file__, sizes, ["--archive", str(archive), "--out", str(a.out)])
    with tempfile.TemporaryDirectory() as xdg:
        os.environ["XDG_DATA_HOME"] = xdg  # the catalog folder: a scratch one, not the user's
        with screen_window() as (app, w, _):
            take(app, w, a.archive, a.out, a.one)
    return 0


def take(app: Any, w: Any, archive: Path, out: Path, size: str) -> None:
    from PySide6.QtWidgets import QApplication, QProgressDialog

    from rigplan.gui.catalog.correct_dialog import CorrectDialog
    from rigplan.model.parts import Kind

    def shot(name: str) -> None:
        pump(app, 0.4, turns=0)
        grab(app, w, out / name)

    w.files.open_path(ROOT / "examples" / "2x-rtx-4090.rigplan", ask=False)
    w.picker.set_kind(Kind.GPU)
    w.picker.search.setText("TUF Gaming OG OC 4090")
    pump(app, 0.5, turns=0)
    summaries: list[Any] = []
    ended: list[str] = []
    w.menus.catalog_updates.summary_shown.connect(summaries.append)
    w.menus.catalog_updates.done.connect(ended.append)
    w.menus.catalog_updates.start(archive)
    dialog = w.findChild(QProgressDialog)
    while dialog.value() < 450 and not summaries:
        pump(app, 0.05, turns=0)
    shot(f"catalog-update-progress-{size}.png")
    while not summaries:
        pump(app, 0.1, turns=0)
    shot(f"catalog-update-summary-{size}.png")
    n = len(ended)
    summaries[0].switch.click()
    while len(ended) == n:
        pump(app, 0.1, turns=0)
    print(ended[-1])
    view = w.picker.view
    view.setCurrentIndex(w.picker.proxy.index(0, 0))
    pump(app, 0.3, turns=0)
    d = CorrectDialog(w, w.picker.current_part(), None)
    d.field.setCurrentIndex(d.field.findData("length_mm"))
    d.value.setText("long")
    d.source.setText("ASUS product page, Tech Specs: 348.5 x 150 x 72.6 mm")
    d._keep()  # the model's refusal, shown in the dialog
    d.value.setText("348.5")
    d.show()
    d.move(w.geometry().center() - d.rect().center())
    QApplication.processEvents()
    shot(f"catalog-correct-{size}.png")
    d.close()


if __name__ == "__main__":
    sys.exit(main())
