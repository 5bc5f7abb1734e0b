"""Spend the budget on balance: once the GPUs are fixed, the rest of the money goes where an expert puts it.

The exact search finds the best GPUs and the cheapest build around them that meets the minimums. That build sits at
the floor (a $10 cooler on a $5,500 box, 32 GB of RAM beside 64 GB of GPU memory). This second stage raises the
minimums one at a time, in the order an expert spends, keeping each step the budget still allows; each step is the
exact cheapest completion of the same GPUs under the raised minimums (Search.complete), so a step never breaks a
check, and the GPUs (what the goal ranks) never change.

The order and its figures (docs/suggest.md cites them). The first three are the essentials, bought for every goal
(the break-even and cheapest goals too, whose figures are then recomputed for the build answered); the rest only
spends what the budget leaves, for the goals that rank GPUs (throughput, GPU memory):
1. a board that wires every GPU at x8 or better: already a minimum for 2+ GPUs (gpu-lanes' warning fails a build);
2. essential: system RAM toward twice the GPUs' total memory (Puget Systems: "at least double the total VRAM"); out
   of the money's reach, the most RAM it does reach, the target still not met (suggest.ram_step);
3. essential: CPU cores, 4 per GPU (Puget Systems: "a minimum of 4 cores per GPU accelerator"; the expert's minimum
   already asks it, so this step is bought as soon as a --min-cores below it is not asked);
4. essential: a cooler whose rating covers the CPU's sustained boost power (only where the catalog rates coolers: a
   cooler that cannot carry the CPU's heat throttles it; the boxed cooler the CPU's maker sizes for it counts);
5. CPU cores: 16 at least (Puget Systems: "16 cores is considered minimal for this type of workstation");
6. storage: 2 TB NVMe for one GPU, 4 TB from two (Lambda's and Bizon's 2-4 GPU workstations ship 2-4 TB NVMe);
7. one GPU of PCIe 4.0 or newer on an older link (a PCIe 3.0 CPU, an A520 board): a PCIe 4.0 or newer link, CPU and
   board (TechPowerUp: an RTX 5090 about 4 % slower in games at PCIe 3.0 x16 than at 5.0 x16, 1 % at 4.0 x16;
   Puget Systems: about 10 % slower in DaVinci Resolve at 16 GB/s, none at 32 GB/s; rules/link.py). Last before
   the PSU: a few percent, bought only with what the steps before leave;
8. PSU headroom: 10 % over the larger of the GPU maker's figure and RigPlan's recommended size.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rigplan.model.build import Build, BuildItem
from rigplan.model.parts import Cooler, Cpu, Kind, Part, Psu
from rigplan.rules.compat import SINGLE, compatible_mask
from rigplan.rules.power import estimate_power, recommended_psu, spike_rated
from rigplan.suggest.expert import Minimums
from rigplan.suggest.found import Found
from rigplan.suggest.link_step import LINK_GEN, link_short
from rigplan.suggest.ram_step import Toward, toward

if TYPE_CHECKING:
    import numpy as np

    from rigplan.suggest.search import Search

PLATFORM = (Kind.MOTHERBOARD, Kind.CPU, Kind.MEMORY)  # the split's "platform"; PSU, case, drive, cooler: "rest"
HEADROOM = 1.10


@dataclass(frozen=True)
class Step:
    what: str
    bought: bool
    extra_usd: float | None = None  # what it added (bought) or would add (not bought; None: not found within reach)
    essential: bool = False  # one of the essentials (RAM toward twice the GPU memory, 4 cores per GPU, rated cooler)
    over_usd: float | None = None  # not bought: the cheapest build with it, less the budget (what the budget lacks)
    beyond_usd: float | None = None  # not bought, none within a quarter over the budget: the cheapest build with it
    why: str | None = None  # not bought and no priced build has it at any price: why (balance._none_has)
    kind: Kind | None = None  # not bought at any price: the kind of part the step raises (what _none_has reads)
    already: bool = False  # bought: the build had it before the step (else a part was swapped, maybe at +$0)
    toward: Toward | None = None  # not bought in full: the RAM bought toward it (suggest.ram_step; still not "met")


@dataclass
class Balance:
    found: Found
    steps: list[Step] = field(default_factory=list)
    split_usd: tuple[float, float, float] = (0.0, 0.0, 0.0)  # GPUs, platform (board, CPU, RAM), rest
    remainder_usd: float = 0.0
    essentials_only: bool = False  # the goal spends on the essentials only (break-even, cheapest-...)


def split(found: Found) -> tuple[float, float, float]:
    gpus = found.option.cost_usd
    platform = sum(p for part, p in found.parts if part.kind in PLATFORM)
    return gpus, platform, found.total_usd - gpus - platform


Target = Callable[[Minimums], tuple[str, Minimums, Kind]]


def _targets(s: Search, found: Found, essentials_only: bool) -> list[tuple[Target, bool]]:
    """Each step of the order as a change to the minimums reached so far, and whether it is an essential
    (essentials_only: the essentials alone)."""
    o = found.option
    n = o.count

    def ram(need: Minimums) -> tuple[str, Minimums, Kind]:
        gb = max(need.ram_gb, 2 * o.vram_gb)
        return f"system RAM >= {gb:g} GB (twice the GPUs' {o.vram_gb:g} GB)", replace(need, ram_gb=gb), Kind.MEMORY

    def per_gpu(need: Minimums) -> tuple[str, Minimums, Kind]:
        want = max(need.cores, 4 * n)
        why = "4 per GPU" if want == 4 * n else f"4 per GPU: {4 * n}; the minimum asked: {want}"
        return f"CPU cores >= {want} ({why})", replace(need, cores=want), Kind.CPU

    def cores(need: Minimums) -> tuple[str, Minimums, Kind]:
        want = max(need.cores, 4 * n, 16)
        return f"CPU cores >= {want}", replace(need, cores=want), Kind.CPU

    def storage(need: Minimums) -> tuple[str, Minimums, Kind]:
        gb = max(need.storage_gb, 2000.0 if n < 2 else 4000.0)
        return f"an NVMe SSD >= {gb / 1000:g} TB", replace(need, storage_gb=gb), Kind.STORAGE

    def cooler(need: Minimums) -> tuple[str, Minimums, Kind]:
        return "a cooler rated for the CPU's sustained boost power", replace(need, cooler_known=True), Kind.COOLER

    short_link = link_short(o.part, n, [p for p, _ in found.parts])

    def link(need: Minimums) -> tuple[str, Minimums, Kind]:
        now, kind = short_link or ("", Kind.MOTHERBOARD)
        want = max(need.cpu_pcie_gen or 0, LINK_GEN)
        return f"a PCIe {want}.0 or newer link for the GPU (now {now})", replace(need, cpu_pcie_gen=want), kind

    # Cores in two steps: 4 per GPU first (Puget's floor, an essential), then 16, so a circuit or budget that rules
    # out a 16-core part (two RTX 5090 beside a 230 W Ryzen 9 exceed a 120 V / 15 A circuit) still gets 4 per GPU.
    out: list[tuple[Target, bool]] = [(ram, True), (per_gpu, True)]
    if any(isinstance(p, Cooler) and p.rated_tdp_w for p in s.cands.sub.table(Kind.COOLER).parts()):
        out.append((cooler, True))  # only where the catalog rates coolers: else no cooler could meet it
    if essentials_only:
        return out
    return [*out, (cores, False), (storage, False), *([(link, False)] if short_link else [])]


def _psu_target(s: Search, found: Found, need: Minimums) -> tuple[str, Minimums] | None:
    """The PSU headroom step's minimums (None: the build's power is not known)."""
    est = estimate_power(found.build(s.a))
    if est.unknown:
        return None
    # RigPlan's recommended size has its margin already (docs/checks.md); the maker's figure gets 10 % on top.
    psu = found.build(s.a).first(Kind.PSU)
    rec = float(recommended_psu(est.load_w, est.gpu_w, spike_rated(psu if isinstance(psu, Psu) else None)))
    want = max(math.ceil((need.psu_w or 0.0) * HEADROOM / 50) * 50, rec)
    why = (
        f"10 % over the GPU maker's {need.psu_w:,.0f} W" if need.psu_w and want > rec else "RigPlan's recommended size"
    )
    return f"a PSU >= {want:,.0f} W ({why})", replace(need, psu_w=want)


SWAP_TRIES = 40  # candidates tried for one part's swap before the whole build is searched again


def _swap(s: Search, found: Found, need: Minimums, cap: float, kind: Kind) -> Found | None:
    """The step as an expert takes it: the one part of `kind` swapped for the cheapest that meets the raised minimum
    and passes every check and strict verdict beside the rest of the build (None: no such swap; the caller then
    searches the whole build again, e.g. when more RAM needs another board)."""
    parts = list(found.parts)
    here = next((i for i, (p, _) in enumerate(parts) if p.kind is kind), None)
    if here is None and kind is Kind.COOLER:  # the boxed cooler does not do: a cooler beside the rest
        return _with_cooler(s, found, parts, cap, need)
    if here is None:
        return None
    price = parts[here][1]
    table = s.cands.sub.table(kind)
    ok = _swap_mask(s, found, parts, here, kind)
    tried = 0
    repower = [REPOWER_TRIES if kind is Kind.CPU else 0]
    for usd, row in s.cands.lists[kind]:
        if not ok[row]:
            continue
        part = table.part(row)
        if not need.part_ok(part):
            continue
        total = found.total_usd - price + usd
        if total > cap + 1e-9:
            return None
        trial = [*parts[:here], (part, usd), *parts[here + 1 :]]
        if isinstance(part, Cpu):
            old = next(((p, u) for p, u in trial if isinstance(p, Cooler)), None)
            bare: list[tuple[Part, float]] = [(p, u) for p, u in trial if not isinstance(p, Cooler)]
            if old is None or not need.with_cpu(part, old[0]):
                tried += 1
                if need.boxed_ok(part):
                    trial, total = bare, total - (old[1] if old else 0.0)  # the boxed cooler will do
                else:  # a CPU without a boxed cooler needs one: the cheapest of the first few that passes
                    got = _with_cooler(s, found, bare, cap, need, repower)
                    if got is not None:
                        return got
                    if tried > SWAP_TRIES:
                        return None
                    continue
        if not all(need.with_cpu(_cpu(trial), p) for p, _ in trial):
            continue
        tried += 1
        if tried > SWAP_TRIES:
            return None
        got = _accept(s, Found(found.option, tuple(trial), total, own=found.own), need, cap, repower)
        if got is not None:
            return got
    return None


def _swap_mask(s: Search, found: Found, parts: list[tuple[Part, float]], here: int, kind: Kind) -> np.ndarray:
    """The candidates of `kind` the rules' vectorised filter and the strict verdicts accept beside the rest of the
    build (the part at `here` left out): the tries go to parts that can pass (a PSU swap in a Mini-ITX case tried 40
    ATX units first). A CPU swap may change the cooler too (the board, so the socket, stays; a cooler rated for the
    old CPU may not carry the new one, and cooler-capacity's strict warning would hide every hotter CPU): the CPUs
    are judged beside the rest without it, and the cooler is kept, dropped for the boxed one, or chosen again."""
    loose = kind is Kind.CPU
    others = [p for i, (p, _) in enumerate(parts) if i != here and not (loose and isinstance(p, Cooler))]
    return _mask(s, found, others, kind)


def _mask(s: Search, found: Found, around: list[Part], kind: Kind) -> np.ndarray:
    """The rows of `kind` the rules' vectorised filter and (when on) the strict verdicts accept beside found's GPUs
    and the parts `around`."""
    base = Build(
        items=(BuildItem(part=found.option.part, quantity=found.option.count), *(BuildItem(part=p) for p in around)),
        assumptions=s.a,
    )
    ok = compatible_mask(base, kind, s.cands.sub)
    if s.strict.active:
        ok = s.strict.mask(base, s.cands.sub.table(kind), kind in SINGLE, ok)
    return ok


REPOWER_TRIES = 3  # CPU candidates whose build is tried again with the PSU re-chosen (a hotter CPU needs more)


def _accept(s: Search, cand: Found, need: Minimums, cap: float, repower: list[int]) -> Found | None:
    """cand when the search would take it; else, while `repower` has tries left, cand with its PSU swapped for the
    cheapest that passes beside it (a 16-core CPU's 219 W can put the build over its PSU's recommended size)."""
    if s.accepts(cand):
        return cand
    if repower and repower[0] > 0:
        repower[0] -= 1
        return _swap(s, cand, need, cap, Kind.PSU)
    return None


def _with_cooler(
    s: Search,
    found: Found,
    parts: list[tuple[Part, float]],
    cap: float,
    need: Minimums,
    repower: list[int] | None = None,
) -> Found | None:
    """The parts with the cheapest cooler that passes beside them (the rules' vectorised filter and the strict
    verdicts first, then the cooler minimums; SWAP_TRIES builds judged at most), or None."""
    table = s.cands.sub.table(Kind.COOLER)
    cpu = _cpu(parts)
    base = sum(p for _, p in parts) + found.option.cost_usd
    ok = _mask(s, found, [p for p, _ in parts], Kind.COOLER)
    tried = 0
    for usd, row in s.cands.lists[Kind.COOLER]:
        if base + usd > cap + 1e-9:
            return None
        cooler = table.part(row)
        if not ok[row] or not need.with_cpu(cpu, cooler):
            continue
        tried += 1
        if tried > SWAP_TRIES:
            return None
        got = _accept(
            s, Found(found.option, (*parts, (cooler, usd)), base + usd, own=found.own), need, cap, repower or []
        )
        if got is not None:
            return got
    return None


def _meets(found: Found, need: Minimums) -> bool:
    """The build meets these minimums as it is: each part's size and its pairing with the CPU (the rest of what the
    minimums ask, fit and power, does not change when only the minimums do)."""
    parts = [p for p, _ in found.parts]
    cpu = _cpu(list(found.parts))
    if cpu is not None and not any(isinstance(p, Cooler) for p in parts) and not need.boxed_ok(cpu):
        return False  # the boxed cooler does not carry it (expert.BOXED_W)
    return all(need.part_ok(p) and need.with_cpu(cpu, p) for p in parts) and need.part_ok(found.option.part)


def _cpu(parts: list[tuple[Part, float]]) -> Cpu | None:
    return next((p for p, _ in parts if isinstance(p, Cpu)), None)


def _step(
    s: Search,
    out: Balance,
    need: Minimums,
    what: str,
    trial: Minimums,
    kind: Kind,
    cap: float,
    essential: bool = False,
) -> Minimums:
    """One step of the order on out.found: bought (out.found changes) or not (said, with what it would cost or why
    no priced build has it); returns the minimums reached."""
    if trial == need:
        out.steps.append(Step(what, True, 0.0, essential, already=True))
        return need
    o = out.found.option
    if _meets(out.found, trial):  # the build has it already (a boxed cooler the rating step accepts, a kit)
        out.steps.append(Step(what, True, 0.0, essential, already=True))
        return trial
    got = _swap(s, out.found, trial, cap, kind) or s.complete(o, cap, need=trial)
    if got is not None:
        out.steps.append(Step(what, True, got.total_usd - out.found.total_usd, essential))
        out.found = got
        return trial
    step = Step(what, False, None, essential)  # a later step: no build within the budget has it (searched above)

    def reach(m: Minimums) -> Found | None:
        return _swap(s, out.found, m, cap, kind) or s.complete(o, cap, need=m)

    part = toward(s, out.found, need, trial, reach) if kind is Kind.MEMORY else None
    if part is not None:  # the most RAM the money reaches below the target (suggest.ram_step); later steps keep it
        out.found, need, step = part[0], part[1], replace(step, toward=part[2])
    if not any(not st.bought for st in out.steps):  # the first not bought: what it costs, searched once
        # The exact cheapest build of these GPUs with it: every other part at the cheapest that passes, so no
        # non-essential part (board, PSU, drive, case) can give the difference back. Within a quarter over the
        # budget its price is said; beyond, at any price (or why no priced build has it at all).
        dear = s.complete(o, cap * 1.25, need=trial)
        if dear is not None:
            step = replace(step, extra_usd=dear.total_usd - out.found.total_usd, over_usd=dear.total_usd - cap)
        else:
            step = _beyond(s, out.found, trial, kind, step)
    out.steps.append(step)
    return need


def _beyond(s: Search, found: Found, trial: Minimums, kind: Kind, step: Step) -> Step:
    """A step no build within a quarter over the budget has: the cheapest build of these GPUs with it at any price
    (its price said, so "more than the budget leaves" is a figure, not a guess), or, when no priced build has it at
    all, the reason read off the catalog (a cooler rating, a board's memory) instead of a budget that does not bind."""
    anywhere = s.complete(found.option, math.inf, need=trial)
    if anywhere is not None:
        return replace(step, beyond_usd=anywhere.total_usd)
    return replace(step, kind=kind)  # why: read off the final build (balance), whose parts the answer shows


def _none_has(s: Search, found: Found, kind: Kind | None) -> str:
    """Why no priced build of found's GPUs that passes the checks has the step, at any price, read off found (the
    answer's build: the reason names its parts)."""
    parts = [p for p, _ in found.parts]
    cpu = _cpu(list(found.parts))
    if kind is Kind.COOLER and cpu is not None:
        fit = _mask(s, found, [p for p in parts if not isinstance(p, Cooler)], Kind.COOLER)
        table = s.cands.sub.table(Kind.COOLER)
        rows = [row for _, row in s.cands.lists[Kind.COOLER] if fit[row]]
        rated = [row for row in rows if getattr(table.part(row), "rated_tdp_w", None)]
        socket = cpu.socket or "this CPU's socket"
        if not rated:
            return (
                f"none of the {len(rows)} priced coolers that fit the {socket} CPU beside these parts has a rating in"
                " the data (a maker's figure or a published measurement, parts/cooler-ratings.yaml)"
            )
        return (
            f"none of the {len(rated)} rated priced coolers that fit the {socket} CPU carries its sustained boost power"
        )
    if kind is Kind.MEMORY:
        board = next((p for p in parts if p.kind is Kind.MOTHERBOARD), None)
        most = getattr(board, "max_memory_gb", None)
        fit = _mask(s, found, [p for p in parts if p.kind is not Kind.MEMORY], Kind.MEMORY)
        table = s.cands.sub.table(Kind.MEMORY)
        kits = [
            getattr(table.part(row), "capacity_gb", None) or 0.0 for _, row in s.cands.lists[Kind.MEMORY] if fit[row]
        ]
        largest = (
            f"the largest priced kit the answer's board takes is {max(kits):g} GB" if kits else "no priced kit fits it"
        )
        held = f" (it holds at most {most:g} GB)" if most else ""
        return (
            f"no priced build of these GPUs that passes takes that much in one kit: {largest}{held}; a build holds one"
            " memory kit (docs/suggest.md)"
        )
    return "no priced build of these GPUs that passes the checks has it, at any price"


def _no_build(st: Step) -> bool:
    """A step not bought that no priced build of the GPUs has at any price (_beyond set its kind, no price)."""
    return not st.bought and st.kind is not None and st.extra_usd is None and st.beyond_usd is None


def balance(s: Search, found: Found, essentials_only: bool = False) -> Balance:
    """The build around found's GPUs with the budget spent in the expert's order (module docstring); essentials_only:
    the essentials alone (the goals that do not rank GPUs: every dollar more is a worse answer there)."""
    out = Balance(found, essentials_only=essentials_only)
    cap = s.budget_usd()
    o = found.option
    need = Minimums.for_option(s.q, o.count, o.vram_gb, o.part)
    if o.count >= 2:
        out.steps.append(Step("a board that wires every GPU at x8 or better", True, 0.0, already=True))
    for target, essential in _targets(s, found, essentials_only):
        need = _step(s, out, need, *target(need), cap, essential)
    psu = None if essentials_only else _psu_target(s, out.found, need)  # the PSU last: it depends on the rest
    if psu is not None:
        _step(s, out, need, *psu, Kind.PSU, cap)
    out.steps = [replace(st, why=_none_has(s, out.found, st.kind)) if _no_build(st) else st for st in out.steps]
    out.split_usd = split(out.found)
    out.remainder_usd = max(0.0, cap - out.found.total_usd)
    return out
