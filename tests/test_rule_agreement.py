"""The "compatible only" filter equals its definition over the whole catalog: for random partial builds drawn from
the real catalog, for every kind, the filter's mask equals "check() adds no error" for EVERY part of the kind.

The reference below is written from the definition (rules/compat.py's docstring) and runs check() once per part;
the filter runs each rule once per distinct facts (rules/rule.py) or vectorised (rules/power_mask.py). A rule that
reads a fact it does not declare, or a vectorised rule that drifts from its message function, fails here.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rigplan.catalog import Catalog
from rigplan.files import load
from rigplan.model import Build, BuildItem, Kind
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Case, Cpu, Gpu, Motherboard, Part, Psu
from rigplan.rules import check
from rigplan.rules.compat import SINGLE, base_build, compatible_mask

IGNORED = {"cpu-igpu"}  # about a missing part, not a candidate's fit (engine.RULES)
MULTI = (Kind.MEMORY, Kind.STORAGE, Kind.GPU)


def _errors(build: Build, leave_out: str) -> set[tuple[str, tuple[str, ...]]]:
    return {
        (f.rule, tuple(p for p in f.parts if p != leave_out)) for f in check(build).errors() if f.rule not in IGNORED
    }


def reference(build: Build, kind: Kind, catalog: Catalog) -> list[bool]:
    """check() per part: does putting it in (replacing the part of a single-slot kind, else adding one) add an
    error the build without it does not have?"""
    base = base_build(build, kind)
    table = catalog.table(kind)
    in_base = {i.part.id for i in base.items}
    before = _errors(base, "")
    out = []
    for i in range(len(table)):
        part, pid = table.part(i), table.ids[i]
        items = list(base.items)
        same = [n for n, it in enumerate(items) if it.part.id == pid and kind not in SINGLE]
        if same:
            items[same[0]] = items[same[0]].model_copy(update={"quantity": min(items[same[0]].quantity + 1, 64)})
        else:
            items.append(BuildItem(part=part))
        now = _errors(base.model_copy(update={"items": tuple(items)}), pid)
        out.append(now <= (_errors(base, pid) if pid in in_base else before))
    return out


@st.composite
def partial_builds(draw: st.DrawFn, catalog: Catalog) -> Build:
    """Each kind present with probability 3/4 (memory, drives and GPUs: 0-3 lines of 1-2), parts drawn uniformly
    from the real catalog (hypothesis draws one seed: its own draws lean to row 0), the CPU's socket often matched
    to the board's so the deeper rules fire, and the three usual wall circuits."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    items: list[BuildItem] = []
    for kind in Kind:
        table = catalog.table(kind)
        lines = rng.randint(0, 3) if kind in MULTI else int(rng.random() < 0.75)
        for _ in range(lines):
            qty = rng.randint(1, 2) if kind in MULTI or kind is Kind.PSU else 1  # two PSUs: psu-quantity
            items.append(BuildItem(part=table.part(rng.randrange(len(table))), quantity=qty))
    board = next((i.part for i in items if i.part.kind is Kind.MOTHERBOARD), None)
    cpus = catalog.table(Kind.CPU)
    same = [r for r in range(len(cpus)) if board is not None and cpus.columns["socket"][r] == board.socket]
    if same and rng.random() < 0.5:
        items = [i for i in items if i.part.kind is not Kind.CPU]
        items.append(BuildItem(part=cpus.part(rng.choice(same))))
    volts, amps = rng.choice([(120.0, 15.0), (230.0, 16.0), (120.0, 20.0)])
    return Build(name="random", items=tuple(items), assumptions=Assumptions(wall_voltage=volts, wall_amps=amps))


def _vary(part: Part, rng: random.Random) -> Part:
    """The facts the issue-25 rules read, which the catalog does not fill yet (parts/ is filled in parallel): each
    set at random to unknown, yes or no, so both the build's side and every candidate's side of those rules run."""
    tri = [None, True, False]
    if isinstance(part, Cpu):
        return part.model_copy(update={"rdimm_support": rng.choice(tri)})
    if isinstance(part, Psu):
        return part.model_copy(update={"atx3": rng.choice(tri)})
    if isinstance(part, Case):
        sizes = [None, 240, 280, 360]
        return part.model_copy(
            update={"max_radiator_front_mm": rng.choice(sizes), "max_radiator_top_mm": rng.choice(sizes)}
        )
    if isinstance(part, Motherboard) and part.pcie_slots and rng.random() < 0.5:
        slots = tuple(s.model_copy(update={"physical": 16 if s.lanes < 16 and rng.random() < 0.5 else None})
                      for s in part.pcie_slots)  # fmt: skip
        return part.model_copy(update={"pcie_slots": slots, "ecc_support": rng.choice(tri)})
    if isinstance(part, Gpu) and part.power_connectors and rng.random() < 0.2:  # RTX A6000-style EPS input
        return part.model_copy(update={"power_connectors": part.power_connectors.model_copy(update={"eps8": 1})})
    return part


@pytest.fixture(scope="module")
def varied(catalog: Catalog) -> Catalog:
    rng = random.Random(25)
    return Catalog.from_parts(_vary(p, rng) for kind in Kind for p in catalog.table(kind).parts())


@pytest.mark.parametrize("kind", list(Kind))
@pytest.mark.parametrize("which", ["real", "varied"])
def test_filter_equals_check_for_every_part(kind: Kind, which: str, catalog: Catalog, varied: Catalog) -> None:
    cat = catalog if which == "real" else varied

    @settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), database=None, derandomize=True)
    @given(build=partial_builds(cat))
    def agree(build: Build) -> None:
        fast = compatible_mask(build, kind, cat).tolist()
        slow = reference(build, kind, cat)
        wrong = [cat.table(kind).ids[i] for i, (a, b) in enumerate(zip(fast, slow, strict=True)) if a != b]
        assert not wrong, f"{len(wrong)} parts disagree, e.g. {wrong[:5]}"

    agree()


@pytest.mark.parametrize("name", ["2x-rtx-4090", "4-gpu-threadripper", "broken/wall-circuit"])
def test_example_builds_agree_for_every_part(name: str, catalog: Catalog, examples_dir: Path) -> None:
    build = load(examples_dir / f"{name}.rigplan")
    for kind in Kind:
        assert compatible_mask(build, kind, catalog).tolist() == reference(build, kind, catalog), kind
