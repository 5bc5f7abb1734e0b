#!/usr/bin/env bash
# Build RigPlan.app and a .dmg with an Applications link:   bash packaging/macos/build.sh
# NOT YET RUN on macOS: written and reviewed on Linux only.
# Optional signing and notarization (needs an Apple Developer ID), after the .app is built:
#   codesign --deep --force --options runtime --sign "Developer ID Application: NAME (TEAMID)" dist/RigPlan.app
#   xcrun notarytool submit dist/RigPlan-$VERSION.dmg --apple-id ID --team-id TEAMID --password APP_PASSWORD --wait
#   xcrun stapler staple dist/RigPlan-$VERSION.dmg
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -m pip install --upgrade "pyinstaller>=6.10" .
QT_QPA_PLATFORM=offscreen python3 packaging/make_icons.py
python3 -m PyInstaller --noconfirm --distpath dist --workpath build/pyinstaller packaging/rigplan.spec
python3 packaging/smoke_test.py --app dist/RigPlan.app/Contents/MacOS/rigplan --cli dist/RigPlan.app/Contents/MacOS/rigplan-cli
VERSION=$(python3 -c 'import sys; sys.path.insert(0, "app"); import rigplan; print(rigplan.__version__)')
staging=build/dmg
rm -rf "$staging" && mkdir -p "$staging"
cp -R dist/RigPlan.app "$staging/"
ln -s /Applications "$staging/Applications"
hdiutil create -volname "RigPlan $VERSION" -srcfolder "$staging" -ov -format UDZO "dist/RigPlan-$VERSION.dmg"
