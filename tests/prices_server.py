"""A local HTTP server on 127.0.0.1 that serves a price catalog in gpuhunt's published layout
(`<provider>/version`, `<provider>/<version>/catalog.zip` holding `<provider>.csv`), made from tests/data/gpuhunt/
(written with gpuhunt's own writer). Broken variants: a truncated zip, wrong columns, a server that never answers."""

from __future__ import annotations

import io
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DATA = Path(__file__).parent / "data" / "gpuhunt"
VERSION = "20261101-7"


def zipped(provider: str, text: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{provider}.csv", text)
    return buf.getvalue()


def catalog_files(mode: str = "good", providers: tuple[str, ...] = ("aws", "lambdalabs")) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for p in providers:
        text = (DATA / f"{p}.csv").read_text("utf-8")
        if mode == "wrong-columns":
            text = "name,zone,usd_per_hour\ng4dn.xlarge,us-east-1a,0.526\n"
        body = zipped(p, text)
        files[f"/v3/{p}/version"] = f"{VERSION}\n".encode()
        files[f"/v3/{p}/{VERSION}/catalog.zip"] = body
    return files


@contextmanager
def serve(mode: str = "good", providers: tuple[str, ...] = ("aws", "lambdalabs")) -> Iterator[tuple[str, list[str]]]:
    """Yields (base address, the paths asked for). mode: good, truncated, wrong-columns, timeout, missing, slow (the
    zip in eight parts a quarter second apart, for screenshots of the progress dialog)."""
    files = catalog_files(mode, providers)
    asked: list[str] = []
    release = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            asked.append(self.path)
            if mode == "timeout":
                release.wait(10)  # longer than the client's timeout; released when the test ends
                return
            body = files.get(self.path)
            if body is None or (mode == "missing" and self.path.endswith(".zip")):
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if mode == "slow" and self.path.endswith(".zip"):
                step = len(body) // 8 + 1
                for i in range(0, len(body), step):
                    self.wfile.write(body[i : i + step])
                    self.wfile.flush()
                    release.wait(0.25)
                return
            if mode == "truncated" and self.path.endswith(".zip"):
                self.wfile.write(body[: len(body) // 2])  # the connection closes before Content-Length is reached
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v3", asked
    finally:
        release.set()
        server.shutdown()
        server.server_close()
