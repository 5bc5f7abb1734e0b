"""Serve a local copy of the sources on 127.0.0.1 in the layout of their real URLs, to test tools/fetch_sources.py
without GitHub (fetch_sources.py --no-mirror --base-url http://127.0.0.1:PORT).

    python tools/serve_sources.py --mirror ../shared/data --pypi DIR [--port 8765] [--corrupt prices/cpu.json]

GitHub raw files are the mirror's files; the OpenDB archive (codeload) is rebuilt from the mirror's JSONL, one
pretty-printed JSON file per record as upstream keeps them; PyPI files are taken from --pypi (pip download). --corrupt
flips one byte of the named mirror file (or of every OpenDB record's file, for opendb/*.jsonl) as served, so that
fetch_sources.py must refuse it. Ctrl-C stops the server.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import io
import json
import shutil
import signal
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sources  # noqa: E402


def flip(data: bytes) -> bytes:
    """The same bytes with one digit or letter changed in the middle (still valid text)."""
    i = len(data) // 2
    while i < len(data) and not chr(data[i]).isalnum():
        i += 1
    return data[:i] + (b"1" if data[i : i + 1] != b"1" else b"2") + data[i + 1 :]


def opendb_archive(src: dict[str, Any], mirror: Path, corrupt: str | None) -> bytes:
    top = f"{src['repo'].split('/')[1]}-{src['commit']}"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:

        def add(name: str, data: bytes) -> None:
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))

        for rel, spec in src["files"].items():
            raw = (mirror / rel).read_bytes()
            if spec.get("convert") == "jsonl":
                for n, line in enumerate(raw.decode("utf-8").splitlines()):
                    rec = json.loads(line)
                    text = json.dumps(rec, ensure_ascii=False, indent=2) + "\n"
                    data = text.encode("utf-8")
                    add(f"{spec['from']}/{rec['opendb_id']}.json", flip(data) if corrupt == rel and n == 0 else data)
            else:
                add(spec["from"], flip(raw) if corrupt == rel else raw)
    return buf.getvalue()


def build_tree(root: Path, mirror: Path, pypi: Path, corrupt: str | None) -> int:
    n = 0
    for src in sources.load_lock()["sources"]:
        if src["how"] == "github-files":
            for rel, spec in src["files"].items():
                target = root / "raw.githubusercontent.com" / src["repo"] / src["commit"] / spec["from"]
                raw = (mirror / rel).read_bytes()
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(flip(raw) if corrupt == rel else raw)
                n += 1
        elif src["how"] == "github-archive":
            target = root / "codeload.github.com" / src["repo"] / "tar.gz" / src["commit"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(opendb_archive(src, mirror, corrupt))
            n += 1
        elif src["how"] == "pypi":
            name = src["url"].rsplit("/", 1)[1]
            target = root / src["url"].removeprefix("https://")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes((pypi / name).read_bytes())
            n += 1
    return n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirror", type=Path, required=True)
    ap.add_argument("--pypi", type=Path, required=True, help="a folder with the lock's PyPI files (pip download)")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--corrupt", help="a file of the lock, e.g. prices/cpu.json or opendb/CPU.jsonl")
    a = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="rigplan-serve-"))
    n = build_tree(root, a.mirror, a.pypi, a.corrupt)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    try:
        with http.server.ThreadingHTTPServer(("127.0.0.1", a.port), handler) as httpd:
            print(f"serving {n} downloads from {root} at http://127.0.0.1:{a.port}", flush=True)
            signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
            httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
