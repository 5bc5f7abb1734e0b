#!/usr/bin/env bash
# lintian on the .deb: prints every tag; fails on any error except the three every self-contained /opt bundle gets
# (docs/packaging.md explains each):
#   dir-or-file-in-opt              the bundle lives in /opt/rigplan (Debian's own packages may not use /opt)
#   embedded-library                PyInstaller ships its own zlib, libpng, freetype, expat, libyaml... (the point
#                                   of a bundle that runs the same everywhere)
#   library-not-linked-against-libc two CPython extension modules (_statistics, _uuid) that call no libc function
#   bash packaging/linux/lintian.sh [dist/rigplan_<version>_amd64.deb]
set -euo pipefail
cd "$(dirname "$0")/../.."
DEB=${1:-$(find dist -maxdepth 1 -name 'rigplan_*_amd64.deb' | head -1)}
ALLOWED='dir-or-file-in-opt|embedded-library|library-not-linked-against-libc'
out=$(lintian --tag-display-limit 0 "$DEB" 2>&1 || true)
echo "== lintian $(lintian --version | cut -d' ' -f2) on $(basename "$DEB"): tags by count"
printf '%s\n' "$out" | sed -n 's/^\([EWIPX]\): [^ ]* \([^ ]*\).*/\1 \2/p' | sort | uniq -c | sort -rn
bad=$(printf '%s\n' "$out" | grep -E '^E: ' | grep -vE "^E: [^ ]+ ($ALLOWED)( |$)" || true)
if [ -n "$bad" ]; then
  echo "lintian errors beyond those of any /opt bundle:" >&2
  printf '%s\n' "$bad" >&2
  exit 1
fi
echo "lintian: no errors beyond dir-or-file-in-opt, embedded-library, library-not-linked-against-libc"
