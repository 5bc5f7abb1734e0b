"""The recorder and tables the invariants (rigplan/opendb/invariants.py) work on, and how an inferred value is
marked. Typed by Protocol: data_quality imports the invariants, so they do not import it back."""

from __future__ import annotations

from typing import Any, Protocol

from rigplan.model.parts import Kind


class Recorder(Protocol):
    """data_quality.Recorder as the invariants use it (this module does not import data_quality: it imports us)."""

    kind: Kind
    d: dict[str, Any]

    def set(self, field: str, new: Any, reason: str, check: str = ...) -> None: ...


class Tables(Protocol):
    """data_quality.Tables, and the platform's highest PCIe generation from its chipset row or socket cap."""

    socket_cap_source: str

    def platform_gen(self, d: dict[str, Any]) -> str | None: ...


INTEL_ARK = "Intel ARK (ark.intel.com), the chipset's and the processors' product pages"


def infer(r: Recorder, inv: str, field: str, value: Any, reason: str) -> None:
    """Fill an unknown value from a platform fact and mark it as inferred."""
    before = r.d.get(field)
    r.set(field, value, reason, f"invariant {inv}")
    if before != value:
        r.d.setdefault("inferred", {})[field] = reason
