#!/usr/bin/env bash
# Build RigPlan.app and a .dmg for this Mac's architecture:   bash packaging/macos/build.sh
# Output: dist/RigPlan.app and dist/RigPlan-<version>-macos-<arm64|x86_64>.dmg. CI builds on macos-14 (Apple Silicon)
# and macos-15-intel (Intel), one .dmg each, named by architecture. Run only on those runners: there is no Mac here.
#
# Signing and notarization run when their secrets are set (.github/workflows/installers.yml passes them):
#   MACOS_SIGN_IDENTITY   "Developer ID Application: NAME (TEAMID)", in a keychain the workflow imported
#   MACOS_NOTARY_APPLE_ID, MACOS_NOTARY_TEAM_ID, MACOS_NOTARY_PASSWORD (an app-specific password)
# Without them the .dmg is unsigned, and Gatekeeper asks users to open it with right-click > Open the first time.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
ARCH=$(uname -m)  # arm64 or x86_64: the runner's Python, and so the bundle, is single-architecture
"$PY" -m pip install --upgrade "pyinstaller>=6.10" .
QT_QPA_PLATFORM=offscreen "$PY" packaging/make_icons.py
"$PY" -m PyInstaller --noconfirm --distpath dist --workpath build/pyinstaller packaging/rigplan.spec
APP=$PWD/dist/RigPlan.app
test -x "$APP/Contents/MacOS/rigplan" && test -x "$APP/Contents/MacOS/rigplan-cli"
echo "bundle: $(du -sm "$APP" | cut -f1) MB unpacked ($ARCH)"
# The registration the spec wrote (packaging/bundle_config.py): Info.plist must parse and name .rigplan.
plutil -lint "$APP/Contents/Info.plist"
/usr/libexec/PlistBuddy -c 'Print :UTExportedTypeDeclarations:0:UTTypeTagSpecification:public.filename-extension:0' \
  "$APP/Contents/Info.plist" | grep -qx rigplan

sign_identity=${MACOS_SIGN_IDENTITY:-}
if [ -n "$sign_identity" ]; then
  # Hardened runtime is what notarization requires; --deep signs the nested Qt frameworks and Python libraries.
  codesign --deep --force --timestamp --options runtime --sign "$sign_identity" "$APP"
  codesign --verify --deep --strict --verbose=2 "$APP"
else
  echo "MACOS_SIGN_IDENTITY not set: RigPlan.app is not signed"
fi

# Absolute paths: the smoke test runs its commands from / (so it works from any folder).
# The app must show in the Dock with its menu bar: PyInstaller would write LSBackgroundOnly=True (issue 29).
bg=$(plutil -extract LSBackgroundOnly raw "$APP/Contents/Info.plist" 2>/dev/null || echo missing)
[ "$bg" = false ] || { echo "Info.plist: LSBackgroundOnly is '$bg', expected false" >&2; exit 1; }
"$PY" packaging/smoke_test.py --app "$APP/Contents/MacOS/rigplan" --cli "$APP/Contents/MacOS/rigplan-cli"

VERSION=$("$PY" -c 'import sys; sys.path.insert(0, "app"); import rigplan; print(rigplan.__version__)')
DMG=dist/RigPlan-$VERSION-macos-$ARCH.dmg
staging=build/dmg
rm -rf "$staging" && mkdir -p "$staging"
cp -R "$APP" "$staging/"
ln -s /Applications "$staging/Applications"
# hdiutil fails now and then on the hosted runners with "hdiutil: create failed - Resource busy" (XProtect scans the
# new image: actions/runner-images issue 7522): retry a few times with a pause.
for attempt in 1 2 3 4 5; do
  if hdiutil create -volname "RigPlan $VERSION" -srcfolder "$staging" -ov -format UDZO "$DMG"; then
    break
  fi
  [ "$attempt" = 5 ] && { echo "hdiutil failed 5 times" >&2; exit 1; }
  echo "hdiutil failed (attempt $attempt); retrying in $((attempt * 10)) s" >&2
  sleep $((attempt * 10))
done

if [ -n "$sign_identity" ]; then
  codesign --force --timestamp --sign "$sign_identity" "$DMG"
  if [ -n "${MACOS_NOTARY_APPLE_ID:-}" ]; then
    xcrun notarytool submit "$DMG" --apple-id "$MACOS_NOTARY_APPLE_ID" --team-id "$MACOS_NOTARY_TEAM_ID" \
      --password "$MACOS_NOTARY_PASSWORD" --wait
    xcrun stapler staple "$DMG"
  else
    echo "MACOS_NOTARY_APPLE_ID not set: the .dmg is signed but not notarized"
  fi
fi
echo "dmg: $DMG ($(du -m "$DMG" | cut -f1) MB)"
