"""What the window remembers between runs (through the typed settings table): geometry, splitters, the last
assumptions and whether the assumptions panel was shown."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter

from rigplan.gui.settings import (
    ASSUMPTIONS,
    ASSUMPTIONS_SHOWN,
    PICKER_SORT,
    WINDOW_GEOMETRY,
    WINDOW_SIZE,
    WINDOW_SPLITTER,
    WINDOW_STATE,
    Settings,
)

if TYPE_CHECKING:
    from rigplan.model import Assumptions

DEFAULT_SIZE = (1400, 880)


def saved_currency(settings: Settings) -> str:
    """The currency of the last assumptions, read without pydantic (the window paints before pydantic loads)."""
    try:
        code = json.loads(settings.get(ASSUMPTIONS) or "{}").get("currency")
    except (ValueError, AttributeError):
        code = None
    return code if isinstance(code, str) else "USD"


def saved_sorts(settings: Settings) -> dict[str, tuple[str, bool]]:
    """The picker's sort per slot ({kind: (header, descending)}); nothing when unset or unreadable."""
    try:
        raw = json.loads(settings.get(PICKER_SORT) or "{}")
        return {str(k): (str(v[0]), bool(v[1])) for k, v in raw.items()}
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return {}


def last_assumptions(settings: Settings) -> Assumptions:
    """The last build's assumptions, for a new build; the defaults when none were kept or they no longer validate."""
    from rigplan.model import Assumptions

    raw = settings.get(ASSUMPTIONS)
    if raw:
        try:
            return Assumptions.model_validate_json(raw)
        except ValueError:
            pass
    return Assumptions()


QT_GEOMETRY_MAGIC = b"\x01\xd9\xd0\xcb"  # the first bytes of every QWidget.saveGeometry()


def restore(window: QMainWindow, splitter: QSplitter, settings: Settings) -> None:
    geo = settings.get(WINDOW_GEOMETRY)
    if geo.isEmpty() or not window.restoreGeometry(geo):
        # Qt refuses a geometry saved on another screen (a 1280x720 one, now 1920x1080): not damage, so no warning;
        # the last size is taken from the plain "WxH" and fitted below. Bytes that are not Qt's: reset, and said.
        if not geo.isEmpty() and not bytes(geo.data()).startswith(QT_GEOMETRY_MAGIC):
            settings.reject(WINDOW_GEOMETRY, geo)
        window.resize(*(saved_size(settings) or DEFAULT_SIZE))
    fit_to_screen(window)
    state = settings.get(WINDOW_STATE)
    if not state.isEmpty() and not window.restoreState(state):
        settings.reject(WINDOW_STATE, state)
    sizes = settings.get(WINDOW_SPLITTER)
    if not sizes.isEmpty() and not splitter.restoreState(sizes):
        settings.reject(WINDOW_SPLITTER, sizes)


def saved_size(settings: Settings) -> tuple[int, int] | None:
    text = settings.get(WINDOW_SIZE)
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        return None
    return (w, h) if w > 0 and h > 0 else None


def fit_to_screen(window: QMainWindow) -> None:
    """Never larger than the screen's free area (a size saved on a big monitor, or the default on a laptop), and
    never so small that the panels are cut (a size squeezed on another screen): at least 60% of the free area or the
    default size, whichever is less."""
    screen = window.screen() or QApplication.primaryScreen()
    if screen is None:
        return
    avail = screen.availableGeometry()
    frame = window.frameGeometry().size() - window.geometry().size()  # title bar and borders
    max_w, max_h = avail.width() - frame.width(), avail.height() - frame.height()
    min_w, min_h = min(DEFAULT_SIZE[0], int(max_w * 0.6)), min(DEFAULT_SIZE[1], int(max_h * 0.6))
    w = min(max(window.width(), min_w), max_w)
    h = min(max(window.height(), min_h), max_h)
    if (w, h) != (window.width(), window.height()):
        window.resize(max(w, 200), max(h, 200))
    if not avail.contains(window.frameGeometry().topLeft()):
        window.move(avail.topLeft())


def save(
    window: QMainWindow, splitter: QSplitter, settings: Settings, assumptions: Assumptions, assumptions_shown: bool
) -> None:
    settings.set(WINDOW_GEOMETRY, window.saveGeometry())
    normal = window.normalGeometry() if window.isMaximized() or window.isFullScreen() else window.geometry()
    settings.set(WINDOW_SIZE, f"{normal.width()}x{normal.height()}")
    settings.set(WINDOW_STATE, window.saveState())
    settings.set(WINDOW_SPLITTER, splitter.saveState())
    settings.set(ASSUMPTIONS_SHOWN, assumptions_shown)
    settings.set(ASSUMPTIONS, assumptions.model_dump_json())
    settings.sync()
