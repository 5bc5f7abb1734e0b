"""Issue 38: the catalog update from an OpenDB archive and the user's corrections, end to end through the real CLI.

The shipped catalog here is a reduced real one (tests/reduced_parts.py: about 1,860 of the 26,088 parts, every part
a hand-written file of parts/ names, RIGPLAN_PARTS_DIR pointing at it), so each update converts that share through
the same code; benchmarks/catalog_update.py runs the full-size update. The archives are built from it
(tests/opendb_archive.py: its records written back in OpenDB's layout), with changes the test knows: one GPU's length
changed, one GPU added, hostile members. Never ../shared."""

from __future__ import annotations

import json
import os
import subprocess
import tarfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

import opendb_archive as oa
import reduced_parts
from cli_in_process import rigplan_in_process
from rigplan.catalog import Catalog
from rigplan.model.parts import Kind
from rigplan.opendb import supplement

GPU = "08690e09-bcad-4acd-99d9-72f0093db590"  # Asus TUF Gaming OG OC GeForce RTX 4090, 326 mm in the shipped data
PSU = None  # picked from the catalog below: a PSU the user corrects before the update
NEW_ID = "f0000000-0000-4000-8000-00000000beef"


def rigplan(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return rigplan_in_process(*args, stdin=stdin)  # the command's answer, not the process (cli_in_process.py)


def show(pid: str) -> dict[str, Any]:
    run = rigplan("parts", "show", pid, "--json")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


pytestmark = pytest.mark.usefixtures("shipped_is_reduced")


@pytest.fixture(scope="module")
def records(reduced_catalog: Catalog) -> dict[Kind, list[dict[str, Any]]]:
    return oa.shipped_records(reduced_catalog)


def test_the_reduced_catalog_keeps_what_the_update_reads(catalog: Catalog, reduced_catalog: Catalog) -> None:
    """Every part a hand-written file of parts/ names, the whole supplement and the GPU the tests change are in the
    reduced catalog as shipped, and every kind keeps a real share of its parts."""
    named = reduced_parts.named_ids() & {pid for k in Kind for pid in catalog.table(k).ids}
    assert len(named) >= 90 and all(pid in reduced_catalog for pid in named)
    for kind in Kind:
        ws = [pid for pid in catalog.table(kind).ids if pid.startswith(supplement.PREFIX)]
        assert all(reduced_catalog.row_of(pid) == catalog.row_of(pid) for pid in ws), kind
        assert len(catalog.table(kind)) // 20 <= len(reduced_catalog.table(kind)) < len(catalog.table(kind)) // 5, kind
    assert reduced_catalog.row_of(GPU) == catalog.row_of(GPU) and reduced_catalog.row_of(GPU)["length_mm"] == 326
    assert any(p.wattage == 850 and p.length_mm for p in reduced_catalog.of_kind(Kind.PSU))


def _new_gpu(records: dict[Kind, list[dict[str, Any]]]) -> dict[str, Any]:
    base = next(r for r in records[Kind.GPU] if r["opendb_id"] == GPU)
    return {
        **json.loads(json.dumps(base)),
        "opendb_id": NEW_ID,
        "metadata": {"name": "Zephyrine Quokka RTX 4090 Test Edition", "manufacturer": "Zephyrine"},
        "length": 331,
    }


def _longer(kind: Kind, rec: dict[str, Any]) -> dict[str, Any]:
    return {**rec, "length": 341} if rec["opendb_id"] == GPU else rec


@pytest.fixture(scope="module")
def changed_archive(records: dict[Kind, list[dict[str, Any]]], tmp_path_factory: pytest.TempPathFactory) -> Path:
    bad_model = {"opendb_id": "bad-model-record", "metadata": {"name": "x" * 400}}  # a name over the model's 300
    path = tmp_path_factory.mktemp("archives") / "opendb-changed.tar.gz"

    def broken_json(tar: tarfile.TarFile) -> None:
        oa.add(tar, f"buildcores-open-db-{oa.COMMIT}/open-db/GPU/broken.json", b"{not json")

    extra = [(Kind.GPU, _new_gpu(records)), (Kind.GPU, bad_model)]
    return oa.build(path, records, edit=_longer, extra=extra, hostile=broken_json)


@pytest.mark.slow
def test_update_from_a_file_then_correction_kept_then_revert(changed_archive: Path, reduced_catalog: Catalog) -> None:
    """The issue's acceptance: the new length shown, the new part found, a correction made before the update still
    applied after it, revert restoring the old value."""
    psu = next(p for p in reduced_catalog.of_kind(Kind.PSU) if p.wattage == 850 and p.length_mm)
    made = rigplan("parts", "correct", psu.id, "length_mm=161", "--source", "maker's datasheet, p. 3")
    assert made.returncode == 0, made.stderr
    assert show(GPU)["length_mm"] == 326

    run = rigplan("catalog", "update", "--from", str(changed_archive), "--yes", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["switched"] is True
    assert out["new"]["gpu"] == [{"id": NEW_ID, "name": "Zephyrine Quokka RTX 4090 Test Edition"}]
    assert out["skipped_records"] == {"GPU": 1} and out["rejected_records"] == 1
    gpu_change = next(r for r in out["rule_fields_changed"] if r["id"] == GPU)
    assert gpu_change["fields"]["length_mm"] == [326, 341] and "gpu-length" in gpu_change["rules"]

    assert show(GPU)["length_mm"] == 341
    listed = rigplan("parts", "list", "--kind", "gpu", "--search", "Zephyrine Quokka")
    assert listed.returncode == 0 and NEW_ID in listed.stdout, listed.stdout
    assert "@0123456 (2026-09-21), updated" in listed.stdout  # the snapshot in use, named under the list
    kept = show(psu.id)
    assert kept["length_mm"] == 161 and kept["your_corrections"][0]["source"] == "maker's datasheet, p. 3"
    plain = rigplan("parts", "show", psu.id).stdout
    assert "161  <- your correction (maker's datasheet, p. 3)" in plain

    status = json.loads(rigplan("catalog", "status", "--json").stdout)
    assert status["in_use"] == "updated" and status["commit"] == oa.COMMIT and status["date"] == "2026-09-21"
    assert status["counts"]["gpu"] == len(reduced_catalog.table(Kind.GPU)) + 1 and status["your_corrections"] == 1

    back = rigplan("catalog", "revert")
    assert back.returncode == 0 and "shipped" in back.stdout, back.stdout
    assert show(GPU)["length_mm"] == 326
    assert rigplan("parts", "show", NEW_ID).returncode == 2
    assert show(psu.id)["length_mm"] == 161  # the correction survives the revert too
    again = rigplan("catalog", "revert")  # previous is the update: back to it
    assert again.returncode == 0 and show(GPU)["length_mm"] == 341


def _hostile(kind: str):  # noqa: ANN202 - a tar member writer
    top = f"buildcores-open-db-{oa.COMMIT}"

    def write(tar: tarfile.TarFile) -> None:
        if kind == "symlink":
            oa.add(tar, f"{top}/open-db/GPU/link.json", b"", type=tarfile.SYMTYPE, linkname="/etc/passwd")
        elif kind == "hardlink":
            oa.add(tar, f"{top}/open-db/GPU/hard.json", b"", type=tarfile.LNKTYPE, linkname=f"{top}/README.md")
        elif kind == "dotdot":
            oa.add(tar, f"{top}/open-db/../../../evil.json", b"{}")
        elif kind == "absolute":
            oa.add(tar, "/tmp/evil.json", b"{}")
        elif kind == "device":
            oa.add(tar, f"{top}/open-db/GPU/dev.json", b"", type=tarfile.CHRTYPE, devmajor=1, devminor=3)
        elif kind == "fifo":
            oa.add(tar, f"{top}/open-db/GPU/fifo.json", b"", type=tarfile.FIFOTYPE)

    return write


@pytest.mark.parametrize("kind", ["symlink", "hardlink", "dotdot", "absolute", "device", "fifo"])
def test_a_hostile_archive_changes_nothing(
    kind: str, records: dict[Kind, list[dict[str, Any]]], tmp_path: Path
) -> None:
    few = {k: v[:3] for k, v in records.items()}
    path = oa.build(tmp_path / f"{kind}.tar.gz", few, edit=_longer, hostile=_hostile(kind))
    run = rigplan("catalog", "update", "--from", str(path), "--yes")
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "refused" in run.stderr and "unchanged" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
    data = Path(os.environ["XDG_DATA_HOME"]) / "RigPlan" / "catalog"
    assert not (data / "state.json").exists()
    assert show(GPU)["length_mm"] == 326


@pytest.mark.parametrize(
    ("content", "why"),
    [(b"not a tar at all", "not a readable tar.gz"), (b"", "not a readable tar.gz")],
)
def test_a_file_that_is_no_archive_is_one_line(content: bytes, why: str, tmp_path: Path) -> None:
    path = tmp_path / "x.tar.gz"
    path.write_bytes(content)
    run = rigplan("catalog", "update", "--from", str(path), "--yes")
    assert run.returncode == 2 and why in run.stderr and run.stderr.count("\n") == 1, run.stderr


def test_an_archive_without_records_is_refused(tmp_path: Path) -> None:
    path = oa.build(tmp_path / "empty.tar.gz", {})
    run = rigplan("catalog", "update", "--from", str(path), "--yes")
    assert run.returncode == 2 and "no open-db/<Category>/<id>.json records" in run.stderr, run.stderr


@pytest.mark.slow
def test_an_update_that_drops_a_fifth_of_a_kind_stops(
    records: dict[Kind, list[dict[str, Any]]], tmp_path: Path
) -> None:
    cases = records[Kind.CASE]
    keep = {r["opendb_id"] for r in cases[: int(len(cases) * 0.7)]}
    path = oa.build(
        tmp_path / "drop.tar.gz",
        records,
        edit=lambda k, r: None if k is Kind.CASE and r["opendb_id"] not in keep else r,
    )
    run = rigplan("catalog", "update", "--from", str(path), "--yes")
    assert run.returncode == 2, run.stdout
    assert f"case: {len(cases) - len(keep):,} of {len(cases):,} parts would be gone" in run.stderr, run.stderr
    assert not (Path(os.environ["XDG_DATA_HOME"]) / "RigPlan" / "catalog" / "state.json").exists()


@contextmanager
def serving(files: dict[str, bytes]) -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            body = files.get(self.path)
            if body is None:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_download_of_main_dry_run_switches_nothing(changed_archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with serving({"/archive/refs/heads/main.tar.gz": changed_archive.read_bytes()}) as url:
        monkeypatch.setenv("RIGPLAN_OPENDB_URL", url)
        run = rigplan("catalog", "update", "--dry-run")
    assert run.returncode == 0, run.stderr
    assert "Catalog update from OpenDB @0123456 of 2026-09-21" in run.stdout
    assert "new: Zephyrine Quokka RTX 4090 Test Edition" in run.stdout
    assert "Nothing switched (--dry-run)" in run.stdout
    assert show(GPU)["length_mm"] == 326


def test_a_missing_commit_on_the_server_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    with serving({}) as url:
        monkeypatch.setenv("RIGPLAN_OPENDB_URL", url)
        run = rigplan("catalog", "update", "--commit", "abcdef1", "--yes")
    last = run.stderr.splitlines()[-1]  # the lines before it are progress
    assert run.returncode == 2 and last.startswith("rigplan: http://127.0.0.1:"), run.stderr
    assert last.endswith("/archive/abcdef1.tar.gz: the server answered 404 Not Found; the catalog in use is unchanged")


def test_bad_commit_and_both_sources_refused() -> None:
    bad = rigplan("catalog", "update", "--commit", "main;rm -rf /")
    assert bad.returncode == 2 and "7 to 40 hex digits" in bad.stderr
    both = rigplan("catalog", "update", "--commit", "abcdef1", "--from", "x.tar.gz")
    assert both.returncode == 2 and "give one" in both.stderr
