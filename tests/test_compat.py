"""The vectorised "compatible only" filter agrees with running check() per candidate."""

from __future__ import annotations

from pathlib import Path

import pytest

from rigplan.catalog import Catalog
from rigplan.files import load
from rigplan.model import Build, Kind
from rigplan.rules import check, compatible
from rigplan.rules.compat import base_build, naive_compatible, slots_full, with_candidate

BUILDS = ["budget-1-gpu", "2x-rtx-4090", "4-gpu-threadripper", "broken/psu-pcie-connectors", "broken/memory-type"]


def _sample(n: int, step: int) -> list[int]:
    return list(range(0, n, step))


@pytest.mark.parametrize("name", BUILDS)
@pytest.mark.parametrize("kind", list(Kind))
def test_agrees_with_check_on_a_sample(name: str, kind: Kind, catalog: Catalog, examples_dir: Path) -> None:
    b = load(examples_dir / f"{name}.rigplan")
    fast = set(compatible(b, kind, catalog))
    rows = _sample(len(catalog.table(kind)), max(1, len(catalog.table(kind)) // 60))
    slow = set(naive_compatible(b, kind, catalog, rows))
    assert fast & set(rows) == slow


def test_partial_builds_agree(catalog: Catalog, examples_dir: Path) -> None:
    full = load(examples_dir / "2x-rtx-4090.rigplan")
    for keep in ([Kind.GPU], [Kind.CPU, Kind.MEMORY], [Kind.CASE, Kind.COOLER], []):
        b = Build(name="p", items=tuple(i for i in full.items if i.part.kind in keep))
        for kind in Kind:
            rows = _sample(len(catalog.table(kind)), max(1, len(catalog.table(kind)) // 40))
            assert set(compatible(b, kind, catalog)) & set(rows) == set(naive_compatible(b, kind, catalog, rows))


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
