"""File > Import: a PCPartPicker list (opens as a new, unsaved, undoable build) and a price file (for this build, or
for the catalog as your own prices). Your prices are applied to the catalog when the window finishes starting."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QMessageBox

from rigplan.gui.widgets.plain import tip as plain

if TYPE_CHECKING:
    from rigplan.gui.mainwindow import MainWindow


MAX_PRICE_FILE = 5_000_000  # as the CLI's `import prices`


def import_pcpartpicker(w: MainWindow) -> None:
    from rigplan.gui.imports.import_dialog import PasteListDialog, ReviewMatchesDialog
    from rigplan.imports.list_import import apply_picks, to_build
    from rigplan.model import Build

    paste = PasteListDialog(w.catalog, w)
    if not paste.exec() or paste.imported is None:
        return
    review = ReviewMatchesDialog(paste.imported, w)
    if not review.exec():
        return
    apply_picks(paste.imported, review.choices(), w.catalog)
    build = to_build(paste.imported, w.catalog, assumptions=w.doc.build.assumptions)
    if w.files.maybe_save():
        # As a suggested build opens: a new unsaved build, and Undo goes back to an empty one.
        w.doc.reset(Build(assumptions=build.assumptions), None)
        w.doc.edit(build, "Import PCPartPicker list")


def import_price_file(w: MainWindow) -> None:
    path, _ = QFileDialog.getOpenFileName(w, "Import a price file", "", "CSV (*.csv *.txt);;All (*)")
    if path:
        import_price_path(w, Path(path))


def import_price_path(w: MainWindow, path: Path, target: str | None = None) -> str:
    """Import `path` into the build ("build") or your catalog prices ("catalog"); asks when target is None.
    Returns the summary shown to the user (tests read it)."""
    from rigplan.files.errors import BuildFileError
    from rigplan.files.safeio import read_user_text
    from rigplan.imports.price_file import PriceFileError, apply_to_build, parse_price_file

    try:  # the one safe reader: a FIFO is refused at once, the size is capped
        pf = parse_price_file(read_user_text(path, MAX_PRICE_FILE, what="price file"), f"price file {path.name}")
    except BuildFileError as exc:
        QMessageBox.warning(w, "Import prices", plain(str(exc)))
        return ""
    except PriceFileError as exc:
        QMessageBox.warning(w, "Import prices", plain(f"{path.name}: {exc}"))
        return ""
    if target is None:
        box = QMessageBox(
            QMessageBox.Icon.Question, "Import prices", f"{len(pf.rows)} prices in {path.name}.", parent=w
        )
        box.setInformativeText(
            "Set them as this build's own prices, or keep them as your prices for catalog parts (shown as "
            "'your price' in every build; the bundled catalog is not changed)?"
        )
        to_build_btn = box.addButton("This build", QMessageBox.ButtonRole.AcceptRole)
        to_cat_btn = box.addButton("Your catalog prices", QMessageBox.ButtonRole.AcceptRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        clicked = box.clickedButton()
        target = "build" if clicked is to_build_btn else "catalog" if clicked is to_cat_btn else None
        if target is None:
            return ""
    skipped = [f"skipped {p}" for p in pf.problems]
    if target == "build":
        build, updated, unused = apply_to_build(pf, w.doc.build)
        if updated:
            w.doc.edit(build, "Import prices")
        lines = [f"{len(updated)} price{'s' if len(updated) != 1 else ''} set in this build.", *unused, *skipped]
    else:
        lines = _into_catalog(w, pf) + skipped
    text = "\n".join(lines)
    QMessageBox.information(w, "Import prices", plain(text))
    return text


def _into_catalog(w: MainWindow, pf: object) -> list[str]:
    from rigplan.imports.price_file import resolve_catalog
    from rigplan.imports.user_prices import UserPricesError, add_user_prices, apply_to_catalog

    resolved = resolve_catalog(pf, w.catalog)  # type: ignore[arg-type]
    if w.data_dir is None:  # no data folder (tests, --no-data): shown, not kept
        apply_to_catalog(w.catalog, resolved.prices)
    else:
        try:
            apply_to_catalog(w.catalog, add_user_prices(resolved.prices, w.data_dir))
        except UserPricesError as exc:
            return [str(exc)]
    refresh_picker(w)
    return [f"{len(resolved.prices)} of your prices added to the catalog.", *resolved.unmatched]


def remove_your_prices(w: MainWindow, ask: bool = True) -> int:
    """File > Import > Remove your prices: every user price goes; the catalog's own prices come back."""
    from rigplan.imports.user_prices import UserPricesError, load_user_prices, remove_user_prices, restore_in_catalog

    if w.data_dir is None:
        return 0
    try:
        n = len(load_user_prices(w.data_dir))
        if not n:
            QMessageBox.information(w, "Your prices", "You have no prices of your own.")
            return 0
        yes = QMessageBox.StandardButton.Yes
        question = f"Remove your {n} price{'s' if n != 1 else ''}? The catalog's own prices come back."
        if ask and QMessageBox.question(w, "Your prices", question) != yes:
            return 0
        gone = remove_user_prices(None, w.data_dir)
    except UserPricesError as exc:
        QMessageBox.warning(w, "Your prices", plain(str(exc)))
        return 0
    restore_in_catalog(w.catalog, gone)
    refresh_picker(w)
    return len(gone)


def refresh_picker(w: MainWindow) -> None:
    """The picker's tables read prices once per model: drop them so the next view shows the new prices."""
    w.picker.reload_prices()


def apply_saved_prices(w: MainWindow) -> None:
    """At start: your saved prices over the catalog's. A broken file is moved aside (`.corrupt-<date>`) and reported
    in one line; the catalog's prices are used."""
    if w.data_dir is None:
        return
    from rigplan.imports.user_prices import UserPricesError, apply_to_catalog, load_user_prices

    try:
        prices = load_user_prices(w.data_dir)
    except UserPricesError as exc:  # moved aside, so the next import starts a good file and nothing is lost
        from rigplan.files.safeio import move_aside
        from rigplan.imports.user_prices import prices_path

        moved = move_aside(prices_path(w.data_dir))
        w.note_problem(f"{exc}" + (f"; moved aside to {moved.name}" if moved else ""))
        return
    if prices and apply_to_catalog(w.catalog, prices):
        refresh_picker(w)
