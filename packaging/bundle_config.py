"""What the PyInstaller spec needs that tests can check without PyInstaller: which collected files stay out of the
bundle on each OS, and the macOS Info.plist entries (packaging/rigplan.spec imports this module)."""

from __future__ import annotations

import re
import sys

# Qt libraries RigPlan never loads, under their name on each OS: libQt6Quick.so.6 (Linux), Qt6Quick.dll (Windows),
# QtQuick.framework/... (macOS). QtOpenGL stays: pyqtgraph imports it (see hiddenimports in the spec).
_QT_UNUSED = re.compile(r"(?:^|/)(?:lib)?Qt6?(?:Quick|Qml|Pdf|Network|VirtualKeyboard|Wayland|Wl|EglFS)", re.I)
# Qt plugin folders and data the app never uses (same layout on every OS); platforms, imageformats, styles,
# iconengines stay.
_DROP_ANYWHERE = (
    "/translations/", "/qml/", "plugins/multimedia", "plugins/position", "plugins/sqldrivers", "plugins/webview",
    "plugins/networkinformation", "plugins/tls", "plugins/sensors", "plugins/generic", "plugins/platformthemes",
)  # fmt: skip
# Image format plugins for formats RigPlan never reads or writes (it draws PNG, which QtGui reads itself, and SVG):
# JPEG, TIFF, WebP, TGA, WBMP (1.5 MB). numpy's random generators and its test module: RigPlan, pyqtgraph's chart
# paths and the cost model never draw random numbers (numpy.random is imported lazily; the smoke test draws every
# chart), 2.6 MB. With OpenSSL kept for HTTPS the Linux bundle had grown to 154 MB, over its 150 MB budget.
_UNUSED_FORMATS = re.compile(r"imageformats/(?:lib)?q(?:jpeg|tiff|webp|tga|wbmp)\.", re.I)
_DROP_NUMPY = ("numpy/random/", "_multiarray_tests")
# libssl and libcrypto stay (issue 29): Python's _ssl links them, and "Cloud prices > Update" downloads over HTTPS;
# a fresh system may lack OpenSSL 3, so the tarball carries its own (the .deb also depends on libssl3).
# Linux: X11 (xcb) and offscreen are the platforms we ship; the GTK theme, Wayland, EGLFS, VNC and their dependency
# chains (GTK, Pango, Cairo, Wayland, Kerberos) are left to the system. GLib (libglib, libgthread) stays: QtCore
# links it and a bare Debian 12 has no libglib2.0-0 (issue 18: the tarball stopped on libgthread-2.0.so.0).
_DROP_LINUX = (
    "plugins/wayland", "plugins/egldeviceintegrations", "plugins/xcbglintegrations", "libqeglfs", "libqlinuxfb",
    "libqvnc", "libqvkkhrdisplay", "libqwayland", "libqminimalegl", "libibusplatform", "libgtk", "libgdk", "libatk",
    "libpango", "libcairo", "libharfbuzz", "libfribidi", "libdatrie", "libthai", "libgraphite2", "libpixman",
    "libwayland", "libepoxy", "libxkbcommon-x11", "libkrb5", "libk5crypto", "libgssapi", "libkeyutils",
    "libcom_err", "libsystemd", "libgcrypt", "libgpg-error", "liblz4", "libcap", "libmount", "libblkid",
    "libselinux", "libgio", "libgmodule", "libjpeg", "libtiff", "libwebp", "libreadline", "libncurses",
    # CJK codecs (0.9 MB): RigPlan reads and writes UTF-8, and Linux consoles are UTF-8 (the frozen app sets
    # C.UTF-8 when no locale is set); Windows keeps them for cp932/cp936 consoles
    "_codecs_jp", "_codecs_kr", "_codecs_cn", "_codecs_tw", "_codecs_hk", "_codecs_iso2022",
)  # fmt: skip
# Windows: Mesa's software OpenGL (opengl32sw.dll, 20 MB) is loaded only when Qt falls back to software OpenGL for
# Qt Quick or QOpenGLWidget; RigPlan's widgets and pyqtgraph's charts paint with QPainter (useOpenGL is off).
_DROP_WINDOWS = ("opengl32sw.dll",)
# Python modules PyInstaller collects from the build venv that the app never imports (all OSes).
_DROP_PYTHON = ("mypy", "ast_serialize", "librt", *_DROP_NUMPY)


def keep(name: str, platform: str = sys.platform) -> bool:
    """False for a collected file (its path inside the bundle) that stays out of the bundle on `platform`."""
    path = name.replace("\\", "/")
    if _QT_UNUSED.search(path) or _UNUSED_FORMATS.search(path) or any(d in path for d in _DROP_ANYWHERE + _DROP_PYTHON):
        return False
    base = path.rsplit("/", 1)[-1].lower()
    if platform.startswith("linux"):
        return not any(d in path for d in _DROP_LINUX)
    if platform == "win32":
        return base not in _DROP_WINDOWS
    return True


def info_plist(app_id: str, version: str) -> dict[str, object]:
    """Info.plist entries for RigPlan.app (PyInstaller's BUNDLE adds the executable, icon and identifier).

    `.rigplan` is RigPlan's own type, exported as the UTI `<app id>.build` (conforming to public.yaml, so Quick Look
    and text editors still treat it as text); RigPlan is its owner. Older `.rigplan.yaml` builds and other YAML
    files are public.yaml to macOS, which keys on the last extension: RigPlan offers to open them (rank Alternate)
    without claiming every YAML file. Apple: "Defining file and data types for your app", CFBundleDocumentTypes and
    UTExportedTypeDeclarations in the Information Property List reference.
    """
    uti = f"{app_id}.build"
    return {
        "CFBundleShortVersionString": version,
        "CFBundleVersion": version,
        "NSHighResolutionCapable": True,
        # PyInstaller's BUNDLE takes LSBackgroundOnly from the console flag of the last EXE it is given, and the
        # last is the console `rigplan-cli`: without this the app has no Dock icon and no menu bar (issue 29).
        # packaging/macos/build.sh checks the built Info.plist.
        "LSBackgroundOnly": False,
        "CFBundleDocumentTypes": [
            {
                "CFBundleTypeName": "RigPlan build",
                "CFBundleTypeRole": "Editor",
                "LSHandlerRank": "Owner",
                "LSItemContentTypes": [uti],
                "CFBundleTypeIconFile": "rigplan.icns",
            },
            {
                "CFBundleTypeName": "YAML build (older RigPlan files)",
                "CFBundleTypeRole": "Editor",
                "LSHandlerRank": "Alternate",
                "LSItemContentTypes": ["public.yaml"],
            },
        ],
        "UTExportedTypeDeclarations": [
            {
                "UTTypeIdentifier": uti,
                "UTTypeDescription": "RigPlan build",
                "UTTypeConformsTo": ["public.yaml", "public.plain-text", "public.data"],
                "UTTypeIconFile": "rigplan.icns",
                "UTTypeTagSpecification": {
                    "public.filename-extension": ["rigplan"],
                    "public.mime-type": ["application/x-rigplan-build"],
                },
            }
        ],
    }
