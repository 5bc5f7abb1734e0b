"""The build's notes (issue 29): the `notes:` of the build file, edited under the build panel. An edit becomes one
undoable change after a short pause in typing (not one per key), and saving writes it with the build."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QPlainTextEdit

from rigplan.model.build import MAX_NOTES

if TYPE_CHECKING:
    from rigplan.model import Build


class BuildNotes(QPlainTextEdit):
    """Never cuts what is typed (issue 35: it kept the first 20,000 characters on every edit). Text over the model's
    limit (model.build.MAX_NOTES, the same the file loader applies) stays in the box, is not made the build's notes,
    and `refused` says so in one line; shortening it below the limit commits it."""

    edited = Signal(str)
    refused = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.setAccessibleName("Build notes")
        self.setPlaceholderText("Notes: quotes, delivery dates, what to check before buying... (saved with the build)")
        self.setTabChangesFocus(True)
        self.setMaximumHeight(self.fontMetrics().lineSpacing() * 2 + 14)  # two lines: the build table keeps its rows
        self._pause = QTimer(self, singleShot=True, interval=700)
        self._pause.timeout.connect(self.commit)
        self.textChanged.connect(self._pause.start)
        self._build_text = ""

    def follow(self, build: Build | None) -> None:
        """Show the build's notes, unless they are what is being typed."""
        text = build.notes if build is not None else ""
        self._build_text = text
        if text != self.toPlainText():
            self.blockSignals(True)
            self.setPlainText(text)
            self.blockSignals(False)

    def commit(self) -> None:
        self._pause.stop()
        text = self.toPlainText()
        if len(text) > MAX_NOTES:
            self.refused.emit(
                f"Notes are limited to {MAX_NOTES:,} characters and these are {len(text):,}: not kept in the build "
                "until they are shortened (nothing was cut)"
            )
            return
        if text != self._build_text:
            self._build_text = text
            self.edited.emit(text)

    def focusOutEvent(self, event: object) -> None:  # noqa: N802
        self.commit()
        super().focusOutEvent(event)  # type: ignore[arg-type]
