"""`rigplan suggest --budget 5000 --gpus 2 --min-vram 24 [--beat aws:p3.2xlarge] [--json] [-o FILE]`: the best build
under a budget; with --beat, the build that breaks even soonest against that cloud offer.

Exit 0 with an answer, 2 for bad input or impossible constraints (one line: "no priced 2-GPU build fits $1,500: the
cheapest is $1,912").
"""

from __future__ import annotations

import argparse
from typing import Any

from rigplan.cli.argtypes import number, whole
from rigplan.cli.assumption_flags import add_assumption_flags, apply_assumption_flags
from rigplan.cli.output import print_json
from rigplan.cli.suggest_output import json_out, print_text
from rigplan.model.common import MAX_AMOUNT


def resolve_offer(text: str, region: str | None, pricing: Any) -> Any:
    """An offer from its id ("aws:p3.2xlarge:us-east-1"), "provider:instance" or an instance type; the same choice
    among regions as `rigplan cost --instance` (current prices, us-east-1 first, then the cheapest)."""
    from rigplan.cli.cost import _pick_offer
    from rigplan.cli.main import UsageError
    from rigplan.cloud.store import offers_in_use

    catalog = offers_in_use()  # bundled, or the user's updated prices
    if catalog.problem:
        raise UsageError(f"cloud prices unavailable: {catalog.problem}")
    if catalog.get(text):
        return catalog.get(text)
    provider, _, instance = text.rpartition(":")
    if provider and provider.lower() in catalog.providers():
        hits = catalog.find(provider=provider, instance=instance, region=region)
        if not hits:
            raise UsageError(f"unknown cloud offer {text!r}; see 'rigplan instances list --provider {provider}'")
        text = instance
        catalog = type(catalog)(hits)
    return _pick_offer(catalog, text, region, pricing, None)


def _own_prices(path: str | None, mine: bool) -> tuple[tuple[str, Any], ...]:
    """Your catalog prices (`rigplan import prices --catalog`) with --my-prices, and the prices a build file gives its
    parts (its own prices win), by catalog part id."""
    from rigplan.cli.main import UsageError

    out: dict[str, Any] = {}
    if mine:
        from rigplan.imports.user_prices import UserPricesError, load_user_prices

        try:
            out.update(load_user_prices())
        except UserPricesError as exc:
            raise UsageError(f"--my-prices: {exc}") from None
    if not path:
        return tuple(out.items())
    from rigplan.files import BuildFileError, load

    try:
        build = load(path)
    except BuildFileError as exc:
        raise UsageError(f"--prices-from: {exc}") from None
    except OSError as exc:
        raise UsageError(f"--prices-from: cannot read {path}: {exc.strerror or exc}") from None
    out.update((i.part.id, i.price_override) for i in build.items if i.price_override and not i.part.custom)
    return tuple(out.items())


def fit_need(
    model: str, task: str, seq: int | None = None, batch: int | None = None, weights: str | None = None
) -> Any:
    """ "Must fit this workload" as the suggester's data: rigplan.workload sizes the memory per GPU on 1 to 8 GPUs
    (the layers keep suggest and workload apart, so the composition is here and in the GUI's dialog)."""
    from rigplan.model.workload import WorkloadSpec
    from rigplan.suggest import FitNeed
    from rigplan.workload import WorkloadError
    from rigplan.workload.fit import memory_table

    spec = WorkloadSpec(
        model=model,
        task=task,  # type: ignore[arg-type]
        seq=seq or 2048,
        batch=batch or 1,
        weights=weights,  # type: ignore[arg-type]
    )
    try:
        table = memory_table(spec, range(1, 9))
    except WorkloadError as exc:  # the planner names its own flags; here they are the --fit-... ones
        raise WorkloadError(str(exc).replace("--seq", "--fit-seq").replace("--weights", "--fit-weights")) from None
    return FitNeed(table.label, table.per_gpu_gb)


def check_includes(ids: list[str] | None) -> None:
    """Every --include names a catalog part: an unknown id is one line and exit 2 (issue 35: it was dropped
    silently and the answer came without the part)."""
    from rigplan.catalog import load_catalog
    from rigplan.cli.main import UsageError

    if not ids:
        return
    catalog = load_catalog()
    unknown = [i for i in ids if i not in catalog]
    if unknown:
        raise UsageError(
            f"--include {unknown[0]!r}: no part with this id in the catalog"
            + (f" (nor {', '.join(map(repr, unknown[1:]))})" if unknown[1:] else "")
            + "; find part ids with `rigplan parts list`"
        )


def cmd_suggest(ns: argparse.Namespace) -> int:
    from rigplan.catalog import load_catalog
    from rigplan.cli.main import UsageError
    from rigplan.suggest import SuggestError, suggest

    check_includes(ns.include)
    try:
        a, q = _question(ns)
        sug = suggest(load_catalog(), a, q)
    except (SuggestError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    rate = sug.total / sug.found.total_usd if sug.found.total_usd else 1.0
    if ns.output:
        _write(ns, sug)
    if ns.json:
        print_json(json_out(sug, q, a, rate))
    else:
        print_text(sug, q, a, rate, ns.output)
    return 0


def _question(ns: argparse.Namespace) -> tuple[Any, Any]:
    """The assumptions and the question the flags ask; SuggestError names a flag that makes no sense."""
    from rigplan.model.assumptions import Assumptions
    from rigplan.suggest import Goal, Question, SuggestError

    a = apply_assumption_flags(ns, Assumptions())
    if ns.work_hours_per_year is not None:  # the stated amount of work, as hours a day over the year
        if not 0 < ns.work_hours_per_year <= 8766:
            raise SuggestError(f"--work-hours-per-year must be 1 to 8766, not {ns.work_hours_per_year:g}")
        a = a.model_copy(update={"hours_per_day": ns.work_hours_per_year / 365.25})
    beat = resolve_offer(ns.beat, ns.region, a.pricing) if ns.beat else None
    fit = None
    if ns.fit_model:
        fit = fit_need(ns.fit_model, ns.fit_task, ns.fit_seq, ns.fit_batch, ns.fit_weights)
    elif any(v is not None for v in (ns.fit_seq, ns.fit_batch, ns.fit_weights)) or ns.fit_task != "lora":
        raise SuggestError("--fit-task, --fit-seq, --fit-batch and --fit-weights need --fit-model")
    goal = Goal(ns.goal) if ns.goal else (Goal.BREAKEVEN if beat is not None else Goal.THROUGHPUT)
    if beat is not None and goal is not Goal.BREAKEVEN:
        raise SuggestError("--beat asks for the earliest break-even; leave out --goal or use --goal breakeven")
    q = Question(
        budget=ns.budget,
        currency=a.currency,  # --currency (an assumption flag) sets the budget's currency too
        goal=goal,
        target=ns.target,
        gpus=ns.gpus,
        max_gpus=ns.max_gpus,
        min_vram_gb=ns.min_vram,
        min_ram_gb=ns.min_ram,
        min_storage_gb=ns.min_storage,
        min_cores=ns.min_cores,
        expert=not ns.no_expert_minimums,
        allow_missing_data=ns.allow_missing_data,
        case_form=ns.case,
        include=tuple(ns.include or ()),
        beat=beat,
        own_prices=_own_prices(ns.prices_from, ns.my_prices),
        fit=fit,
    )
    return a, q


def _write(ns: argparse.Namespace, sug: Any) -> None:
    from rigplan.cli.main import UsageError
    from rigplan.files import save, with_build_suffix

    ns.output = str(with_build_suffix(ns.output))  # `-o mybuild` writes mybuild.rigplan (issue 18)
    try:
        save(sug.build, ns.output, inputs=(ns.prices_from,))  # never over the build it took prices from
    except OSError as exc:
        raise UsageError(f"cannot write {ns.output}: {exc.strerror or exc}") from None


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("suggest", help="the best build under a budget (exact search over the priced catalog)")
    p.add_argument(
        "--budget",
        type=number("--budget", 0, MAX_AMOUNT, above_lo=True),
        help="the most to spend on parts, in --currency (default USD)",
    )
    p.add_argument(
        "--goal",
        choices=["throughput", "vram", "cheapest-throughput", "cheapest-vram", "breakeven"],
        help="what to maximise, or the cheapest build reaching --target (default: throughput; breakeven with --beat)",
    )
    p.add_argument(
        "--beat",
        metavar="OFFER",
        help="a cloud offer (aws:p3.2xlarge, or an offer id): the build that breaks even soonest against it",
    )
    p.add_argument("--region", help="the region of the --beat offer (default: us-east-1 when offered)")
    p.add_argument(
        "--prices-from",
        metavar="BUILD",
        help="my own prices too: the prices this build file gives its parts replace the catalog's",
    )
    p.add_argument(
        "--my-prices",
        action="store_true",
        help="my own prices too: your catalog prices (rigplan import prices --catalog) replace the catalog's",
    )
    p.add_argument(
        "--target",
        type=number("--target", 0, 1e6, above_lo=True),
        help="V100-equivalents or GB of GPU memory, for the cheapest-... goals",
    )
    p.add_argument("--gpus", type=whole("--gpus", 1, 8), help="exactly this many GPUs (default: 1 to --max-gpus)")
    p.add_argument(
        "--max-gpus", type=whole("--max-gpus", 1, 8), default=4, help="the most GPUs to consider (default 4)"
    )
    p.add_argument("--min-vram", type=number("--min-vram", 0, 1e6), default=0.0, help="GB of memory per GPU, at least")
    p.add_argument(
        "--min-ram",
        type=number("--min-ram", 0, 1e7),
        help="GB of system memory, at least (one kit; default: the GPUs' memory, 32 GB at least)",
    )
    p.add_argument(
        "--min-storage",
        type=number("--min-storage", 0, 1e8),
        help="GB of storage, at least (one drive; default: 1000, 2000 from 2 GPUs)",
    )
    p.add_argument(
        "--min-cores",
        type=whole("--min-cores", 1, 512),
        help="CPU cores, at least (default: 4 per GPU, 6 at least)",
    )
    p.add_argument(
        "--no-expert-minimums",
        action="store_true",
        help="drop the expert's minimums (RAM, cores, x8 lanes, NVMe SSD, PSU and connectors without a warning, "
        "a roomy case for 3+ GPUs, a --fit-model workload within 90%% of each card's memory): any build that "
        "check() passes with no error",
    )
    p.add_argument(
        "--allow-missing-data",
        action="store_true",
        help="allow parts whose data leaves a rule that matters 'not checked' (the answer lists every such rule)",
    )
    p.add_argument(
        "--work-hours-per-year",
        type=number("--work-hours-per-year", 0, 8784, above_lo=True),
        help="the work the build does, for --beat (default: the assumptions' hours a day x 365)",
    )
    p.add_argument(
        "--fit-model",
        metavar="ID|CONFIG.json",
        help="must fit this workload: a model (rigplan workload's ids, e.g. llama-3.1-70b, or a config.json); "
        "every GPU holds the memory per GPU it needs on that many GPUs",
    )
    p.add_argument("--fit-task", choices=["full", "lora", "qlora", "inference"], default="lora", help="default: lora")
    p.add_argument("--fit-seq", type=whole("--fit-seq", 1, 1_048_576), help="sequence length (default 2048)")
    p.add_argument("--fit-batch", type=whole("--fit-batch", 1, 4096), help="micro-batch per GPU (default 1)")
    p.add_argument("--fit-weights", choices=["bf16", "fp16", "int8", "int4"], help="inference weights (default bf16)")
    p.add_argument(
        "--case",
        help="case size class as the catalog names it ('ATX Mid Tower'), a board size (Mini-ITX, ITX, SFF, mATX, ATX, "
        "E-ATX) or a kind (Mid Tower, Full Tower)",
    )
    p.add_argument("--include", action="append", metavar="PART_ID", help="a catalog part that must be in the build")
    p.add_argument("-o", "--output", help="write the suggested build to this build file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_assumption_flags(p)
    p.set_defaults(func=cmd_suggest)
