"""Colours and names shared by the charts and the costs view (neither imports the other for them)."""

from __future__ import annotations

# Offer colours: matplotlib's "tab10" order (distinct for the common forms of colour blindness in the first four).
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]
OWN_COLOR = "#222222"
OWN_COLOR_DARK = "#eeeeee"
DAYS_PER_MONTH = 30.4375
