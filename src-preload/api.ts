import type { IpcAnswer } from '../src-main/ipc/channel.ts';

/** What the preload exposes to the page as `window.silodesk`: one call, nothing else. */
export interface SilodeskBridge {
  /** `companyId`: the company chosen in the window (desktop only; the first company when absent) */
  call(name: string, input: unknown, companyId?: string): Promise<IpcAnswer>;
}

declare global {
  interface Window {
    /** present in the desktop app only; the browser UI talks HTTP instead */
    silodesk?: SilodeskBridge;
  }
}
