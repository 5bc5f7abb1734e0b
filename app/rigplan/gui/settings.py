"""Everything the app remembers between runs, in one typed table: each key with its type, default and check.

As MNELAB's settings module keeps `_DEFAULTS`, every key the GUI reads or writes is declared here; reading or
writing a key that is not in the table raises KeyError (a typo cannot create a second, silent setting). A stored
value is converted to the key's type; one that cannot be (an edited or damaged settings file, a value from another
version) or that fails the key's check falls back to the default with one log line, so start-up never dies on a
setting.

Storage is QSettings (the platform's place, or an INI file in tests and smoke runs); the INI format keeps every
value as text, which is why reading converts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from PySide6.QtCore import QByteArray, QSettings

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class Key(Generic[T]):
    """A setting: its name in the store, its type, its default and an optional check of a read value."""

    name: str
    type: type
    default: T
    check: Callable[[Any], bool] | None = None
    doc: str = ""
    cap: int | None = None  # a list: at most this many items, trimmed as it is read (and stored back trimmed)


_DEFAULTS: dict[str, Key[Any]] = {}


def _key(
    name: str,
    type_: type,
    default: T,
    check: Callable[[Any], bool] | None = None,
    doc: str = "",
    cap: int | None = None,
) -> Key[T]:
    key: Key[T] = Key(name, type_, default, check, doc, cap)
    _DEFAULTS[name] = key
    return key


def _between(lo: int, hi: int) -> Callable[[Any], bool]:
    return lambda v: lo <= v <= hi


WINDOW_GEOMETRY = _key("window/geometry", QByteArray, QByteArray(), doc="main window position and size")
WINDOW_STATE = _key("window/state", QByteArray, QByteArray(), doc="docks (the findings)")
WINDOW_SPLITTER = _key("window/splitter", QByteArray, QByteArray(), doc="build panel | part picker")
WINDOW_SIZE = _key("window/size", str, "", doc="the window's last normal size 'WxH', fitted to the screen at start")
PICKER_SORT = _key("picker/sort", str, "", doc="each slot's sort in the picker (JSON: kind -> [header, descending])")
FINDINGS_SHOWN = _key("view/findings", bool, True, doc="View > Findings: the findings dock on the Parts tab")
MAX_RECENT = 8
# Trimmed when read (issue 35: a settings file with 100,000 recent files made 100,000 menu items, 110 s at start-up).
RECENT_FILES: Key[list[str]] = _key("files/recent", list, [], doc="File > Open Recent, newest first", cap=MAX_RECENT)
LAST_DIR = _key("files/last_dir", str, "", doc="where Open and Save start ('' = the home folder)")
AUTOSAVE_SECONDS = _key("autosave/seconds", int, 60, _between(5, 86400), doc="autosave interval")
ASSUMPTIONS = _key("costs/assumptions", str, "", doc="the last build's assumptions (JSON), for a new build")
ASSUMPTIONS_SHOWN: Key[bool | None] = _key(
    "costs/assumptions_shown", bool, None, doc="assumptions panel shown (None: the Costs tab decides by width)"
)
EXPORT_LAST_DIR = _key("export/last_dir", str, "", doc="where File > Export starts")
EXPORT_WIDTH = _key("export/width", int, 1200, _between(200, 10000), doc="chart image width, px")
EXPORT_HEIGHT = _key("export/height", int, 700, _between(150, 10000), doc="chart image height, px")
EXPORT_DPI = _key("export/dpi", int, 96, _between(48, 1200), doc="PNG resolution")
COMPARE_LAST_DIR = _key("compare/last_dir", str, "", doc="where Compare builds opens and exports")
SUGGEST_INPUTS = _key("suggest/inputs", str, "", doc="the Suggest a build dialog's last question (JSON)")


def _convert(raw: object, type_: type) -> object:
    """`raw` as `type_`, or ValueError. QSettings' INI files give back text: "60", "true", a lone list item."""
    if type_ is bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.lower() in ("true", "1", "false", "0"):
            return raw.lower() in ("true", "1")
        raise ValueError
    if type_ is int:
        if isinstance(raw, bool):
            raise ValueError
        if isinstance(raw, int):
            return raw
        if isinstance(raw, str):
            return int(raw.strip())
        raise ValueError
    if type_ is str:
        if isinstance(raw, str):
            return raw
        raise ValueError
    if type_ is list:
        if isinstance(raw, str):  # QSettings returns a one-item list as the item
            return [raw]
        if isinstance(raw, list) and all(isinstance(x, str) for x in raw):
            return list(raw)
        raise ValueError
    if type_ is QByteArray:
        if isinstance(raw, QByteArray | bytes):
            return QByteArray(raw)
        raise ValueError
    raise TypeError(f"no conversion for {type_}")


class Settings:
    """Typed access to a QSettings store through the keys above."""

    def __init__(self, store: QSettings) -> None:
        self.store = store
        # Told of each stored value that was not valid (the window shows it in its status bar); it is removed from
        # the store, so the next start is clean and the default is what gets saved.
        self.on_problem: Callable[[str], None] | None = None

    @staticmethod
    def of(settings: Settings | QSettings) -> Settings:
        return settings if isinstance(settings, Settings) else Settings(settings)

    @staticmethod
    def _known(key: Key[T]) -> Key[T]:
        if _DEFAULTS.get(key.name) is not key:
            raise KeyError(f"unknown setting {key.name!r}")
        return key

    def get(self, key: Key[T]) -> T:
        self._known(key)
        raw = self.store.value(key.name)
        if raw is None:
            return _copy(key.default)
        try:
            value = _convert(raw, key.type)
            if key.check is not None and not key.check(value):
                raise ValueError
        except (ValueError, TypeError):
            self.reject(key, raw)
            return _copy(key.default)
        if key.cap is not None and isinstance(value, list) and len(value) > key.cap:
            log.warning("setting %s: %d items, trimmed to %d", key.name, len(value), key.cap)
            value = value[: key.cap]
            self.store.setValue(key.name, value)  # stored back trimmed: the next start reads 8, not 100,000
        return cast(T, value)

    def reject(self, key: Key[Any], raw: object) -> None:
        """A stored value that is not valid (wrong type, out of range, or refused by Qt, such as a window state
        restoreState cannot read): removed, so its default applies, logged, and told to `on_problem`."""
        log.warning("setting %s: stored value %r is not valid; using the default %r", key.name, raw, key.default)
        self.store.remove(key.name)
        if self.on_problem is not None:
            shown = " ".join(repr(raw)[:40].split())
            self.on_problem(f"setting {key.name} = {shown} is not valid; using its default")

    def set(self, key: Key[T], value: T) -> None:
        self._known(key)
        if value is None:
            self.store.remove(key.name)
            return
        if not isinstance(value, key.type) or (key.check is not None and not key.check(value)):
            raise ValueError(f"setting {key.name}: {value!r} is not a valid {key.type.__name__}")
        self.store.setValue(key.name, value)

    def sync(self) -> None:
        self.store.sync()

    def unusable(self) -> str | None:
        """Why nothing set now will be kept (the settings file is a folder, or cannot be written), or None. Said
        once at start-up (issue 35: the window started and never said that settings and recent files were lost)."""
        import os

        name = self.store.fileName()
        where = "the settings file " + name if name else "the settings"
        if name and os.path.isdir(name):
            return f"{where} is a folder: settings and recent files will not be kept"
        self.store.sync()
        if self.store.status() == QSettings.Status.AccessError:
            return f"{where} cannot be written: settings and recent files will not be kept"
        return None

    # --- recent files: a list with a bound, newest first --------------------------------------------------------------

    def add_recent(self, path: str) -> list[str]:
        recent = [path] + [r for r in self.get(RECENT_FILES) if r != path]
        self.set(RECENT_FILES, recent[:MAX_RECENT])
        return recent[:MAX_RECENT]


def _copy(value: T) -> T:
    """Defaults are shared: hand out a copy of a mutable one."""
    if isinstance(value, list):
        return cast(T, list(value))
    if isinstance(value, QByteArray):
        return cast(T, QByteArray(value))
    return value


def key_named(name: str) -> Key[Any]:
    """The key called `name`; KeyError for a name the table does not have."""
    return _DEFAULTS[name]


__all__ = ["Key", "Settings", "key_named"]
