"""Reconcile a loaded build with the catalog: parts that left the catalog keep their saved snapshot."""

from __future__ import annotations

from rigplan.catalog import Catalog
from rigplan.model.build import Build


def missing_from_catalog(build: Build, catalog: Catalog) -> list[str]:
    """One note per catalog part the build names that this catalog no longer has."""
    return [
        f"{item.part.name} ({item.part.id}) is no longer in the catalog; the saved specs and price are used"
        for item in build.items
        if not item.part.custom and item.part.id not in catalog
    ]
