# Build the Windows installer: PyInstaller bundle, smoke test, then Inno Setup.
# Run from the repository root in PowerShell: powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1
# NOT YET RUN on Windows: written and reviewed on Linux only.
$ErrorActionPreference = "Stop"
python -m pip install --upgrade "pyinstaller>=6.10" .
$env:QT_QPA_PLATFORM = "offscreen"
python packaging\make_icons.py
python -m PyInstaller --noconfirm --distpath dist --workpath build\pyinstaller packaging\rigplan.spec
python packaging\smoke_test.py --app dist\rigplan\rigplan.exe --cli dist\rigplan\rigplan-cli.exe
$version = python -c "import sys; sys.path.insert(0, 'app'); import rigplan; print(rigplan.__version__)"
iscc /DAppVersion=$version packaging\windows\rigplan.iss
