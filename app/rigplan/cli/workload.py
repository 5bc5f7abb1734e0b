"""`rigplan workload`: will a model fit, how fast will it run, and what does one job cost here and in the cloud."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

from rigplan.cli.main import UsageError
from rigplan.cli.output import print_json, table
from rigplan.model.assumptions import Pricing
from rigplan.model.workload import MAX_BATCH, MAX_SEQ, Strategy, Task, Weights, WorkloadSpec


def _whole(name: str, upper: int):  # noqa: ANN202 - argparse type
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, not {text!r}") from None
        if not 1 <= v <= upper:
            raise argparse.ArgumentTypeError(f"{name} must be between 1 and {upper:,}, not {text}")
        return v

    return parse


def _v100_hours(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--hours-on-v100 must be a number of hours, not {text!r}") from None
    if not math.isfinite(v) or v <= 0 or v > 1e7:
        raise argparse.ArgumentTypeError(f"--hours-on-v100 must be above 0 and at most 1e7, not {text}")
    return v


def _tokens(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--tokens must be a number (e.g. 2e8), not {text!r}") from None
    if not math.isfinite(v) or v <= 0 or v > 1e15:
        raise argparse.ArgumentTypeError(f"--tokens must be a number above 0 and at most 1e15, not {text}")
    return v


LLM_ONLY = ("task", "weights", "seq", "batch", "gpus", "strategy", "tokens")


def _measured_spec(ns: argparse.Namespace, saved: WorkloadSpec | None) -> WorkloadSpec | None:
    """The spec of a measured model (resnet50, bert-large...), or None for a language model."""
    from rigplan.workload.measured import is_measured

    model = ns.model or (saved.model if saved else None)
    if not model or not is_measured(model):
        if ns.hours_on_v100 is not None:
            raise UsageError("--hours-on-v100 is for the measured models (resnet50, bert-large...); give --tokens")
        return None
    given = [f"--{k}" for k in LLM_ONLY if getattr(ns, k) is not None] + (["--no-checkpointing"] * ns.no_checkpointing)
    if given:
        raise UsageError(f"{model} is a measured model; not for it: {', '.join(given)} (give --hours-on-v100 N)")
    hours = ns.hours_on_v100 if ns.hours_on_v100 is not None else saved.v100_hours if saved else None
    return WorkloadSpec(model=model.strip().lower(), v100_hours=hours)


def _spec(ns: argparse.Namespace, saved: WorkloadSpec | None) -> WorkloadSpec:
    base = saved.model_dump(exclude_none=True, exclude={"v100_hours"}) if saved else {}
    model = ns.model
    if model and (model.lower().endswith(".json") or "/" in model or "\\" in model):
        model = str(Path(model).expanduser().absolute())  # from here; saved relative to the build file's folder
    given = {
        "model": model,
        "task": ns.task,
        "weights": ns.weights,
        "seq": ns.seq,
        "batch": ns.batch,
        "gpus": ns.gpus,
        "strategy": ns.strategy,
        "tokens": ns.tokens,
        "checkpointing": False if ns.no_checkpointing else None,
    }
    merged = {**base, **{k: v for k, v in given.items() if v is not None}}
    if "model" not in merged:
        raise UsageError("give --model (a model id such as llama-3.1-8b, or a config.json file)")
    return WorkloadSpec.model_validate(merged)


def _fmt(v: float | None, unit: str = "", nd: int = 1) -> str:
    return "unknown" if v is None else f"{v:,.{nd}f}{unit}"


def _memory_cell(o: dict[str, Any]) -> str:
    if o["verdict"] is None:
        return o["problem"] or "no figures"
    if o["change"]:
        return f"with {o['change']}"
    return {"fits": "fits", "does-not-fit": "does not fit", "memory-unknown": "memory unknown"}[o["verdict"]]


def _print_text(out: dict[str, Any]) -> None:
    print(f"{out['model']['name']} ({out['model']['params_b']}B), {out['task']} on {out['hardware']}")
    print(f"  {out['gpus']}x {out['gpu']}, {out['strategy']}: {out['summary']}")
    parts = ", ".join(f"{k.replace('_', ' ')} {v:.1f}" for k, v in out["breakdown"].items() if v)
    print(f"  per GPU (GB): {parts}")
    speed = _fmt(out["tokens_per_s"], " tokens/s")
    if out.get("prefill_tokens_per_s"):
        speed += f" decode, {out['prefill_tokens_per_s']:,.0f} tokens/s prefill"
    print(f"  speed (estimate): {speed}")
    if out["hours"] is not None:
        cost = out.get("electricity_per_job")
        elec = f", electricity {out['currency']} {cost:,.2f}" if cost is not None else ""
        print(f"  one job of {out['tokens']:,.0f} tokens: {out['hours']:,.2f} h{elec}")
    rows = []
    for o in out.get("offers", []):
        rows.append([
            o["label"].split(": ")[0], o["pricing"], _memory_cell(o),
            _fmt(o["tokens_per_s"]), _fmt(o["hours"], nd=2),
            "unknown" if o["cloud_cost"] is None else f"{out['currency']} {o['cloud_cost']:,.2f}",
            str(o["jobs_to_break_even"] or "-") if o["status"] != "never" else "never",
        ])  # fmt: skip
    if rows:
        print(table(rows, ["Offer", "Pricing", "Memory", "Tokens/s", "Hours/job", "Cost/job", "Jobs to win"]))
    for n in out["notes"]:
        print(f"  note: {n}")
    print(f"  basis: {out['basis']}")


def _measured_on_instance(ns: argparse.Namespace, spec: WorkloadSpec, catalog: Any, pricing: Pricing) -> dict:
    from rigplan.cli.cost import _pick_offer
    from rigplan.model.assumptions import Assumptions
    from rigplan.workload.measured import JOB_UNIT, measured_workload, on_offer, side_json, workload_json

    if len(ns.instance) > 1:
        raise UsageError("without a BUILD, give one --instance (to compare offers, give a build)")
    offer = _pick_offer(catalog, ns.instance[0], ns.region, pricing, None)
    precision = Assumptions().precision.value
    side = on_offer(spec.model, offer, pricing, spec.v100_hours, precision)
    out = workload_json(measured_workload(spec.model, precision), precision, spec.v100_hours)
    j = side_json(side)
    lost = Assumptions().spot_overhead if pricing is Pricing.SPOT else 0.0  # as the cost model's job mode
    rate = side.hourly_usd
    cost = None if side.hours is None or rate is None else round(side.hours * rate / (1 - lost), 2)
    notes = [] if spec.v100_hours else [f"no job size: give one job in {JOB_UNIT} (--hours-on-v100)"]
    out.update({k: j[k] for k in ("speed_vs_v100", "speed_kind", "basis", "hours")})
    out.update(hardware=side.label, currency="USD", hourly_usd=side.hourly_usd, cloud_cost=cost, notes=notes)
    return out


def _print_measured(out: dict[str, Any]) -> None:
    v = out["speed_vs_v100"]
    speed = "unknown" if v is None else f"{v:,.2f}x one V100's {out['unit']}"
    print(f"{out['model']['name']}, training ({out['precision']} precision): a measured model")
    print(f"  speed ({out['speed_kind']}): {speed} on {out.get('hardware') or 'this build'}")
    print("  memory: not modelled (the measured table has speeds only)")
    if out["hours"] is not None:
        money = out.get("electricity_per_job")
        extra = f", electricity {out['currency']} {money:,.2f}" if money is not None else ""
        if out.get("cloud_cost") is not None:
            extra = f", {out['currency']} {out['cloud_cost']:,.2f}"
        print(f"  one job of {out['hours_on_v100']:,g} h on a V100: {out['hours']:,.2f} h{extra}")
    rows = [[o["label"].split(": ")[0], o["pricing"], _fmt(o["speed_vs_v100"], "x", 2), o["speed_kind"],
             _fmt(o["hours"], nd=2),
             "unknown" if o["cloud_cost"] is None else f"{out['currency']} {o['cloud_cost']:,.2f}",
             "never" if o["status"] == "never" else str(o["jobs_to_break_even"] or "-")]
            for o in out.get("offers", [])]  # fmt: skip
    if rows:
        print(table(rows, ["Offer", "Pricing", "Speed vs V100", "Kind", "Hours/job", "Cost/job", "Jobs to win"]))
    for n in out["notes"]:
        print(f"  note: {n}")
    print(f"  basis: {out['basis']}")


def cmd_workload(ns: argparse.Namespace) -> int:
    from rigplan.cli.cost import _pick_offer
    from rigplan.cloud.store import offers_in_use
    from rigplan.workload import WorkloadError, estimate, offer_hardware, to_json
    from rigplan.workload.jobs import compare, comparison_json

    if not ns.build and not ns.instance:
        raise UsageError("give a BUILD file or --instance OFFER")
    pricing = Pricing(ns.pricing)
    catalog = offers_in_use()  # bundled, or the user's updated prices
    try:
        if ns.build:
            from rigplan.exports.plan import ExportError, chart_offers
            from rigplan.files import load_tracked
            from rigplan.files.tracked import save_after_read

            build, fingerprint = load_tracked(ns.build)
            measured = _measured_spec(ns, build.workload)
            spec = measured or _spec(ns, build.workload)
            if ns.instance:
                offers = [(_pick_offer(catalog, n, ns.region, pricing, None), pricing) for n in ns.instance]
            else:
                try:
                    charted, _ = chart_offers(build, catalog)
                except ExportError as exc:
                    raise UsageError(str(exc)) from None
                offers = [(c.offer, c.pricing) for c in charted]
            if measured is not None:
                from rigplan.workload.measured import compare_measured
                from rigplan.workload.measured import comparison_json as measured_json

                out = measured_json(compare_measured(build, measured.model, measured.v100_hours, offers))
            else:
                out = comparison_json(compare(build, spec, offers))
            if ns.save:
                # only over what was read: a save by another window or command since is never replaced
                save_after_read(build.model_copy(update={"workload": spec}), ns.build, (ns.build, fingerprint))
                out["notes"].append(f"workload saved in {ns.build}")
        elif (measured := _measured_spec(ns, None)) is not None:
            out = _measured_on_instance(ns, measured, catalog, pricing)
        else:
            spec = _spec(ns, None)
            offer = _pick_offer(catalog, ns.instance[0], ns.region, pricing, None)
            e = estimate(spec, offer_hardware(offer, spec.gpus))
            out = to_json(e)
            hourly = offer.hourly(pricing)
            out["currency"] = "USD"
            out["hourly_usd"] = hourly
            out["cloud_cost"] = None if e.hours is None or hourly is None else round(e.hours * hourly, 2)
            if len(ns.instance) > 1:
                raise UsageError("without a BUILD, give one --instance (to compare offers, give a build)")
    except WorkloadError as exc:
        raise UsageError(str(exc)) from None
    if ns.json:
        print_json(out)
    elif out.get("measured_model"):
        _print_measured(out)
    else:
        _print_text(out)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "workload",
        help="will a model fit, how fast, and what one job costs",
        description="Memory per GPU, speed and cost per job of training or serving a language model on a build or "
        "a cloud offer (docs/workload.md). Models: llama-2-7b/13b/70b, llama-65b, llama-3.1-8b/70b/405b, "
        "mistral-7b, mixtral-8x7b, qwen2.5-7b/32b/72b, gemma-2-9b/27b, or a Hugging Face config.json file; or "
        "the measured models (Lambda's benchmarks): resnet50, ssd, bert-base, bert-large, gnmt, tacotron2, waveglow, "
        "tacotron2-dataloader-bound, with --hours-on-v100.",
    )
    p.add_argument("build", nargs="?", help="a .rigplan build (its GPUs; its saved workload unless flags say else)")
    p.add_argument("--instance", action="append", metavar="OFFER", help="instance type or offer id; repeatable")
    p.add_argument("--region", help="region of the instances (default: us-east-1 when offered)")
    p.add_argument("--pricing", choices=[x.value for x in Pricing], default=Pricing.ON_DEMAND.value)
    p.add_argument("--model", metavar="ID|CONFIG.json")
    p.add_argument("--task", choices=[t.value for t in Task], help="default: lora (or the build's saved workload)")
    p.add_argument("--weights", choices=[w.value for w in Weights], help="inference weights (default bf16)")
    p.add_argument("--seq", type=_whole("--seq", MAX_SEQ), help="sequence length in tokens (default 2048)")
    p.add_argument("--batch", type=_whole("--batch", MAX_BATCH), help="micro-batch per GPU (default 1)")
    p.add_argument("--gpus", type=_whole("--gpus", 64), help="GPUs to use (default: all)")
    p.add_argument("--strategy", choices=[s.value for s in Strategy], help="replicate, shard (FSDP) or split")
    p.add_argument("--no-checkpointing", action="store_true", help="turn gradient checkpointing off")
    p.add_argument("--tokens", type=_tokens, help="tokens in one job (trained, or generated for inference)")
    p.add_argument("--hours-on-v100", type=_v100_hours, metavar="N",
                   help="measured models (resnet50...): one job, in hours on one V100 SXM2 16 GB")  # fmt: skip
    p.add_argument("--save", action="store_true", help="save the workload in the BUILD file")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_workload)
