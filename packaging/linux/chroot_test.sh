#!/usr/bin/env bash
# Install the .deb into a fresh Debian 12 minbase system (debootstrap; no Python, no Qt libraries), smoke-test the
# installed rigplan there, check its desktop entry, MIME type and icons, then remove the package and check that
# nothing is left. Needs root and Debian's mirror; the chroot is kept in build/ and reused.
#   bash packaging/linux/chroot_test.sh [dist/rigplan_<version>_amd64.deb]
set -euo pipefail
cd "$(dirname "$0")/../.."
DEB=${1:-$(ls dist/rigplan_*_amd64.deb | head -1)}
ROOTFS=${ROOTFS:-build/chroot-bookworm}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
APP_ID=io.github.rigplan.RigPlan
PY=${PYTHON:-python3}
[ "$(id -u)" = 0 ] || { echo "needs root (debootstrap, chroot)" >&2; exit 2; }

if [ ! -x "$ROOTFS/usr/bin/apt-get" ]; then
  rm -rf "$ROOTFS"
  echo "== debootstrap --variant=minbase bookworm $ROOTFS"
  debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >/dev/null
fi
cleanup() { umount "$ROOTFS/proc" 2>/dev/null || true; }
trap cleanup EXIT
mount -t proc proc "$ROOTFS/proc"
# Start from a system without RigPlan or anything it pulled in last time.
chroot "$ROOTFS" sh -c 'dpkg -s rigplan >/dev/null 2>&1 && apt-get purge -y -qq rigplan >/dev/null; apt-get autoremove -y -qq --purge >/dev/null' || true
echo "== fresh system: python3 $(chroot "$ROOTFS" sh -c 'command -v python3 || echo absent'), \
libQt6Core $(chroot "$ROOTFS" sh -c 'ls /usr/lib/x86_64-linux-gnu/libQt6Core* 2>/dev/null || echo absent'), \
$(chroot "$ROOTFS" dpkg-query -W -f='.\n' | wc -l) packages"
cp "$DEB" "$ROOTFS/tmp/rigplan.deb"
rm -rf "$ROOTFS/tmp/examples" && cp -r examples "$ROOTFS/tmp/examples"

echo "== apt-get install ./$(basename "$DEB") inside the chroot"
chroot "$ROOTFS" apt-get update -qq
before=$(chroot "$ROOTFS" dpkg-query -W -f='.\n' | wc -l)
chroot "$ROOTFS" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /tmp/rigplan.deb >/dev/null
after=$(chroot "$ROOTFS" dpkg-query -W -f='.\n' | wc -l)
echo "installed rigplan and $((after - before - 1)) dependencies"

echo "== smoke test of the installed /usr/bin/rigplan"
"$PY" packaging/smoke_test.py --wrap "chroot $ROOTFS" --app /usr/bin/rigplan --cli /usr/bin/rigplan --examples /tmp/examples
chroot "$ROOTFS" rigplan check /tmp/examples/budget-1-gpu.rigplan.yaml

echo "== desktop entry, MIME type, icons"
test -f "$ROOTFS/usr/share/applications/$APP_ID.desktop"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$ROOTFS/usr/share/applications/$APP_ID.desktop" && echo "desktop-file-validate: valid"
fi
grep -q 'pattern="\*.rigplan.yaml"' "$ROOTFS/usr/share/mime/packages/$APP_ID.xml" && echo "MIME: *.rigplan.yaml declared"
grep -q '^MimeType=application/x-rigplan-build;' "$ROOTFS/usr/share/applications/$APP_ID.desktop" \
  && echo "desktop entry opens application/x-rigplan-build"
ls "$ROOTFS"/usr/share/icons/hicolor/*/apps/$APP_ID.* | wc -l | xargs -I{} echo "icons: {} sizes"

echo "== apt-get remove rigplan"
chroot "$ROOTFS" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq rigplan >/dev/null
for f in /opt/rigplan /usr/bin/rigplan "/usr/share/applications/$APP_ID.desktop" "/usr/share/mime/packages/$APP_ID.xml" \
         "/usr/share/metainfo/$APP_ID.metainfo.xml" "/usr/share/icons/hicolor/256x256/apps/$APP_ID.png"; do
  if [ -e "$ROOTFS$f" ]; then echo "left behind: $f" >&2; exit 1; fi
done
echo "removed cleanly"
echo "chroot test passed"
