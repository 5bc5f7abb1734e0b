; Inno Setup 6.3+ script for RigPlan. Built by packaging/windows/build.ps1, which passes the version (and /DSign
; with a signtool command when a code-signing certificate is configured):
;   iscc /DAppVersion=0.1.0 packaging\windows\rigplan.iss
; Compiled and run only on the CI's Windows runner (.github/workflows/installers.yml); on Linux the keys below are
; checked by tests/test_packaging_registration.py.
;
; Per-user or for all users: the installer asks (PrivilegesRequiredOverridesAllowed=dialog, or /ALLUSERS and
; /CURRENTUSER on the command line). {autopf} is "%LOCALAPPDATA%\Programs" for one user and "Program Files" for all,
; and HKA is HKCU or HKLM to match, so the association and the uninstaller's entries go where the install went.
#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#define AppId "io.github.rigplan.RigPlan"
#define ProgId "io.github.rigplan.RigPlan.build"

[Setup]
AppId={#AppId}
AppName=RigPlan
AppVersion={#AppVersion}
AppVerName=RigPlan {#AppVersion}
AppPublisher=The RigPlan contributors
AppPublisherURL=https://github.com/rigplan/rigplan
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\RigPlan
DefaultGroupName=RigPlan
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog commandline
; The PATH entry is per-user (HKCU\Environment) or machine-wide (HKLM\...\Environment), chosen in [Code]; the
; compile-time warning about user areas does not apply.
UsedUserAreasWarning=no
; 64-bit only: PyInstaller bundles the runner's x64 Python (Windows on Arm runs it under emulation).
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir=..\..\dist
OutputBaseFilename=RigPlan-{#AppVersion}-windows-x64-setup
SetupIconFile=..\..\resources\icons\rigplan.ico
UninstallDisplayIcon={app}\rigplan.exe
UninstallDisplayName=RigPlan {#AppVersion}
Compression=lzma2/max
SolidCompression=yes
ChangesAssociations=yes
ChangesEnvironment=yes
LicenseFile=..\..\LICENSE
WizardStyle=modern
#ifdef Sign
; Authenticode: build.ps1 defines Sign and passes the command as /Ssigntool=... when WINDOWS_CERT_PFX is set; the
; installer and its uninstaller are then signed (the bundle's .exe files were signed before this step).
SignTool=signtool
SignedUninstaller=yes
#endif

[Tasks]
Name: "associate"; Description: "Open RigPlan build files (.rigplan) with RigPlan"; GroupDescription: "File types:"
Name: "addtopath"; Description: "Add RigPlan to PATH (the rigplan-cli command)"; GroupDescription: "Command line:"; Flags: unchecked
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "..\..\dist\rigplan\*"; DestDir: "{app}"; Flags: recursesubdirs createallsubdirs ignoreversion

[Icons]
Name: "{group}\RigPlan"; Filename: "{app}\rigplan.exe"; AppUserModelID: "{#AppId}"
Name: "{autodesktop}\RigPlan"; Filename: "{app}\rigplan.exe"; Tasks: desktopicon

[Registry]
; Build files: Windows keys associations on the last extension, so RigPlan owns ".rigplan" through a ProgID with
; the app id. Older "NAME.rigplan.yaml" builds end in ".yaml": RigPlan is only added to that type's "Open with"
; list (OpenWithProgids), never made the default for every YAML file. Microsoft: "File Types and File
; Associations", "OpenWithProgids subkey". Uninstalling deletes the ProgID key and the values it added.
Root: HKA; Subkey: "Software\Classes\.rigplan"; ValueType: string; ValueName: ""; ValueData: "{#ProgId}"; Flags: uninsdeletevalue; Tasks: associate
Root: HKA; Subkey: "Software\Classes\.rigplan"; ValueType: string; ValueName: "Content Type"; ValueData: "application/x-rigplan-build"; Flags: uninsdeletevalue; Tasks: associate
Root: HKA; Subkey: "Software\Classes\.rigplan\OpenWithProgids"; ValueType: string; ValueName: "{#ProgId}"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.yaml\OpenWithProgids"; ValueType: string; ValueName: "{#ProgId}"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\{#ProgId}"; ValueType: string; ValueName: ""; ValueData: "RigPlan build"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\{#ProgId}\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: """{app}\rigplan.exe"",0"
Root: HKA; Subkey: "Software\Classes\{#ProgId}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\rigplan.exe"" ""%1"""
; "Open with" lists RigPlan by name for the types it declares.
Root: HKA; Subkey: "Software\Classes\Applications\rigplan.exe"; ValueType: string; ValueName: "FriendlyAppName"; ValueData: "RigPlan"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Applications\rigplan.exe\SupportedTypes"; ValueType: string; ValueName: ".rigplan"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\rigplan.exe\SupportedTypes"; ValueType: string; ValueName: ".yaml"; ValueData: ""

[Run]
Filename: "{app}\rigplan.exe"; Description: "Start RigPlan"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; Everything under the install folder, including files the installer did not list (none are written there by the
; app; this catches a partly copied folder after a failed upgrade). User data stays, as Windows users expect:
; settings in HKCU\Software\RigPlan and autosaves under %LOCALAPPDATA%\RigPlan.
Type: filesandordirs; Name: "{app}"

[Code]
{ PATH: HKCU\Environment for a per-user install, the machine environment for an all-users one. Added only when the
  "addtopath" task is chosen and the folder is not there yet; removed by the uninstaller whichever way it got there. }
const
  MachineEnv = 'SYSTEM\CurrentControlSet\Control\Session Manager\Environment';

function EnvRoot(): Integer;
begin
  if IsAdminInstallMode() then Result := HKEY_LOCAL_MACHINE else Result := HKEY_CURRENT_USER;
end;

function EnvKey(): String;
begin
  if IsAdminInstallMode() then Result := MachineEnv else Result := 'Environment';
end;

function PathHas(Paths, Dir: String): Boolean;
begin
  Result := Pos(';' + Uppercase(Dir) + ';', ';' + Uppercase(Paths) + ';') > 0;
end;

procedure AddToPath(Dir: String);
var
  Paths: String;
begin
  if not RegQueryStringValue(EnvRoot(), EnvKey(), 'Path', Paths) then Paths := '';
  if PathHas(Paths, Dir) then exit;
  if (Paths <> '') and (Copy(Paths, Length(Paths), 1) <> ';') then Paths := Paths + ';';
  if not RegWriteExpandStringValue(EnvRoot(), EnvKey(), 'Path', Paths + Dir) then
    Log('Could not add ' + Dir + ' to PATH');
end;

procedure RemoveFromPath(Dir: String);
var
  Paths: String;
  P: Integer;
begin
  if not RegQueryStringValue(EnvRoot(), EnvKey(), 'Path', Paths) then exit;
  Paths := ';' + Paths + ';';
  P := Pos(';' + Uppercase(Dir) + ';', Uppercase(Paths));
  if P = 0 then exit;
  Delete(Paths, P, Length(Dir) + 1);
  Paths := Copy(Paths, 2, Length(Paths) - 2);
  RegWriteExpandStringValue(EnvRoot(), EnvKey(), 'Path', Paths);
end;

procedure CurStepChanged(CurStep: TSetupStep);
begin
  if (CurStep = ssPostInstall) and WizardIsTaskSelected('addtopath') then
    AddToPath(ExpandConstant('{app}'));
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
begin
  if CurUninstallStep = usUninstall then
    RemoveFromPath(ExpandConstant('{app}'));
end;
