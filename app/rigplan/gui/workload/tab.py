"""The Workload panel as a tab of the Costs view: made with the charts, and kept in step with the build and the
chart's offers only while it is shown (a part change on the other tabs costs nothing here)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QTabWidget

from rigplan.cloud.offers import OfferCatalog
from rigplan.model.assumptions import Pricing
from rigplan.model.build import Build, ChartOffer
from rigplan.model.offers import Offer

if TYPE_CHECKING:
    from .panel import WorkloadPanel


def chart_offers(offers: OfferCatalog, comparison: Iterable[ChartOffer]) -> list[tuple[Offer, Pricing]]:
    """The chart's offers as (offer, pricing): the cost per job is shown against the offers on the chart."""
    found = ((offers.get(c.offer), c.pricing) for c in comparison)
    return [(o, p) for o, p in found if o is not None]


def add_tab(tabs: QTabWidget, build: Build, offers: OfferCatalog, comparison: Iterable[ChartOffer]) -> WorkloadPanel:
    from .panel import WorkloadPanel  # rigplan.workload and its model table load with the charts, not at start

    panel = WorkloadPanel(build, offers, None, chart_offers(offers, comparison))
    # In a scroll area: the panel's own minimum (about 810x480) must not become the chart area's, or the window
    # could no longer shrink to a 1280x720 screen (tests/gui/test_chart_sizes.py).
    page = QScrollArea()
    page.setWidgetResizable(True)
    page.setFrameShape(QFrame.Shape.NoFrame)
    # One scroll bar at most, vertical (issue 40: a second, horizontal one hid the cost per job at 1280 px and 2x):
    # the panel lays out to the page's width.
    page.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    page.setWidget(panel)
    tabs.addTab(page, "Workload")
    return panel


def follow(
    tabs: QTabWidget, panel: WorkloadPanel | None, build: Build, offers: OfferCatalog, comparison: list[ChartOffer]
) -> None:
    if panel is None or not panel.isVisibleTo(tabs):  # only the current tab's page is visible
        return
    panel.chart = chart_offers(offers, comparison)
    panel.offer_catalog = offers
    panel.set_build(build)
