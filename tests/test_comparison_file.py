"""The offers on the chart travel with the build file (format version 2; issue 13 item 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rigplan.files import BuildFileError, load, loads, save
from rigplan.files.buildfile import dumps
from rigplan.model import Pricing
from rigplan.model.build import FORMAT_VERSION, Build, ChartOffer

DATA = Path(__file__).resolve().parent / "data"


def test_a_version_1_file_opens_without_a_comparison() -> None:
    text = (DATA / "v1" / "budget-1-gpu-v1.rigplan.yaml").read_text()
    assert "format_version: 1" in text
    build = load(DATA / "v1" / "budget-1-gpu-v1.rigplan.yaml")
    assert build.comparison is None and build.items
    # Issue 28: a build without a workload is still written as version 2 (the lowest format that holds it)
    assert "format_version: 2" in dumps(build) and FORMAT_VERSION == 4  # issue 29: 4 holds Other items
    assert "comparison" not in dumps(build)  # nothing chosen: nothing written


def test_comparison_round_trips(tmp_path: Path) -> None:
    chosen = (
        ChartOffer(offer="aws:g5.xlarge:us-east-1", pricing=Pricing.SPOT),
        ChartOffer(offer="lambda:gpu_1x_a100:us-east-1"),
    )
    build = Build(name="shared", comparison=chosen)
    path = tmp_path / "shared.rigplan.yaml"
    save(build, path)
    text = path.read_text()
    assert "comparison:\n- offer: aws:g5.xlarge:us-east-1\n  pricing: spot" in text
    assert load(path).comparison == chosen
    assert load(path).comparison[1].pricing is Pricing.ON_DEMAND


@pytest.mark.parametrize(
    "body, where",
    [
        ("comparison:\n- offer: aws:x:y\n  pricing: monthly\n", "comparison.0.pricing"),
        ("comparison:\n- pricing: spot\n", "comparison.0.offer"),
        ("comparison:\n" + "- offer: a\n" * 9, "comparison"),
    ],
)
def test_a_bad_comparison_is_refused_in_one_line(body: str, where: str) -> None:
    with pytest.raises(BuildFileError) as err:
        loads(f"format: rigplan-build\nformat_version: 2\nname: x\n{body}")
    assert where in str(err.value) and "\n" not in str(err.value)


def test_a_newer_version_asks_for_a_newer_rigplan() -> None:
    # Issue 29 made version 4 current (Other items): version 5 is the newer one now
    with pytest.raises(BuildFileError, match="reads up to version 4"):
        loads("format: rigplan-build\nformat_version: 5\nname: x\n")
