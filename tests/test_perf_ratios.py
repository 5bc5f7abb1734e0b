"""RigPlan's speed ratios against published measured ratios: desktop vs instance and instance vs instance.

Each pair is transcribed from its source (cited per row); RigPlan's side comes from the real parts/gpu_perf.yaml and
the real offers, through the functions the cost model uses (gpu and offer speeds, multi_gpu scaling), in the pair's
precision and workload. A pair outside +-15 % must be listed in KNOWN with the reason, and a listed pair must really
be outside (the list cannot hide a pair that has come right). docs/cost-model.md carries the same table:
`python tests/test_perf_ratios.py` prints it, and a test checks the doc's copy.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from rigplan.cloud.offers import load_offers
from rigplan.costs.perf import gpu_speed, key, load_perf, multi_gpu, offer_speed
from rigplan.model import Kind

TOL = 0.15
DOC = Path(__file__).resolve().parents[1] / "docs" / "cost-model.md"

L21 = "Lambda 2021-04-10 set (lambdal/deeplearning-benchmark), both measured side by side, geometric mean of 7 models"
L25 = "Lambda 2025-12-10 set (lambdal/deeplearning-benchmark), both measured, geometric mean of 7 models"
DLE_RN50 = (
    "NVIDIA DeepLearningExamples, PyTorch ResNet-50 v1.5 README (pytorch-21.03): DGX A100 80GB 16,621 img/s mixed "
    "and 7,248 TF32 on 8 GPUs (2,470 and 938 on 1); DGX-1 V100 16GB 8,322 mixed, 2,855 FP32; DGX-1 V100 32GB 8,056"
)
DLE_SSD = (
    "NVIDIA DeepLearningExamples, PyTorch SSD300 README (pytorch-22.10): 8x A100 80GB 5,252.84 img/s mixed (batch "
    "64), 2,838.76 TF32; 8x V100 16GB 2,520.50 mixed (batch 64, 322.81 on 1 GPU), 840.35 FP32"
)
DLE_TACO = (
    "NVIDIA DeepLearningExamples, PyTorch Tacotron 2 and WaveGlow README (PyTorch-19.06, DGX-1 V100 16GB): weak "
    "scaling with mixed precision"
)


@dataclass(frozen=True)
class Pair:
    id: str
    a: tuple[str, str, int]  # ("gpu", model or chipset, count) or ("offer", offer id, 0)
    b: tuple[str, str, int]
    precision: str
    workload: str
    measured: float
    source: str
    lambda_source: bool


def g(name: str, n: int = 1) -> tuple[str, str, int]:
    return ("gpu", name, n)


def o(offer_id: str) -> tuple[str, str, int]:
    return ("offer", offer_id, 0)


P38, P32, P316 = o("aws:p3.8xlarge:us-east-1"), o("aws:p3.2xlarge:us-east-1"), o("aws:p3.16xlarge:us-east-1")
P4D, P4DE = o("aws:p4d.24xlarge:us-east-1"), o("aws:p4de.24xlarge:us-east-1")

PAIRS = [
    # Lambda, 2021 set: desktops/servers and AWS instances measured by the same scripts.
    Pair("l21-4xa6000-p38", g("RTX A6000", 4), P38, "mixed", "all", 1.373, L21, True),
    Pair("l21-2x3090-p38", g("RTX 3090", 2), P38, "mixed", "all", 0.539, L21, True),
    Pair("l21-2x3090-p38-fp32", g("RTX 3090", 2), P38, "fp32", "all", 0.772, L21, True),
    Pair("l21-1x3090-p38", g("RTX 3090"), P38, "mixed", "all", 0.296, L21, True),
    Pair("l21-4x3090-p38", g("RTX 3090", 4), P38, "mixed", "all", 0.807, L21, True),
    Pair("l21-4x2080ti-p38", g("RTX 2080 Ti", 4), P38, "mixed", "all", 0.372, L21, True),
    Pair("l21-4x8000-p38", g("Quadro RTX 8000", 4), P38, "mixed", "all", 1.059, L21, True),
    Pair("l21-8xa6000-p4d", g("RTX A6000", 8), P4D, "mixed", "all", 0.641, L21, True),
    Pair("l21-8xa6000-p4d-fp32", g("RTX A6000", 8), P4D, "fp32", "all", 0.642, L21, True),
    Pair("l21-8xa100sxm-p4d", g("A100 40GB SXM4", 8), P4D, "mixed", "all", 1.018, L21, True),
    Pair("l21-8x3090-p316", g("RTX 3090", 8), P316, "mixed", "all", 0.651, L21, True),
    Pair("l21-p4d-p316", P4D, P316, "mixed", "all", 2.484, L21, True),
    Pair("l21-p4d-p316-fp32", P4D, P316, "fp32", "all", 3.521, L21, True),
    Pair("l21-p316-p38", P316, P38, "mixed", "all", 5.381 / 3.075, L21 + " (each against the V100 32GB row)", True),
    # Lambda, 2019 TensorFlow blog (V100 measured on an AWS P3 instance), FP32.
    Pair(
        "l19-2080ti-p32",
        g("RTX 2080 Ti"),
        P32,
        "fp32",
        "all",
        0.80,
        "Lambda, '2080 Ti TensorFlow GPU benchmarks' (2019-02-08), V100 on an AWS p3",
        True,
    ),
    Pair(
        "l19-1080ti-p32",
        g("GTX 1080 Ti"),
        P32,
        "fp32",
        "all",
        0.80 / 1.37,
        "Lambda, '2080 Ti TensorFlow GPU benchmarks' (2019-02-08): 2080 Ti = 0.80 V100 = 1.37x 1080 Ti",
        True,
    ),
    # Lambda, 2025 set: desktop cards against the boards AWS rents, and instance against instance.
    Pair("l25-4090-p4de", g("RTX 4090"), P4DE, "mixed", "all", 0.114, L25 + " (8x A100 80GB SXM4 box)", True),
    Pair("l25-4090-p4de-fp32", g("RTX 4090"), P4DE, "fp32", "all", 0.137, L25 + " (8x A100 80GB SXM4 box)", True),
    Pair(
        "l25-p5-p4de", o("aws:p5.48xlarge:us-east-1"), P4DE, "mixed", "all", 2.425, L25 + " (8x H100 vs 8x A100)", True
    ),
    Pair(
        "l25-p6b200-p5",
        o("aws:p6-b200.48xlarge:us-east-1"),
        o("aws:p5.48xlarge:us-east-1"),
        "mixed",
        "all",
        1.815,
        L25 + " (8x B200 vs 8x H100)",
        True,
    ),
    Pair("l25-g5-p32", o("aws:g5.xlarge:us-east-1"), P32, "mixed", "all", 0.929, L25 + " (A10, the A10G's chip)", True),
    Pair(
        "l25-4090-g6e",
        g("RTX 4090"),
        o("aws:g6e.xlarge:us-east-1"),
        "mixed",
        "all",
        1.052,
        L25 + " (RTX 6000 Ada, the L40S's chip AD102)",
        True,
    ),
    Pair("l25-8x6000ada-p4de", g("RTX 6000 Ada", 8), P4DE, "mixed", "all", 0.715, L25, True),
    # Other sources.
    Pair(
        "pub-1070ti-p2",
        g("GeForce GTX 1070 Ti"),
        o("aws:p2.xlarge:us-east-1@2017-10"),
        "fp32",
        "all",
        1.88,
        "thescinder.com, 'I too built a rather decent deep learning rig for 900 quid' (2018): 1.88x a p2.xlarge",
        False,
    ),
    Pair(
        "pub-p32-1080ti",
        P32,
        g("GTX 1080 Ti"),
        "mixed",
        "resnet50",
        3.08,
        "Jeff Chen, 'Why your personal Deep Learning Computer can be faster than AWS and GCP' (2019): ResNet-50 FP16",
        False,
    ),
    Pair("dle-rn50-p4de-p316", P4DE, P316, "mixed", "resnet50", 16621 / 8322, DLE_RN50, False),
    Pair("dle-rn50-p4de-p316-fp32", P4DE, P316, "fp32", "resnet50", 7248 / 2855, DLE_RN50, False),
    Pair(
        "dle-rn50-p3dn-p316", o("aws:p3dn.24xlarge:us-east-1"), P316, "mixed", "resnet50", 8056 / 8322, DLE_RN50, False
    ),
    Pair(
        "dle-rn50-a2u8-a2u1",
        o("gcp:a2-ultragpu-8g:us-central1"),
        o("gcp:a2-ultragpu-1g:us-central1"),
        "mixed",
        "resnet50",
        16621 / 2470,
        DLE_RN50 + " (8 vs 1 A100 80GB)",
        False,
    ),
    Pair(
        "dle-rn50-a2u8-a2u1-fp32",
        o("gcp:a2-ultragpu-8g:us-central1"),
        o("gcp:a2-ultragpu-1g:us-central1"),
        "fp32",
        "resnet50",
        7248 / 938,
        DLE_RN50 + " (8 vs 1 A100 80GB)",
        False,
    ),
    Pair("dle-ssd-p4de-p316", P4DE, P316, "mixed", "ssd", 5252.84 / 2520.50, DLE_SSD, False),
    Pair("dle-ssd-p4de-p316-fp32", P4DE, P316, "fp32", "ssd", 2838.76 / 840.35, DLE_SSD, False),
    Pair("dle-ssd-p316-p32", P316, P32, "mixed", "ssd", 2520.50 / 322.81, DLE_SSD + " (8 vs 1 V100)", False),
    Pair("dle-taco-p38-p32", P38, P32, "mixed", "tacotron2", 3.57, DLE_TACO + ": Tacotron 2, 4 GPUs 3.57x", False),
    Pair("dle-taco-p316-p32", P316, P32, "mixed", "tacotron2", 6.67, DLE_TACO + ": Tacotron 2, 8 GPUs 6.67x", False),
    Pair("dle-wg-p38-p32", P38, P32, "mixed", "waveglow", 3.38, DLE_TACO + ": WaveGlow, 4 GPUs 3.38x", False),
    Pair("dle-wg-p316-p32", P316, P32, "mixed", "waveglow", 7.16, DLE_TACO + ": WaveGlow, 8 GPUs 7.16x", False),
    Pair(
        "seed-taco-p38-p32",
        P38,
        P32,
        "mixed",
        "tacotron2",
        1.54,
        "a user training Tacotron (2021): about 1.3 s per step on a p3.8xlarge against 2 s on a p3.2xlarge",
        False,
    ),
]

# Outside +-15 %, and why (docs/cost-model.md lists them the same way).
# Since issue 39 the p3.8xlarge, p3.16xlarge and p4d.24xlarge are Lambda's own whole-instance measurements (2021 set,
# bridged through the four anchors measured in both sets, 1.16x on average): the 2021 pairs against them hold, but
# for Turing cards, which gained less from the 2025 software than the anchors.
TURING = (
    "Turing cards gained less from the 2025 software stack than the anchors the 2021 instance rows are bridged "
    "through: the Quadro RTX 8000 is 0.96x its 2021 figure in the 2025 set, the anchors 1.16x on average"
)
KNOWN = {
    "l21-4x2080ti-p38": TURING,
    "l21-4x8000-p38": TURING,
    "l21-8x3090-p316": "the 8x RTX 3090 box scaled at 0.53 per GPU; the 3090's fitted exponent is pulled down but "
    "not that far; and the 2025 stack favours the 3090 over the V100 (see the 1x pair)",
    "seed-taco-p38-p32": "that user's run was limited by data loading; Lambda's and NVIDIA's Tacotron 2 runs scale "
    "3.3-3.6x on 4 V100s. Choose the workload tacotron2-dataloader-bound to reproduce 1.54",
}


@cache
def offers():  # noqa: ANN201
    """The bundled offers, read once per run: load_offers reads and validates the file on every call (about 25 ms),
    and the pairs asked for it some 300 times (docs/performance.md)."""
    return load_offers()


def speed_of(side: tuple[str, str, int], precision: str, workload: str, catalog) -> tuple[float, str]:  # noqa: ANN001
    perf = load_perf(precision=precision, workload=workload)
    what, name, n = side
    if what == "offer":
        offer = offers().get(name)
        assert offer is not None, name
        s = offer_speed(perf, offer)
        assert s is not None, name
        return s.value * multi_gpu(perf, s, offer.gpu_count, instance=offer.instance_type)[0], s.kind
    s = perf.models.get(key(name)) or perf.chipsets.get(key(name))
    if s is None:  # a catalog card by chipset
        gpu = next(p for p in catalog.of_kind(Kind.GPU) if p.chipset == name)
        s = gpu_speed(perf, gpu)
    assert s is not None, name
    return s.value * multi_gpu(perf, s, n)[0], s.kind


@cache  # one answer per pair and catalog: the table, the summary and each pair's own test ask for the same ratio
def ours(p: Pair, catalog) -> tuple[float, str]:  # noqa: ANN001
    a, ka = speed_of(p.a, p.precision, p.workload, catalog)
    b, kb = speed_of(p.b, p.precision, p.workload, catalog)
    return a / b, "estimate" if "estimate" in (ka, kb) else "measured"


def label(side: tuple[str, str, int]) -> str:
    what, name, n = side
    if what == "offer":
        return name.split(":")[1] + (" (2017)" if "@2017" in name else "")
    return f"{n}x {name.replace('GeForce ', '')}"


def table(catalog) -> str:  # noqa: ANN001
    rows = [
        "| # | pair | precision, workload | measured | RigPlan | off by | source | status |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for i, p in enumerate(PAIRS, 1):
        r, kind = ours(p, catalog)
        off = r / p.measured - 1
        status = "within 15 %" if abs(off) <= TOL else f"known deviation: {KNOWN.get(p.id, 'UNEXPLAINED')}"
        src = p.source.split(":")[0].split(" (")[0].replace(" (lambdal/deeplearning-benchmark)", "")
        rows.append(
            f"| {i} | {label(p.a)} / {label(p.b)} | {p.precision}, {p.workload} | {p.measured:.3f} | {r:.3f}"
            f"{' (est.)' if kind == 'estimate' else ''} | {off:+.0%} | {src} | {status} |"
        )
    return "\n".join(rows)


def summary(catalog) -> dict[str, float]:  # noqa: ANN001
    offs = [abs(ours(p, catalog)[0] / p.measured - 1) for p in PAIRS]
    return {
        "pairs": len(PAIRS),
        "non_lambda": sum(1 for p in PAIRS if not p.lambda_source),
        "within": sum(1 for x in offs if x <= TOL),
        "median": statistics.median(offs),
    }


@pytest.mark.parametrize("p", PAIRS, ids=lambda p: p.id)
def test_published_pair_within_15_percent_or_a_known_deviation(p: Pair, catalog) -> None:  # noqa: ANN001
    r, _ = ours(p, catalog)
    off = abs(r / p.measured - 1)
    if p.id in KNOWN:
        assert off > TOL, f"{p.id} is listed as a known deviation but is within 15 % now ({r:.3f} vs {p.measured})"
    else:
        assert off <= TOL, f"{p.id}: RigPlan {r:.3f} vs measured {p.measured:.3f} ({p.source})"


def test_enough_pairs_and_enough_of_them_not_from_lambda(catalog) -> None:  # noqa: ANN001
    s = summary(catalog)
    assert s["pairs"] >= 25 and s["non_lambda"] >= 10
    assert set(KNOWN) <= {p.id for p in PAIRS}


def test_doc_carries_the_current_table(catalog) -> None:  # noqa: ANN001
    text = DOC.read_text("utf-8")
    assert table(catalog) in text, "docs/cost-model.md: paste the output of `python tests/test_perf_ratios.py`"
    s = summary(catalog)
    assert f"{s['within']} of {s['pairs']} pairs within 15 %" in text


def test_tacotron_workloads_against_the_seed_report() -> None:
    """Seed 000: a p3.8xlarge at 1.54x a p3.2xlarge on Tacotron. Lambda's Tacotron 2 runs do not support it (the
    ratio stays above 3); the named data-loader-bound workload carries the report's own scaling."""
    cat = offers()
    p38, p32 = cat.get("aws:p3.8xlarge:us-east-1"), cat.get("aws:p3.2xlarge:us-east-1")

    def ratio(workload: str) -> float:
        perf = load_perf(workload=workload)
        return (offer_speed(perf, p38).value * multi_gpu(perf, offer_speed(perf, p38), 4)[0]) / offer_speed(
            perf, p32
        ).value

    assert ratio("tacotron2") > 3.0
    assert ratio("tacotron2-dataloader-bound") == pytest.approx(1.54, rel=0.01)


def test_one_chip_one_speed_unless_measured() -> None:
    perf = load_perf()

    def v(name: str) -> float:
        return perf.models[key(name)].value

    assert v("V100 SXM2 32GB") == pytest.approx(v("V100 SXM2 16GB"), rel=0.005)
    assert v("A100 40GB SXM4") > v("A100 40GB PCIe")
    assert v("H100 PCIe") < v("H100 NVL") < v("H100 SXM5")
    assert v("H200") <= v("B200")
    # Same chip as a measured board, scaled by clocks and memory, and said so.
    l40s = perf.models[key("L40S")]
    assert "same chip (AD102) as the measured RTX 6000 Ada" in l40s.basis and l40s.kind == "estimate"
    assert perf.models[key("A10G")].kind == "measured" and "A10" in perf.models[key("A10G")].basis


def test_rtx_5090_rests_on_two_published_measurements() -> None:
    s = load_perf().models[key("RTX 5090")]
    assert "nikolasent.github.io" in s.basis and "ai_hpc_trivia" in s.basis
    ratio = s.value / load_perf().models[key("RTX 4090")].value
    assert 1.40 <= ratio <= 1.52  # the two sources: 1.44 and 1.49


def test_mixed_precision_gain_only_with_fast_fp16_and_a_measurement(catalog) -> None:  # noqa: ANN001
    mixed, fp32 = load_perf(), load_perf(precision="fp32")
    assert mixed.gains["pascal"] == mixed.gains["kepler-maxwell"] == 1.0
    assert mixed.gains["volta-turing"] > 2.0 and mixed.gains["ampere+"] > 1.4
    # GTX 1070 Ti vs p2.xlarge (K80): neither has fast FP16, so mixed precision changes nothing between them.
    gpu = next(p for p in catalog.of_kind(Kind.GPU) if p.chipset == "GeForce GTX 1070 Ti")
    k80 = offer_speed(mixed, offers().get("aws:p2.xlarge:us-east-1@2017-10"))
    k80_32 = offer_speed(fp32, offers().get("aws:p2.xlarge:us-east-1@2017-10"))
    assert gpu_speed(mixed, gpu).value / k80.value == pytest.approx(
        gpu_speed(fp32, gpu).value / k80_32.value, rel=0.005
    )
    assert "trains at the FP32 speed" in gpu_speed(mixed, gpu).basis


def test_leave_one_out_is_reported_and_honest() -> None:
    for precision in ("mixed", "fp32"):
        loo = load_perf(precision=precision).leave_one_out
        assert loo["n"] >= 20 and len(loo["rows"]) == loo["n"]
        errs = sorted(abs(r["predicted"] / r["measured"] - 1) for r in loo["rows"])
        assert loo["worst_abs_error"] == pytest.approx(errs[-1], abs=0.006)
        assert loo["median_abs_error"] == pytest.approx(statistics.median(errs), abs=0.006)


if __name__ == "__main__":
    import tempfile

    from rigplan.catalog import load_catalog

    cat = load_catalog(DOC.parents[1] / "parts", cache_dir=Path(tempfile.mkdtemp()))
    print(table(cat))
    s = summary(cat)
    print(
        f"\n{s['within']} of {s['pairs']} pairs within 15 % ({s['non_lambda']} not from Lambda); median absolute "
        f"difference {s['median']:.0%}."
    )
