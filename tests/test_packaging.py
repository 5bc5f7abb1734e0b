"""Static checks of the installers' metadata: one app id, one version source, one build-file type everywhere."""

from __future__ import annotations

from pathlib import Path

from rigplan import APP_ID, __version__
from rigplan.files import SUFFIX

ROOT = Path(__file__).resolve().parents[1]
RES = ROOT / "resources"


def text(rel: str) -> str:
    return (ROOT / rel).read_text("utf-8")


def test_one_app_id_everywhere() -> None:
    assert (RES / f"{APP_ID}.desktop").exists()
    assert f"<id>{APP_ID}</id>" in text(f"resources/{APP_ID}.metainfo.xml")
    assert f'<launchable type="desktop-id">{APP_ID}.desktop</launchable>' in text(f"resources/{APP_ID}.metainfo.xml")
    assert f"Icon={APP_ID}" in text(f"resources/{APP_ID}.desktop")
    assert f'#define AppId "{APP_ID}"' in text("packaging/windows/rigplan.iss")
    assert "bundle_identifier=APP_ID" in text("packaging/rigplan.spec")
    assert f"APP_ID={APP_ID}" in text("packaging/linux/build.sh")


def test_one_build_file_type_everywhere() -> None:
    """NAME.rigplan on every system (issue 18): Windows and macOS key associations on the last extension only."""
    assert SUFFIX == ".rigplan"
    mime = text(f"resources/{APP_ID}.mime.xml")
    assert '<glob pattern="*.rigplan"' in mime and 'type="application/x-rigplan-build"' in mime
    assert "MimeType=application/x-rigplan-build;" in text(f"resources/{APP_ID}.desktop")
    assert 'Subkey: "Software\\Classes\\.rigplan";' in text("packaging/windows/rigplan.iss")
    assert '"public.filename-extension": ["rigplan"]' in text("packaging/bundle_config.py")


def test_version_comes_from_the_package() -> None:
    assert f'<release version="{__version__}"' in text(f"resources/{APP_ID}.metainfo.xml")
    assert "rigplan.__version__" in text("packaging/linux/build.sh")
    assert "rigplan.__version__" in text("packaging/windows/build.ps1")
    assert "from rigplan import APP_ID, __version__" in text("packaging/rigplan.spec")


def test_icons_at_every_size() -> None:
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        png = RES / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        assert png.exists(), png
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (RES / "icons" / "rigplan.svg").read_text("utf-8").lstrip().startswith("<?xml")
    assert (RES / "icons" / "rigplan.ico").stat().st_size > 1000
    assert (RES / "icons" / "rigplan.icns").read_bytes()[:4] == b"icns"
