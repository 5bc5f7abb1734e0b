"""What the window remembers between runs (QSettings): geometry, splitters, the last assumptions."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication, QMainWindow

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QSplitter

    from rigplan.gui.costs.costs_view import CostsView
    from rigplan.gui.files.document import BuildDocument
    from rigplan.model import Assumptions

DEFAULT_SIZE = (1400, 880)


# A mixin of MainWindow: the type checker sees a QMainWindow, Python a plain class (one Qt base only).
_Base = QMainWindow if TYPE_CHECKING else object


class SettingsMixin(_Base):
    if TYPE_CHECKING:
        settings: QSettings
        splitter: QSplitter
        ready: bool
        doc: BuildDocument
        costs: CostsView

    def _saved_currency(self) -> str:
        """The currency of the last assumptions, read without pydantic (before finish())."""
        raw = self.settings.value("costs/assumptions")
        try:
            code = json.loads(raw).get("currency") if isinstance(raw, str) else None
        except (ValueError, AttributeError):
            code = None
        return code if isinstance(code, str) else "USD"

    def _last_assumptions(self) -> Assumptions:
        from rigplan.model import Assumptions

        raw = self.settings.value("costs/assumptions")
        if isinstance(raw, str):
            try:
                return Assumptions.model_validate_json(raw)
            except ValueError:
                pass
        return Assumptions()

    def _restore_geometry(self) -> None:
        geo = self.settings.value("window/geometry")
        if geo is not None:
            self.restoreGeometry(geo)
        else:
            self.resize(*DEFAULT_SIZE)
        self.fit_to_screen()
        state = self.settings.value("window/state")
        if state is not None:
            self.restoreState(state)
        sizes = self.settings.value("window/splitter")
        if sizes is not None:
            self.splitter.restoreState(sizes)

    def fit_to_screen(self) -> None:
        """Never larger than the screen's free area (a size saved on a big monitor, or the default on a laptop)."""
        screen = self.screen() or QApplication.primaryScreen()
        if screen is None:
            return
        avail = screen.availableGeometry()
        frame = self.frameGeometry().size() - self.geometry().size()  # title bar and borders
        w = min(self.width(), avail.width() - frame.width())
        h = min(self.height(), avail.height() - frame.height())
        if (w, h) != (self.width(), self.height()):
            self.resize(max(w, 200), max(h, 200))
        if not avail.contains(self.frameGeometry().topLeft()):
            self.move(avail.topLeft())

    def save_settings(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.setValue("window/splitter", self.splitter.saveState())
        if self.ready:
            self.settings.setValue("costs/assumptions_shown", not self.costs.side.isHidden())
            self.settings.setValue("costs/assumptions", self.doc.build.assumptions.model_dump_json())
        self.settings.sync()
