; Inno Setup script for RigPlan (per-user install, no admin rights). Built by packaging/windows/build.ps1,
; which passes the version: iscc /DAppVersion=0.1.0 packaging\windows\rigplan.iss
; NOT YET RUN on Windows: written and reviewed on Linux only.
#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#define AppId "io.github.rigplan.RigPlan"

[Setup]
AppId={#AppId}
AppName=RigPlan
AppVersion={#AppVersion}
AppPublisher=The RigPlan contributors
AppPublisherURL=https://github.com/rigplan/rigplan
DefaultDirName={localappdata}\Programs\RigPlan
DefaultGroupName=RigPlan
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
OutputDir=..\..\dist
OutputBaseFilename=RigPlan-{#AppVersion}-setup
SetupIconFile=..\..\resources\icons\rigplan.ico
UninstallDisplayIcon={app}\rigplan.exe
Compression=lzma2/max
SolidCompression=yes
ArchitecturesInstallIn64BitMode=x64compatible
ChangesAssociations=yes
LicenseFile=..\..\LICENSE

[Files]
Source: "..\..\dist\rigplan\*"; DestDir: "{app}"; Flags: recursesubdirs ignoreversion

[Icons]
Name: "{group}\RigPlan"; Filename: "{app}\rigplan.exe"
Name: "{group}\Uninstall RigPlan"; Filename: "{uninstallexe}"

[Registry]
; Build files (*.rigplan.yaml) open in RigPlan. Windows keys on the last extension, so the association is on
; ".rigplan.yaml" through a ProgID with the same id as everywhere else.
Root: HKCU; Subkey: "Software\Classes\.rigplan.yaml"; ValueType: string; ValueData: "{#AppId}.build"; Flags: uninsdeletevalue
Root: HKCU; Subkey: "Software\Classes\{#AppId}.build"; ValueType: string; ValueData: "RigPlan build"; Flags: uninsdeletekey
Root: HKCU; Subkey: "Software\Classes\{#AppId}.build\DefaultIcon"; ValueType: string; ValueData: "{app}\rigplan.exe,0"
Root: HKCU; Subkey: "Software\Classes\{#AppId}.build\shell\open\command"; ValueType: string; ValueData: """{app}\rigplan.exe"" ""%1"""

[Run]
Filename: "{app}\rigplan.exe"; Description: "Start RigPlan"; Flags: nowait postinstall skipifsilent
