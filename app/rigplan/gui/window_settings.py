"""What the window remembers between runs (QSettings): geometry, splitters, the last assumptions."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray
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

        def note_problem(self, line: str) -> None: ...

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
        if raw is None:
            return Assumptions()
        try:
            if not isinstance(raw, str):
                raise TypeError("not a JSON text")
            return Assumptions.model_validate_json(raw)
        except (ValueError, TypeError):  # pydantic's ValidationError is a ValueError
            self.bad_setting("costs/assumptions", raw)
        return Assumptions()

    def bad_setting(self, key: str, value: object) -> None:
        """A stored setting of the wrong type or out of range: removed (its default applies), and said in one
        line. Start-up never dies on a setting."""
        shown = " ".join(repr(value)[:40].split())
        try:
            self.settings.remove(key)
        except RuntimeError:  # a settings file that cannot be written: the default applies this run anyway
            pass
        self.note_problem(f"setting {key} = {shown} is not valid; using its default")

    def whole_setting(self, key: str, default: int, lo: int, hi: int) -> int:
        """An integer setting within [lo, hi], whatever is stored (QSettings gives INI values back as text)."""
        raw = self.settings.value(key)
        if raw is None:
            return default
        text = str(raw).strip()
        if isinstance(raw, (int, str)) and not isinstance(raw, bool) and text.isdigit() and lo <= int(text) <= hi:
            return int(text)
        self.bad_setting(key, raw)
        return default

    def _restore(self, key: str, restore: Callable[[QByteArray], bool]) -> bool:
        raw = self.settings.value(key)
        if raw is None:
            return False
        if isinstance(raw, QByteArray) and restore(raw):
            return True
        self.bad_setting(key, raw)  # garbage from another version or an edited file: Qt refuses it, we reset it
        return False

    def _restore_geometry(self) -> None:
        if not self._restore("window/geometry", self.restoreGeometry):
            self.resize(*DEFAULT_SIZE)
        self.fit_to_screen()
        self._restore("window/state", self.restoreState)
        self._restore("window/splitter", self.splitter.restoreState)

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
