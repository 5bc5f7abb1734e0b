"""Issue 38: the user's corrections: checked by the model, kept in the data folder, applied over the catalog in use
at every load (the CLI's, the GUI's), listed, removed, exported in OpenDB's layout; and the catalog-in-use state."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from cli_in_process import rigplan_in_process
from rigplan.catalog import load_catalog
from rigplan.catalog.overlay import corrections_file, snapshot_line
from rigplan.model.parts import Kind
from rigplan.opendb import usercorr

GPU = "08690e09-bcad-4acd-99d9-72f0093db590"  # Asus TUF Gaming OG OC GeForce RTX 4090, 326 mm, 4 slots shipped


def rigplan(*args: str) -> subprocess.CompletedProcess[str]:
    return rigplan_in_process(*args)  # the command's answer, not the process (tests/cli_in_process.py)


@pytest.mark.parametrize(
    ("assignment", "says"),
    [
        ("lenght_mm=300", "lenght_mm: a gpu has no such field; did you mean 'length_mm'?"),
        ("length_mm=long", "length_mm: Input should be a valid number"),
        ("length_mm=-5", "length_mm: Input should be greater than 0"),
        ("power_connectors.pin9=2", "power_connectors.pin9: Extra inputs are not permitted"),
        ("id=abc", "id: cannot be corrected"),
        ("length_mm", "write FIELD=VALUE"),
    ],
)
def test_a_wrong_field_or_type_is_refused_in_one_line(assignment: str, says: str) -> None:
    run = rigplan("parts", "correct", GPU, assignment, "--source", "maker page")
    assert run.returncode == 2
    assert says in run.stderr and run.stderr.count("\n") == 1 and "nothing was changed" in run.stderr, run.stderr
    assert not corrections_file().exists()


def test_a_correction_needs_a_source_and_a_known_part() -> None:
    assert "--source is empty" in rigplan("parts", "correct", GPU, "length_mm=300", "--source", " ").stderr
    assert "no part with id 'nope'" in rigplan("parts", "correct", "nope", "length_mm=300", "--source", "x").stderr


def test_corrections_apply_at_load_and_show_their_source() -> None:
    made = usercorr.add(GPU, ["length_mm=304", "slot_width=3", "power_connectors.pin16=1"], "ASUS spec page")
    assert [(c.field, c.was, c.value) for c in made] == [
        ("length_mm", 326, 304),
        ("slot_width", 4, 3),
        ("power_connectors.pin16", None, 1),
    ]
    cat = load_catalog()
    gpu = cat.get(GPU)
    assert gpu is not None and gpu.length_mm == 304 and gpu.slot_width == 3
    assert gpu.power_connectors is not None and gpu.power_connectors.pin16 == 1
    corr = cat.correction(GPU, "power_connectors")
    assert corr is not None and corr.label() == "your correction (ASUS spec page)"
    # The catalog-wide search reads the corrected columns too.
    assert GPU in {p.id for p in cat.search(Kind.GPU, "TUF 4090", ["length_mm<=305"])}
    # A later correction of the same field replaces the earlier one; remove brings the catalog's value back.
    usercorr.add(GPU, ["length_mm=305"], "ASUS manual p. 2")
    assert load_catalog().get(GPU).length_mm == 305  # type: ignore[union-attr]
    usercorr.remove(GPU, "length_mm")
    assert load_catalog().get(GPU).length_mm == 326  # type: ignore[union-attr]
    listed = json.loads(rigplan("parts", "corrections", "list", "--json").stdout)["corrections"]
    assert {c["field"] for c in listed} == {"slot_width", "power_connectors.pin16"}


def test_a_broken_corrections_file_is_a_problem_line_not_a_failure() -> None:
    path = corrections_file()
    path.parent.mkdir(parents=True)
    path.write_text("format: 1\ncorrections: [{id: x}]\n")
    cat = load_catalog()
    assert any("your corrections are not applied" in str(p) for p in cat.problems)
    assert cat.get(GPU).length_mm == 326  # type: ignore[union-attr]
    run = rigplan("parts", "correct", GPU, "length_mm=300", "--source", "x")
    assert run.returncode == 2 and "fix or move the file first" in run.stderr
    assert "corrections: [{id: x}]" in path.read_text()  # nothing lost


def test_a_correction_the_catalog_no_longer_takes_is_listed_not_applied() -> None:
    path = corrections_file()
    path.parent.mkdir(parents=True)
    entry = {"id": GPU, "field": "length_mm", "value": "long", "was": 326, "source": "hand edit"}
    gone = {"id": "no-such-part", "field": "length_mm", "value": 3, "was": 1, "source": "x"}
    path.write_text(json.dumps({"format": 1, "corrections": [entry, gone]}))
    cat = load_catalog()
    problems = [str(p) for p in cat.problems]
    assert any(GPU in p and "valid number" in p for p in problems), problems
    assert any("no-such-part" in p and "no such part here" in p for p in problems), problems
    assert cat.get(GPU).length_mm == 326  # type: ignore[union-attr]


def test_export_writes_opendb_records_and_the_list_of_changes(tmp_path: Path) -> None:
    usercorr.add(GPU, ["length_mm=304", "slot_width=3"], "ASUS spec page")
    run = rigplan("parts", "corrections", "export", "--opendb", str(tmp_path / "pr"))
    assert run.returncode == 0, run.stderr
    rec = json.loads((tmp_path / "pr" / "open-db" / "GPU" / f"{GPU}.json").read_text())
    assert rec["opendb_id"] == GPU and rec["length"] == 304 and rec["total_slot_width"] == 3
    assert rec["metadata"]["name"].startswith("Asus TUF Gaming OG OC GeForce RTX 4090")
    notes = (tmp_path / "pr" / "CORRECTIONS.md").read_text()
    assert "`length_mm`: 326 -> 304; source: ASUS spec page" in notes


def test_export_without_corrections_is_one_line(tmp_path: Path) -> None:
    run = rigplan("parts", "corrections", "export", "--opendb", str(tmp_path))
    assert run.returncode == 2 and "no corrections to export" in run.stderr


def test_a_broken_state_file_means_the_shipped_catalog() -> None:
    home = Path(os.environ["XDG_DATA_HOME"]) / "RigPlan" / "catalog"
    home.mkdir(parents=True)
    (home / "state.json").write_text('{"format": 1, "current": "../../etc"}')
    cat = load_catalog()
    assert cat.about["catalog"] == "shipped" and len(cat) > 26_000
    (home / "state.json").write_text('{"format": 1, "current": "gone-folder"}')
    cat = load_catalog()
    assert cat.about["catalog"] == "shipped"
    assert any("unreadable; shipped one used" in str(p) for p in cat.problems)


def test_the_snapshot_line_names_commit_and_dates() -> None:
    assert snapshot_line(load_catalog().about) == (
        "parts: BuildCores OpenDB @136a77a (2026-08-17), shipped; part prices 2025-07-23"
    )


def test_the_shipped_snapshot_is_the_pinned_one() -> None:
    from rigplan.catalog.overlay import SHIPPED_ABOUT

    lock = json.loads((Path(__file__).parents[1] / "tools" / "sources.lock.json").read_text())
    opendb = next(s for s in lock["sources"] if s["name"] == "BuildCores OpenDB")
    assert (SHIPPED_ABOUT["commit"], SHIPPED_ABOUT["date"]) == (opendb["commit"], opendb["date"])


def test_a_finding_that_reads_a_corrected_value_names_its_source() -> None:
    """gpu-length reads the card's length: corrected to 341 mm in a 330 mm case, its error says whose value it is."""
    from rigplan.model.build import Build, BuildItem
    from rigplan.opendb.findings import with_correction_notes
    from rigplan.rules import check

    before = load_catalog()
    case = next(
        p for p in before.search(Kind.CASE, "", ["max_gpu_length_mm=330"]) if p.form_factor and "ATX" in p.form_factor
    )
    usercorr.add(GPU, ["length_mm=341"], "measured with a ruler")
    cat = load_catalog()
    build = Build(items=(BuildItem(part=cat.get(GPU)), BuildItem(part=case)))  # type: ignore[arg-type]
    report = with_correction_notes(check(build), build, cat.user_corrections)
    (finding,) = [f for f in report.findings if f.rule == "gpu-length"]
    assert finding.message.endswith("(length_mm 341 is your correction (measured with a ruler))"), finding.message
    others = [f for f in report.findings if f.rule != "gpu-length"]
    assert all("your correction" not in f.message for f in others)
    # The shipped length fits: no finding to mark, and nothing is marked.
    plain = Build(items=(BuildItem(part=before.get(GPU)), BuildItem(part=case)))  # type: ignore[arg-type]
    assert all(
        "your correction" not in f.message
        for f in with_correction_notes(check(plain), plain, cat.user_corrections).findings
    )


def _prepared(base_folder: str | None):  # noqa: ANN202 - a small Prepared, as update.prepare makes them
    from rigplan.opendb.update import Prepared, Summary

    cat = load_catalog()
    records = [{"kind": "gpu", **cat.row_of(GPU), "length_mm": 400}]  # type: ignore[dict-item]
    summary = Summary({}, {}, {}, {}, [], [], [], {}, [])
    about = {"catalog": "updated", "commit": "ab" * 20, "date": "2026-10-01", "saved": "2026-11-28T00:00:00+00:00"}
    return Prepared(records, about, summary, {}, base_folder)


def test_two_updates_cannot_mix(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both compared against the shipped catalog: the first switches, the second finds the state changed and stops;
    while another process holds the lock, an update waits, then stops saying so. The catalog in use is the first's."""
    from rigplan.files.oslock import locked
    from rigplan.opendb import store
    from rigplan.opendb.update import UpdateError

    first, second = _prepared(None), _prepared(None)
    folder = store.install(first)
    with pytest.raises(UpdateError, match="the catalog in use changed while this update ran"):
        store.install(second)
    monkeypatch.setattr(store, "LOCK_S", 0.2)
    with locked(store._state_file(None)), pytest.raises(UpdateError, match="another catalog update holds"):
        store.install(_prepared(folder))
    cat = load_catalog()
    assert cat.about["folder"] == folder and len(cat) == 1 and cat.get(GPU).length_mm == 400  # type: ignore[union-attr]
    home = Path(os.environ["XDG_DATA_HOME"]) / "RigPlan" / "catalog"
    assert sorted(p.name for p in home.iterdir() if p.is_dir()) == [folder]  # no staging folder left behind
