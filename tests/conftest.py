"""Shared fixtures. The real catalog (the committed parts/) is loaded once per test session."""

from __future__ import annotations

import os
from pathlib import Path

# Qt tests run headless even when pytest is called directly (scripts/dev test sets this too).
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from rigplan.catalog import Catalog, load_catalog

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    cat = load_catalog(ROOT / "parts", cache_dir=tmp_path_factory.mktemp("cache"))
    assert cat.source == "bundled", "parts/catalog.json is out of date: run python tools/import_parts.py"
    return cat


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    return EXAMPLES
