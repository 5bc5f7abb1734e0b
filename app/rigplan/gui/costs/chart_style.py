"""Colours and names shared by the charts and the costs view (neither imports the other for them)."""

from __future__ import annotations

from typing import Any

# Offer colours: matplotlib's "tab10" order (distinct for the common forms of colour blindness in the first four).
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]
OWN_COLOR = "#222222"
OWN_COLOR_DARK = "#eeeeee"
DAYS_PER_MONTH = 30.4375


def repaint_axes(widgets: list[object]) -> None:
    """Tick labels drawn again now (the currency changed): pyqtgraph keeps them in a cached picture until a resize."""
    for widget in widgets:
        get_axis: Any = getattr(widget, "getAxis", None)
        for side in ("left", "bottom") if get_axis is not None else ():
            axis = get_axis(side)
            axis.picture = None
            axis.update()
