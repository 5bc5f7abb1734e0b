#!/usr/bin/env bash
# Install the .deb into a fresh Debian 12 minbase system (debootstrap; no Python, no Qt libraries), smoke-test the
# installed rigplan there, check its desktop entry, MIME type and icons, then remove the package and check that
# nothing is left. Needs root and Debian's mirror; the chroot is kept in build/ and reused.
#   bash packaging/linux/chroot_test.sh [dist/rigplan_<version>_amd64.deb]
set -euo pipefail
cd "$(dirname "$0")/../.."
DEB=${1:-$(ls dist/rigplan_*_amd64.deb | head -1)}
ROOTFS=$(realpath -m "${ROOTFS:-build/chroot-bookworm}")  # absolute: the smoke test runs from /
MIRROR=${MIRROR:-http://deb.debian.org/debian}
APP_ID=io.github.rigplan.RigPlan
PY=${PYTHON:-python3}
[ "$(id -u)" = 0 ] || { echo "needs root (debootstrap, chroot)" >&2; exit 2; }

if [ ! -x "$ROOTFS/usr/bin/apt-get" ]; then
  rm -rf "$ROOTFS"
  echo "== debootstrap --variant=minbase bookworm $ROOTFS"
  debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >/dev/null
fi
cleanup() { umount "$ROOTFS/dev/pts" 2>/dev/null || true; umount "$ROOTFS/proc" 2>/dev/null || true; }
trap cleanup EXIT
mount -t proc proc "$ROOTFS/proc"
mkdir -p "$ROOTFS/dev/pts" && mount -t devpts devpts "$ROOTFS/dev/pts"
# Start from a system without RigPlan or anything it pulled in last time.
chroot "$ROOTFS" sh -c 'dpkg -s rigplan >/dev/null 2>&1 && apt-get purge -y -qq rigplan >/dev/null; apt-get autoremove -y -qq --purge >/dev/null' || true
echo "== fresh system: python3 $(chroot "$ROOTFS" sh -c 'command -v python3 || echo absent'), \
libQt6Core $(chroot "$ROOTFS" sh -c 'ls /usr/lib/x86_64-linux-gnu/libQt6Core* 2>/dev/null || echo absent'), \
$(chroot "$ROOTFS" dpkg-query -W -f='.\n' | wc -l) packages"
cp "$DEB" "$ROOTFS/tmp/rigplan.deb"
rm -rf "$ROOTFS/tmp/examples" && cp -r examples "$ROOTFS/tmp/examples"

echo "== apt-get install ./$(basename "$DEB") inside the chroot"
chroot "$ROOTFS" apt-get update -qq
# What a desktop has for file associations (not RigPlan dependencies): the MIME database and desktop-file-utils.
chroot "$ROOTFS" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  shared-mime-info desktop-file-utils >/dev/null
before=$(chroot "$ROOTFS" dpkg-query -W -f='.\n' | wc -l)
chroot "$ROOTFS" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /tmp/rigplan.deb >/dev/null
after=$(chroot "$ROOTFS" dpkg-query -W -f='.\n' | wc -l)
echo "installed rigplan and $((after - before - 1)) dependencies"

echo "== smoke test of the installed /usr/bin/rigplan"
"$PY" packaging/smoke_test.py --wrap "chroot $ROOTFS" --app /usr/bin/rigplan --cli /usr/bin/rigplan --examples /tmp/examples
chroot "$ROOTFS" rigplan check /tmp/examples/budget-1-gpu.rigplan.yaml
if command -v Xvfb >/dev/null; then
  # The real X11 platform plugin too, on a virtual screen: proves the .deb's Depends cover libxcb and friends.
  Xvfb :97 -screen 0 1280x800x24 >/dev/null 2>&1 &
  xvfb=$!
  mkdir -p "$ROOTFS/tmp/.X11-unix" && mount --bind /tmp/.X11-unix "$ROOTFS/tmp/.X11-unix"
  sleep 1
  out=$(chroot "$ROOTFS" env -u QT_QPA_PLATFORM DISPLAY=:97 RIGPLAN_SMOKE_TEST=charts \
        rigplan /tmp/examples/2x-rtx-4090.rigplan.yaml 2>&1) || true
  umount "$ROOTFS/tmp/.X11-unix"; kill $xvfb
  case "$out" in
    *"RIGPLAN READY parts=26088 build=2x RTX 4090 workstation curves="*) echo "ok   GUI on X11 (xcb, Xvfb): $out" ;;
    *) echo "FAIL GUI on X11 (xcb, Xvfb): $out" >&2; exit 1 ;;
  esac
fi

echo "== desktop entry, MIME type, icons"
test -f "$ROOTFS/usr/share/applications/$APP_ID.desktop"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$ROOTFS/usr/share/applications/$APP_ID.desktop" && echo "desktop-file-validate: valid"
fi
grep -q 'pattern="\*.rigplan.yaml"' "$ROOTFS/usr/share/mime/packages/$APP_ID.xml" && echo "MIME: *.rigplan.yaml declared"
# postinst ran update-mime-database and update-desktop-database: the type is registered and RigPlan opens it.
grep -q 'rigplan.yaml' "$ROOTFS/usr/share/mime/globs2" && test -f "$ROOTFS/usr/share/mime/application/x-rigplan-build.xml"
echo "MIME database: application/x-rigplan-build registered for *.rigplan.yaml"
grep -q "^application/x-rigplan-build=.*$APP_ID.desktop" "$ROOTFS/usr/share/applications/mimeinfo.cache"
echo "mimeinfo.cache: application/x-rigplan-build opens with $APP_ID.desktop"
ls "$ROOTFS"/usr/share/icons/hicolor/*/apps/$APP_ID.* | wc -l | xargs -I{} echo "icons: {} sizes"

echo "== apt-get remove rigplan"
chroot "$ROOTFS" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq rigplan >/dev/null
for f in /opt/rigplan /usr/bin/rigplan "/usr/share/applications/$APP_ID.desktop" "/usr/share/mime/packages/$APP_ID.xml" \
         "/usr/share/metainfo/$APP_ID.metainfo.xml" "/usr/share/icons/hicolor/256x256/apps/$APP_ID.png"; do
  if [ -e "$ROOTFS$f" ]; then echo "left behind: $f" >&2; exit 1; fi
done
if grep -q x-rigplan-build "$ROOTFS/usr/share/mime/globs2" "$ROOTFS/usr/share/applications/mimeinfo.cache"; then
  echo "MIME registration left behind" >&2; exit 1
fi
echo "removed cleanly (files, MIME database and mimeinfo.cache entries)"
echo "chroot test passed"
