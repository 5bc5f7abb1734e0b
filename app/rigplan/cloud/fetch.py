"""Download gpuhunt's published price catalog, provider by provider, with progress and cancel.

gpuhunt (dstack) publishes one catalog per provider under a base address (`GPUHUNT_CATALOG_URL`, default its S3
bucket): `{base}/{provider}/version` holds the latest version, `YYYYMMDD-<run>` (the day it was collected), and
`{base}/{provider}/{version}/catalog.zip` a zip holding `{provider}.csv`. gpuhunt's own `Catalog.load()` fetches
all nine providers at once with neither progress nor a way to stop, so the download is done here, in chunks, and
gpuhunt reads the files (rigplan.cloud.gpuhunt_map).
"""

from __future__ import annotations

import errno
import io
import os
import socket
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ssl as ssl_module

# The published address, as in gpuhunt 0.1.x (gpuhunt._internal.catalog.CATALOG_URL); GPUHUNT_CATALOG_URL overrides.
DEFAULT_URL = "https://dstack-gpu-pricing.s3.eu-west-1.amazonaws.com/v3"
# gpuhunt's provider names for the four clouds RigPlan compares against by default.
DEFAULT_PROVIDERS = ("aws", "azure", "gcp", "lambdalabs")
# The other providers gpuhunt publishes as files (its OFFLINE_PROVIDERS); more can be asked for by name.
OTHER_PROVIDERS = ("runpod", "nebius", "oci", "verda", "cloudrift")
TIMEOUT_S = 30.0  # seconds for each file, the whole download (`--timeout`)
CHUNK = 64 * 1024
MAX_BYTES = 200 * 1024 * 1024  # a catalog is a few MB; anything this large is not one
MAX_CSV_BYTES = 64 * 1024 * 1024  # inflated: gpuhunt's largest provider CSV is a few MB

Progress = Callable[[float, str], None]  # share done 0..1, what is happening


class PriceUpdateError(Exception):
    """One clear line for the user; the prices in use are left as they were. `offline`: no connection could be made
    at all (no name resolution, no route, refused, no answer): the user is told that, not a URL and an errno."""

    def __init__(self, message: str, offline: bool = False) -> None:
        super().__init__(message)
        self.offline = offline


class Cancelled(PriceUpdateError):
    def __init__(self) -> None:
        super().__init__("price update cancelled; the prices in use are unchanged")


@dataclass(frozen=True)
class Fetched:
    provider: str
    version: str
    url: str
    csv_text: str


def base_url(url: str | None = None) -> str:
    return (url or os.environ.get("GPUHUNT_CATALOG_URL") or DEFAULT_URL).rstrip("/")


def tls_context() -> ssl_module.SSLContext:
    """The system's trusted certificates (or SSL_CERT_FILE / SSL_CERT_DIR), and Mozilla's set from certifi when the
    system has none loaded: a Debian minbase without ca-certificates, or a python.org macOS build, would otherwise
    refuse every server. certifi comes with requests (gpuhunt's dependency); the frozen app bundles its cacert.pem."""
    import ssl

    context = ssl.create_default_context()
    if not context.cert_store_stats().get("x509_ca"):
        try:
            import certifi

            context.load_verify_locations(certifi.where())
        except (ImportError, OSError):  # nothing better to offer: the download then says the certificate failed
            pass
    return context


def _get(url: str, timeout: float, cancelled: Callable[[], bool], on_bytes: Callable[[int, int | None], None]) -> bytes:
    """The body at `url`, within `timeout` seconds for the whole download (not for each read: a server that drips a
    byte a second never times out a read), at most MAX_BYTES."""
    deadline = time.monotonic() + timeout
    try:
        context = tls_context() if url.startswith("https:") else None
        with urllib.request.urlopen(url, timeout=timeout, context=context) as resp:  # noqa: S310 (user's address)
            size = resp.headers.get("Content-Length")
            total = int(size) if size and size.isdigit() else None
            if total is not None and total > MAX_BYTES:
                raise PriceUpdateError(f"{url} is {total / 2**20:.0f} MB: not a price catalog")
            buf = io.BytesIO()
            while True:
                if cancelled():
                    raise Cancelled()
                chunk = resp.read1(CHUNK)  # what has arrived, not a full chunk: the deadline is checked often
                if not chunk:
                    break
                buf.write(chunk)
                if buf.tell() > MAX_BYTES:
                    raise PriceUpdateError(f"{url} is larger than {MAX_BYTES // 2**20} MB: not a price catalog")
                if time.monotonic() > deadline:
                    raise PriceUpdateError(
                        f"{url}: the download took over {timeout:g} s ({buf.tell():,} bytes so far); stopped"
                    )
                on_bytes(buf.tell(), total)
            if total is not None and buf.tell() < total:
                raise PriceUpdateError(f"{url}: download cut short ({buf.tell():,} of {total:,} bytes)")
            return buf.getvalue()
    except PriceUpdateError:
        raise
    except urllib.error.HTTPError as exc:
        raise PriceUpdateError(f"{url}: the server answered {exc.code} {exc.reason}") from exc
    except TimeoutError as exc:
        raise PriceUpdateError(f"{url}: no answer within {timeout:g} s (offline?)", offline=True) from exc
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, TimeoutError):
            raise PriceUpdateError(f"{url}: no answer within {timeout:g} s (offline?)", offline=True) from exc
        ssl = sys.modules.get("ssl")  # not imported at the top: a system without OpenSSL still imports this module
        if ssl is not None and isinstance(reason, ssl.SSLCertVerificationError):  # say why and what to do
            raise PriceUpdateError(
                f"{url}: the server's certificate could not be verified ({reason.verify_message}), so nothing was "
                "downloaded. A network that inspects HTTPS needs its certificate in SSL_CERT_FILE"
            ) from exc
        offline = isinstance(reason, socket.gaierror) or (
            isinstance(reason, OSError) and reason.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ECONNREFUSED)
        )
        raise PriceUpdateError(f"{url}: cannot connect ({reason})", offline=offline) from exc
    except (OSError, ValueError) as exc:  # reset connections, IncompleteRead, a malformed address
        raise PriceUpdateError(f"{url}: download failed ({exc})") from exc


def _unzip(data: bytes, provider: str, url: str) -> str:
    """The provider's CSV, inflated in chunks and stopped at MAX_CSV_BYTES: a small zip can inflate to gigabytes
    (what the zip says of its own size is not trusted)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf, zf.open(f"{provider}.csv") as fh:
            parts, got = [], 0
            while chunk := fh.read(CHUNK):
                got += len(chunk)
                if got > MAX_CSV_BYTES:
                    raise PriceUpdateError(
                        f"{url}: {provider}.csv inflates to over {MAX_CSV_BYTES // 2**20} MB: not a price catalog"
                    )
                parts.append(chunk)
            return b"".join(parts).decode("utf-8")
    except PriceUpdateError:
        raise
    except KeyError as exc:
        raise PriceUpdateError(f"{url}: the zip holds no {provider}.csv") from exc
    except (zipfile.BadZipFile, EOFError, OSError, zipfile.LargeZipFile, NotImplementedError) as exc:
        raise PriceUpdateError(f"{url}: not a complete zip file (truncated download?)") from exc
    except UnicodeDecodeError as exc:
        raise PriceUpdateError(f"{url}: {provider}.csv is not UTF-8 text") from exc


def fetch_catalogs(
    providers: tuple[str, ...] = DEFAULT_PROVIDERS,
    url: str | None = None,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] = lambda: False,
    timeout: float = TIMEOUT_S,
) -> list[Fetched]:
    """Every provider's latest catalog, or PriceUpdateError on the first failure (nothing half-done is kept)."""
    base = base_url(url)
    if base.startswith("https:"):
        try:
            import ssl  # noqa: F401
        except ImportError as exc:  # Python's _ssl could not load OpenSSL (a system without libssl3, a stripped build)
            raise PriceUpdateError(
                f"HTTPS is not available: Python's ssl module could not load OpenSSL 3 ({exc}). "
                "On Debian or Ubuntu: sudo apt install libssl3. Until then, import a price file "
                "(Cloud prices > Import, or rigplan prices import FILE); the prices in use are unchanged"
            ) from exc
    report = progress or (lambda share, text: None)
    out: list[Fetched] = []
    n = len(providers)
    for i, provider in enumerate(providers):
        report(i / n, f"{provider}: asking for the latest version")
        version_url = f"{base}/{provider}/version"
        version = _get(version_url, timeout, cancelled, lambda done, total: None).decode("utf-8", "replace").strip()
        if not version or len(version) > 64 or "/" in version or any(c.isspace() for c in version):
            raise PriceUpdateError(f"{version_url}: not a catalog version ({version[:40]!r})")
        zip_url = f"{base}/{provider}/{version}/catalog.zip"

        def on_bytes(done: int, total: int | None, i: int = i, name: str = f"{provider} {version}") -> None:
            part = done / total if total else 0.5
            report((i + min(part, 1.0)) / n, f"{name}: {done / 1e6:.1f} MB")

        data = _get(zip_url, timeout, cancelled, on_bytes)
        out.append(Fetched(provider, version, zip_url, _unzip(data, provider, zip_url)))
        report((i + 1) / n, f"{provider} {version}: downloaded")
    return out
