"""Issue 34: the Passed list shows only the checks that ran and passed. memory_rules once wrote five ids under one
`needs` (a memory kit), so a build holding only a DDR5 kit listed memory-type, memory-registered,
memory-form-factor, memory-slots and memory-capacity as passed with no board or CPU to check them against. Each
rule now has its own function and `needs`; these builds come from the real catalog and go through the real check()."""

from __future__ import annotations

from rigplan.catalog import Catalog
from rigplan.model import Build, BuildItem, Kind, Part
from rigplan.rules import check
from rigplan.rules.passed import passed

MEMORY_RULES = {"memory-type", "memory-registered", "memory-form-factor", "memory-slots", "memory-capacity"}


def _first(catalog: Catalog, kind: Kind, **want: object) -> Part:
    return next(p for p in catalog.table(kind).parts() if all(getattr(p, k) == v for k, v in want.items()))


def _passed(*parts: Part) -> list[str]:
    build = Build(name="t", items=tuple(BuildItem(part=p) for p in parts))
    return passed(build, check(build))


def test_a_lone_ddr5_kit_passes_no_memory_check(catalog: Catalog) -> None:
    kit = _first(catalog, Kind.MEMORY, ram_type="DDR5", registered=False)
    shown = _passed(kit)
    assert not MEMORY_RULES & set(shown), shown
    assert not {"storage-m2", "storage-sata", "psu-wattage", "cpu-memory-type"} & set(shown)


def test_the_memory_checks_pass_once_their_parts_are_there(catalog: Catalog) -> None:
    """The same kit on an AM5 board of the same memory type, with every figure known: each memory check ran."""
    kit = _first(catalog, Kind.MEMORY, ram_type="DDR5", registered=False, modules=2)
    board = next(
        b
        for b in catalog.table(Kind.MOTHERBOARD).parts()
        if b.socket == "AM5"
        and b.ram_type == "DDR5"
        and b.memory_slots
        and b.max_memory_gb
        and b.memory_form_factor == "DIMM"
        and (kit.capacity_gb or 0) <= b.max_memory_gb
    )
    shown = set(_passed(kit, board))
    assert shown >= MEMORY_RULES, MEMORY_RULES - shown
    # A CPU alone sets a memory limit and a platform: memory-capacity and memory-registered ran; the board's don't.
    cpu = next(c for c in catalog.table(Kind.CPU).parts() if c.socket == "AM5" and c.max_memory_gb)
    shown = set(_passed(kit, cpu))
    assert {"memory-capacity", "memory-registered"} <= shown
    assert not {"memory-type", "memory-form-factor", "memory-slots"} & shown
