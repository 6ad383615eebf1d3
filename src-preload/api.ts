import type { IpcAnswer } from '../src-main/ipc/channel.ts';

/** What the preload exposes to the page as `window.silodesk`: one call, nothing else. */
export interface SilodeskBridge {
  call(name: string, input: unknown): Promise<IpcAnswer>;
}

declare global {
  interface Window {
    /** present in the desktop app only; the browser UI talks HTTP instead */
    silodesk?: SilodeskBridge;
  }
}
