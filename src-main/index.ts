import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, screen, session, shell, utilityProcess, type WebContents,
} from 'electron';
import { APP_CSP, APP_ORIGIN, APP_SCHEME, contentTypeFor, resolveAppPath } from './app-protocol.ts';
import { keySealerFor, KeyStorageRefused } from './desktop/key-sealer.ts';
import { frameMayNavigate } from './desktop/navigation.ts';
import { ServiceSupervisor } from './desktop/service-supervisor.ts';
import { denyAllPermissions, windowPreferences } from './desktop/window-prefs.ts';
import { readDesktopSettings, writeDesktopSettings, type DesktopSettings } from './desktop/settings-file.ts';
import { restoreBounds } from './desktop/window-bounds.ts';
import { registerIpcHandlers } from './ipc/register.ts';
import { isTrustedSender } from './ipc/sender.ts';
import { unsealSigningKeys } from './service-process/handed-keys.ts';
import { SERVICE_V8_FLAGS } from './service-process/heap.ts';
import { fromUtilityProcess } from './service-process/ports.ts';

/**
 * The desktop app's shell: the window, the app:// protocol, the keychain and the
 * IPC bridge. The service itself (database, jobs, sync, the localhost API) runs in
 * a utility process (service-process/entry.ts), so nothing it does can freeze the
 * window; calls from the window are checked here and relayed to it. Kept thin on
 * purpose; everything worth testing lives in desktop/, ipc/, service-process/ and
 * app-protocol.ts.
 */

// Built layout: out/main/index.js and service.js, out/preload/index.cjs, out/renderer/.
const here = dirname(fileURLToPath(import.meta.url));
const serviceEntry = join(here, 'service.js');
const preloadPath = join(here, '..', 'preload', 'index.cjs');
const rendererRoot = join(here, '..', 'renderer');

// The dev server URL is honoured only in an unpackaged app, so an environment
// variable can never point an installed app's window (and its IPC) at another page.
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const uiOrigin = devServerUrl ? new URL(devServerUrl).origin : APP_ORIGIN;

// Every renderer sandboxed, whatever a window's options say; must precede `ready`.
app.enableSandbox();

// Must happen before `ready` too: a standard, secure scheme gets a real origin, so
// 'self' in the CSP, storage and module scripts work as they do on https.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let service: ServiceSupervisor | undefined;
/** set once the service has closed on quit, so the second `will-quit` goes through */
let serviceStopped = false;
let mainWindow: BrowserWindow | undefined;
const settingsFile = () => join(app.getPath('userData'), 'settings.json');
let settings: DesktopSettings;

if (!app.requestSingleInstanceLock()) {
  // Two processes on one SQLite file would fight over it; the first one wins.
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('web-contents-created', (_event, contents) => lockDown(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (service && BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  app.on('will-quit', (event) => {
    if (!service || serviceStopped) return;
    // The service finishes the calls under way and closes its database before the app goes.
    event.preventDefault();
    const stopping = service;
    service = undefined;
    void stopping.stop().finally(() => {
      serviceStopped = true;
      app.quit();
    });
  });
  app.whenReady().then(start).catch((err: unknown) => {
    console.error('silodesk: could not start:', err);
    const title = err instanceof KeyStorageRefused ? 'Silodesk needs a secure keychain' : 'Silodesk could not start';
    dialog.showErrorBox(title, err instanceof Error ? err.message : String(err));
    app.exit(1);
  });
}

async function start(): Promise<void> {
  settings = readDesktopSettings(settingsFile());
  const dataDir = join(app.getPath('userData'), 'data');
  // The instance's private signing keys are sealed with the OS keychain, here (safeStorage
  // exists in the main process only); with no secure keychain the app refuses to start
  // (with why) rather than store them unsealed. The service gets them unsealed, in memory.
  const keychain = keySealerFor(safeStorage, process.platform);
  const supervisor = new ServiceSupervisor({
    fork: () => {
      const child = utilityProcess.fork(serviceEntry, [], { serviceName: 'Silodesk service', stdio: 'inherit', execArgv: [...SERVICE_V8_FLAGS] });
      return { port: fromUtilityProcess(child), onExit: (listener) => void child.on('exit', listener), kill: () => void child.kill() };
    },
    config: async () => ({ dataDir, keys: await unsealSigningKeys(dataDir, keychain), localApi: settings.localApi }),
    onNotice: (notice) => {
      if (notice.kind === 'local-api-setting') saveSettings({ ...settings, localApi: notice.setting });
    },
    onGiveUp: (why) => {
      dialog.showErrorBox('Silodesk stopped', `${why}. Your data is safe; start Silodesk again.`);
      app.exit(1);
    },
    log: (line) => console.error(line),
  });
  await supervisor.start();
  service = supervisor;

  // The window asks for nothing: no camera, notifications, clipboard reads… (requests and checks)
  denyAllPermissions(session.defaultSession);
  protocol.handle(APP_SCHEME, serveAppFile);
  registerIpcHandlers(ipcMain, {
    relay: (name, input, caller) => supervisor.call(name, input, caller),
    isTrusted: (frameUrl) => isTrustedSender(frameUrl, uiOrigin),
    log: (line) => console.error(line),
  });
  createWindow();
}

function saveSettings(next: DesktopSettings): void {
  settings = next;
  try {
    writeDesktopSettings(settingsFile(), next);
  } catch (err) {
    console.error('silodesk: could not save settings:', err);
  }
}

function createWindow(): void {
  const bounds = restoreBounds(
    settings.window,
    screen.getAllDisplays().map((d) => d.workArea),
    { width: 1280, height: 800 },
  );
  mainWindow = new BrowserWindow({
    ...bounds,
    show: false,
    title: 'Silodesk',
    webPreferences: windowPreferences(preloadPath, app.isPackaged),
  });
  if (settings.window?.maximized) mainWindow.maximize();
  mainWindow.once('ready-to-show', () => mainWindow?.show());
  mainWindow.on('close', () => {
    if (!mainWindow) return;
    const { x, y, width, height } = mainWindow.getNormalBounds();
    saveSettings({ ...settings, window: { x, y, width, height, maximized: mainWindow.isMaximized() } });
  });
  mainWindow.on('closed', () => {
    mainWindow = undefined;
  });
  void mainWindow.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`);
}

/** No navigation and no new windows, in any web contents; web links open in the browser. */
function lockDown(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openIfWebLink(url);
  });
  // Frames inside the window too (will-navigate covers only the main frame): only the app's own pages and blobs.
  contents.on('will-frame-navigate', (event) => {
    if (!frameMayNavigate(event.url, event.isMainFrame, uiOrigin)) event.preventDefault();
  });
  if (app.isPackaged) contents.on('devtools-opened', () => contents.closeDevTools());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openIfWebLink(url);
    return { action: 'deny' };
  });
}

function openIfWebLink(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  // Only http(s): other schemes (file:, smb:, custom handlers) can run things on the machine.
  if (parsed.protocol === 'http:' || parsed.protocol === 'https:') void shell.openExternal(parsed.href);
}

async function serveAppFile(request: Request): Promise<Response> {
  const file = request.method === 'GET' ? resolveAppPath(rendererRoot, request.url) : undefined;
  if (!file) return new Response('not found', { status: 404 });
  try {
    const bytes = await readFile(file);
    return new Response(bytes, {
      status: 200,
      headers: {
        'Content-Type': contentTypeFor(file),
        'Content-Security-Policy': APP_CSP,
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch {
    return new Response('not found', { status: 404 });
  }
}
