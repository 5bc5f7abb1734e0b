"""The typed settings table: every key declared once with its type and default; unknown keys refused; a bad stored
value falls back to its default with a log line, and the window starts on a damaged settings file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QSettings

from rigplan.catalog import Catalog
from rigplan.cloud.offers import OfferCatalog
from rigplan.costs.perf import PerfTable
from rigplan.gui.mainwindow import MainWindow
from rigplan.gui.settings import (
    ASSUMPTIONS_SHOWN,
    AUTOSAVE_SECONDS,
    EXPORT_DPI,
    RECENT_FILES,
    Key,
    Settings,
    key_named,
)


def ini(tmp_path: Path, text: str = "") -> QSettings:
    path = tmp_path / "settings.ini"
    path.write_text(text, encoding="utf-8")
    return QSettings(str(path), QSettings.Format.IniFormat)


def test_values_round_trip_with_their_types(tmp_path: Path) -> None:
    s = Settings(ini(tmp_path))
    assert s.get(AUTOSAVE_SECONDS) == 60 and s.get(RECENT_FILES) == [] and s.get(ASSUMPTIONS_SHOWN) is None
    s.set(AUTOSAVE_SECONDS, 30)
    s.set(RECENT_FILES, ["/a/one.rigplan"])
    s.set(ASSUMPTIONS_SHOWN, False)
    s.sync()
    again = Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    # The INI file keeps text ("30", "false", a one-item list as its item): read back as int, bool and list.
    assert again.get(AUTOSAVE_SECONDS) == 30
    assert again.get(RECENT_FILES) == ["/a/one.rigplan"]
    assert again.get(ASSUMPTIONS_SHOWN) is False


def test_unknown_keys_and_wrong_types_are_refused(tmp_path: Path) -> None:
    s = Settings(ini(tmp_path))
    with pytest.raises(KeyError):
        s.get(Key("window/geometri", QByteArray, QByteArray()))  # a typo is not a second, silent setting
    with pytest.raises(KeyError):
        key_named("export/widht")
    with pytest.raises(ValueError):
        s.set(AUTOSAVE_SECONDS, "60")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        s.set(EXPORT_DPI, 5)  # outside 48-1200


def test_bad_stored_values_fall_back_to_the_default_with_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    s = Settings(ini(tmp_path, "[autosave]\nseconds=soon\n[export]\ndpi=99999\n[costs]\nassumptions_shown=maybe\n"))
    with caplog.at_level(logging.WARNING, logger="rigplan.gui.settings"):
        assert s.get(AUTOSAVE_SECONDS) == 60
        assert s.get(EXPORT_DPI) == 96
        assert s.get(ASSUMPTIONS_SHOWN) is None
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3
    assert "autosave/seconds" in lines[0] and "'soon'" in lines[0] and "default 60" in lines[0]


def test_the_window_starts_on_a_damaged_settings_file(
    qtbot,  # noqa: ANN001
    catalog: Catalog,
    offers: OfferCatalog,
    perf: PerfTable,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    damaged = (
        "[window]\ngeometry=not a geometry\nsplitter=7\n[files]\nrecent=3\n"
        "[costs]\nassumptions={not json\nassumptions_shown=2\n[autosave]\nseconds=-1\n"
    )
    with caplog.at_level(logging.WARNING, logger="rigplan.gui.settings"):
        w = MainWindow(catalog, offers, perf, ini(tmp_path, damaged))
    qtbot.addWidget(w, before_close_func=lambda w: w.doc.undo_stack.setClean())
    assert w.doc.build.assumptions.currency == "USD"  # the JSON did not parse: default assumptions
    assert w.autosave.timer.interval() == 60_000  # -1 s fails the check: the default
    assert w.costs.assumptions_wanted is None  # "2" is not a yes or no: the Costs tab decides by its width
    assert w.files.recent() == ["3"]  # an INI value is text: one (missing) path, not a crash
    warned = {r.getMessage().split(":")[0] for r in caplog.records}
    assert {
        "setting window/geometry",
        "setting window/splitter",
        "setting costs/assumptions_shown",
        "setting autosave/seconds",
    } <= warned
