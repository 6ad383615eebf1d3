import type { ErrorBody } from '../core/api/errors.ts';
import type { RawInput } from '../core/api/invoke.ts';

/** The one IPC channel: every operation travels over it, named in the request. */
export const IPC_CHANNEL = 'silodesk:call';

export interface IpcRequest {
  name: string;
  input?: RawInput;
  /** the company chosen in the window's company switcher; the install's first company when absent */
  company_id?: string;
}

/**
 * Errors travel as data: Electron flattens a thrown error into a bare message,
 * losing the key and fields the UI needs.
 */
export type IpcAnswer<T = unknown> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/** A binary result as it crosses IPC: the bytes themselves, never a path on disk. */
export interface IpcBinary {
  mime: string;
  name: string;
  size: number;
  bytes: Uint8Array;
}
