/**
 * The desktop app's entry: Electron main process. Only this file and app/ touch Electron; everything
 * else is the same code serve mode and `carapace -p` run under plain Node.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, safeStorage, session, shell } from 'electron';
import pkg from '../package.json';
import { ElectronTransport } from './app/electron-transport';
import { handleAppScheme, registerAppScheme } from './app/protocol';
import { createMainWindow, isTrustedRendererUrl, windowStateFile } from './app/window';
import { createCarapace } from './compose';
import { createConsoleLogger } from './platform/logger';
import { carapaceHome, dataPaths } from './platform/paths';
import { EncryptedFileSecretStore, MemorySecretStore, type SecretStore } from './platform/secrets';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererDir = path.resolve(here, '../renderer');
const preload = path.resolve(here, '../preload/index.cjs');
const devServerUrl = !app.isPackaged ? (process.env['ELECTRON_RENDERER_URL'] ?? null) : null;
const logger = createConsoleLogger('carapace');

registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start(): Promise<void> {
  await app.whenReady();
  // The renderer needs no camera, microphone, geolocation…: only notifications.
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) =>
    callback(permission === 'notifications'),
  );
  handleAppScheme(rendererDir);

  const home = carapaceHome();
  const secrets: SecretStore = safeStorage.isEncryptionAvailable()
    ? new EncryptedFileSecretStore(dataPaths(home).secretsFile, safeStorage)
    : new MemorySecretStore();
  const carapace = createCarapace({
    env: process.env,
    secrets,
    logger,
    version: pkg.version,
    folderPicker: {
      async pick() {
        const win = BrowserWindow.getFocusedWindow();
        const options = { properties: ['openDirectory' as const, 'createDirectory' as const] };
        const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
    },
    // The Changes view's "Open in editor": the system's default app for the file.
    openPath: (file) => shell.openPath(file),
  });
  const transport = new ElectronTransport(carapace.router, carapace.hub, (url) =>
    isTrustedRendererUrl(url, devServerUrl),
  );

  const openWindow = () => {
    const win = createMainWindow({ preload, boundsFile: windowStateFile(home), devServerUrl });
    transport.addWindow(win.webContents);
    return win;
  };
  let main = openWindow();

  app.on('second-instance', () => {
    if (main.isDestroyed()) main = openWindow();
    if (main.isMinimized()) main.restore();
    main.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) main = openWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    // Let running turns save what they have before the process goes.
    event.preventDefault();
    quitting = true;
    transport.dispose();
    void carapace.shutdown().finally(() => app.quit());
  });
}
