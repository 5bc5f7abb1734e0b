"""The filter's cached verdicts (rules/rule.py) are shared between builds whose parts differ only in identity, and
only between those. Rule.fingerprint names a build's parts by their order of first appearance instead of their ids:
a rule reads an id only to name a part in a finding or to tell two lines of one part from two parts, so renaming the
parts line for line renames the findings and keeps every verdict. Two lines of one PSU (two units, rules/power.py
psu_units) are not two PSUs of the same facts: the fingerprint keeps which lines hold the same part."""

from __future__ import annotations

from rigplan.catalog import Catalog
from rigplan.model.build import Build, BuildItem
from rigplan.model.parts import Kind, Psu
from rigplan.rules.compat import compatible_mask, naive_compatible
from rigplan.rules.rule import table_cache


def test_two_lines_of_one_psu_are_not_two_psus_of_the_same_facts(catalog: Catalog) -> None:
    """The same 450 W unit twice (900 W in all) against that unit beside a twin of its facts under another id (only
    the first PSU line is the unit: 450 W): the filter's GPU verdicts differ, and each equals check() run on every
    card, whichever build was asked first (the second would reuse the first's verdicts if the fingerprint forgot
    which lines hold the same part)."""
    psu = next(p for p in catalog.of_kind(Kind.PSU) if isinstance(p, Psu) and p.wattage == 450 and p.connectors)
    twin = psu.model_copy(update={"id": f"{psu.id}-twin"})
    one_unit_twice = Build(name="one PSU, two lines", items=(BuildItem(part=psu), BuildItem(part=psu)))
    two_units = Build(name="two PSUs of the same facts", items=(BuildItem(part=psu), BuildItem(part=twin)))
    table = catalog.table(Kind.GPU)
    rows = [i for i in range(len(table)) if (getattr(table.part(i), "tdp_w", 0) or 0) >= 300][:60]
    table.caches.clear()
    masks = {}
    for build in (two_units, one_unit_twice):
        mask = compatible_mask(build, Kind.GPU, catalog)
        masks[build.name] = [i for i in rows if mask[i]]
        assert masks[build.name] == naive_compatible(build, Kind.GPU, catalog, rows), build.name
    assert masks[one_unit_twice.name] != masks[two_units.name]  # the case matters: the verdicts differ


def test_builds_that_differ_only_in_identity_share_the_verdicts(catalog: Catalog) -> None:
    """A board, CPU and PSU, then the same parts under other ids: the GPU filter answers the same, from the verdicts
    the first build left (no new entry in the table's cache), and the second equals check() run on every card."""
    psu = next(p for p in catalog.of_kind(Kind.PSU) if isinstance(p, Psu) and p.wattage == 450 and p.connectors)
    board = next(p for p in catalog.of_kind(Kind.MOTHERBOARD) if getattr(p, "socket", None) == "AM5" and p.price)
    cpu = next(p for p in catalog.of_kind(Kind.CPU) if getattr(p, "socket", None) == "AM5" and p.price)
    parts = (board, cpu, psu)
    first = Build(name="first", items=tuple(BuildItem(part=p) for p in parts))
    renamed = Build(
        name="renamed", items=tuple(BuildItem(part=p.model_copy(update={"id": f"{p.id}-other"})) for p in parts)
    )
    table = catalog.table(Kind.GPU)
    table.caches.clear()
    want = compatible_mask(first, Kind.GPU, catalog)
    cache = table_cache(table)
    entries = len(cache.verdicts), len(cache.masks)
    got = compatible_mask(renamed, Kind.GPU, catalog)
    assert (len(cache.verdicts), len(cache.masks)) == entries  # every verdict came from the first build's
    assert got.tolist() == want.tolist()
    rows = list(range(0, len(table), 7))
    assert [i for i in rows if got[i]] == naive_compatible(renamed, Kind.GPU, catalog, rows)
