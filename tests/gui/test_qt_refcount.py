"""Guard against the PySide6 6.12.0 bug that drains the refcount of True on pyqtgraph updates until Python aborts.

Measured: 6.12.0 loses about 3 references per chart update (a crash after a few thousand edits); 6.11.3 and 6.10.3
stay flat. pyproject pins PySide6 below 6.12; this test fails if an affected build comes back.
"""

from __future__ import annotations

import sys

import numpy as np


def test_chart_updates_do_not_drain_true(qtbot) -> None:  # noqa: ANN001
    import pyqtgraph as pg

    w = pg.PlotWidget()
    qtbot.addWidget(w)
    item = w.plot([0, 1], [0, 1])
    before = sys.getrefcount(True)
    for i in range(400):
        item.setData(np.arange(50.0) + i, np.arange(50.0))
        w.setYRange(0, 10 + i, padding=0)
    assert sys.getrefcount(True) - before > -50
