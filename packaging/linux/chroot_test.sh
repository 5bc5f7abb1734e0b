#!/usr/bin/env bash
# Test the Linux packages on a fresh Debian 12 minbase system (debootstrap; no Python, no Qt, no GLib):
#  1. the portable .tar.gz on the bare system: the CLI runs; the GUI either runs or names the Debian packages it
#     needs in one line; with those installed, the smoke test passes;
#  2. the .deb: apt-get install, smoke test, the GUI on X11 (Xvfb), desktop entry, MIME type and icons; a build
#     file (.rigplan, and an old .rigplan.yaml) is a RigPlan build to GIO, and `gio open x.rigplan` starts RigPlan
#     with it (screenshot in build/screenshots/); then apt-get remove and nothing is left.
# Needs root, Debian's mirror, and Xvfb for the X11 steps; the chroot is kept in build/ and reset to its debootstrap package set each run.
#   bash packaging/linux/chroot_test.sh [dist/rigplan_<version>_amd64.deb] [dist/rigplan-<version>-linux-x86_64.tar.gz]
set -euo pipefail
cd "$(dirname "$0")/../.."
DEB=${1:-$(ls dist/rigplan_*_amd64.deb | head -1)}
TARBALL=${2:-$(ls dist/rigplan-*-linux-x86_64.tar.gz | head -1)}
ROOTFS=$(realpath -m "${ROOTFS:-build/chroot-bookworm}")  # absolute: the smoke test runs from /
MIRROR=${MIRROR:-http://deb.debian.org/debian}
APP_ID=io.github.rigplan.RigPlan
PY=${PYTHON:-python3}
SHOTS=$PWD/build/screenshots
[ "$(id -u)" = 0 ] || { echo "needs root (debootstrap, chroot)" >&2; exit 2; }
in_root() { chroot "$ROOTFS" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"; }
packages() { in_root dpkg-query -W -f='${Package}\n' | sort; }

if [ ! -f "$ROOTFS/var/lib/rigplan-test/base.txt" ]; then
  rm -rf "$ROOTFS"
  echo "== debootstrap --variant=minbase bookworm $ROOTFS"
  debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >/dev/null
  mkdir -p "$ROOTFS/var/lib/rigplan-test"
  packages > "$ROOTFS/var/lib/rigplan-test/base.txt"
fi
xvfb=""
cleanup() {
  [ -z "$xvfb" ] || kill "$xvfb" 2>/dev/null || true
  umount "$ROOTFS/tmp/.X11-unix" 2>/dev/null || true
  umount "$ROOTFS/dev/pts" 2>/dev/null || true
  umount "$ROOTFS/proc" 2>/dev/null || true
}
trap cleanup EXIT
mount -t proc proc "$ROOTFS/proc"
mkdir -p "$ROOTFS/dev/pts" && mount -t devpts devpts "$ROOTFS/dev/pts"

X11=""
if command -v Xvfb >/dev/null; then  # a virtual screen for the X11 (xcb) runs, shared with the chroot
  Xvfb :118 -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
  xvfb=$!
  mkdir -p "$ROOTFS/tmp/.X11-unix" && mount --bind /tmp/.X11-unix "$ROOTFS/tmp/.X11-unix"
  X11=:118
fi
# The GUI with a build, ready line and exit: on X11 (DISPLAY given) or offscreen.
gui_once() { in_root env -u QT_QPA_PLATFORM DISPLAY="$1" RIGPLAN_SMOKE_TEST=charts "$2" /tmp/examples/2x-rtx-4090.rigplan 2>&1; }
# Runs the GUI; when it names missing Debian packages (exit 2, "... apt install A B"), installs them and says which.
needs_of() {  # $1: the GUI's output, $2: its exit code
  case "$1" in
    *Traceback*|*"error while loading shared libraries"*|*"could not load the Qt platform plugin"*)
      echo "FAIL: a raw loader error or traceback: $1" >&2; return 1 ;;
    *"RIGPLAN READY"*) return 0 ;;
    *"apt install "*) [ "$2" = 2 ] || { echo "FAIL: exit $2, expected 2" >&2; return 1; }
      printf '%s\n' "$1" | sed -n 's/.*apt install \(.*\)$/\1/p' | head -1 ;;
    *) echo "FAIL: neither ready nor a list of missing packages: $1" >&2; return 1 ;;
  esac
}
# "Cloud prices > Update" over real HTTPS from inside the chroot (issue 29): tests/prices_server.py serves the test
# catalog on the host's loopback with tests/data/tls/cert.pem. Trusted through SSL_CERT_FILE the update lands; with
# the system's trust alone (none on minbase, then certifi's set) the self-signed server is refused in one line.
https_update() {  # $1: the RigPlan executable inside the chroot
  local fifo url out code
  fifo=$(mktemp -u) && mkfifo "$fifo"
  "$PY" tests/prices_server.py --tls < "$fifo" > "$fifo.url" &
  local server=$!
  exec 9> "$fifo"  # the server runs until this is closed
  for _ in $(seq 50); do [ -s "$fifo.url" ] && break; sleep 0.1; done
  url=$(head -1 "$fifo.url")
  cp tests/data/tls/cert.pem "$ROOTFS/tmp/rigplan-test-ca.pem"
  rm -rf "$ROOTFS/tmp/prices-home" && mkdir -p "$ROOTFS/tmp/prices-home"
  set +e
  out=$(in_root env HOME=/tmp/prices-home XDG_DATA_HOME=/tmp/prices-home SSL_CERT_FILE=/tmp/rigplan-test-ca.pem \
        "$1" prices update --providers aws --url "$url" --json 2>&1); code=$?
  set -e
  case "$code:$out" in
    0:*'"date": "2026-11-01"'*) echo "ok   prices update over HTTPS ($url) with $1" ;;
    *) echo "FAIL prices update over HTTPS with $1 (exit $code): $out" >&2; exec 9>&-; wait "$server"; exit 1 ;;
  esac
  set +e
  out=$(in_root env HOME=/tmp/prices-home XDG_DATA_HOME=/tmp/prices-home "$1" prices update --providers aws \
        --url "$url" 2>&1); code=$?
  set -e
  case "$code:$out" in
    2:*"certificate could not be verified"*) echo "ok   an untrusted server is refused in one line: $out" ;;
    *) echo "FAIL untrusted HTTPS server (exit $code): $out" >&2; exec 9>&-; wait "$server"; exit 1 ;;
  esac
  exec 9>&-
  wait "$server" || true
  rm -f "$fifo" "$fifo.url"
}
reset_root() {  # back to the debootstrap package set: no RigPlan, nothing it or this test pulled in
  local extra
  extra=$(comm -13 "$ROOTFS/var/lib/rigplan-test/base.txt" <(packages) | tr '\n' ' ')
  [ -n "$extra" ] && in_root apt-get purge -y -qq $extra >/dev/null
  rm -rf "$ROOTFS/opt/rigplan-portable"
  return 0
}
reset_root
echo "== fresh system: python3 $(in_root sh -c 'command -v python3 || echo absent'), \
libglib-2.0 $(in_root sh -c 'ls /usr/lib/x86_64-linux-gnu/libglib-2.0.so.0 2>/dev/null || echo absent'), \
libQt6Core $(in_root sh -c 'ls /usr/lib/x86_64-linux-gnu/libQt6Core* 2>/dev/null || echo absent'), \
$(packages | wc -l) packages"
rm -rf "$ROOTFS/tmp/examples" && cp -r examples "$ROOTFS/tmp/examples"
in_root apt-get update -qq

echo "== 1. portable tarball $(basename "$TARBALL") on the bare system"
mkdir -p "$ROOTFS/opt/rigplan-portable"
tar -C "$ROOTFS/opt/rigplan-portable" -xzf "$TARBALL"
PORTABLE=/opt/rigplan-portable/rigplan/rigplan
in_root "$PORTABLE" --version
in_root "$PORTABLE" check /tmp/examples/budget-1-gpu.rigplan >/dev/null && echo "ok   CLI check on the bare system"
set +e
out=$(in_root env QT_QPA_PLATFORM=offscreen RIGPLAN_SMOKE_TEST=1 "$PORTABLE" /tmp/examples/2x-rtx-4090.rigplan 2>&1)
code=$?
set -e
echo "GUI offscreen on the bare system (exit $code): $out"
needs=$(needs_of "$out" "$code")
if [ -n "$needs" ]; then
  echo "== apt-get install $needs (the packages the message named)"
  in_root apt-get install -y -qq --no-install-recommends $needs >/dev/null
fi
"$PY" packaging/smoke_test.py --wrap "chroot $ROOTFS" --app "$PORTABLE" --cli "$PORTABLE" --examples /tmp/examples --runs 3
https_update "$PORTABLE"
all_needs=$needs
if [ -n "$X11" ]; then
  set +e; out=$(gui_once "$X11" "$PORTABLE"); code=$?; set -e
  echo "GUI on X11 (exit $code): $out"
  needs=$(needs_of "$out" "$code")
  if [ -n "$needs" ]; then
    echo "== apt-get install $needs (the packages the message named)"
    in_root apt-get install -y -qq --no-install-recommends $needs >/dev/null
    out=$(gui_once "$X11" "$PORTABLE") || true
    case "$out" in *"RIGPLAN READY"*curves=*) ;; *) echo "FAIL tarball on X11: $out" >&2; exit 1 ;; esac
    echo "ok   tarball GUI on X11 (xcb, Xvfb): $out"
  fi
  all_needs=$(echo $all_needs $needs)
fi
echo "ok   portable tarball runs on Debian 12 after: apt install ${all_needs:-(nothing)}"
reset_root

echo "== 2. apt-get install ./$(basename "$DEB") inside the chroot"
cp "$DEB" "$ROOTFS/tmp/rigplan.deb"
# What a desktop has for file associations (not RigPlan dependencies): the MIME database, desktop-file-utils and
# GIO's command line (gio open is what file managers do on a double-click).
in_root apt-get install -y -qq --no-install-recommends shared-mime-info desktop-file-utils libglib2.0-bin >/dev/null
before=$(packages | wc -l)
in_root apt-get install -y -qq --no-install-recommends /tmp/rigplan.deb >/dev/null
after=$(packages | wc -l)
echo "installed rigplan and $((after - before - 1)) dependencies"

echo "== smoke test of the installed /usr/bin/rigplan"
"$PY" packaging/smoke_test.py --wrap "chroot $ROOTFS" --app /usr/bin/rigplan --cli /usr/bin/rigplan --examples /tmp/examples
in_root rigplan check /tmp/examples/budget-1-gpu.rigplan
https_update /usr/bin/rigplan

echo "== desktop entry, MIME type, icons"
test -f "$ROOTFS/usr/share/applications/$APP_ID.desktop"
in_root desktop-file-validate "/usr/share/applications/$APP_ID.desktop" && echo "desktop-file-validate: valid"
# postinst ran update-mime-database and update-desktop-database: the type is registered and RigPlan opens it.
for glob in '*.rigplan' '*.rigplan.yaml'; do
  grep -qF ":application/x-rigplan-build:$glob" "$ROOTFS/usr/share/mime/globs2"
done
echo "MIME database: application/x-rigplan-build registered for *.rigplan and *.rigplan.yaml"
grep -q "^application/x-rigplan-build=.*$APP_ID.desktop" "$ROOTFS/usr/share/applications/mimeinfo.cache"
echo "mimeinfo.cache: application/x-rigplan-build opens with $APP_ID.desktop"
cp "$ROOTFS/tmp/examples/budget-1-gpu.rigplan" "$ROOTFS/tmp/old-name.rigplan.yaml"
for f in /tmp/examples/2x-rtx-4090.rigplan /tmp/old-name.rigplan.yaml; do
  type=$(in_root gio info -a standard::content-type "$f" | sed -n 's/.*standard::content-type: //p')
  [ "$type" = application/x-rigplan-build ] || { echo "FAIL: $f is $type to GIO" >&2; exit 1; }
  echo "gio: $f is $type"
done
in_root gio mime application/x-rigplan-build | sed -n 1p
ls "$ROOTFS"/usr/share/icons/hicolor/*/apps/$APP_ID.* | wc -l | xargs -I{} echo "icons: {} sizes"

if [ -n "$X11" ]; then
  echo "== the GUI on X11 (xcb) under Xvfb"
  # The real X11 platform plugin: proves the .deb's Depends cover libxcb and friends.
  out=$(gui_once "$X11" rigplan) || true
  case "$out" in
    *"RIGPLAN READY parts=26118 build=2x RTX 4090 workstation curves="*) echo "ok   GUI on X11 (xcb, Xvfb): $out" ;;
    *) echo "FAIL GUI on X11 (xcb, Xvfb): $out" >&2; exit 1 ;;
  esac
  # A double-click in a file manager: GIO picks the app by MIME type and runs its Exec line with the file.
  # A fresh home each run: a killed instance leaves an autosave, and the next start would offer to recover it.
  rm -rf "$ROOTFS/tmp/home" && mkdir -p "$ROOTFS/tmp/home"
  in_root env -u QT_QPA_PLATFORM DISPLAY="$X11" HOME=/tmp/home gio open /tmp/examples/2x-rtx-4090.rigplan
  pid=""
  trap 'cleanup; [ -z "$pid" ] || kill "$pid" 2>/dev/null || true' EXIT
  for _ in $(seq 30); do  # the process gio started, found by its command line
    for f in /proc/[0-9]*/cmdline; do
      if { tr '\0' ' ' < "$f"; } 2>/dev/null | grep -q '^/opt/rigplan/rigplan /tmp/examples/2x-rtx-4090.rigplan'; then
        pid=$(basename "$(dirname "$f")")
      fi
    done
    [ -n "$pid" ] && break
    sleep 1
  done
  [ -n "$pid" ] || { echo "FAIL: gio open started no rigplan process" >&2; exit 1; }
  echo "gio open started pid $pid: $(tr '\0' ' ' < "/proc/$pid/cmdline")"
  sleep 10  # the window's first paint and the second stage (catalog, build, costs)
  mkdir -p "$SHOTS"
  if DISPLAY=$X11 QT_QPA_PLATFORM=xcb "$PY" packaging/linux/grab_screen.py "$SHOTS/chroot-gio-open.png"; then
    echo "screenshot: $SHOTS/chroot-gio-open.png"
  else
    echo "no screenshot (the host's Qt could not connect to $X11)"
  fi
  kill "$pid" && pid=""
fi

echo "== apt-get remove rigplan"
in_root apt-get remove -y -qq rigplan >/dev/null
for f in /opt/rigplan /usr/bin/rigplan "/usr/share/applications/$APP_ID.desktop" "/usr/share/mime/packages/$APP_ID.xml" \
         "/usr/share/metainfo/$APP_ID.metainfo.xml" "/usr/share/icons/hicolor/256x256/apps/$APP_ID.png" \
         /usr/share/doc/rigplan; do
  if [ -e "$ROOTFS$f" ]; then echo "left behind: $f" >&2; exit 1; fi
done
if grep -q x-rigplan-build "$ROOTFS/usr/share/mime/globs2" "$ROOTFS/usr/share/applications/mimeinfo.cache"; then
  echo "MIME registration left behind" >&2; exit 1
fi
echo "removed cleanly (files, MIME database and mimeinfo.cache entries)"
reset_root
echo "chroot test passed"
