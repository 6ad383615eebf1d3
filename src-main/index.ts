import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, screen, session, shell, type WebContents } from 'electron';
import { APP_CSP, APP_ORIGIN, APP_SCHEME, contentTypeFor, resolveAppPath } from './app-protocol.ts';
import { ensureDefaultCompany } from './core/access/bootstrap.ts';
import { setLocalApiControl } from './core/access/local-api.ts';
import { desktopCaller } from './desktop/desktop-caller.ts';
import { keySealerFor, KeyStorageRefused } from './desktop/key-sealer.ts';
import { frameMayNavigate } from './desktop/navigation.ts';
import { denyAllPermissions, windowPreferences } from './desktop/window-prefs.ts';
import { createLocalApiControl } from './desktop/local-api-control.ts';
import { readDesktopSettings, writeDesktopSettings, type DesktopSettings } from './desktop/settings-file.ts';
import { restoreBounds } from './desktop/window-bounds.ts';
import { openService, type Service } from './core/service.ts';
import { startHttpServer } from './http/server.ts';
import { registerIpcHandlers } from './ipc/register.ts';
import { isTrustedSender } from './ipc/sender.ts';

/**
 * The desktop app: holds the service, shows the UI from app:// and answers it over
 * IPC. Kept thin on purpose; everything worth testing lives in core/, ipc/ and
 * app-protocol.ts.
 */

// Built layout: out/main/index.js, out/preload/index.cjs, out/renderer/.
const here = dirname(fileURLToPath(import.meta.url));
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

let service: Service | undefined;
let mainWindow: BrowserWindow | undefined;
let localApi: ReturnType<typeof createLocalApiControl> | undefined;
/** The install's first company: what the window works in until the user picks another. */
let defaultCompanyId = '';
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
  app.on('will-quit', () => {
    void localApi?.stop();
    void service?.close();
    service = undefined;
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
  // The instance's private signing keys are sealed with the OS keychain; with no
  // secure keychain the app refuses to start (with why) rather than store them unsealed.
  const protectKey = keySealerFor(safeStorage, process.platform);
  const svc = await openService(join(app.getPath('userData'), 'data'), { protectKey, log: (line) => console.error(line) });
  service = svc;
  defaultCompanyId = ensureDefaultCompany(svc.store).id;

  localApi = createLocalApiControl({
    initial: settings.localApi,
    start: (port) => startHttpServer(svc, { host: '127.0.0.1', port }),
    save: (localApiSetting) => saveSettings({ ...settings, localApi: localApiSetting }),
  });
  setLocalApiControl(svc, localApi);
  await localApi.apply().catch((err: unknown) => console.error('silodesk: localhost API not started:', err));

  // The window asks for nothing: no camera, notifications, clipboard reads… (requests and checks)
  denyAllPermissions(session.defaultSession);
  protocol.handle(APP_SCHEME, serveAppFile);
  registerIpcHandlers(ipcMain, {
    service,
    currentCaller: (companyId?: string) => desktopCaller(svc.store, defaultCompanyId, companyId),
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
