"""The "compatible only" filter equals its definition over the whole catalog: for random partial builds drawn from
the real catalog, for every kind, the filter's mask equals "check() adds no error" for EVERY part of the kind. And
three ways at once: check(), the filter and the suggester's strict verdicts agree on samples of every kind.

The reference below is written from the definition (rules/compat.py's docstring) and runs check() once per part;
the filter runs each rule once per distinct facts (rules/rule.py) or vectorised (rules/power_mask.py). A rule that
reads a fact it does not declare, or a vectorised rule that drifts from its message function, fails here.

Each part is checked once per catalog (the real one, the varied one) and once against an example build, not
against every build: a kind's rows are cut into disjoint seeded shares, one per build (`shares`), and every build
also checks the parts it already holds (the filter's own path for them). check() costs about 1 ms; against every
build it was 290,000 calls and about 220 s of the suite's CPU (docs/performance.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from rigplan.catalog import Catalog
from rigplan.files import load
from rigplan.model import Build, BuildItem, Kind
from rigplan.model.assumptions import Assumptions
from rigplan.model.parts import Case, Cpu, Gpu, Motherboard, Part, Psu
from rigplan.rules import Report, Severity, check
from rigplan.rules.compat import SINGLE, base_build, compatible_mask
from rigplan.rules.context import Ctx
from rigplan.rules.engine import RULES
from rigplan.rules.rule import Rule, with_part
from rigplan.suggest.expert import UNKNOWN, WARN, Strict

IGNORED = {"cpu-igpu", "storage-sas"}  # about a missing part (a GPU; a SAS HBA, an Other item), not a fit
MULTI = (Kind.MEMORY, Kind.STORAGE, Kind.GPU)


def _errors(build: Build, leave_out: str) -> set[tuple[str, tuple[str, ...]]]:
    return {
        (f.rule, tuple(p for p in f.parts if p != leave_out)) for f in check(build).errors() if f.rule not in IGNORED
    }


def reference(build: Build, kind: Kind, catalog: Catalog, rows: list[int] | None = None) -> list[bool]:
    """check() per part (of `rows`, default all): does putting it in (replacing the part of a single-slot kind, else
    adding one) add an error the build without it does not have?"""
    base = base_build(build, kind)
    table = catalog.table(kind)
    in_base = {i.part.id for i in base.items}
    before = _errors(base, "")
    out = []
    for i in range(len(table)) if rows is None else rows:
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


def shares(build: Build, kind: Kind, catalog: Catalog, seed: str, count: int, n: int) -> list[int]:
    """Share `n` of `count` disjoint, seeded random shares of the kind's rows (together: every row once), plus the
    rows of the parts `build` already holds of the kind, which the filter judges on a path of their own."""
    table = catalog.table(kind)
    rows = list(range(len(table)))
    random.Random(seed).shuffle(rows)
    held = {i.part.id for i in build.items if i.part.kind is kind}
    return sorted({*rows[n::count], *(r for r, pid in enumerate(table.ids) if pid in held)})


def _disagree(build: Build, kind: Kind, cat: Catalog, rows: list[int]) -> list[str]:
    fast = compatible_mask(build, kind, cat)
    slow = reference(build, kind, cat, rows)
    return [cat.table(kind).ids[r] for r, ok in zip(rows, slow, strict=True) if bool(fast[r]) != ok]


def random_build(rng: random.Random, catalog: Catalog) -> Build:
    """A partial build from a seeded generator (a failing seed replays): each kind present with probability 3/4
    (memory, drives and GPUs: 0-3 lines of 1-2), parts drawn uniformly from the real catalog, the CPU's socket often
    matched to the board's so the deeper rules fire, and the three usual wall circuits."""
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


BUILDS = 4  # random builds per kind and catalog, each checking its own quarter of the kind's parts


@pytest.mark.parametrize("kind", list(Kind))
@pytest.mark.parametrize("which", ["real", "varied"])
def test_filter_equals_check_for_every_part(kind: Kind, which: str, catalog: Catalog, varied: Catalog) -> None:
    """Every part of the kind checked once, against one of four random builds (`shares`)."""
    cat = catalog if which == "real" else varied
    checked: set[int] = set()
    for n in range(BUILDS):
        seed = f"{which}-{kind.value}-{n}"
        build = random_build(random.Random(seed), cat)
        rows = shares(build, kind, cat, f"{which}-{kind.value}", BUILDS, n)
        wrong = _disagree(build, kind, cat, rows)
        assert not wrong, f"random_build(random.Random({seed!r})): {len(wrong)} parts disagree, e.g. {wrong[:5]}"
        checked.update(rows)
    assert len(checked) == len(cat.table(kind))


def _by_prefix(catalog: Catalog, kind: Kind, prefix: str) -> Part:
    table = catalog.table(kind)
    rows = [i for i, pid in enumerate(table.ids) if pid.startswith(prefix)]
    assert len(rows) == 1, f"{kind} {prefix}: {len(rows)} rows"
    return table.part(rows[0])


def _first(catalog: Catalog, kind: Kind, test: Callable[[Part], bool]) -> Part:
    table = catalog.table(kind)
    return next(table.part(i) for i in range(len(table)) if test(table.part(i)))


def _solid_gear(cat: Catalog) -> Build:
    """The build of the lead's fresh-clone run (session note, issue 25): a 220 W Solid Gear Flex ATX unit with a
    Quadro K420 under RigPlan's recommendation (a psu-wattage warning), an iBuypower 360 mm AIO, two DDR5 and two DDR4
    kits, two HDDs, a GameMax case, 120 V / 20 A. The filter took the warning for an error already there and kept
    3,621 GPUs that turn it into one."""
    ram = {t: [m for m in cat.table(Kind.MEMORY).parts() if m.ram_type == t][:2] for t in ("DDR5", "DDR4")}
    hdds = [d for d in cat.table(Kind.STORAGE).parts() if d.storage_type == "HDD"][:2]
    parts: list[Part] = [
        _by_prefix(cat, Kind.PSU, "ad9441a4"),
        _by_prefix(cat, Kind.GPU, "0b72aacf"),
        _by_prefix(cat, Kind.COOLER, "9d25c46f"),
        _first(cat, Kind.CASE, lambda c: c.name.startswith("GameMax")),
        *ram["DDR5"],
        *ram["DDR4"],
        *hdds,
    ]
    return Build(
        name="solid-gear", items=tuple(BuildItem(part=p) for p in parts), assumptions=Assumptions(wall_amps=20.0)
    )


def _quadro_pair(cat: Catalog) -> Build:
    """A helper's failing run (session note): 2x Quadro M2000 and an RX 9060 XT on an EVGA 600 W1 of unknown cable
    counts, a Ryzen 9 9900X3D on an X870 EAGLE; with one 2 TB HDD the sizing load sits 7 W under the 600 W rating
    (a psu-wattage warning), so one more drive makes it an error."""
    items = (
        BuildItem(part=_by_prefix(cat, Kind.STORAGE, "00274e77")),
        BuildItem(part=_by_prefix(cat, Kind.GPU, "eddba1cb"), quantity=2),
        BuildItem(part=_by_prefix(cat, Kind.GPU, "00abd169")),
        BuildItem(part=_by_prefix(cat, Kind.PSU, "047c53fe")),
        BuildItem(part=_by_prefix(cat, Kind.CPU, "8fcefb4e")),
        BuildItem(part=_by_prefix(cat, Kind.MOTHERBOARD, "818ef092")),
    )
    return Build(name="quadro-pair", items=items)


def _cooler_pump(cat: Catalog) -> Build:
    """Found by this test with derandomize off (seed 2301595691): a 600 W CoolMax with two RTX 2060 just under the
    recommendation; a water cooler's pump watts tip it over, and the filter kept 537 such coolers."""
    spec = [(Kind.CPU, "58042e92", 1), (Kind.MOTHERBOARD, "1b29dbd1", 1), (Kind.GPU, "78145c63", 2),
            (Kind.PSU, "01951351", 1), (Kind.CASE, "9fd5c3a6", 1), (Kind.MEMORY, "924a5109", 2),
            (Kind.STORAGE, "a9254770", 2), (Kind.STORAGE, "1cbd58a5", 1), (Kind.STORAGE, "125295cd", 2),
            (Kind.COOLER, "bc7ecba4", 1)]  # fmt: skip
    items = tuple(BuildItem(part=_by_prefix(cat, k, p), quantity=q) for k, p, q in spec)
    return Build(name="cooler-pump", items=items, assumptions=Assumptions(wall_voltage=230.0, wall_amps=16.0))


REGRESSIONS = {"solid-gear": _solid_gear, "quadro-pair": _quadro_pair, "cooler-pump": _cooler_pump}


@pytest.mark.parametrize(
    ("name", "kind"),
    [("solid-gear", Kind.GPU), ("quadro-pair", Kind.STORAGE), ("quadro-pair", Kind.GPU), ("cooler-pump", Kind.COOLER)],
)
def test_known_disagreeing_builds_agree(name: str, kind: Kind, catalog: Catalog) -> None:
    """Builds whose base has a psu-wattage warning: candidates that turn it into an error are not compatible. A
    seeded quarter of the kind's parts (each bug made hundreds to thousands of them disagree)."""
    build = REGRESSIONS[name](catalog)
    rows = shares(build, kind, catalog, name, 4, 0)
    fast = compatible_mask(build, kind, catalog)
    slow = reference(build, kind, catalog, rows)
    wrong = [catalog.table(kind).ids[r] for r, ok in zip(rows, slow, strict=True) if bool(fast[r]) != ok]
    assert not wrong, f"{len(wrong)} parts disagree, e.g. {wrong[:5]}"
    assert not all(slow), "the build should rule some candidates out (else it tests nothing)"


def _can_close(r: Rule) -> bool:
    """A gate that some build and candidate of a kind the rule reads leave closed (gpu-spacing reads only the GPUs
    and needs one: its candidate always opens it)."""
    if r.applies is not None:
        return True
    return any(r.needs - {kind} or (r.needs_any and kind not in r.needs_any) for kind in {*r.reads, *r.strict_facts})


GATED = [r for r in RULES if (r.reads or r.strict_facts) and _can_close(r)]


def _written(rule: Rule, build: Build, leave_out: str = "") -> set[tuple[str, str, tuple[str, ...], str]]:
    """Everything the rule writes, findings and "not checked" lines alike (the candidate's id left out)."""
    c = Ctx(build)
    rule.run(c)
    out = {(str(f.severity), f.rule, tuple(p for p in f.parts if p != leave_out), "") for f in c.report.findings}
    return out | {("unchecked", n.rule, (), n.reason) for n in c.report.not_checked}


@pytest.mark.parametrize("rule", GATED, ids=[r.id for r in GATED])
def test_a_closed_gate_means_nothing_written(rule: Rule, catalog: Catalog, varied: Catalog) -> None:
    """rule_mask and the suggester's strict verdicts answer "all pass" without running a rule whose `needs` kinds
    are missing, none of whose `needs_any` kinds is there, or whose `applies` is false (Rule.gate). That shortcut is
    only right if the rule then writes nothing new (no finding, no "not checked") whatever candidate goes in: run
    the rule itself on random builds whose gate is closed, with candidates of every kind it reads."""
    rng = random.Random(rule.id)
    closed = 0
    for cat in (catalog, varied):
        for _ in range(40):
            build = random_build(rng, cat)
            for kind in {*rule.reads, *rule.strict_facts}:
                base = base_build(build, kind)
                if rule.gate(base, kind):
                    continue
                closed += 1
                table = cat.table(kind)
                before = _written(rule, base)
                for row in rng.sample(range(len(table)), 12):
                    part = table.part(row)
                    after = _written(rule, with_part(base, part, kind in SINGLE), part.id)
                    assert after <= before, f"{rule.id} wrote {after - before} with its gate closed ({part.name})"
    assert closed, "no random build closed the gate: the test checked nothing"


EXAMPLES = ["2x-rtx-4090", "4-gpu-threadripper", "broken/wall-circuit"]


@pytest.mark.slow  # a third of the catalog through check(): about 5 s each
@pytest.mark.parametrize("name", EXAMPLES)
def test_example_builds_agree_for_every_part(name: str, catalog: Catalog, examples_dir: Path) -> None:
    """Every part of every kind checked once, against one of the three example builds (`shares`)."""
    build = load(examples_dir / f"{name}.rigplan")
    for kind in Kind:
        rows = shares(build, kind, catalog, f"examples-{kind.value}", len(EXAMPLES), EXAMPLES.index(name))
        wrong = _disagree(build, kind, catalog, rows)
        assert not wrong, f"{kind}: {len(wrong)} parts disagree, e.g. {wrong[:5]}"


# -- Three ways: check(), the filter and the suggester's strict verdicts -----------------------------------------

STRICT = Strict(WARN, UNKNOWN)  # the expert's question: strict warnings and unknowns both fail a part
BY_RULE = {i: r for r in RULES for i in r.ids}


def _strict_keys(report: Report, build: Build, kind: Kind | None, leave_out: str) -> frozenset[object]:
    """The suggester's definition, read off a whole check() report (docs/suggest.md): a warning of a rule in WARN by
    rule and the kinds of its parts (the candidate left out), and an "unknown" of a rule in UNKNOWN that names the
    candidate's kind, where the rule's strict_unknown holds for the build."""
    kinds = {i.part.id: i.part.kind.value for i in build.items}
    out: set[object] = {
        ("w", f.rule, tuple(sorted(kinds.get(p, p) for p in f.parts if p != leave_out)))
        for f in report.findings
        if f.severity is Severity.WARNING and f.rule in WARN
    }
    out |= {
        ("u", n.rule, n.reason)
        for n in report.not_checked
        if n.rule in UNKNOWN and kind in n.kinds and BY_RULE[n.rule].strict_unknown_in(build)  # a predicate: rule.py
    }
    return frozenset(out)


def _three_ways(build: Build, kind: Kind, cat: Catalog, rng: random.Random) -> int:
    """For a sample of the kind's parts not in the build: the filter's mask equals "check() adds no error"; the
    strict verdict (Strict.mask, then Strict.judge for the power rules, as the search asks them) equals "check()
    adds no strict warning or unknown of the candidate's"; and a part whose build check() leaves without any strict
    failure (Strict.failures, the search's final test) is never refused. Returns how many parts the strict verdict
    refused (so the caller can tell the test saw both answers)."""
    base = base_build(build, kind)
    table = cat.table(kind)
    single = kind in SINGLE
    in_base = {i.part.id for i in base.items}
    rows = [r for r in rng.sample(range(len(table)), min(300, len(table))) if table.ids[r] not in in_base]
    within = np.zeros(len(table), dtype=bool)
    within[rows] = True
    filt = compatible_mask(build, kind, cat)
    strict = STRICT.mask(base, table, single, within)
    power = STRICT.judge(base, table, single, power_only=True)
    before = check(base)
    errors_before = _errors(base, "")
    strict_before = _strict_keys(before, base, None, "")
    refused = 0
    for row in rows:
        part, pid = table.part(row), table.ids[row]
        after = base.model_copy(update={"items": (*base.items, BuildItem(part=part))})
        report = check(after)
        assert filt[row] == (_errors(after, pid) <= errors_before), f"filter vs check(): {part.name}"
        says = bool(strict[row]) and power(row)
        assert says == (_strict_keys(report, after, kind, pid) <= strict_before), f"strict vs check(): {part.name}"
        if not STRICT.failures(report, after):
            assert says, f"{part.name} leaves no strict failure, yet the strict verdict refuses it"
        refused += not says
    return refused


@pytest.mark.parametrize("kind", list(Kind))
def test_check_the_filter_and_the_strict_verdicts_agree(kind: Kind, catalog: Catalog, varied: Catalog) -> None:
    refused = 0
    for n, cat in enumerate((catalog, varied, catalog)):
        rng = random.Random(f"{kind.value}-{n}")
        refused += _three_ways(random_build(rng, cat), kind, cat, rng)
    assert refused, "the strict verdicts refused no part: the test saw only one answer"
