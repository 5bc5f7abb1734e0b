"""Issue 18: the registration files of all three systems name `.rigplan` and are valid where they can be validated
here: the freedesktop MIME type (update-mime-database), the .desktop entry (desktop-file-validate), the AppStream
metainfo (appstreamcli), the macOS Info.plist the spec writes (plistlib), the Inno Setup script's keys, the icons'
sizes, the bundle's drop list on each OS and the one-line message of the portable Linux app."""

from __future__ import annotations

import os
import plistlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rigplan import APP_ID, __version__

ROOT = Path(__file__).resolve().parents[1]
RES = ROOT / "resources"
sys.path.insert(0, str(ROOT / "packaging"))
from bundle_config import info_plist, keep  # noqa: E402
from icon_files import ICNS_TYPES, png_size, read_icns, read_ico  # noqa: E402

MIME = "application/x-rigplan-build"


SYSTEM_TYPES = Path("/usr/share/mime/packages/freedesktop.org.xml")


@pytest.fixture(scope="module")
def mime_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private MIME database built from the system's types plus ours, as postinst does: a data folder holding
    `mime/`, built once for the two tests that read it. PKGSYSTEM_ENABLE_FSYNC=0 (shared-mime-info's own switch for
    throwaway databases) skips its fsync of each of the ~900 files it writes: on a disk shared with the other
    worker's saves that took up to 26 s of the suite, for a database deleted when the run ends."""
    if shutil.which("update-mime-database") is None:
        pytest.skip("shared-mime-info not installed")
    data = tmp_path_factory.mktemp("mimedata")
    (data / "mime" / "packages").mkdir(parents=True)
    shutil.copy(SYSTEM_TYPES, data / "mime" / "packages")
    shutil.copy(RES / f"{APP_ID}.mime.xml", data / "mime" / "packages" / f"{APP_ID}.xml")
    env = {**os.environ, "PKGSYSTEM_ENABLE_FSYNC": "0"}
    subprocess.run(["update-mime-database", str(data / "mime")], check=True, capture_output=True, env=env)
    return data


def test_mime_database_maps_new_and_old_names(mime_data: Path) -> None:
    """The private database's globs and subclasses name our type by both extensions, under application/x-yaml."""
    globs = (mime_data / "mime" / "globs2").read_text("utf-8").splitlines()
    assert f"80:{MIME}:*.rigplan" in globs and f"80:{MIME}:*.rigplan.yaml" in globs
    # The parent is a type Debian 12's shared-mime-info defines, so YAML editors stay in "Open with".
    subclasses = (mime_data / "mime" / "subclasses").read_text("utf-8").splitlines()
    assert f"{MIME} application/x-yaml" in subclasses
    assert '<mime-type type="application/x-yaml">' in SYSTEM_TYPES.read_text("utf-8")
    assert (mime_data / "mime" / "application" / "x-rigplan-build.xml").exists()


@pytest.mark.skipif(shutil.which("gio") is None, reason="GLib's gio not installed")
def test_gio_sees_a_rigplan_build(mime_data: Path, tmp_path: Path, examples_dir: Path) -> None:
    shutil.copy(examples_dir / "budget-1-gpu.rigplan", tmp_path / "a.rigplan")
    shutil.copy(examples_dir / "budget-1-gpu.rigplan", tmp_path / "b.rigplan.yaml")
    env = {"XDG_DATA_DIRS": str(mime_data), "XDG_DATA_HOME": str(tmp_path / "none"), "PATH": "/usr/bin:/bin"}
    for name in ("a.rigplan", "b.rigplan.yaml"):
        out = subprocess.run(
            ["gio", "info", "-a", "standard::content-type", str(tmp_path / name)],
            capture_output=True,
            text=True,
            env=env,
        )
        assert f"standard::content-type: {MIME}" in out.stdout, out.stdout + out.stderr


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils not installed")
def test_desktop_entry_validates_and_opens_the_type() -> None:
    entry = RES / f"{APP_ID}.desktop"
    out = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout == "", out.stdout
    text = entry.read_text("utf-8")
    assert f"MimeType={MIME};" in text and "Exec=rigplan %f" in text  # one file per process, as GIO launches it


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstream not installed")
def test_metainfo_validates_and_provides_the_type() -> None:
    meta = RES / f"{APP_ID}.metainfo.xml"
    out = subprocess.run(["appstreamcli", "validate", "--no-net", str(meta)], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"<mediatype>{MIME}</mediatype>" in meta.read_text("utf-8")


def test_info_plist_declares_rigplan_as_an_exported_type(tmp_path: Path) -> None:
    """What PyInstaller's BUNDLE writes: its own keys plus ours (bundle_config.info_plist), through plistlib."""
    plist = {
        "CFBundleExecutable": "rigplan",
        "CFBundleIdentifier": APP_ID,
        "CFBundlePackageType": "APPL",
        **info_plist(APP_ID, __version__),
    }
    (tmp_path / "Info.plist").write_bytes(plistlib.dumps(plist))
    data = plistlib.loads((tmp_path / "Info.plist").read_bytes())
    (uti,) = data["UTExportedTypeDeclarations"]
    assert uti["UTTypeIdentifier"] == f"{APP_ID}.build"
    assert uti["UTTypeTagSpecification"]["public.filename-extension"] == ["rigplan"]  # no dot, one extension
    assert uti["UTTypeTagSpecification"]["public.mime-type"] == [MIME]
    assert "public.yaml" in uti["UTTypeConformsTo"]
    own, other = data["CFBundleDocumentTypes"]
    assert own["LSItemContentTypes"] == [f"{APP_ID}.build"] and own["LSHandlerRank"] == "Owner"
    assert own["CFBundleTypeRole"] == "Editor"
    # Old NAME.rigplan.yaml builds are public.yaml to macOS: RigPlan opens them without claiming all YAML.
    assert other["LSItemContentTypes"] == ["public.yaml"] and other["LSHandlerRank"] == "Alternate"
    assert data["CFBundleShortVersionString"] == __version__
    # issue 29: a Dock icon and a menu bar, whatever console flag PyInstaller took from rigplan-cli
    assert data["LSBackgroundOnly"] is False
    assert "rigplan.yaml" not in (tmp_path / "Info.plist").read_text("utf-8")


def iss() -> tuple[dict[str, str], dict[str, list[str]]]:
    """[Setup] as key -> value, and every other section's lines (the [Code] section is Pascal, kept as lines)."""
    sections: dict[str, list[str]] = {}
    current = ""
    for raw in (ROOT / "packaging" / "windows" / "rigplan.iss").read_text("utf-8").splitlines():
        line = raw.strip()
        if re.fullmatch(r"\[\w+\]", line):
            current = line[1:-1]
            sections[current] = []
        elif current and line and not line.startswith(";") and not line.startswith("#"):
            sections[current].append(line)
    setup = dict(line.split("=", 1) for line in sections.pop("Setup"))
    return setup, sections


def entry(line: str) -> dict[str, str]:
    """One Inno Setup entry line ('Root: HKA; Subkey: "..."; ...') as a dict, quotes undone ("" is one quote)."""
    out = {}
    for part in line.split("; "):
        key, value = part.split(": ", 1)
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1].replace('""', '"')
        out[key.strip().lower()] = value
    return out


def test_inno_setup_installs_per_user_or_for_all_with_the_matching_keys() -> None:
    setup, sections = iss()
    assert setup["DefaultDirName"] == r"{autopf}\RigPlan"
    assert setup["PrivilegesRequired"] == "lowest" and "dialog" in setup["PrivilegesRequiredOverridesAllowed"]
    assert setup["ArchitecturesAllowed"] == "x64compatible" == setup["ArchitecturesInstallIn64BitMode"]
    assert setup["ChangesAssociations"] == "yes" and setup["ChangesEnvironment"] == "yes"
    assert setup["SetupIconFile"].endswith(r"resources\icons\rigplan.ico")
    assert setup["OutputBaseFilename"] == "RigPlan-{#AppVersion}-windows-x64-setup"
    text = (ROOT / "packaging" / "windows" / "rigplan.iss").read_text("utf-8")
    assert "{localappdata}" not in text and "HKCU;" not in text and "HKLM;" not in text
    keys = [entry(line) for line in sections["Registry"]]
    assert {k["root"] for k in keys} == {"HKA"}  # HKCU for a per-user install, HKLM for all users
    by_key = {(k["subkey"], k.get("valuename", "")): k for k in keys}
    ext = by_key[(r"Software\Classes\.rigplan", "")]
    assert ext["valuedata"] == "{#ProgId}" and ext["flags"] == "uninsdeletevalue"
    assert by_key[(r"Software\Classes\{#ProgId}", "")]["flags"] == "uninsdeletekey"  # removes shell\open too
    command = by_key[(r"Software\Classes\{#ProgId}\shell\open\command", "")]["valuedata"]
    assert command == '"{app}\\rigplan.exe" "%1"'  # the path quoted: spaces in "Program Files" work
    # .yaml gets RigPlan in "Open with" only, never as the default, and uninstalling takes the value away.
    assert by_key[(r"Software\Classes\.yaml\OpenWithProgids", "{#ProgId}")]["flags"] == "uninsdeletevalue"
    assert not any(k["subkey"] == r"Software\Classes\.yaml" for k in keys)
    assert not any(".rigplan.yaml" in k["subkey"] for k in keys)
    # Each key the installer creates is removed by the uninstaller (its own flag, or a parent with uninsdeletekey).
    owned = [k["subkey"] for k in keys if k.get("flags") == "uninsdeletekey"]
    for k in keys:
        assert k.get("flags") in ("uninsdeletekey", "uninsdeletevalue") or any(
            k["subkey"].startswith(o + "\\") for o in owned
        ), k


def test_inno_setup_tasks_path_and_uninstall() -> None:
    _, sections = iss()
    tasks = {entry(line)["name"]: entry(line) for line in sections["Tasks"]}
    assert tasks["addtopath"]["flags"] == "unchecked" and "rigplan-cli" in tasks["addtopath"]["description"]
    assert "associate" in tasks
    code = "\n".join(sections["Code"])
    # PATH: the user's or the machine's environment, matching the install mode; taken out again on uninstall.
    assert "IsAdminInstallMode()" in code and "'Environment'" in code and "Session Manager\\Environment" in code
    assert "WizardIsTaskSelected('addtopath')" in code and "usUninstall" in code and "RemoveFromPath" in code
    assert entry(sections["UninstallDelete"][0]) == {"type": "filesandordirs", "name": "{app}"}
    assert any(entry(line)["filename"] == r"{app}\rigplan.exe" for line in sections["Icons"])


def test_windows_build_stops_on_failures_and_smoke_tests_before_the_installer() -> None:
    ps = (ROOT / "packaging" / "windows" / "build.ps1").read_text("utf-8")
    code = [line.strip() for line in ps.splitlines() if line.strip() and not line.strip().startswith("#")]
    assert '$ErrorActionPreference = "Stop"' in code and "$PSNativeCommandUseErrorActionPreference = $true" in code
    assert any("$LASTEXITCODE -ne 0" in line and "throw" in line for line in code)
    # Every external program runs through Invoke-Native (python, PyInstaller, iscc, signtool).
    for line in code:
        if re.match(r"^(&\s*)?(\$python|\$isccExe|\$signtool|python|iscc|signtool)\s+(?!=)", line):
            pytest.fail(f"external program without an exit-code check: {line}")
    smoke = next(i for i, line in enumerate(code) if "smoke_test.py" in line)
    iscc = next(i for i, line in enumerate(code) if line.startswith("Invoke-Native $isccExe"))
    assert code[smoke].startswith("Invoke-Native") and smoke < iscc


def test_macos_build_smoke_tests_with_absolute_paths_and_names_the_architecture() -> None:
    sh = (ROOT / "packaging" / "macos" / "build.sh").read_text("utf-8")
    assert "APP=$PWD/dist/RigPlan.app" in sh and '--app "$APP/Contents/MacOS/rigplan"' in sh
    assert "DMG=dist/RigPlan-$VERSION-macos-$ARCH.dmg" in sh and "ARCH=$(uname -m)" in sh
    assert re.search(r"for attempt in 1 2 3 4 5; do\n  if hdiutil create", sh)
    assert 'if [ -n "$sign_identity" ]' in sh and "notarytool submit" in sh


def test_smoke_test_works_from_any_folder(tmp_path: Path) -> None:
    """Relative --app paths were run from / and not found: they are made absolute first."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "smoke_test.py"), "--app", "dist/none/rigplan", "--runs", "1"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
    )  # fmt: skip
    assert out.returncode != 0  # there is no app at that path: the failure names the absolute path
    assert str(tmp_path / "dist" / "none" / "rigplan") in out.stdout + out.stderr


def test_icons_hold_every_size() -> None:
    ico = read_ico((RES / "icons" / "rigplan.ico").read_bytes())
    assert sorted(ico) == [16, 24, 32, 48, 64, 128, 256]
    assert all(png_size(png) == (size, size) for size, png in ico.items())
    icns = read_icns((RES / "icons" / "rigplan.icns").read_bytes())
    assert set(icns) == set(ICNS_TYPES)  # 16-512 px and the @2x versions up to 1024
    assert all(png_size(icns[t]) == (ICNS_TYPES[t], ICNS_TYPES[t]) for t in icns)


@pytest.mark.parametrize(
    ("name", "platform", "kept"),
    [
        ("libQt6Quick.so.6", "linux", False),
        (r"PySide6\Qt6Quick.dll", "win32", False),
        ("PySide6/Qt/lib/QtQuick.framework/Versions/A/QtQuick", "darwin", False),
        ("PySide6/Qt/lib/QtNetwork.framework/Versions/A/QtNetwork", "darwin", False),
        (r"PySide6\Qt6Pdf.dll", "win32", False),
        (r"PySide6\translations\qtbase_de.qm", "win32", False),
        ("PySide6/Qt/translations/qtbase_de.qm", "darwin", False),
        (r"PySide6\plugins\multimedia\ffmpegmediaplugin.dll", "win32", False),
        (r"PySide6\opengl32sw.dll", "win32", False),
        ("libgtk-3.so.0", "linux", False),
        ("libgthread-2.0.so.0", "linux", True),  # issue 18: the tarball needs it on a bare Debian 12
        ("libglib-2.0.so.0", "linux", True),
        ("libssl.so.3", "linux", True),  # issue 29: HTTPS for "Update prices" on a fresh system
        ("libcrypto.so.3", "linux", True),
        (r"PySide6\Qt6Core.dll", "win32", True),
        (r"PySide6\Qt6OpenGL.dll", "win32", True),  # pyqtgraph imports QtOpenGL
        (r"PySide6\plugins\platforms\qwindows.dll", "win32", True),
        ("PySide6/Qt/plugins/platforms/libqcocoa.dylib", "darwin", True),
        ("PySide6/Qt/lib/QtWidgets.framework/Versions/A/QtWidgets", "darwin", True),
        ("PySide6/Qt/lib/QtOpenGLWidgets.framework/Versions/A/QtOpenGLWidgets", "darwin", True),
        ("libgtk-3.0.dylib", "darwin", True),  # Linux-only names are not dropped elsewhere by accident
        ("PySide6/Qt/plugins/imageformats/libqjpeg.so", "linux", False),  # RigPlan draws PNG and SVG only
        (r"PySide6\plugins\imageformats\qwebp.dll", "win32", False),
        ("PySide6/Qt/plugins/imageformats/libqsvg.so", "linux", True),
        ("PySide6/Qt/plugins/imageformats/libqico.so", "linux", True),
        ("numpy/random/_generator.cpython-311-x86_64-linux-gnu.so", "linux", False),
        ("numpy/_core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so", "linux", True),
        ("python3.11/lib-dynload/_codecs_jp.cpython-311-x86_64-linux-gnu.so", "linux", False),
        ("_codecs_jp.pyd", "win32", True),  # a Japanese Windows console is cp932
    ],
)
def test_bundle_trimming_applies_on_every_os(name: str, platform: str, kept: bool) -> None:
    assert keep(name, platform) is kept


def test_portable_app_names_the_missing_system_libraries(monkeypatch) -> None:  # noqa: ANN001
    """The frozen Linux app checks the libraries the bundle leaves to the system before Qt loads (a bare Debian 12
    has none); here a library that exists nowhere stands in for libGL on such a system."""
    from rigplan.render import syslibs

    assert syslibs.check_frozen_linux() is None  # not frozen: a source checkout has them from scripts/dev
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert syslibs.check_frozen_linux(x11=True) is None  # this machine has libGL, libEGL, libxcb, xkbcommon-x11
    monkeypatch.setitem(syslibs.ALWAYS, "libno-such-gl.so.9", "libno-such-gl9")
    msg = syslibs.check_frozen_linux(x11=False)
    assert msg == (
        "RigPlan cannot start: this system lacks libno-such-gl.so.9. "
        "On Debian or Ubuntu: sudo apt install libno-such-gl9"
    )
    assert syslibs.wants_x11({"DISPLAY": ":0"}) and not syslibs.wants_x11({"QT_QPA_PLATFORM": "offscreen"})
    assert not syslibs.wants_x11({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"})
    # No fontconfig configuration and no font (a bare Debian 12): Qt would start with every label empty.
    monkeypatch.setattr(syslibs, "FONT_CONFIG", Path("/nonexistent/fonts.conf"))
    monkeypatch.setattr(syslibs, "FONT_DIRS", (Path("/nonexistent/fonts"),))
    monkeypatch.delitem(syslibs.ALWAYS, "libno-such-gl.so.9")
    assert syslibs.check_frozen_linux(x11=False) == (
        "RigPlan cannot start: this system lacks a fontconfig configuration, any font. "
        "On Debian or Ubuntu: sudo apt install fontconfig-config fonts-dejavu-core"
    )


def test_ci_size_step_fails_without_the_installer_or_over_the_limit(tmp_path: Path) -> None:
    bundle, dist = tmp_path / "rigplan", tmp_path / "dist"
    bundle.mkdir()
    dist.mkdir()
    (bundle / "lib.so").write_bytes(b"\0" * 3 * 2**20)
    (dist / "RigPlan-0.1.0-windows-x64-setup.exe").write_bytes(b"\0" * 2**20)

    def sizes(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, str(ROOT / "packaging" / "sizes.py"), str(bundle), str(dist), *args]
        return subprocess.run(cmd, capture_output=True, text=True)

    ok = sizes("--expect=-setup.exe", "--max-mb=150")
    assert ok.returncode == 0 and "- bundle rigplan: 3 MB unpacked (limit 150 MB)" in ok.stdout
    assert "- RigPlan-0.1.0-windows-x64-setup.exe: 1 MB" in ok.stdout
    missing = sizes("--expect=.deb,.tar.gz")
    assert missing.returncode == 1 and "FAIL no installer ending in .deb, .tar.gz" in missing.stdout
    over = sizes("--max-mb=2")
    assert over.returncode == 1 and "FAIL the bundle is 3 MB, over 2 MB" in over.stdout
