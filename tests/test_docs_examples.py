"""The examples in the docs are real: they load."""

from __future__ import annotations

import re
from pathlib import Path

from rigplan.files import loads
from rigplan.model import Gpu, Kind

ROOT = Path(__file__).resolve().parents[1]


def test_build_file_doc_example_loads() -> None:
    text = (ROOT / "docs" / "build-file.md").read_text("utf-8")
    (block,) = re.findall(r"```yaml\n(.*?)```", text, flags=re.S)
    build = loads(block, "docs/build-file.md")
    assert build.name == "Used-3090 starter"
    gpu = build.first(Kind.GPU)
    assert isinstance(gpu, Gpu) and gpu.custom and gpu.power_connectors and gpu.power_connectors.pin8 == 2
    assert build.items[1].unit_price is not None and build.items[1].unit_price.amount == 600
    assert build.assumptions.hours_per_day == 6
