"""The system libraries the portable Linux bundle leaves to the system, checked before Qt is imported.

PyInstaller bundles Qt and most libraries it links, but never libGL/libEGL (they belong to the graphics driver) nor
libxcb (the X server's protocol library, shared with the driver), and the bundle leaves X11 keyboard handling to the
system (packaging/bundle_config.py). A bare Debian 12 has none of them. Without this check the frozen app stops with
the dynamic loader's "error while loading shared libraries" or Qt's "could not load the Qt platform plugin"; with
it, one line names the files and the Debian/Ubuntu packages to install. Source checkouts get them from
`scripts/dev`, and the .deb from its Depends line, so only the frozen Linux app checks.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

# soname -> Debian/Ubuntu package (Debian 12 and Ubuntu 22.04 use the same names).
ALWAYS = {"libGL.so.1": "libgl1", "libEGL.so.1": "libegl1"}  # QtGui links both, even offscreen
X11 = {"libxcb.so.1": "libxcb1", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0"}  # the xcb platform plugin


def wants_x11(env: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    platform = env.get("QT_QPA_PLATFORM", "")
    return platform.startswith("xcb") or (not platform and bool(env.get("DISPLAY")) and not env.get("WAYLAND_DISPLAY"))


# Qt draws text through fontconfig and bundles no fonts: without a configuration and one font every label is empty
# (Qt only says "Fontconfig error: Cannot load default config file").
FONT_CONFIG = Path("/etc/fonts/fonts.conf")
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".local/share/fonts")


def missing(x11: bool) -> dict[str, str]:
    """{what is missing: Debian package} for the libraries that cannot be loaded, and fonts."""
    out = {}
    for soname, package in {**ALWAYS, **(X11 if x11 else {})}.items():
        try:
            ctypes.CDLL(soname)
        except OSError:
            out[soname] = package
    if not FONT_CONFIG.is_file():
        out["a fontconfig configuration"] = "fontconfig-config"
    if not any(f.is_file() for d in FONT_DIRS if d.is_dir() for f in d.rglob("*")):
        out["any font"] = "fonts-dejavu-core"
    return out


def message(absent: dict[str, str]) -> str:
    return (
        f"RigPlan cannot start: this system lacks {', '.join(absent)}. "
        f"On Debian or Ubuntu: sudo apt install {' '.join(dict.fromkeys(absent.values()))}"
    )


def check_frozen_linux(x11: bool | None = None) -> str | None:
    """The one-line message when the frozen Linux app lacks a system library, else None."""
    if not (getattr(sys, "frozen", False) and sys.platform.startswith("linux")):
        return None
    absent = missing(wants_x11() if x11 is None else x11)
    return message(absent) if absent else None
