"""Issue 36 (server helper): the workstation/server supplement in the real catalog, the PSU input ranges made unknown
by a second source, the wall circuit without a PSU, and psu-eps-count's pass; each through the real check()."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from rigplan.catalog import Catalog
from rigplan.model import Assumptions, Build, BuildItem, Kind, Part
from rigplan.opendb import supplement
from rigplan.rules import check
from rigplan.rules.passed import passed
from rigplan.rules.platforms import platforms

PARTS = Path(__file__).resolve().parents[1] / "parts"


def _build(*items: tuple[Part, int], volts: float = 120, amps: float = 15) -> Build:
    return Build(
        name="t",
        items=tuple(BuildItem(part=p, quantity=q) for p, q in items),
        assumptions=Assumptions(wall_voltage=volts, wall_amps=amps),
    )


def _part(catalog: Catalog, kind: Kind, pid: str) -> Part:
    table = catalog.table(kind)
    return table.part(list(table.ids).index(pid))


def test_every_supplement_record_is_in_the_catalog_as_written(catalog: Catalog) -> None:
    """Each hand-written record reaches the catalog with its own source and no value from anywhere else."""
    written = yaml.safe_load((PARTS / "workstation.yaml").read_text("utf-8"))["parts"]
    assert len(written) == 30  # 8 boards, 21 CPUs, 1 GPU (README: "30 workstation and server parts")
    for rec in written:
        part = _part(catalog, Kind(rec["kind"]), rec["id"])
        assert part.spec_source == rec["spec_source"], rec["id"]
        # Each record says whether its page was read (with the date) or written from the maker's figures unread.
        assert ("read 2026" in part.spec_source) != ("not re-read here" in part.spec_source), rec["id"]
        # no price in the record; the Max-Q's is a sourced list price (parts/list-prices.yaml, by its name)
        assert part.price is None or part.price.source.startswith("list price: "), rec["id"]
        for field, value in rec.items():
            if field in (
                "kind",
                "spec_source",
                "pcie_slots",
                "m2_slots",
                "memory_types",
                "eps_connectors",
                "power_connectors",
            ):
                continue
            assert getattr(part, field) == value, (rec["id"], field)
        assert part.inferred is None, rec["id"]


def test_the_supplement_covers_the_server_sockets_and_platforms_knows_them(catalog: Catalog) -> None:
    sockets = {
        p.socket for k in (Kind.CPU, Kind.MOTHERBOARD) for p in catalog.table(k).parts() if p.id.startswith("ws-")
    }
    assert {"SP3", "SP5", "sWRX8", "sTR5", "LGA 4677", "LGA 4189", "LGA 3647"} <= sockets
    mounts = {s: platforms().mount(s) for s in sockets}
    assert mounts["SP3"] == mounts["sWRX8"] == mounts["sTR5"] == "amd-tr4"  # Noctua TR4-SP3 family, AMD
    assert mounts["SP5"] == "amd-sp5" and mounts["LGA 4677"] == "intel-4677"


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"id": "x-1", "kind": "cpu", "name": "n", "spec_source": "s"}, "start with 'ws-'"),
        ({"id": "ws-1", "kind": "cpu", "name": "n"}, "no spec_source"),
        ({"id": "ws-1", "kind": "cpu", "name": "n", "spec_source": "s", "price": {"amount": 5}}, "source and date"),
        ({"id": "ws-1", "kind": "cpu", "name": "n", "spec_source": "s", "cores": -4}, "ws-1"),
    ],
)
def test_a_bad_supplement_record_stops_the_import(tmp_path: Path, bad: dict[str, object], message: str) -> None:
    path = tmp_path / "workstation.yaml"
    path.write_text(yaml.safe_dump({"format": 1, "parts": [bad]}), "utf-8")
    with pytest.raises(supplement.SupplementError, match=message):
        supplement.load(path)


def test_psus_a_second_source_doubts_are_not_checked_on_120v_and_pass_on_230v(catalog: Catalog) -> None:
    """Every PSU with a recorded doubt (26, from the SPL tier list) is "not checked" on 120 V, never passed."""
    doubted = [p for p in catalog.table(Kind.PSU).parts() if p.input_voltage_doubt]
    assert len(doubted) == 26
    for psu in doubted:
        assert psu.input_voltage_min_v is None
        low = _build((psu, 1))
        report = check(low)
        assert "psu-input-voltage" in {n.rule for n in report.not_checked}, psu.name
        assert "psu-input-voltage" not in passed(low, report)
        high = _build((psu, 1), volts=230, amps=16)
        assert "psu-input-voltage" in passed(high, check(high)), psu.name


def test_wall_circuit_without_a_psu_states_its_assumption_and_does_not_pass(catalog: Catalog) -> None:
    cpu = _part(catalog, Kind.CPU, "ws-amd-epyc-7543p")
    build = _build((cpu, 1))
    report = check(build)
    notes = [f for f in report.findings if f.rule == "wall-circuit"]
    assert len(notes) == 1 and notes[0].severity == "note"
    assert "no PSU chosen" in notes[0].message and "80+ Gold" in notes[0].message
    assert "wall-circuit" not in passed(build, report)
    psu = _part(catalog, Kind.PSU, next(p.id for p in catalog.table(Kind.PSU).parts() if p.id.startswith("42500351")))
    with_psu = _build((cpu, 1), (psu, 1))
    assert "wall-circuit" in passed(with_psu, check(with_psu))


def test_psu_eps_count_passes_when_both_counts_are_known(catalog: Catalog) -> None:
    board = _part(catalog, Kind.MOTHERBOARD, "ws-supermicro-h13ssl-n")
    psus = catalog.table(Kind.PSU).parts()
    two = next(p for p in psus if p.connectors and p.connectors.eps8 == 2)
    unknown = next(p for p in psus if not (p.connectors and p.connectors.eps8 is not None))
    shown = passed(b := _build((board, 1), (two, 1)), check(b))
    assert {"psu-eps", "psu-eps-count"} <= set(shown)
    report = check(b := _build((board, 1), (unknown, 1)))
    assert "psu-eps-count" in {n.rule for n in report.not_checked}
    assert "psu-eps-count" not in passed(b, report)
