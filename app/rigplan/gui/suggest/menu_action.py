"""Build > Suggest a build...: the dialog over the current build; its answer opens as a new, unsaved build."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

from rigplan.catalog.loader import Catalog
from rigplan.cloud.offers import OfferCatalog
from rigplan.gui.settings import Settings
from rigplan.gui.suggest.suggest_dialog import SuggestDialog, own_prices_of
from rigplan.model.build import Build

if TYPE_CHECKING:
    from rigplan.gui.files.document import BuildDocument


def run_suggest(
    parent: QWidget,
    doc: BuildDocument,
    catalog: Catalog,
    offers: OfferCatalog,
    data_dir: Path | None,
    maybe_save: Callable[[], bool],
    settings: Settings | None = None,
) -> None:
    """Build > Suggest (issue 16): the best build for a budget opens as a new, unsaved build; Undo goes back to an
    empty one. `offers` are the cloud offers in use (bundled or updated); `data_dir` holds your own part prices."""
    from rigplan.imports.user_prices import UserPricesError, load_user_prices

    current = doc.build
    try:
        yours = load_user_prices(data_dir)
    except UserPricesError:
        yours = {}  # said when the prices are applied at start; the suggester goes on without them
    dlg = SuggestDialog(
        catalog,
        current.assumptions,
        parent,
        offers=offers,
        own_prices=own_prices_of(current),
        user_prices=yours,
        settings=settings,
    )
    build = dlg.suggested_build() if dlg.exec() else None
    if build is not None and maybe_save():
        doc.reset(Build(assumptions=build.assumptions), None)
        doc.edit(build, "Suggest a build")
