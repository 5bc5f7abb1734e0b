"""A reduced shipped catalog for the catalog-update tests: a parts folder holding every file of parts/ except the
eight kinds' YAML, and a compiled catalog.json of a share of the real parts (the form an installed bundle ships:
the loader uses a catalog.json without YAML as it is). Pointed at by RIGPLAN_PARTS_DIR, it is the shipped catalog:
the update reads its corrections, supplement, layouts, ratings, list prices and price inputs from it and compares
with it, and the catalog in use after a revert is it. An update then converts a few hundred records per kind instead
of 26,000 through the same code.

Kept: every part a hand-written file of parts/ names by id (corrections, board layouts, cooler ratings, list prices),
every part of the workstation supplement (the update adds those itself), the parts the tests name, and every
STEP-th part of each kind in id order (real records of every shape the importer maps)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from pathlib import Path

from rigplan.catalog import Catalog
from rigplan.catalog.compiled import COMPILED_NAME, CompileResult, write_compiled_result
from rigplan.model.parts import Kind
from rigplan.opendb import supplement

ROOT = Path(__file__).resolve().parents[1]
STEP = 15  # with the named parts, about 1,860 of the 26,088: 74 to 322 of each kind
TEST_PARTS = ("08690e09-bcad-4acd-99d9-72f0093db590",)  # the Asus TUF RTX 4090 (326 mm) the update tests change
NAMED_BY = ("corrections*.yaml", "board-layouts.yaml", "cooler-ratings.yaml", "list-prices.yaml")
_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")


def named_ids(parts: Path = ROOT / "parts") -> set[str]:
    """The part ids the hand-written files of parts/ name."""
    return {m for pattern in NAMED_BY for f in parts.glob(pattern) for m in _UUID.findall(f.read_text("utf-8"))}


def kept_ids(catalog: Catalog, also: Iterable[str] = ()) -> set[str]:
    keep = named_ids() | set(also)
    for kind in Kind:
        ids = catalog.table(kind).ids
        keep |= {pid for i, pid in enumerate(ids) if i % STEP == 0 or pid.startswith(supplement.PREFIX)}
    return keep & {pid for kind in Kind for pid in catalog.table(kind).ids}


def build(catalog: Catalog, out: Path, also: Iterable[str] = TEST_PARTS) -> Path:
    """The reduced parts folder at `out` (made here), from the shipped catalog `catalog`."""
    known = {f"{k.value}.yaml" for k in Kind} | {COMPILED_NAME}
    shutil.copytree(ROOT / "parts", out, ignore=lambda folder, names: [n for n in names if n in known])
    keep = kept_ids(catalog, also)
    records = [
        {"kind": kind.value, **t.row(i)}
        for kind in Kind
        for t in (catalog.table(kind),)
        for i, pid in enumerate(t.ids)
        if pid in keep
    ]
    write_compiled_result(CompileResult(records, {}), out / COMPILED_NAME)
    return out
