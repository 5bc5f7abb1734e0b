"""The parts catalog: loading, caching and search. No Qt."""

from rigplan.catalog.compiled import CatalogProblem
from rigplan.catalog.loader import Catalog, load_catalog
from rigplan.catalog.search import Query, QueryError

__all__ = ["Catalog", "CatalogProblem", "Query", "QueryError", "load_catalog"]
