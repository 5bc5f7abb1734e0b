#!/usr/bin/env bash
# Build the Linux bundle, a portable .tar.gz and a .deb:   bash packaging/linux/build.sh
# Output: dist/rigplan/ (the PyInstaller folder), dist/rigplan-<version>-linux-x86_64.tar.gz,
#         dist/rigplan_<version>_amd64.deb
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-.venv/bin/python}
# Every build tool first, so a missing one stops the build in a second, not after 9 minutes of PyInstaller.
need=""
for tool in patchelf strip dpkg-deb gzip md5sum; do command -v "$tool" >/dev/null || need="$need $tool"; done
if [ -n "$need" ]; then
  echo "packaging needs:$need (Debian: apt-get install -y patchelf binutils dpkg gzip coreutils)" >&2
  exit 2
fi
APP_ID=io.github.rigplan.RigPlan
VERSION=$("$PY" -c 'import sys; sys.path.insert(0, "app"); import rigplan; print(rigplan.__version__)')
QT_QPA_PLATFORM=offscreen "$PY" packaging/make_icons.py

# A packaging venv (build/venv-package) with RigPlan's dependencies, PyInstaller, and numpy compiled without BLAS:
# the PyPI wheel carries OpenBLAS and gfortran (27 MB of the bundle) for matrix routines RigPlan never calls
# (pyqtgraph needs numpy arrays, not BLAS). The wheel is built once, same numpy version as .venv (about 6 minutes
# on 2 cores), and kept in build/wheels. RIGPLAN_STOCK_NUMPY=1 skips this and bundles the PyPI numpy.
NUMPY_VERSION=$("$PY" -c 'import importlib.metadata as m; print(m.version("numpy"))')
PKG_VENV=build/venv-package
[ -x "$PKG_VENV/bin/python" ] || "$PY" -m venv "$PKG_VENV"
if [ "${RIGPLAN_STOCK_NUMPY:-0}" != 1 ]; then
  if ! ls build/wheels/numpy-"$NUMPY_VERSION"-*.whl >/dev/null 2>&1; then
    echo "building numpy $NUMPY_VERSION without BLAS (once; several minutes)"
    "$PY" -m pip wheel -q --no-deps --no-binary numpy "numpy==$NUMPY_VERSION" -w build/wheels \
      -Csetup-args=-Dallow-noblas=true -Csetup-args=-Dblas=none -Csetup-args=-Dlapack=none
  fi
  "$PKG_VENV/bin/python" -m pip install -q --force-reinstall --no-deps build/wheels/numpy-"$NUMPY_VERSION"-*.whl
else
  "$PKG_VENV/bin/python" -m pip install -q --force-reinstall --no-deps "numpy==$NUMPY_VERSION"
fi
"$PKG_VENV/bin/python" -m pip install -q . "pyinstaller>=6.10" "numpy==$NUMPY_VERSION" >/dev/null
PY=$PKG_VENV/bin/python
"$PY" -c 'import numpy; print("numpy", numpy.__version__, "BLAS:", numpy.show_config(mode="dicts")["Build Dependencies"]["blas"]["name"])'
"$PY" -m PyInstaller --noconfirm --distpath dist --workpath build/pyinstaller packaging/rigplan.spec
# Strip debug symbols, except numpy's bundled OpenBLAS, which stops loading when stripped.
find dist/rigplan -name '*.so*' -type f -not -path '*numpy.libs*' -exec strip --strip-unneeded {} + 2>/dev/null || true
strip --strip-unneeded dist/rigplan/rigplan 2>/dev/null || true
# RUNPATHs that name the build machine's Python (pyenv here, the toolcache on CI) point nowhere on the user's system:
# dropped (lintian: custom-library-search-path); the bundle's own $ORIGIN paths stay. Libraries need no execute bit
# (lintian: shared-library-is-executable).
find dist/rigplan -type f -name '*.so*' -print0 | while IFS= read -r -d '' f; do
  case "$(patchelf --print-rpath "$f" 2>/dev/null)" in
    "" | '$ORIGIN'*) ;;
    *) patchelf --remove-rpath "$f" ;;
  esac
done
find dist/rigplan -type f -name '*.so*' -exec chmod 644 {} +
ln -sf rigplan dist/rigplan/rigplan-cli  # one executable on Linux (see packaging/rigplan.spec)
echo "bundle: $(du -sm dist/rigplan | cut -f1) MB unpacked"

tar -C dist -czf "dist/rigplan-$VERSION-linux-x86_64.tar.gz" rigplan
echo "tarball: $(du -m "dist/rigplan-$VERSION-linux-x86_64.tar.gz" | cut -f1) MB"

root=build/deb/rigplan_${VERSION}_amd64
rm -rf "$root"
mkdir -p "$root/DEBIAN" "$root/opt" "$root/usr/bin" "$root/usr/share/applications" "$root/usr/share/metainfo" \
         "$root/usr/share/mime/packages" "$root/usr/share/doc/rigplan"
cp -a dist/rigplan "$root/opt/rigplan"
cat > "$root/usr/bin/rigplan" <<'SH'
#!/bin/sh
# The bundle's one executable is the GUI (no arguments, or a build file) and the CLI (a subcommand).
exec /opt/rigplan/rigplan "$@"
SH
chmod 755 "$root/usr/bin/rigplan"
cp resources/$APP_ID.desktop "$root/usr/share/applications/"
cp resources/$APP_ID.metainfo.xml "$root/usr/share/metainfo/"
cp resources/$APP_ID.mime.xml "$root/usr/share/mime/packages/$APP_ID.xml"
for d in resources/icons/hicolor/*/apps; do
  size=$(basename "$(dirname "$d")")
  mkdir -p "$root/usr/share/icons/hicolor/$size/apps"
  cp "$d/$APP_ID.png" "$root/usr/share/icons/hicolor/$size/apps/"
done
mkdir -p "$root/usr/share/icons/hicolor/scalable/apps"
cp resources/icons/rigplan.svg "$root/usr/share/icons/hicolor/scalable/apps/$APP_ID.svg"
cp LICENSE "$root/usr/share/doc/rigplan/copyright"
cp parts/LICENSE-ODC-By-1.0.txt parts/README.md "$root/usr/share/doc/rigplan/"
# A native package's changelog (Debian Policy 12.7), dated by the last commit so rebuilds are identical.
when=$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'rigplan (%s) unstable; urgency=medium\n\n  * RigPlan %s: see https://github.com/rigplan/rigplan/releases\n\n -- %s  %s\n' \
  "$VERSION" "$VERSION" "The RigPlan contributors <rigplan@users.noreply.github.com>" "$when" \
  | gzip -9n > "$root/usr/share/doc/rigplan/changelog.gz"
size_kb=$(du -sk "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CTRL
Package: rigplan
Version: $VERSION
Architecture: amd64
Maintainer: The RigPlan contributors <rigplan@users.noreply.github.com>
Installed-Size: $size_kb
Section: utils
Priority: optional
Depends: libc6, libgl1, libegl1, libfontconfig1, libfreetype6, libglib2.0-0, libdbus-1-3, libxkbcommon0, libxkbcommon-x11-0, libx11-6, libx11-xcb1, libxcb1, libxcb-cursor0, libxcb-icccm4, libxcb-image0, libxcb-keysyms1, libxcb-randr0, libxcb-render-util0, libxcb-shape0, libxcb-xfixes0, libxcb-xkb1, fonts-dejavu-core, libssl3
Recommends: desktop-file-utils, shared-mime-info
Homepage: https://github.com/rigplan/rigplan
Description: plan a deep-learning workstation and compare owning it with renting
 RigPlan checks that a deep-learning workstation's parts fit and can be powered,
 works out what the machine costs to own, and shows when owning beats renting
 the same work from AWS, GCP, Azure or Lambda.
 .
 Contains information from BuildCores OpenDB, made available under the ODC
 Attribution License.
CTRL
cat > "$root/DEBIAN/postinst" <<'SH'
#!/bin/sh
set -e
command -v update-mime-database >/dev/null && update-mime-database /usr/share/mime || true
command -v update-desktop-database >/dev/null && update-desktop-database -q /usr/share/applications || true
command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q /usr/share/icons/hicolor || true
SH
cp "$root/DEBIAN/postinst" "$root/DEBIAN/postrm"
chmod 755 "$root/DEBIAN/postinst" "$root/DEBIAN/postrm"
# md5sums of every installed file (dpkg --verify and debsums read it).
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
# xz: every dpkg reads it (zstd needs dpkg 1.21.18+, so Debian 11 and Ubuntu 20.04 cannot install a zstd .deb).
dpkg-deb --root-owner-group -Zxz --build "$root" "dist/rigplan_${VERSION}_amd64.deb" >/dev/null
echo "deb: dist/rigplan_${VERSION}_amd64.deb ($(du -m "dist/rigplan_${VERSION}_amd64.deb" | cut -f1) MB)"
