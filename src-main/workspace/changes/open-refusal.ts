import path from 'node:path';

/**
 * Kinds of file the system's "open" runs rather than shows: programs, installers, scripts and
 * shortcuts that start one (Windows, macOS, Linux desktops). *Open in editor* hands a file to the
 * desktop's default app (Electron's shell.openPath), so a repository's `run.command`, `setup.lnk`
 * or `x.desktop` would execute on a click meant to read it.
 */
const RUNS_WHEN_OPENED = new Set(
  [
    // Windows
    'exe com bat cmd ps1 psm1 psd1 vbs vbe jse wsf wsh hta msi msp mst scr pif cpl lnk url reg inf',
    'scf msc gadget application appref-ms settingcontent-ms library-ms search-ms searchconnector-ms',
    'xbap appx appxbundle msix msixbundle diagcab website chm iso img vhd vhdx',
    // macOS
    'app command terminal tool workflow action pkg mpkg dmg webloc inetloc fileloc scpt scptd',
    'applescript prefpane shortcut saver osax',
    // Linux desktops, and anywhere Java is installed
    'desktop appimage run deb rpm flatpakref flatpak snap jar jnlp',
  ]
    .join(' ')
    .split(' ')
    .map((e) => `.${e}`),
);

/** Run by Windows Script Host when opened there; elsewhere (and in most checkouts) just code to read. */
const WINDOWS_SCRIPTS = new Set(['.js']);

/**
 * Why a file must not be handed to the system's open, or null. `mode`: its permission bits (an
 * executable without an extension is run in a terminal on macOS).
 */
export function openRefusal(
  names: readonly string[],
  mode: number,
  platform: NodeJS.Platform = process.platform,
): string | null {
  for (const name of names) {
    const ext = path.extname(name).toLowerCase();
    if (RUNS_WHEN_OPENED.has(ext) || (platform === 'win32' && WINDOWS_SCRIPTS.has(ext)))
      return `a ${ext} file is run, not shown, when the system opens it; open it from your editor`;
  }
  if ((mode & 0o111) !== 0)
    return 'it is executable, and the system may run it rather than show it; open it from your editor';
  return null;
}
