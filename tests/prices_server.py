"""A local HTTP server on 127.0.0.1 that serves a price catalog in gpuhunt's published layout
(`<provider>/version`, `<provider>/<version>/catalog.zip` holding `<provider>.csv`), made from tests/data/gpuhunt/
(written with gpuhunt's own writer). Broken variants: a truncated zip, wrong columns, a server that never answers."""

from __future__ import annotations

import io
import ssl
import struct
import threading
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DATA = Path(__file__).parent / "data" / "gpuhunt"
TLS_DIR = Path(__file__).parent / "data" / "tls"
VERSION = "20261101-7"


def zipped(provider: str, text: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{provider}.csv", text)
    return buf.getvalue()


_BOMBS: dict[str, bytes] = {}


def bomb(provider: str, inflated: int = 2**30) -> bytes:
    """A zip of about 1 MB whose `<provider>.csv` inflates to `inflated` bytes (1 GiB): a valid header line, then
    spaces. Deflating the gigabyte took 5.7 s of CPU; after a full flush a deflate stream starts afresh, so one
    mebibyte of spaces deflated once and flushed is repeated (the stream still inflates to every byte, checked by its
    CRC-32), and the archive around it is written field by field (PKWARE APPNOTE 4.3: local header, data, central
    directory, end record; the sizes fit 32 bits, so no zip64 fields)."""
    if provider not in _BOMBS:
        head = (DATA / f"{provider}.csv").read_text("utf-8").split("\n", 1)[0].encode() + b"\n"
        chunk = b" " * 2**20
        count, rest = divmod(inflated - len(head), len(chunk))
        deflate = zlib.compressobj(6, zlib.DEFLATED, -15)  # raw deflate, as zip stores it
        first = deflate.compress(head) + deflate.flush(zlib.Z_FULL_FLUSH)
        piece = deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH)
        assert deflate.compress(chunk) + deflate.flush(zlib.Z_FULL_FLUSH) == piece  # each flushed piece the same
        body = first + piece * count + deflate.compress(b" " * rest) + deflate.flush()
        crc = zlib.crc32(head)
        for _ in range(count):
            crc = zlib.crc32(chunk, crc)
        crc = zlib.crc32(b" " * rest, crc)
        name = f"{provider}.csv".encode()
        # version 2.0, no flags, deflate, 1980-01-01 00:00, CRC-32, compressed and inflated sizes, name length
        fields = struct.pack("<HHHHHIIIH", 20, 0, 8, 0, 0x21, crc, len(body), inflated, len(name))
        local = b"PK\x03\x04" + fields + struct.pack("<H", 0) + name
        central = b"PK\x01\x02" + struct.pack("<H", 20) + fields + struct.pack("<HHHHII", 0, 0, 0, 0, 0, 0) + name
        end = b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, 1, 1, len(central), len(local) + len(body), 0)
        _BOMBS[provider] = local + body + central + end
    return _BOMBS[provider]


def catalog_files(mode: str = "good", providers: tuple[str, ...] = ("aws", "lambdalabs")) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for p in providers:
        text = (DATA / f"{p}.csv").read_text("utf-8")
        if mode == "wrong-columns":
            text = "name,zone,usd_per_hour\ng4dn.xlarge,us-east-1a,0.526\n"
        body = bomb(p) if mode == "bomb" else zipped(p, text)
        files[f"/v3/{p}/version"] = f"{VERSION}\n".encode()
        files[f"/v3/{p}/{VERSION}/catalog.zip"] = body
    return files


@contextmanager
def serve(
    mode: str = "good",
    providers: tuple[str, ...] = ("aws", "lambdalabs"),
    tls: bool = False,
    release: threading.Event | None = None,
) -> Iterator[tuple[str, list[str]]]:
    """Yields (base address, the paths asked for). tls: HTTPS with tests/data/tls/cert.pem (trusted by a client only
    through SSL_CERT_FILE). mode: good, truncated, wrong-columns, timeout, missing, slow (the
    zip in eight parts a quarter second apart, for screenshots of the progress dialog), drip (the zip one byte every
    0.1 s: each read is quick, the download never ends), bomb (a 1 MB zip inflating to 1 GiB). release: the event
    that ends a held answer (timeout, drip) before the server stops, for a caller that lets go earlier itself."""
    files = catalog_files(mode, providers)
    asked: list[str] = []
    release = release or threading.Event()

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
            if mode == "drip" and self.path.endswith(".zip"):
                for i in range(len(body)):
                    try:
                        self.wfile.write(body[i : i + 1])
                        self.wfile.flush()
                    except OSError:  # the client gave up: the point of the test
                        return
                    if release.wait(0.1):
                        return
                return
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
    if tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(TLS_DIR / "cert.pem", TLS_DIR / "key.pem")
        server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"{'https' if tls else 'http'}://127.0.0.1:{server.server_address[1]}/v3", asked
    finally:
        release.set()
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    # For packaging/linux/chroot_test.sh: serve until killed, the base address on the first line of stdout.
    import argparse
    import sys

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tls", action="store_true", help="HTTPS with tests/data/tls/cert.pem")
    ap.add_argument("--mode", default="good")
    args = ap.parse_args()
    with serve(args.mode, tls=args.tls) as (address, _):
        print(address, flush=True)
        try:
            sys.stdin.read()  # until stdin closes or the process is killed
        except KeyboardInterrupt:
            pass
