import type { ErrorBody } from '../errors.ts';

/**
 * An answer as it crosses a process boundary (the preload bridge, the relay to the
 * service process). Errors travel as data: Electron flattens a thrown error into a
 * bare message, losing the key and fields the UI needs.
 */
export type IpcAnswer<T = unknown> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/** A binary result as it crosses a process boundary: the bytes themselves, never a path on disk. */
export interface IpcBinary {
  mime: string;
  name: string;
  size: number;
  bytes: Uint8Array;
}
