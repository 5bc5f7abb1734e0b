# Build the Windows installer: PyInstaller bundle, frozen smoke test, optional Authenticode signing, Inno Setup.
# From the repository root, in PowerShell 7 (pwsh; the GitHub runners have it):
#   pwsh -File packaging\windows\build.ps1
# Output: dist\rigplan\ (the bundle) and dist\RigPlan-<version>-windows-x64-setup.exe.
# Run only on the CI's Windows runner (.github/workflows/installers.yml); there is no Windows machine here.
#
# Every step stops the build when it fails. $ErrorActionPreference covers PowerShell's own commands only: an external
# program (python, iscc, signtool) that exits non-zero does not stop a script, so every one goes through Invoke-Native,
# which checks $LASTEXITCODE (PowerShell 7.3+ can also do this itself, switched on below where available).
#
# Authenticode signing (optional): set WINDOWS_CERT_PFX (the .pfx file, base64) and WINDOWS_CERT_PASSWORD (CI secrets).
# The two executables are signed before the installer is compiled, then Inno Setup signs the installer and its
# uninstaller (SignTool in rigplan.iss). Timestamped (RFC 3161), so the signature outlives the certificate. Without a
# certificate the installer is unsigned and SmartScreen warns on first run ("Windows protected your PC").
Set-StrictMode -Version Latest
$ErrorActionPreference = "Stop"
$PSNativeCommandUseErrorActionPreference = $true

function Invoke-Native {
    # A plain function: its arguments (including ones like -m) go to the program as they are, in $args.
    $exe, $rest = $args
    $shown = "$rest"
    if ($env:WINDOWS_CERT_PASSWORD) { $shown = $shown.Replace($env:WINDOWS_CERT_PASSWORD, "***") }
    Write-Host "> $exe $shown"
    & $exe @rest
    if ($LASTEXITCODE -ne 0) { throw "$exe failed with exit code $LASTEXITCODE" }
}

Set-Location (Join-Path $PSScriptRoot "..\..")
$python = if ($env:PYTHON) { $env:PYTHON } else { "python" }

Invoke-Native $python -m pip install --upgrade "pyinstaller>=6.10" .
$env:QT_QPA_PLATFORM = "offscreen"
Invoke-Native $python packaging\make_icons.py
Remove-Item Env:QT_QPA_PLATFORM
Invoke-Native $python -m PyInstaller --noconfirm --distpath dist --workpath build\pyinstaller packaging\rigplan.spec
foreach ($exe in "dist\rigplan\rigplan.exe", "dist\rigplan\rigplan-cli.exe") {
    if (-not (Test-Path $exe)) { throw "PyInstaller did not make $exe" }
}
$size = (Get-ChildItem dist\rigplan -Recurse -File | Measure-Object -Property Length -Sum).Sum
Write-Host ("bundle: {0:N0} MB unpacked" -f ($size / 1MB))

# The frozen app before the installer: opens a build, draws the charts, runs the CLI (absolute paths).
Invoke-Native $python packaging\smoke_test.py --app (Resolve-Path dist\rigplan\rigplan.exe).Path --cli (Resolve-Path dist\rigplan\rigplan-cli.exe).Path

$version = (& $python -c "import sys; sys.path.insert(0, 'app'); import rigplan; print(rigplan.__version__)").Trim()
if ($LASTEXITCODE -ne 0 -or -not $version) { throw "could not read rigplan.__version__" }

$iscc = @("/DAppVersion=$version")
if ($env:WINDOWS_CERT_PFX) {
    $pfx = Join-Path $env:RUNNER_TEMP "rigplan-signing.pfx"
    [IO.File]::WriteAllBytes($pfx, [Convert]::FromBase64String($env:WINDOWS_CERT_PFX))
    $signtool = Get-ChildItem "${env:ProgramFiles(x86)}\Windows Kits\10\bin\*\x64\signtool.exe" |
        Sort-Object FullName -Descending | Select-Object -First 1 -ExpandProperty FullName
    if (-not $signtool) { throw "signtool.exe not found (Windows SDK)" }
    $sign = @("sign", "/f", $pfx, "/p", $env:WINDOWS_CERT_PASSWORD, "/fd", "sha256",
              "/tr", "http://timestamp.digicert.com", "/td", "sha256")
    Invoke-Native $signtool @sign dist\rigplan\rigplan.exe dist\rigplan\rigplan-cli.exe
    # Inno Setup replaces $f with the file to sign and $q with a quote.
    $iscc += "/Ssigntool=`$q$signtool`$q $($sign -join ' ') `$f", "/DSign"
} else {
    Write-Host "WINDOWS_CERT_PFX not set: the installer is not signed"
}
$isccExe = (Get-Command iscc -ErrorAction SilentlyContinue).Source
if (-not $isccExe) { $isccExe = "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe" }
Invoke-Native $isccExe @iscc packaging\windows\rigplan.iss
$setup = "dist\RigPlan-$version-windows-x64-setup.exe"
if (-not (Test-Path $setup)) { throw "Inno Setup did not make $setup" }
Write-Host ("installer: $setup ({0:N0} MB)" -f ((Get-Item $setup).Length / 1MB))
