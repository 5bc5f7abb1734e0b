#!/usr/bin/env bash
# The README's test command on a bare Debian 12: debootstrap a bookworm minbase chroot in a temporary folder, install
# only git and ca-certificates, clone this repository's committed HEAD into it and run `bash scripts/dev test` there
# (which installs Python, the system packages the tests need and the .venv by itself). Needs root and the network
# (Debian's mirror, PyPI). Uncommitted changes are not tested: commit first.
#   bash packaging/linux/bare_debian_test.sh [pytest args]          e.g. tests/test_packaging_registration.py -x
# Environment: WORK=DIR (default: a new folder under $TMPDIR or /tmp), KEEP=1 keeps the chroot (reused by the next run
# with the same WORK: the debootstrap step is skipped, the clone is fresh), MIRROR=URL, TIMEOUT=seconds for the tests
# (default 7200), LOCAL_CAS=0 (see below). The host's /dev and /etc are never mounted into the chroot; every mount is undone on exit.
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
MIRROR=${MIRROR:-http://deb.debian.org/debian}
TIMEOUT=${TIMEOUT:-7200}
[ "$(id -u)" = 0 ] || { echo "needs root (debootstrap, chroot, mount)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "needs debootstrap: apt-get install -y debootstrap" >&2; exit 2; }
WORK=$(realpath -m "${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/rigplan-bare.XXXXXX")}")
ROOTFS=$WORK/rootfs
SRC=$WORK/src.git
mkdir -p "$WORK"

mounted() { findmnt -rn -o TARGET | grep -F "$ROOTFS/" | sort -r || true; }  # deepest first
cleanup() {
  local m
  for m in $(mounted); do umount "$m" 2>/dev/null || umount -l "$m" || true; done
  if [ -n "$(mounted)" ]; then
    echo "still mounted under $ROOTFS, not removing it:" >&2
    mounted >&2
  elif [ "${KEEP:-0}" != 1 ]; then
    rm -rf --one-file-system "$WORK"
  fi
}
trap cleanup EXIT
in_root() { chroot "$ROOTFS" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  TERM=dumb DEBIAN_FRONTEND=noninteractive "$@"; }

if [ ! -f "$ROOTFS/var/lib/rigplan-bare/debootstrapped" ]; then
  rm -rf --one-file-system "$ROOTFS"
  echo "== debootstrap --variant=minbase bookworm $ROOTFS"
  t0=$(date +%s)
  debootstrap --variant=minbase bookworm "$ROOTFS" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 \
    || { tail -20 "$WORK/debootstrap.log" >&2; exit 1; }
  mkdir -p "$ROOTFS/var/lib/rigplan-bare" && touch "$ROOTFS/var/lib/rigplan-bare/debootstrapped"
  echo "debootstrap took $(($(date +%s) - t0)) s"
fi
mount -t proc proc "$ROOTFS/proc"
mkdir -p "$ROOTFS/dev/pts" "$ROOTFS/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$ROOTFS/dev/pts"
mount -t tmpfs -o mode=1777,size=512m tmpfs "$ROOTFS/dev/shm"

echo "== the bare system: $(in_root dpkg-query -W -f='${Package}\n' | wc -l) packages, \
python3 $(in_root sh -c 'command -v python3 || echo absent'), git $(in_root sh -c 'command -v git || echo absent')"
echo "== apt-get install git ca-certificates (nothing else)"
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends git ca-certificates >/dev/null
# Certificate authorities this host's administrator added (/usr/local/share/ca-certificates, e.g. a TLS-inspecting
# proxy in front of PyPI) are the site's configuration, not a package: the chroot trusts them too (LOCAL_CAS=0: not).
if [ "${LOCAL_CAS:-1}" = 1 ] && ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  cp /usr/local/share/ca-certificates/*.crt "$ROOTFS/usr/local/share/ca-certificates/"
  in_root update-ca-certificates >/dev/null
  echo "== trusted this host's local CAs: $(cd /usr/local/share/ca-certificates && echo *.crt)"
fi

# A copy of the committed repository (a worktree's .git points outside the chroot), bind-mounted read-only.
rm -rf "$SRC"
git clone -q --bare "$REPO" "$SRC"
echo "== clone of $(git -C "$REPO" rev-parse --abbrev-ref HEAD) at $(git -C "$SRC" rev-parse --short HEAD)" \
  "$([ -z "$(git -C "$REPO" status --porcelain --untracked-files=no)" ] || echo '(uncommitted changes are NOT in it)')"
mkdir -p "$ROOTFS/srv/rigplan.git"
mount --bind "$SRC" "$ROOTFS/srv/rigplan.git"
mount -o remount,bind,ro "$ROOTFS/srv/rigplan.git"
in_root rm -rf /root/rigplan
in_root git clone -q /srv/rigplan.git /root/rigplan

echo "== bash scripts/dev test $* (timeout ${TIMEOUT}s)"
t0=$(date +%s)
set +e
in_root sh -c 'cd /root/rigplan && exec timeout "$0" bash scripts/dev test "$@"' "$TIMEOUT" "$@"
code=$?
set -e
echo "== bash scripts/dev test exited $code after $(($(date +%s) - t0)) s" \
  "(Python $(in_root sh -c '/root/rigplan/.venv/bin/python -V 2>&1 || echo absent'))"
exit $code
