import { ApiError, toApiError } from '../core/api/errors.ts';
import type { RawInput } from '../core/api/invoke.ts';
import { operations } from '../core/api/contract/index.ts';
import type { RelayCaller } from '../service-process/relay.ts';
import { IPC_CHANNEL, type IpcAnswer } from './channel.ts';

/** The part of an `IpcMainInvokeEvent` this adapter reads. */
export interface IpcEventLike {
  senderFrame?: { url?: string } | null;
}

/** The part of Electron's `ipcMain` this adapter needs; injected so tests can use a fake. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => Promise<IpcAnswer>): void;
}

export interface IpcDeps {
  /** hands a checked call to the service process (desktop/service-supervisor.ts) */
  relay(name: string, input: RawInput, caller: RelayCaller): Promise<IpcAnswer>;
  isTrusted(frameUrl?: string): boolean;
  log?: (line: string) => void;
}

/**
 * The IPC bridge: one handler for every operation of the registry, relayed to the
 * service process. The sender frame is checked here, in the main process, on
 * every call, since a navigated or injected frame must never reach the service;
 * a request that is not `{name, input, company_id?}` for a known operation is
 * answered here too, and never crosses.
 */
export function registerIpcHandlers(ipcMain: IpcMainLike, deps: IpcDeps): void {
  ipcMain.handle(IPC_CHANNEL, async (event, request) => {
    try {
      if (!deps.isTrusted(event.senderFrame?.url ?? undefined)) {
        throw new ApiError('forbidden', 'IPC calls are accepted from the app window only');
      }
      const parsed = readRequest(request);
      return await deps.relay(parsed.name, parsed.input, { kind: 'desktop', ...(parsed.companyId ? { company_id: parsed.companyId } : {}) });
    } catch (err) {
      const error = toApiError(err);
      if (error.key === 'internal') deps.log?.(`internal error in the IPC bridge: ${(err as Error)?.stack ?? err}`);
      return { ok: false, error: error.toBody() };
    }
  });
}

function readRequest(request: unknown): { name: string; input: RawInput; companyId?: string } {
  if (typeof request !== 'object' || request === null) throw new ApiError('bad-request', 'an IPC request is {name, input}');
  const { name, input, company_id: companyId } = request as { name?: unknown; input?: unknown; company_id?: unknown };
  if (companyId !== undefined && typeof companyId !== 'string') throw new ApiError('bad-request', 'company_id must be a string');
  if (typeof name !== 'string' || !Object.hasOwn(operations, name)) {
    throw new ApiError('not-found', `operation ${typeof name === 'string' ? name.slice(0, 100) : '?'} not found`);
  }
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) {
    throw new ApiError('bad-request', 'the input of an IPC request is {params?, query?, body?}');
  }
  const parts = (input ?? {}) as RawInput;
  // Headers as HTTP carries them (If-Match); the operation's schema decides which it reads.
  return { name, input: { params: parts.params, query: parts.query, body: parts.body, headers: parts.headers }, companyId };
}
