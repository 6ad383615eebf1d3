import type { CallBridge } from '../src-main/core/api/client/ipc-transport.ts';

/**
 * What the preload exposes to the page as `window.silodesk`: one call, nothing else.
 * `call(name, input, companyId?)`: the company is the one chosen in the window
 * (desktop only; the first company when absent). The same shape the typed client's
 * IPC transport calls.
 */
export type SilodeskBridge = CallBridge;

declare global {
  interface Window {
    /** present in the desktop app only; the browser UI talks HTTP instead */
    silodesk?: SilodeskBridge;
  }
}
