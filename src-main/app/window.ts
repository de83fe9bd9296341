import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BrowserWindow, screen, shell } from 'electron';
import { outsideUrl } from './external-links';
import { APP_ORIGIN } from './ipc-channels';
import { loadWindowBounds, saveWindowBounds, visibleOn } from './window-state';

export interface WindowOptions {
  preload: string;
  boundsFile: string;
  /** electron-vite's dev server, when running `npm run dev`. */
  devServerUrl: string | null;
}

export function isTrustedRendererUrl(url: string, devServerUrl: string | null): boolean {
  if (url.startsWith(`${APP_ORIGIN}/`)) return true;
  return devServerUrl !== null && url.startsWith(devServerUrl);
}

/**
 * The app icon the build copies next to the main bundle (resources.vite.ts: out/main/icons; modules
 * may sit in out/main or out/main/chunks). Undefined (Electron's default icon) when it is missing.
 */
export function appIconPath(here = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  return [
    path.join(here, 'icons', 'carapace-512.png'),
    path.join(here, '..', 'icons', 'carapace-512.png'),
  ].find((p) => existsSync(p));
}

/** The main window: isolated, sandboxed, no Node, no navigation away, no pop-ups, bounds remembered. */
export function createMainWindow(options: WindowOptions): BrowserWindow {
  const saved = loadWindowBounds(options.boundsFile);
  const usable =
    saved &&
    visibleOn(
      saved,
      screen.getAllDisplays().map((d) => d.workArea),
    )
      ? saved
      : null;
  const icon = appIconPath();
  const win = new BrowserWindow({
    width: usable?.width ?? 1280,
    height: usable?.height ?? 820,
    ...(usable ? { x: usable.x, y: usable.y } : {}),
    minWidth: 640,
    minHeight: 420,
    show: false,
    title: 'Carapace',
    ...(icon ? { icon } : {}),
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: true,
    },
  });
  if (usable?.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  const contents = win.webContents;
  contents.on('will-navigate', (event, url) => {
    if (!isTrustedRendererUrl(url, options.devServerUrl)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isTrustedRendererUrl(url, options.devServerUrl)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    // Links in transcripts open in the user's browser (or mail program), never in an Electron window.
    const outside = outsideUrl(url);
    if (outside !== null) void shell.openExternal(outside);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());

  let saveTimer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    if (win.isDestroyed()) return;
    const b = win.getNormalBounds();
    saveWindowBounds(options.boundsFile, { ...b, maximized: win.isMaximized() });
  };
  const saveSoon = () => {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = setTimeout(save, 400);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('close', save);

  if (options.devServerUrl) void win.loadURL(options.devServerUrl);
  else void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

export function windowStateFile(home: string): string {
  return path.join(home, 'window-state.json');
}
