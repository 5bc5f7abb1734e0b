"""Issue 29: the Findings panel lists the checks that passed beside those not checked, from the real rules."""

from __future__ import annotations

from pathlib import Path

from rigplan.gui.mainwindow import MainWindow
from rigplan.rules import check
from rigplan.rules.passed import passed

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "2x-rtx-4090.rigplan"


def _group(w: MainWindow, title: str) -> list[str]:
    panel = w.findings
    for n in range(panel.topLevelItemCount()):
        item = panel.topLevelItem(n)
        if item is not None and item.text(0).startswith(title):
            return [item.child(c).text(1) for c in range(item.childCount())]
    return []


def test_passed_checks_are_listed(window: MainWindow) -> None:
    assert window.files.open_path(EXAMPLE, ask=False)
    shown = _group(window, "Passed (")
    report = check(window.doc.build)
    assert shown == passed(window.doc.build, report)
    assert {"cpu-socket", "cpu-memory-type", "gpu-length", "psu-wattage", "psu-pcie-connectors"} <= set(shown)
    spoke = {f.rule for f in report.findings} | {n.rule for n in report.not_checked}
    assert not spoke & set(shown)  # a check with a finding or without data is never "passed"
    assert set(_group(window, "Not checked")) == {n.rule for n in report.not_checked}


def test_an_empty_build_passes_nothing(window: MainWindow) -> None:
    assert _group(window, "Passed (") == []
