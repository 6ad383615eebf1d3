import type { Transport } from './client.ts';
import { ApiClientError } from './errors.ts';
import type { IpcAnswer } from './ipc-answer.ts';

/** The preload's bridge as the page sees it (`window.silodesk`). */
export interface CallBridge {
  /** `companyId`: the company chosen in the window (desktop only; the first company when absent) */
  call(name: string, input: unknown, companyId?: string): Promise<IpcAnswer>;
}

export interface IpcTransportOptions {
  /** read on every call: the company chosen in Settings (none means the install's default) */
  companyId?(): string | undefined;
}

/** Calls through the preload bridge. Binary results arrive as `{mime, name, size, bytes}`. */
export function ipcTransport(bridge: CallBridge, options: IpcTransportOptions = {}): Transport {
  return {
    async call(name, input) {
      const companyId = options.companyId?.();
      const answer = companyId ? await bridge.call(name, input, companyId) : await bridge.call(name, input);
      if (answer.ok) return answer.data;
      throw ApiClientError.fromBody(answer.error);
    },
  };
}
