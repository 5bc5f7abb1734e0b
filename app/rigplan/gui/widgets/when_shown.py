"""A tab's update run when the tab is on screen: at once if it is, else when the user next switches to it.

The Costs tab's update (the costs, offers, summary and side table of the build) was a third of a part change's time
while the Parts tab was on screen (docs/performance.md): it now runs once, with the latest build, when the tab is
shown, before it paints. While the window is not shown (start-up, tests, the CLI's smoke run) it runs at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtWidgets import QTabWidget

R = TypeVar("R")


class WhenShown:
    """Call it with the update's arguments; the last call's arguments are applied when the tab `index` is shown.

    Connects to `tabs.currentChanged` when made: make it before any other slot that reads the tab's state on that
    signal, so they find it up to date (Qt calls slots in the order they were connected)."""

    def __init__(self, tabs: QTabWidget, index: int, update: Callable[..., None]) -> None:
        self.tabs, self.index, self.update = tabs, index, update
        self.due: tuple[Any, ...] | None = None  # arguments not yet applied
        tabs.currentChanged.connect(self._changed)

    def __call__(self, *args: Any) -> None:
        self.due = args
        if not self.tabs.window().isVisible() or self.tabs.currentIndex() == self.index:
            self.flush()

    def flush(self) -> None:
        """Apply the update now if one is due (a reader that needs the tab's state while it is hidden)."""
        due, self.due = self.due, None
        if due is not None:
            self.update(*due)

    def read(self, reader: Callable[[], R]) -> R:
        """`reader()` with the update applied first: what File > Export reads of the tab is the build's, not a stale
        one's."""
        self.flush()
        return reader()

    def _changed(self, index: int) -> None:
        if index == self.index:
            self.flush()
