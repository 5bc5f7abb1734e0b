"""An expert's minimums for a deep-learning box, and "unknown is not a pass" for the optimizer (docs/suggest.md).

Two kinds of constraint, kept apart:

- **Minimums** (`Minimums.for_option`): sizes an expert asks of the parts around n GPUs of a given memory: system RAM
  at least the GPUs' memory (32 GB at least) in a kit that fills the CPU's memory channels, 4 cores per GPU (6 at
  least; Puget Systems' floor), an NVMe SSD of 1 TB (2 TB from 2 GPUs), a cooler rated for the CPU's sustained boost
  power where the catalog gives a rating, a tower case of ATX class or larger for 3+ GPUs. They read part sizes, not
  fit, so they are plain per-part tests.
- **Strictness** (`Strict`): the compatibility rules themselves (rigplan.rules.engine.RULES, their one definition),
  with two more verdicts counted as failing: a warning of a rule in `WARN` (the PSU below RigPlan's recommended
  size, a connector warning, a GPU link below x8) and a "not checked" of a rule in `UNKNOWN` (PSU cables, GPU
  length, board form factor, slot positions...), unless the user allows parts with missing data. Both sets come from
  each rule's declared policy (Rule.strict_unknown, Rule.strict_warn). `Strict.mask` and `Strict.judge` run each
  rule once per distinct value of the facts it reads (the "compatible only" filter's masking, rules/rule.py), on
  the candidates only; `Strict.failures` judges a complete build from its check() report.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from rigplan.catalog.loader import KindTable
from rigplan.model.build import Build, BuildItem
from rigplan.model.parts import Case, Cooler, Cpu, Gpu, Kind, Memory, Motherboard, Part, Psu, Storage
from rigplan.rules.context import Ctx, open_air
from rigplan.rules.engine import RULES
from rigplan.rules.findings import Report, Severity
from rigplan.rules.link import board_gen
from rigplan.rules.power import cpu_boost_w
from rigplan.rules.rule import Facts, Power, Rule, verdicts
from rigplan.suggest.gpu_facts import pcie_gen, psu_floor_w

# The rules' policy (rigplan.rules.engine.RULES, each entry's own fields; docs/checks.md, "How a rule is added"):
# rules whose "not checked" fails a part for the optimizer (a hole there is what an adversarial search would exploit:
# a PSU whose cables are unknown feeds any GPU; a case of unknown GPU clearance takes any card), and rules whose
# warning fails a part when the expert's minimums are on (the PSU below RigPlan's recommendation, connector
# warnings, a GPU link below x8).
UNKNOWN = frozenset(i for r in RULES if r.strict_unknown is not False for i in r.ids)
BY_ID = {i: r for r in RULES for i in r.ids}
WARN = frozenset(i for r in RULES if r.strict_warn for i in r.ids)
# Rules that read every part's power: their verdict changes with every part chosen, so they are asked of the few
# candidates a scan reaches (Strict.judge), not of whole lists ahead (Strict.mask).
POWER = frozenset(i for r in RULES if r.power is not Power.NONE for i in r.ids)
# The rule whose warning is "below RigPlan's recommended PSU size" (Power.RATING): the search's PSU lists and power
# pruning follow the recommendation when that warning fails a part.
RECOMMENDS = frozenset(i for r in RULES if r.power is Power.RATING for i in r.ids)
# Rules that read the GPUs alone: their verdict on n cards is theirs whatever else the build holds (a hybrid card's
# radiator mount; 3+ open-air cards packed together), so the search drops such options at once instead of finding
# the hole only when a whole build is judged.
GPU_ONLY = tuple(r for r in RULES if r.gpu_only)
# The GPU-only rules whose warning leaves a stack of cards out (gpu-spacing), as the answer's notes name them.
STACK_RULES = ", ".join(i for r in GPU_ONLY if r.strict_warn for i in r.ids)

# Case classes with room and airflow for a stack of 3+ GPUs: full-size ATX towers and open test benches.
ROOMY_CASE = re.compile(r"^(E-?ATX|ATX|XL-ATX|SSI)\b.*\b(Mid Tower|Full Tower|Super Tower|Test Bench)$", re.I)
# Two or more open-air cards above HOT_OPEN_AIR_W of board power each: a full tower or an open bench (AIRY_CASE), as
# builders of dual RTX 5090 (575 W) machines specify (ArsenalPC, "What's better than one GeForce RTX 5090": a Fractal
# Meshify 2 XL full tower, which "provides necessary airflow clearance below second GPU"). Cards above 300 W are
# open-air by NVIDIA's own line (Tom's Hardware, Computex 2024: NVIDIA allows blower coolers only on cards of 300 W
# board power or less), and NVIDIA sells its 600 W RTX PRO 6000 Blackwell silicon for dense workstations as the
# 300 W Max-Q edition (Fixstars, 2025-09-04: 300 W against the Workstation Edition's 600 W); Puget Systems: consumer
# open-air cards "may not be suitable for systems with more than two GPUs due to cooling design". Pairs up to 450 W
# (RTX 4090, RTX 3090 Ti) are left to the gpu-intake-gap rule (one empty slot position between coolers); the 450 W
# line is RigPlan's, not a measured one, and no case airflow is in the data (docs/suggest.md), so the class is the test.
HOT_OPEN_AIR_W = 450.0
AIRY_CASE = re.compile(r"\b(Full Tower|Super Tower|Test Bench)$", re.I)
DEFAULT_CHANNELS = 2  # a CPU of unknown channel count: every desktop platform in the catalog has at least two
# What a CPU's boxed cooler carries, by socket, where a source says: Intel's Laminar coolers (RS1, RM1, RH1), boxed
# with the LGA 1700 parts, are designed for 65 W processors (Intel's slide, as gamepressure.com reported it on
# 2021-09-13), and digitec.ch measured an i7-12700 at its 180 W maximum turbo power reach the 100 °C limit and throttle
# with both the RM1 and the RH1 ("How good are Intel's new stock coolers?"). Other boxed coolers (AMD's Wraith line)
# have no sourced capacity here: they stand as the CPU maker's own sizing.
BOXED_W = {"LGA1700": 65.0}

# The most of a card's memory a workload may fill for the expert to sell the machine for it: the rest is headroom for
# what the planner's estimate leaves out or cannot know (the CUDA context and kernels, the caching allocator's
# fragmentation, a real data file's longer sequences). Sources: vLLM's `gpu_memory_utilization` defaults to 0.9 (vLLM
# engine arguments, docs.vllm.ai): a serving engine that sizes every tensor itself still leaves 10 % of each GPU
# alone; Hugging Face's "Model training anatomy" (transformers docs) measures the CUDA kernels alone at 1.3 GB
# ("1-2GB") of a GPU before any weight, where the planner counts 0.5 GB of overhead; Answer.AI's FSDP+QLoRA
# benchmarks (github.com/AnswerDotAI/fsdp_qlora, benchmarks_03_2024.md) report Llama 2 7B LoRA at 10.22 GiB of peak
# memory reserved by PyTorch's caching allocator against 9.16 GiB allocated (12 % more). One home: the search's
# qualifying test (fits_with_room), the answer's flag (suggest.answer.fit_text) and the docs read it.
FULL_SHARE = 0.9


def fits_with_room(need_gb: float, vram_gb: float) -> bool:
    """The workload's memory per GPU is at most FULL_SHARE of the card's (exactly 90 % qualifies, above does not)."""
    return need_gb <= FULL_SHARE * vram_gb


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
    # The link generation the platform gives the cards, CPU and board both (a PCIe 4.0 CPU on an A520 board runs
    # at 3.0: rules/link.py): asked for 2+ cards of PCIe 4.0 or newer (x8 per GPU means x8 at the card's own
    # generation), and by the balance stage's link step for one; None: any.
    cpu_pcie_gen: int | None = None
    # The balance stage's: a cooler whose rating is known and covers the CPU (the boxed cooler does not count).
    cooler_known: bool = False
    # A full tower or bench for 2+ open-air cards above HOT_OPEN_AIR_W each (AIRY_CASE).
    airy_case: bool = False
    # Must fit a workload: its memory per GPU at most FULL_SHARE of each card's (fits_with_room; the search's GPU
    # options read it, suggest.search).
    fit_room: bool = False

    @classmethod
    def for_option(cls, q: Any, gpus: int, vram_gb: float, gpu: Gpu | None = None) -> Minimums:
        """q: a suggest.question.Question (its overrides win over the expert's figures); gpu: the option's card
        (the maker's PSU figure and the link generation come from it)."""
        on = bool(q.expert)
        ess = on and bool(getattr(q, "essentials", False))  # the essentials as minimums (Question.essentials)
        ram = q.min_ram_gb if q.min_ram_gb is not None else (max(32.0, vram_gb) if on else 0.0)
        if ess:  # "at least" the RAM asked, and twice the GPU memory
            ram = max(ram, 32.0, 2 * vram_gb)
        cores = q.min_cores if q.min_cores is not None else (max(6, 4 * gpus) if on else 0)
        storage = (
            q.min_storage_gb if q.min_storage_gb is not None else ((1000.0 if gpus < 2 else 2000.0) if on else 0.0)
        )
        psu = psu_floor_w(gpu, gpus) if on and gpu is not None else None
        gen = pcie_gen(gpu) if on and gpu is not None and gpus >= 2 else None
        pcie = 4 if gen and gen >= 4 else None
        airy = on and gpus >= 2 and gpu is not None and hot_open_air(gpu)
        room = on and getattr(q, "fit", None) is not None and bool(getattr(q, "fit_room", True))
        return cls(
            gpus, ram, cores, storage, on, on, on, on and gpus >= 3, psu, pcie, ess, airy_case=airy, fit_room=room
        )

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
            x8 = " at x8" if self.gpus >= 2 else ""
            out.append(f"a PCIe {self.cpu_pcie_gen}.0 CPU and board for PCIe {self.cpu_pcie_gen}.0 cards{x8}")
        if self.psu_w:
            out.append(f"a PSU >= {self.psu_w:,.0f} W by the GPU maker's figure")
        if self.cooler_known:
            out.append("a cooler rated for the CPU's sustained boost power")
        if self.airy_case:
            out.append(f"a full tower or test bench for 2+ open-air cards above {HOT_OPEN_AIR_W:,.0f} W each")
        if self.fit_room:
            out.append(
                f"the workload within {FULL_SHARE:.0%} of each card's memory "
                f"({1 - FULL_SHARE:.0%} headroom for the CUDA context and fragmentation)"
            )
        return out

    def part_ok(self, part: Part) -> bool:
        """The per-part minimums (sizes, not fit)."""
        if isinstance(part, Memory):
            return (part.capacity_gb or 0) >= self.ram_gb - 1e-9
        if isinstance(part, Cpu):
            if self.cpu_pcie_gen and not _gen_at_least(part.pcie_gen, self.cpu_pcie_gen):
                return False
            return (part.cores or 0) >= self.cores
        if self.cpu_pcie_gen and isinstance(part, Motherboard):
            gen = board_gen(part)  # the GPU slot's generation under the chipset's cap; unknown: no
            return gen is not None and gen >= self.cpu_pcie_gen
        if isinstance(part, Psu) and self.psu_w:
            return part.wattage is not None and part.wattage >= self.psu_w - 1e-9
        if isinstance(part, Storage):
            if (part.capacity_gb or 0) < self.storage_gb - 1e-9:
                return False
            return not self.nvme or (part.nvme is True and (part.storage_type or "").upper() == "SSD")
        if isinstance(part, Case) and self.airy_case and AIRY_CASE.search(part.form_factor or "") is None:
            return False
        if isinstance(part, Case) and self.roomy_case:
            return ROOMY_CASE.match(part.form_factor or "") is not None
        return True

    def boxed_ok(self, cpu: Cpu) -> bool:
        """The CPU's boxed cooler may stand as its cooler: it comes with one, and under the balance stage's rated-cooler
        essential (cooler_known) its capacity, where a source gives it (BOXED_W), covers the CPU's sustained power."""
        if not cpu.includes_cooler:
            return False
        rated = BOXED_W.get((cpu.socket or "").replace(" ", "").upper())
        if not self.cooler_known or rated is None:
            return True
        boost = cpu_boost_w(cpu)
        return boost is None or rated >= boost[0]

    def with_cpu(self, cpu: Cpu | None, part: Part) -> bool:
        """The minimums that pair a part with the chosen CPU: the kit's modules fill its channels; the cooler's
        rating covers its sustained boost power (a cooler without a rating passes: the data does not tell); board and
        CPU both give the link generation asked (balance's one-part swaps see the pair, not only the part swapped)."""
        if cpu is None:
            return True
        if self.cpu_pcie_gen and isinstance(part, Motherboard):  # the pair's link: a one-part swap keeps the other
            return self.part_ok(part) and self.part_ok(cpu)
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


def hot_open_air(gpu: Gpu) -> bool:
    """An open-air card above HOT_OPEN_AIR_W of board power (unknown cooling or power: no; other rules fail those)."""
    return open_air(gpu) is True and gpu.tdp_w is not None and gpu.tdp_w > HOT_OPEN_AIR_W


def _gen_at_least(gen: str | None, want: int) -> bool:
    """A CPU's PCIe generation as the catalog spells it ("4.0") against a whole generation; unknown: no."""
    try:
        return gen is not None and float(gen) >= want
    except ValueError:
        return False


class _StrictJudge:
    """The suggester's judge (rigplan.rules.rule.Judge): a rule's warnings in `warn` and its "not checked" in
    `unknown` count against a candidate. Parts are named by kind, not id, so verdicts are shared between builds whose
    parts differ only in identity."""

    by_id = False

    def __init__(self, warn: frozenset[str], unknown: frozenset[str]) -> None:
        self.warn, self.unknown = warn, unknown
        self.tag = ("strict", warn, unknown)

    def reads(self, rule: Rule) -> Mapping[Kind, Facts]:
        return rule.strict_facts

    def keys(self, rule: Rule, c: Ctx, kind: Kind | None, leave_out: str) -> frozenset[Hashable]:
        """Strict warnings by rule and parts (the candidate left out); strict unknowns that concern `kind`. An
        unknown is the candidate's when it names the candidate's kind, even if the build had it before: without a
        CPU, "the CPU's lane count is not known" is there already, and a CPU of unknown lanes must not hide in it."""
        rule.run(c)
        out: set[Hashable] = set()
        warned = [f for f in c.report.findings if f.severity is Severity.WARNING and f.rule in self.warn]
        if warned:
            kinds = {i.part.id: i.part.kind.value for i in c.build.items}
            for f in warned:
                out.add(("w", f.rule, tuple(sorted(kinds.get(p, p) for p in f.parts if p != leave_out))))
        unknown = [n for n in c.report.not_checked if n.rule in self.unknown and kind in n.kinds]
        if unknown and rule.strict_unknown_in(c.build):  # c.build made only then (Ctx.plus makes it on first use)
            out.update(("u", n.rule, n.reason) for n in unknown)
        return frozenset(out)


class Strict:
    """The rules' warnings in `warn` and their "not checked" in `unknown` counted as failures (module docstring).

    The verdicts are rigplan.rules.rule's masking with the strict judge: each rule is run once per distinct value
    of the facts it reads (Rule.strict_facts) among a table's candidates, keyed by its fingerprint of the build
    (without part ids), and remembered in the table's own cache (rules.rule.TableCache)."""

    def __init__(self, warn: frozenset[str], unknown: frozenset[str]) -> None:
        self.warn, self.unknown = warn, unknown
        self.judge_ = _StrictJudge(warn, unknown)
        self.rules = [r for r in RULES if set(r.ids) & (warn | unknown)]
        self.recommends = bool(warn & RECOMMENDS)  # psu-wattage's warning fails a part: follow the recommendation
        # stack_fails' verdicts by the GPU-only rules' facts of a card and the count (a few dozen values in all).
        self.stacks: dict[Hashable, bool] = {}

    @property
    def active(self) -> bool:
        return bool(self.rules)

    def judge(self, base: Build, table: KindTable, single: bool, power_only: bool = False) -> Callable[[int], bool]:
        """A test for one row of `table` put into `base` (power_only: the POWER rules alone, the others having been
        applied by `mask`)."""
        kind = table.kind
        ctx = Ctx(base)
        found = [
            verdicts(r, self.judge_, ctx, table, single)
            for r in self.rules
            if kind in r.strict_facts and (not power_only or r.power is not Power.NONE)
        ]

        def ok(row: int) -> bool:
            return all(v.row(row) for v in found)

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
        ctx = Ctx(base)  # one view of the base for every rule
        for rule in self.rules:
            reads = rule.strict_facts
            if rule.power is not Power.NONE or kind not in reads or (new is not None and new not in reads):
                continue
            if not out.any():
                break
            out &= verdicts(rule, self.judge_, ctx, table, single).mask(out)
        return out

    def failures(self, report: Report, build: Build) -> list[str]:
        """What in a complete build's report the search does not accept: each strict warning and unknown, said.
        build: the build judged, for rules whose "not checked" is strict only where a predicate holds on it."""
        out = [
            f"{f.rule}: {f.message}" for f in report.findings if f.severity is Severity.WARNING and f.rule in self.warn
        ]
        out += [
            f"{n.rule}: not checked ({n.reason})"
            for n in report.not_checked
            if n.rule in self.unknown and BY_ID[n.rule].strict_unknown_in(build)
        ]
        return out


_SHARED: dict[tuple[frozenset[str], frozenset[str]], Strict] = {}


def strict_for(q: Any) -> Strict:
    """The strictness a question asks for (suggest.question.Question). Shared between searches: the explanation
    runs several, and the verdicts are keyed by everything they read (the rules' fingerprints), so they carry over."""
    key = (WARN if q.expert else frozenset(), frozenset() if q.allow_missing_data else UNKNOWN)
    if key not in _SHARED:
        _SHARED[key] = Strict(*key)
    return _SHARED[key]


def gpu_unknowns(gpu: Part, unknown: frozenset[str]) -> set[str]:
    """The rules in `unknown` that leave this GPU "not checked" whatever else the build holds."""
    if not unknown:
        return set()
    c = Ctx(Build(name="one GPU", items=(BuildItem(part=gpu),)))
    for rule in GPU_ONLY:
        rule.run(c)
    return {n.rule for n in c.report.not_checked if n.rule in unknown}


def stack_fails(gpu: Part, count: int, strict: Strict) -> bool:
    """`count` of these cards fail a GPU-only rule for `strict` in every build: e.g. 3+ open-air cards packed side by
    side (gpu-spacing's warning: they recirculate each other's exhaust and throttle) or of unknown cooling (its "not
    checked"). Blower, liquid-cooled and passive cards pass."""
    rules = [r for r in GPU_ONLY if set(r.ids) & (strict.warn | strict.unknown)]
    if not rules:
        return False
    key = (tuple(r.strict_facts[Kind.GPU](gpu) for r in rules), count)  # what those rules read of the card
    hit = strict.stacks.get(key)
    if hit is None:
        c = Ctx(Build(name="GPUs", items=(BuildItem(part=gpu, quantity=count),)))
        for rule in rules:
            rule.run(c)
        hit = strict.stacks[key] = bool(strict.failures(c.report, c.build))
    return hit
