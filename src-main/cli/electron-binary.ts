import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type ElectronLookup = { ok: true; binary: string } | { ok: false; reason: string };

const nodeRequire = createRequire(import.meta.url);

/** Where the Electron binary is, or why there is none (not downloaded, no display). */
export function findElectron(): ElectronLookup {
  try {
    const binary = nodeRequire('electron') as unknown;
    if (typeof binary === 'string' && existsSync(binary)) return { ok: true, binary };
    return { ok: false, reason: "Electron's binary is not installed" };
  } catch {
    return { ok: false, reason: "Electron's binary is not installed" };
  }
}

/**
 * Electron's package fetches its binary from GitHub on install; npm here does not run that script,
 * so the first start does. Fails fast and quietly on an offline machine.
 */
export function tryDownloadElectron(timeoutMs = 180_000): ElectronLookup {
  let installScript: string;
  try {
    installScript = path.join(path.dirname(nodeRequire.resolve('electron/package.json')), 'install.js');
  } catch {
    return { ok: false, reason: 'the electron package is not installed (run npm install)' };
  }
  const result = spawnSync(process.execPath, [installScript], { encoding: 'utf8', timeout: timeoutMs });
  if (result.status === 0) return findElectron();
  const why = `${result.stderr}${result.error?.message ?? ''}`.match(
    /(ENOTFOUND \S+|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN \S+)/,
  )?.[0];
  return { ok: false, reason: `Electron's binary could not be downloaded${why ? ` (${why})` : ''}` };
}

/** Electron needs a display on Linux; without one it would crash at start. */
export function hasDisplay(env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform !== 'linux') return true;
  return Boolean(env['DISPLAY'] || env['WAYLAND_DISPLAY']);
}
