import type { RawInput } from '../core/api/invoke.ts';

export type { IpcAnswer, IpcBinary } from '../core/api/client/ipc-answer.ts';

/** The one IPC channel: every operation travels over it, named in the request. */
export const IPC_CHANNEL = 'silodesk:call';

export interface IpcRequest {
  name: string;
  input?: RawInput;
  /** the company chosen in the window's company switcher; the install's first company when absent */
  company_id?: string;
}
