"""One bounded download to a file: a deadline for the whole transfer, a size cap, an optional SHA-256 checked before
anything reads the file, progress and cancel. Written against the signature of the project's one safe download
(issue 35, branch `reliab`); when that lands this module is replaced by it (same arguments, same errors).

Refused: more than `max_bytes`, past `deadline_s`, a hash that differs; the partial file is removed every time."""

from __future__ import annotations

import hashlib
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

CHUNK = 64 * 1024


class DownloadError(OSError):
    """One line for the user; nothing was kept."""


class DownloadCancelled(DownloadError):
    pass


def download(
    url: str,
    dest: Path,
    *,
    sha256: str | None = None,
    max_bytes: int,
    deadline_s: float,
    progress: Callable[[int, int | None], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Path:
    """`url` -> `dest` (written as dest.part, renamed when complete and checked). progress(bytes so far, total)."""
    if not url.startswith(("https://", "http://127.0.0.1", "http://localhost", "file:")):
        raise DownloadError(f"{url}: only https (or a local test server) is used")
    stop = time.monotonic() + deadline_s
    part = dest.with_name(dest.name + ".part")
    h = hashlib.sha256()
    got = 0
    try:
        req = urllib.request.Request(url, headers={"User-Agent": "RigPlan catalog update"})
        with urllib.request.urlopen(req, timeout=min(30.0, deadline_s)) as resp, part.open("wb") as out:
            total = resp.headers.get("Content-Length")
            size = int(total) if total and total.isdigit() else None
            if size is not None and size > max_bytes:
                raise DownloadError(f"{url}: {size:,} bytes, more than the {max_bytes:,} allowed")
            while True:
                if cancelled is not None and cancelled():
                    raise DownloadCancelled("download cancelled")
                if time.monotonic() > stop:
                    raise DownloadError(f"{url}: not complete after {deadline_s:g} s; stopped")
                chunk = resp.read(CHUNK)
                if not chunk:
                    break
                got += len(chunk)
                if got > max_bytes:
                    raise DownloadError(f"{url}: more than the {max_bytes:,} bytes allowed; stopped")
                h.update(chunk)
                out.write(chunk)
                if progress is not None:
                    progress(got, size)
            out.flush()
            os.fsync(out.fileno())
        if sha256 is not None and h.hexdigest() != sha256.lower():
            raise DownloadError(f"{url}: SHA-256 {h.hexdigest()[:12]}... is not the expected {sha256[:12]}...")
        os.replace(part, dest)
        return dest
    except DownloadError:
        part.unlink(missing_ok=True)
        raise
    except (urllib.error.URLError, OSError, ValueError) as exc:
        part.unlink(missing_ok=True)
        why = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc
        raise DownloadError(f"{url}: cannot download ({' '.join(str(why).split())[:160]})") from None
