import type { WebPreferences } from 'electron';

/**
 * The window's web preferences: isolated, sandboxed, no Node, no webviews; and no
 * DevTools in a packaged app, where they would hand anyone at the keyboard a
 * console inside the page that holds the IPC bridge.
 */
export function windowPreferences(preload: string, packaged: boolean): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    webSecurity: true,
    webviewTag: false,
    devTools: !packaged,
  };
}

/** The part of an Electron session this needs (a fake in tests). */
export interface SessionLike {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void;
}

/**
 * The window asks for nothing (camera, notifications, clipboard reads…): requests
 * are refused, and so are the synchronous checks pages use to see whether they
 * already have a permission, which the request handler alone leaves granted.
 */
export function denyAllPermissions(session: SessionLike): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
