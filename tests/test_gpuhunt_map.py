"""gpuhunt's catalog items (built with gpuhunt's own CatalogItem) mapped onto RigPlan offers: GCP zones merged into
regions, GCP N1 VMs with different attached GPUs kept apart, GPU names in RigPlan's spelling, TPUs left out."""

from __future__ import annotations

import datetime as dt

from gpuhunt import AcceleratorVendor, CatalogItem

from rigplan.cloud.gpuhunt_map import gpu_name, to_offers, version_date


def item(name: str, zone: str, price: float, n: int, gpu: str | None, mem: float | None, spot: bool, vendor=None):  # noqa: ANN001, ANN201
    return CatalogItem(
        provider="gcp", instance_name=name, location=zone, price=price, cpu=8, memory=30.0, gpu_count=n,
        gpu_name=gpu, gpu_memory=mem, spot=spot, disk_size=None,
        gpu_vendor=(vendor or AcceleratorVendor.NVIDIA) if n else None,
    )  # fmt: skip


def test_gcp_zones_merge_and_n1_attachments_stay_apart() -> None:
    items = [
        item("n1-standard-8", "us-central1-a", 0.73, 1, "T4", 16, False),
        item("n1-standard-8", "us-central1-b", 0.73, 1, "T4", 16, False),
        item("n1-standard-8", "us-central1-b", 0.21, 1, "T4", 16, True),
        item("n1-standard-8", "us-central1-c", 0.19, 1, "T4", 16, True),
        item("n1-standard-8", "us-central1-a", 2.86, 1, "V100", 16, False),
        item("a2-ultragpu-1g", "us-central1-a", 5.07, 1, "A100", 80, False),
        item("ct5lp-hightpu-1t", "us-central1-a", 1.2, 1, "v5litepod-1", 16, False, AcceleratorVendor.GOOGLE),
        item("e2-standard-4", "us-central1-a", 0.13, 0, None, None, False),
    ]
    offers = {o["id"]: o for o in to_offers(items, "gcp", "20261101-3", "test", dt.date(2026, 11, 1))}
    assert set(offers) == {
        "gcp:n1-standard-8 + 1x T4:us-central1",
        "gcp:n1-standard-8 + 1x V100:us-central1",
        "gcp:a2-ultragpu-1g:us-central1",
    }
    t4 = offers["gcp:n1-standard-8 + 1x T4:us-central1"]
    assert (t4["ondemand_usd_h"], t4["spot_usd_h"], t4["data_date"]) == (0.73, 0.19, "2026-11-01")
    assert offers["gcp:a2-ultragpu-1g:us-central1"]["gpu_model"] == "A100-80GB"


def test_names_and_dates() -> None:
    assert gpu_name("A100", 40) == "A100" and gpu_name("V100", 32) == "V100-32GB" and gpu_name("T4G", 16) == "T4g"
    assert version_date("20261101-7") == dt.date(2026, 11, 1)
    assert version_date("latest") is None and version_date("20261399-1") is None


def test_a_share_of_one_gpu_is_a_fraction_not_zero_gpus() -> None:
    """A slice of one GPU (Azure's NV4as_v4 is 1/8 of a Radeon MI25, Microsoft Learn) becomes one GPU's fraction
    with no speed, never 0 GPUs (int(0.125)), which the offer model would reject and so fail the whole update."""
    from rigplan.model.offers import Offer

    sliced = CatalogItem(
        provider="azure", instance_name="Standard_NV4as_v4", location="eastus", price=0.233, cpu=4, memory=14.0,
        gpu_count=0.125, gpu_name="MI25", gpu_memory=2.0, spot=False, disk_size=None,
        gpu_vendor=AcceleratorVendor.AMD,
    )  # fmt: skip
    (o,) = to_offers([sliced], "azure", "20261101-1", "test", dt.date(2026, 11, 1))
    assert o["gpu_count"] == 1 and o["gpu_fraction"] == 0.125
    assert any("0.125 slice of one" in q for q in o["quirks"])
    offer = Offer.model_validate(o)
    assert "0.125 of 1" in offer.label
