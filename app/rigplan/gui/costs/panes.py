"""The Costs view's first pane sizes: the chart first, the offers table with room for a few rows, the side table
what it needs. Set once, at the size the user first sees; the splitters keep the proportions after."""

from __future__ import annotations

from typing import Any


def size_panes(view: Any) -> None:
    """`view`: the CostsView, visible (sized while hidden, or at the window's size before it fitted the screen,
    the offers table came out at a different share)."""
    wanted = view.assumptions_wanted
    # a laptop screen: the chart first, the assumptions one click away (unless the user chose otherwise)
    view.show_assumptions(view.width() >= 1500 if wanted is None else wanted)
    h = view.vsplit.height() or view.height()
    # The offers table gets a quarter of the height, and at least five rows with its filters, header and date line
    # (issue 29: four rows at 1280x720); the chart keeps the rest.
    table = min(max(h - int(h * 0.72), view.offers_panel.height_for_rows(5)), h // 2)
    view.vsplit.setSizes([h - table, table])
    side = view.side.sizeHint().width() if not view.side.isHidden() else 0
    view.splitter.setSizes([side, max(view.width() - side, 1)])
    cw = view.chart_split.width() or view.width()
    table = view.compare.minimumWidth()
    view.chart_split.setSizes([max(cw - table, 1), table])
