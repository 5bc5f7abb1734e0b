"""An expert's minimums for a deep-learning box, and "unknown is not a pass" for the optimizer (docs/suggest.md).

Two kinds of constraint, kept apart:

- **Minimums** (`Minimums.for_option`): sizes an expert asks of the parts around n GPUs of a given memory: system RAM
  at least the GPUs' memory (32 GB at least) in a kit that fills the CPU's memory channels, 2 cores per GPU + 2
  (6 at least), an NVMe SSD of 1 TB (2 TB from 2 GPUs), a cooler rated for the CPU's sustained boost power where
  the catalog gives a rating, a tower case of ATX class or larger for 3+ GPUs. They read part sizes, not fit, so
  they are plain per-part tests.
- **Strictness** (`Strict`): the compatibility rules themselves (rigplan.rules.engine.RULES, their one definition),
  with two more verdicts counted as failing: a warning of a rule in `WARN` (the PSU below RigPlan's recommended
  size, a connector warning, a GPU link below x8) and a "not checked" of a rule in `UNKNOWN` (PSU cables, GPU
  length, board form factor, slot positions...), unless the user allows parts with missing data. `Strict.keep` runs
  each rule once per distinct value of the facts it reads (as the "compatible only" filter does), on the candidates
  only; `Strict.failures` judges a complete build from its check() report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from rigplan.catalog.loader import KindTable
from rigplan.model.build import Build, BuildItem
from rigplan.model.parts import Case, Cooler, Cpu, Gpu, Kind, Memory, Part, Psu, Storage
from rigplan.rules.context import Ctx, open_air
from rigplan.rules.engine import RULES
from rigplan.rules.findings import Report, Severity
from rigplan.rules.power import cpu_boost_w
from rigplan.rules.rule import Rule, count_only, with_part
from rigplan.suggest.gpu_facts import pcie_gen, psu_floor_w

# Rules whose "not checked" fails a part for the optimizer: a hole there is what an adversarial search would exploit
# (a PSU whose cables are unknown feeds any GPU; a case of unknown GPU clearance takes any card). Ids of rules not
# in this build of RigPlan are harmless (the slot-position and EPS rules of issue 25 join when they land).
UNKNOWN = frozenset(
    {
        "cpu-socket",
        "cpu-chipset",
        "cpu-memory-type",
        "memory-type",
        "memory-registered",
        "memory-rdimm-cpu",
        "memory-capacity",
        "memory-form-factor",
        "memory-slots",
        "cooler-socket",
        "cooler-height",
        "board-form-factor",
        "psu-form-factor",
        "storage-m2",
        "storage-sata",
        "gpu-length",
        "gpu-slots",
        "gpu-slot-lanes",
        "gpu-expansion-slots",
        "board-slot-positions",
        "gpu-lanes",
        "psu-wattage",
        "wall-circuit",
        "psu-pcie-connectors",
        "gpu-eps-power",
        "psu-quantity",
        "psu-eps-count",
        "case-radiator-gpu",
        "gpu-radiator",
        "gpu-spacing",
    }
)
# Rules whose warning fails a part when the expert's minimums are on: the PSU below RigPlan's own recommendation
# (GPU spikes counted), connector warnings, a GPU link below x8 (gpu-lanes: "choose Threadripper or Xeon W").
WARN = frozenset(
    {"psu-wattage", "psu-pcie-connectors", "psu-eps", "gpu-eps-power", "psu-quantity", "gpu-lanes", "gpu-spacing"}
)

# Case classes with room and airflow for a stack of 3+ GPUs: full-size ATX towers and open test benches.
ROOMY_CASE = re.compile(r"^(E-?ATX|ATX|XL-ATX|SSI)\b.*\b(Mid Tower|Full Tower|Super Tower|Test Bench)$", re.I)
DEFAULT_CHANNELS = 2  # a CPU of unknown channel count: every desktop platform in the catalog has at least two


@dataclass(frozen=True)
class Minimums:
    """What an expert asks of the parts around `gpus` GPUs holding `vram_gb` of memory in all."""

    gpus: int
    ram_gb: float
    cores: int
    storage_gb: float
    nvme: bool  # an NVMe SSD (never a hard disk as the only drive)
    fill_channels: bool  # a kit whose modules fill the CPU's memory channels (a multiple of their count)
    cooler_rated: bool  # a cooler rated for the CPU's sustained boost power, where the catalog gives a rating
    roomy_case: bool  # an ATX-class tower or bench for 3+ GPUs
    # The PSU by the GPU maker's figure (suggest.gpu_facts.psu_floor_w); None: no maker's figure for these GPUs.
    psu_w: float | None = None
    # The CPU's PCIe generation for 2+ cards of PCIe 4.0 or newer (x8 per GPU means x8 at the card's own
    # generation); None: any.
    cpu_pcie_gen: int | None = None
    # The balance stage's: a cooler whose rating is known and covers the CPU (the boxed cooler does not count).
    cooler_known: bool = False

    @classmethod
    def for_option(cls, q: Any, gpus: int, vram_gb: float, gpu: Gpu | None = None) -> Minimums:
        """q: a suggest.question.Question (its overrides win over the expert's figures); gpu: the option's card
        (the maker's PSU figure and the link generation come from it)."""
        on = bool(q.expert)
        ram = q.min_ram_gb if q.min_ram_gb is not None else (max(32.0, vram_gb) if on else 0.0)
        cores = q.min_cores if q.min_cores is not None else (max(6, 2 * gpus + 2) if on else 0)
        storage = (
            q.min_storage_gb if q.min_storage_gb is not None else ((1000.0 if gpus < 2 else 2000.0) if on else 0.0)
        )
        psu = psu_floor_w(gpu, gpus) if on and gpu is not None else None
        gen = pcie_gen(gpu) if on and gpu is not None and gpus >= 2 else None
        return cls(gpus, ram, cores, storage, on, on, on, on and gpus >= 3, psu, 4 if gen and gen >= 4 else None)

    def lines(self) -> list[str]:
        """The minimums as the answer states them."""
        out = []
        if self.ram_gb:
            out.append(
                f"system RAM >= {self.ram_gb:g} GB"
                + (" filling the CPU's memory channels" if self.fill_channels else "")
            )
        if self.cores:
            out.append(f"CPU cores >= {self.cores}")
        if self.storage_gb or self.nvme:
            out.append(
                ("an NVMe SSD" if self.nvme else "a drive") + (f" >= {self.storage_gb:g} GB" if self.storage_gb else "")
            )
        if self.gpus >= 2 and self.nvme:
            out.append("x8 or better per GPU")
        if self.roomy_case:
            out.append("an ATX-class tower or test bench for 3+ GPUs")
        if self.cpu_pcie_gen:
            out.append(f"a PCIe {self.cpu_pcie_gen}.0 CPU for PCIe {self.cpu_pcie_gen}.0 cards at x8")
        if self.psu_w:
            out.append(f"a PSU >= {self.psu_w:,.0f} W by the GPU maker's figure")
        return out

    def part_ok(self, part: Part) -> bool:
        """The per-part minimums (sizes, not fit)."""
        if isinstance(part, Memory):
            return (part.capacity_gb or 0) >= self.ram_gb - 1e-9
        if isinstance(part, Cpu):
            if self.cpu_pcie_gen and not _gen_at_least(part.pcie_gen, self.cpu_pcie_gen):
                return False
            return (part.cores or 0) >= self.cores
        if isinstance(part, Psu) and self.psu_w:
            return part.wattage is not None and part.wattage >= self.psu_w - 1e-9
        if isinstance(part, Storage):
            if (part.capacity_gb or 0) < self.storage_gb - 1e-9:
                return False
            return not self.nvme or (part.nvme is True and (part.storage_type or "").upper() == "SSD")
        if isinstance(part, Case) and self.roomy_case:
            return ROOMY_CASE.match(part.form_factor or "") is not None
        return True

    def with_cpu(self, cpu: Cpu | None, part: Part) -> bool:
        """The minimums that pair a part with the chosen CPU: the kit's modules fill its channels; the cooler's
        rating covers its sustained boost power (a cooler without a rating passes: the data does not tell)."""
        if cpu is None:
            return True
        if isinstance(part, Memory) and self.fill_channels:
            channels = cpu.memory_channels or DEFAULT_CHANNELS
            return part.modules is not None and part.modules >= channels and part.modules % channels == 0
        if isinstance(part, Cooler) and self.cooler_known:
            boost = cpu_boost_w(cpu)
            return part.rated_tdp_w is not None and boost is not None and part.rated_tdp_w >= boost[0]
        if isinstance(part, Cooler) and self.cooler_rated and part.rated_tdp_w is not None:
            boost = cpu_boost_w(cpu)
            return boost is None or part.rated_tdp_w >= boost[0]
        return True


def _gen_at_least(gen: str | None, want: int) -> bool:
    """A CPU's PCIe generation as the catalog spells it ("4.0") against a whole generation; unknown: no."""
    try:
        return gen is not None and float(gen) >= want
    except ValueError:
        return False


def _dump(part: Part) -> Hashable:
    """Every fact of a part but its identity and price: the facts key for a rule that declares none."""
    return repr(part.model_dump(exclude={"id", "name", "price", "spec_source", "perf_source", "tdp_source"}))


def _slots(board: Any) -> Hashable:
    return (repr(board.pcie_slots), board.form_factor)


# The facts the notes-and-warnings rules read (they declare none: the "compatible only" filter skips rules that
# write no error). gpu-slot-lanes reads the board's slots; gpu_multi (gpu-lanes) the board's slots and the CPU's
# lanes, and of the GPUs their count and whether each is an open-air card (rules/gpu.py).
_EXTRA_READS: dict[str, dict[Kind, Callable[[Any], Hashable]]] = {
    "gpu-slot-lanes": {Kind.GPU: count_only, Kind.MOTHERBOARD: _slots},
    "gpu-radiator": {Kind.GPU: lambda g: (g.cooling,)},
    "gpu-slot-spacing": {
        Kind.GPU: lambda g: (open_air(g),),
        Kind.MOTHERBOARD: _slots,
        Kind.CPU: lambda c: (c.pcie_lanes,),
    },
}
# Rules that read every part's power: their verdict changes with every part chosen, so they are asked of the few
# candidates a scan reaches (Strict.judge), not of whole lists ahead (Strict.mask).
POWER = frozenset({"psu-wattage", "psu-quantity"})
# The rule whose warning is RigPlan's recommended PSU size (the power bounds then count that size as the limit).
SIZING = "psu-wattage"


class Strict:
    """The rules' warnings in `warn` and their "not checked" in `unknown` counted as failures (module docstring).

    Verdicts are cached by what they depend on, as the "compatible only" filter caches its masks: a rule's verdict
    on a candidate is keyed by the rule's facts of the build (its fingerprint, without part ids: two boards with the
    same facts get the same verdicts) and the candidate's facts. A list of candidates is judged once per distinct
    facts value and the answer spread over the rows with numpy (`mask`)."""

    def __init__(self, warn: frozenset[str], unknown: frozenset[str]) -> None:
        self.warn, self.unknown = warn, unknown
        self.recommends_psu_size = SIZING in warn
        self.rules: list[tuple[Rule, dict[Kind, Callable[[Any], Hashable]]]] = [
            (r, dict(r.reads) or _EXTRA_READS.get(r.id, {})) for r in RULES if set(r.ids) & (warn | unknown)
        ]
        self._verdicts: dict[Hashable, bool] = {}
        self._before: dict[Hashable, frozenset[Hashable]] = {}
        self._facts: dict[tuple[str, int], tuple[Hashable, Part]] = {}
        self._codes: dict[tuple[str, int], tuple[np.ndarray, list[int], Any]] = {}
        self._arrays: dict[Hashable, np.ndarray] = {}

    @property
    def active(self) -> bool:
        return bool(self.rules)

    def _keys(self, report: Report, build: Build, kind: Kind | None, leave_out: str = "") -> frozenset[Hashable]:
        """Strict warnings by rule and parts (the candidate left out); strict unknowns that concern `kind`. An
        unknown is the candidate's when it names the candidate's kind, even if the build had it before: without a
        CPU, "the CPU's lane count is not known" is there already, and a CPU of unknown lanes must not hide in it."""
        # Parts are named by kind, not id: verdicts are shared between builds whose parts differ only in identity.
        kinds = {i.part.id: i.part.kind.value for i in build.items}
        out: set[Hashable] = set()
        for f in report.findings:
            if f.severity is Severity.WARNING and f.rule in self.warn:
                out.add(("w", f.rule, tuple(sorted(kinds.get(p, p) for p in f.parts if p != leave_out))))
        for n in report.not_checked:
            if n.rule in self.unknown and kind in n.kinds:
                out.add(("u", n.rule, n.reason))
        return frozenset(out)

    def _run(self, rule: Rule, build: Build, kind: Kind | None, leave_out: str = "") -> frozenset[Hashable]:
        c = Ctx(build)
        rule.run(c)
        return self._keys(c.report, build, kind, leave_out)

    def _fingerprint(self, rule: Rule, reads: dict[Kind, Callable[[Any], Hashable]], base: Build) -> Hashable:
        if not reads:
            return (rule.id, tuple((i.part.id, i.quantity, self._fact(rule, reads, i.part)) for i in base.items))
        parts = tuple(
            (i.part.kind, i.quantity, self._fact(rule, reads, i.part)) for i in base.items if i.part.kind in reads
        )
        a = base.assumptions
        return (rule.id, parts, (a.wall_voltage, a.wall_amps) if rule.assumptions else None)

    def _fact(self, rule: Rule, reads: dict[Kind, Callable[[Any], Hashable]], part: Part) -> Hashable:
        # Keyed by the part object (kept alive in the value, so its id is not reused): a shared Strict may see
        # another catalog whose part of the same id has other facts.
        key = (rule.id, id(part))
        hit = self._facts.get(key)
        if hit is None:
            hit = self._facts[key] = (reads[part.kind](part) if part.kind in reads else _dump(part), part)
        return hit[0]

    def keep(
        self, base: Build, kind: Kind, parts: Iterable[tuple[Any, Part]], single: bool, power_only: bool = False
    ) -> list[Any]:
        """The items of `parts` ((tag, part) pairs) whose part, put into `base`, adds no strict failure (power_only:
        of the POWER rules, the others having been applied by `mask`)."""
        judge = self.judge(base, kind, single, power_only)
        return [tag for tag, part in parts if judge(part)]

    def _verdict(
        self, rule: Rule, fp: Hashable, base: Build, kind: Kind, fact: Hashable, part: Part, single: bool
    ) -> bool:
        key = (fp, kind, fact, single)
        verdict = self._verdicts.get(key)
        if verdict is None:
            if len(self._verdicts) > 500_000:
                self._verdicts.clear()
            verdict = self._verdicts[key] = self._adds_none(rule, fp, base, part, single)
        return verdict

    def judge(self, base: Build, kind: Kind, single: bool, power_only: bool = False) -> Callable[[Part], bool]:
        """A test for one candidate of `kind` against `base` (power_only: the POWER rules alone, the others having
        been applied by `mask`)."""
        rules = [
            (r, reads, self._fingerprint(r, reads, base))
            for r, reads in self.rules
            if (not reads or kind in reads) and (not power_only or r.id in POWER)
        ]

        def ok(part: Part) -> bool:
            for rule, reads, fp in rules:
                if not self._verdict(rule, fp, base, kind, self._fact(rule, reads, part), part, single):
                    return False
            return True

        return ok

    def mask(
        self, base: Build, table: KindTable, single: bool, within: np.ndarray | None = None, new: Kind | None = None
    ) -> np.ndarray:
        """Rows of `table` whose part, put into `base`, adds no strict failure of a rule other than the POWER ones,
        among the rows of `within` (all by default; rows outside it come back False). Each rule is run once per
        distinct facts value of those rows' parts, and only while rows are left to judge. new: only the rules that
        read this kind (the one just added to `base`; the rows were judged by the others before it came)."""
        kind = table.kind
        out = np.ones(len(table), dtype=bool) if within is None else within.copy()
        for rule, reads in self.rules:
            if rule.id in POWER or (reads and kind not in reads) or (new is not None and reads and new not in reads):
                continue
            if not out.any():
                break
            fp = self._fingerprint(rule, reads, base)
            codes, first, _ = self._codes_of(rule, reads, table)
            # The rule's verdicts on this table for this fingerprint, one per distinct facts: 1 passes, 0 fails,
            # -1 not asked yet (asked only when a row still in play has those facts).
            akey = (fp, id(table), single)
            known = self._arrays.get(akey)
            if known is None:
                if len(self._arrays) > 50_000:
                    self._arrays.clear()
                known = self._arrays[akey] = np.full(len(first), -1, dtype=np.int8)
            need = codes[out]
            todo = np.unique(need[known[need] < 0]).tolist()
            for j in todo:
                part = table.part(first[j])
                known[j] = self._verdict(rule, fp, base, kind, self._fact(rule, reads, part), part, single)
            out &= known[codes] == 1
        return out

    def _codes_of(
        self, rule: Rule, reads: dict[Kind, Callable[[Any], Hashable]], table: KindTable
    ) -> tuple[np.ndarray, list[int], Any]:
        key = (rule.id, id(table))
        hit = self._codes.get(key)
        if hit is None:
            if len(self._codes) > 400:  # candidate tables of many past questions: let them go, with their
                self._codes.clear()  # verdict arrays (keyed by the table's id, valid only while it is alive)
                self._arrays.clear()
            index: dict[Hashable, int] = {}
            first: list[int] = []
            codes = np.empty(len(table), dtype=np.int64)
            for i in range(len(table)):
                k = self._fact(rule, reads, table.part(i))
                j = index.get(k)
                if j is None:
                    j = index[k] = len(first)
                    first.append(i)
                codes[i] = j
            hit = self._codes[key] = (codes, first, table)  # the table kept alive: its id is not reused
        return hit

    def _adds_none(self, rule: Rule, fp: Hashable, base: Build, part: Part, single: bool) -> bool:
        before = self._before.get(fp)
        if before is None:  # the warnings the build has already (its unknowns are not the candidate's alibi)
            before = self._before[fp] = self._run(rule, base, None)
        stand_in = part.model_copy(update={"id": f"{part.id}\x00candidate"})
        after = self._run(rule, with_part(base, stand_in, single), part.kind, stand_in.id)
        return after <= before

    def failures(self, report: Report) -> list[str]:
        """What in a complete build's report the search does not accept: each strict warning and unknown, said."""
        out = [
            f"{f.rule}: {f.message}" for f in report.findings if f.severity is Severity.WARNING and f.rule in self.warn
        ]
        out += [f"{n.rule}: not checked ({n.reason})" for n in report.not_checked if n.rule in self.unknown]
        return out


_SHARED: dict[tuple[frozenset[str], frozenset[str]], Strict] = {}


def strict_for(q: Any) -> Strict:
    """The strictness a question asks for (suggest.question.Question). Shared between searches: the explanation
    runs several, and the verdicts are keyed by everything they read (the rules' fingerprints), so they carry over."""
    key = (WARN if q.expert else frozenset(), frozenset() if q.allow_missing_data else UNKNOWN)
    if key not in _SHARED:
        _SHARED[key] = Strict(*key)
    return _SHARED[key]


# Rules that read the GPU alone: their "not checked" is the card's own (a hybrid cooler's radiator), so the search
# drops such a card from its options at once instead of finding the hole only when a whole build is judged.
GPU_ONLY = tuple(r for r in RULES if r.id in {"gpu-radiator"})
# gpu-spacing (in the rule that also writes gpu-lanes and gpu-slot-spacing) reads only the GPUs: their count and
# whether each is an open-air card. Its verdict on n cards is theirs whatever else the build holds.
SPACING = next(r for r in RULES if "gpu-spacing" in r.ids)


def gpu_unknowns(gpu: Part, unknown: frozenset[str]) -> set[str]:
    """The rules in `unknown` that leave this GPU "not checked" whatever else the build holds."""
    if not unknown:
        return set()
    c = Ctx(Build(name="one GPU", items=(BuildItem(part=gpu),)))
    for rule in GPU_ONLY:
        rule.run(c)
    return {n.rule for n in c.report.not_checked if n.rule in unknown}


def spacing_fails(gpu: Part, count: int, strict: Strict) -> bool:
    """`count` of these cards fail gpu-spacing for the expert's strictness in every build: 3+ open-air cards packed
    side by side (its warning: they recirculate each other's exhaust and throttle) or of unknown cooling (its "not
    checked"). Blower, liquid-cooled and passive cards pass."""
    if count < 3 or not ({"gpu-spacing"} & (strict.warn | strict.unknown)):
        return False
    c = Ctx(Build(name="GPUs", items=(BuildItem(part=gpu, quantity=count),)))
    SPACING.run(c)
    warned = any(f.rule == "gpu-spacing" and f.severity is Severity.WARNING for f in c.report.findings)
    unknown = any(n.rule == "gpu-spacing" for n in c.report.not_checked)
    return (warned and "gpu-spacing" in strict.warn) or (unknown and "gpu-spacing" in strict.unknown)
