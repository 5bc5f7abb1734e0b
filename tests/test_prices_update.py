"""The price update path against a local server on 127.0.0.1 (tests/prices_server.py): no test touches the internet.
A good catalog becomes a dated cache that the app's offers use; a truncated zip, wrong columns, a missing file and a
server that never answers each give one clear line and leave the prices in use as they were."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from prices_server import VERSION, serve
from rigplan.cloud import store
from rigplan.cloud.fetch import Cancelled, PriceUpdateError
from rigplan.cloud.update import import_file, update

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def test_update_from_local_server_is_cached_dated_and_used(tmp_path: Path) -> None:
    seen: list[tuple[float, str]] = []
    with serve() as (url, asked):
        ps = update(tmp_path, ("aws", "lambdalabs"), url, lambda s, t: seen.append((s, t)))
    assert f"/v3/aws/{VERSION}/catalog.zip" in asked and "/v3/lambdalabs/version" in asked
    # progress rises from 0 to 1 and names what it is doing
    shares = [s for s, _ in seen]
    assert shares[0] == 0 and shares[-1] == 1.0 and shares == sorted(shares)
    assert any("aws 20261101-7: downloaded" in t for _, t in seen)
    assert set(ps.providers) == {"aws", "lambda"} and ps.providers["aws"]["date"] == "2026-11-01"
    assert store.cache_file(tmp_path).is_file()

    cat = store.load_prices(tmp_path)
    g4 = cat.get("aws:g4dn.xlarge:us-east-1")
    assert g4 is not None and g4.ondemand_usd_h == 0.526 and g4.spot_usd_h == 0.2161
    assert g4.data_date == dt.date(2026, 11, 1) and g4.date_text == "2026-11-01"
    assert "gpuhunt catalog" in g4.source and VERSION in g4.source
    # on-demand-less rows, ARM hosts, non-GPU accelerators and the 80 GB A100 are mapped and flagged
    p4de = cat.get("aws:p4de.24xlarge:us-east-1")
    assert p4de.gpu_model == "A100-80GB" and p4de.ondemand_usd_h is None
    assert "no on-demand price in the source" in p4de.quirks
    assert cat.get("aws:g5g.xlarge:us-east-1").cpu_arch == "arm64"
    assert any("NOT A GPU" in q for q in cat.get("aws:dl1.24xlarge:us-east-1").quirks)
    assert cat.get("aws:m5.large:us-east-1") is None  # no GPU, no offer
    assert cat.get("lambda:gpu_8x_h100_sxm5:us-east-1").ondemand_usd_h == 23.92
    # the update replaces the current AWS and Lambda offers, keeps GCP/Azure bundled and the dated history
    fresh_aws = [o for o in cat.find(provider="aws", current_only=True) if o.data_date == dt.date(2026, 11, 1)]
    assert len(fresh_aws) == 7
    assert not [o for o in cat.find(provider="aws", instance="g4dn.xlarge", current_only=True) if o.data_date is None]
    # a type the update does not list (gpuhunt leaves out p3) keeps its bundled, older-dated price
    p3 = cat.get("aws:p3.2xlarge:us-east-1")
    assert p3 is not None and p3.date_text == "after 2025-06"
    assert cat.find(provider="gcp", current_only=True) and cat.find(provider="aws", instance="p2.xlarge")
    assert "prices as of 2026-11-01 (aws, lambda)" in cat.origin


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("truncated", "cut short"),
        ("wrong-columns", "columns missing: instance_name, location, price"),
        ("missing", "404"),
        ("timeout", "no answer within 0.5 s"),
    ],
)
def test_broken_catalogs_give_one_line_and_keep_old_prices(tmp_path: Path, mode: str, expected: str) -> None:
    with serve() as (url, _):
        update(tmp_path, ("aws",), url)  # a good update first: these are "the old prices"
    before = store.cache_file(tmp_path).read_bytes()
    with serve(mode) as (url, _), pytest.raises(PriceUpdateError) as err:
        update(tmp_path, ("aws",), url, timeout=0.5)
    message = str(err.value)
    assert expected in message and "\n" not in message
    assert store.cache_file(tmp_path).read_bytes() == before


def test_cancel_stops_before_anything_is_saved(tmp_path: Path) -> None:
    calls = []

    def cancelled() -> bool:
        calls.append(1)
        return len(calls) > 2

    with serve() as (url, _), pytest.raises(Cancelled):
        update(tmp_path, ("aws", "lambdalabs"), url, cancelled=cancelled)
    assert not store.cache_file(tmp_path).exists()
    assert store.load_prices(tmp_path).origin.startswith("bundled snapshot")


def test_revert_goes_back_to_bundled_and_keeps_the_cache_aside(tmp_path: Path) -> None:
    with serve() as (url, _):
        update(tmp_path, ("aws",), url)
    assert store.load_prices(tmp_path).get("aws:g4dn.xlarge:us-east-1").data_date == dt.date(2026, 11, 1)
    assert store.revert(tmp_path) is True
    bundled = store.load_prices(tmp_path).get("aws:g4dn.xlarge:us-east-1")
    assert bundled.data_date is None and bundled.date_text == "after 2025-06"
    assert store.cache_file(tmp_path).with_suffix(".json.reverted").is_file()
    assert store.revert(tmp_path) is False


def test_corrupt_cache_falls_back_to_bundled_with_a_note(tmp_path: Path) -> None:
    path = store.cache_file(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text('{"format": 1, "offers": [', "utf-8")
    cat = store.load_prices(tmp_path)
    assert cat.origin.startswith("bundled snapshot") and "unreadable" in (cat.problem or "")
    assert cat.get("aws:g4dn.xlarge:us-east-1") is not None


def test_import_skypilot_vms_csv_merges_zones(tmp_path: Path) -> None:
    ps = import_file(tmp_path, DATA / "skypilot" / "aws" / "vms.csv", date=dt.date(2026, 10, 2))
    by = {o.id: o for o in ps.offers}
    assert set(by) == {"aws:g4dn.xlarge:us-east-1", "aws:g6f.large:us-east-1"}
    g4 = by["aws:g4dn.xlarge:us-east-1"]
    assert (g4.ondemand_usd_h, g4.spot_usd_h, g4.vram_gb_each) == (0.526, 0.1988, 16.0)  # spot: the cheaper zone
    assert g4.data_date == dt.date(2026, 10, 2)
    slice_ = by["aws:g6f.large:us-east-1"]
    assert slice_.gpu_fraction == 0.125 and slice_.gpus_text == "0.125 of 1 L4"


def test_import_gpuhunt_csv_without_date_says_so(tmp_path: Path) -> None:
    ps = import_file(tmp_path, DATA / "gpuhunt" / "lambdalabs.csv")
    o = ps.offers[0]
    assert o.provider == "lambda" and o.data_date is None and o.date_text == "date unknown"
    assert "does not say when its prices were read" in o.data_date_note


def test_import_wrong_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "aws.csv"
    bad.write_text("a,b\n1,2\n", "utf-8")
    with pytest.raises(PriceUpdateError, match="neither a SkyPilot vms.csv"):
        import_file(tmp_path, bad)
    assert not store.cache_file(tmp_path).exists()


def _cli(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_DATA_HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "rigplan", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )


@pytest.mark.slow
def test_cli_update_status_list_revert(tmp_path: Path) -> None:
    with serve() as (url, _):
        r = _cli("prices", "update", "--providers", "aws", "--url", url, "--json", home=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["providers"]["aws"]["date"] == "2026-11-01"
    st = json.loads(_cli("prices", "status", "--json", home=tmp_path).stdout)
    assert st["in_use"] == "updated" and st["offers"] == 7
    listed = json.loads(_cli("instances", "list", "--provider", "aws", "--gpu", "T4", "--json", home=tmp_path).stdout)
    rows = [o for o in listed["offers"] if o["snapshot"] == "current" and o["instance_type"] == "g4dn.xlarge"]
    assert {o["region"] for o in rows} == {"us-east-1", "eu-west-1"}
    assert {o["price_date"] for o in rows} == {"2026-11-01"} and "prices as of 2026-11-01" in listed["prices"]
    assert "Using the bundled snapshot" in _cli("prices", "revert", home=tmp_path).stdout
    assert json.loads(_cli("prices", "status", "--json", home=tmp_path).stdout)["in_use"] == "bundled"


def test_cli_update_failure_is_one_line_exit_2(tmp_path: Path) -> None:
    with serve("truncated") as (url, _):
        r = _cli("prices", "update", "--providers", "aws", "--url", url, home=tmp_path)
    assert r.returncode == 2
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("rigplan: ") and "cut short" in last and "prices in use are unchanged" in last
    assert "Traceback" not in r.stderr


def test_https_without_openssl_names_libssl3_and_keeps_prices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A frozen app on a system whose OpenSSL 3 cannot be loaded: Python's `import ssl` fails. The update must say
    # which package brings HTTPS back and how to go on without it, and leave the prices in use as they were.
    with serve() as (url, _):
        update(tmp_path, ("aws",), url)
    before = store.cache_file(tmp_path).read_bytes()
    monkeypatch.setitem(sys.modules, "ssl", None)  # `import ssl` now raises ImportError, as when _ssl cannot load
    with pytest.raises(PriceUpdateError) as err:
        update(tmp_path, ("aws",), "https://127.0.0.1:9/v3", timeout=0.5)
    message = str(err.value)
    assert "libssl3" in message and "import a price file" in message and "\n" not in message
    assert store.cache_file(tmp_path).read_bytes() == before


def test_update_over_real_https_trusts_only_a_verified_certificate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real TLS path on loopback: OpenSSL verifies the server's certificate against the trusted set, which
    # SSL_CERT_FILE replaces here (tests/data/tls). Trusted: the update lands; not trusted: one line, nothing changed.
    cert = DATA / "tls" / "cert.pem"
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    with serve(tls=True) as (url, asked):
        assert url.startswith("https://127.0.0.1:")
        ps = update(tmp_path, ("aws",), url)
    assert ps.providers["aws"]["date"] == "2026-11-01" and f"/v3/aws/{VERSION}/catalog.zip" in asked
    before = store.cache_file(tmp_path).read_bytes()

    monkeypatch.setenv("SSL_CERT_FILE", str(DATA / "tls" / "README.md"))  # no certificate in it: nothing trusted
    with serve(tls=True) as (url, _), pytest.raises(PriceUpdateError) as err:
        update(tmp_path, ("aws",), url, timeout=5)
    message = str(err.value)
    assert "certificate could not be verified (self-signed certificate)" in message and "\n" not in message
    assert store.cache_file(tmp_path).read_bytes() == before


def test_tls_context_falls_back_to_certifi_when_the_system_trusts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A Debian minbase without ca-certificates (or a python.org macOS build) has no trusted certificate at all: every
    # HTTPS server would be refused. The context then carries Mozilla's set from certifi.
    import certifi

    from rigplan.cloud.fetch import tls_context

    empty = tmp_path / "none.pem"
    empty.write_text("")
    monkeypatch.setenv("SSL_CERT_FILE", str(empty))
    monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path))
    with_certifi = tls_context().cert_store_stats()["x509_ca"]
    assert with_certifi == certifi.contents().count("BEGIN CERTIFICATE") and with_certifi > 100
    monkeypatch.setenv("SSL_CERT_FILE", str(DATA / "tls" / "cert.pem"))  # the system's own set wins when it has one
    assert tls_context().cert_store_stats()["x509_ca"] == 1
