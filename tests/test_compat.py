"""What the "compatible only" filter answers on the example builds. That it equals running check() per candidate,
for every part of every kind, is tests/test_rule_agreement.py (it replaced the sampled comparison that was here)."""

from __future__ import annotations

from pathlib import Path

from rigplan.catalog import Catalog
from rigplan.files import load
from rigplan.model import Kind
from rigplan.rules import check, compatible
from rigplan.rules.compat import base_build, slots_full, with_candidate


def test_filter_really_filters(catalog: Catalog, examples_dir: Path) -> None:
    b = load(examples_dir / "2x-rtx-4090.rigplan")
    cpus = compatible(b, Kind.CPU, catalog)
    table = catalog.table(Kind.CPU)
    assert 0 < len(cpus) < len(table)
    assert all(table.columns["socket"][i] == "AM5" for i in cpus)
    # The board has two x16 slots, both taken: the filter answers "what could replace one of the 4090s" (issue 11,
    # item 10) and says why; each replacement leaves the build without errors.
    assert slots_full(b, Kind.GPU) == "every x16 slot (2) holds a GPU"
    gpus = compatible(b, Kind.GPU, catalog)
    gtable = catalog.table(Kind.GPU)
    assert 0 < len(gpus) < len(gtable)
    for i in gpus[:: max(1, len(gpus) // 10)]:
        assert check(with_candidate(base_build(b, Kind.GPU), gtable.part(i))).ok
    # Every compatible case adds no error when swapped in.
    cases = compatible(b, Kind.CASE, catalog)
    for i in cases[:: max(1, len(cases) // 20)]:
        assert check(with_candidate(base_build(b, Kind.CASE), catalog.table(Kind.CASE).part(i))).ok
