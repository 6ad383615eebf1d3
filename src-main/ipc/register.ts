import { readFile } from 'node:fs/promises';
import type { Caller } from '../core/access/tokens.ts';
import { ApiError, toApiError } from '../core/api/errors.ts';
import { invokeOperation, type RawInput } from '../core/api/invoke.ts';
import type { BinaryResult, OperationContract } from '../core/api/operation.ts';
import { operations } from '../core/api/contract/index.ts';
import type { Service } from '../core/service.ts';
import { IPC_CHANNEL, type IpcAnswer, type IpcBinary } from './channel.ts';

/** The part of an `IpcMainInvokeEvent` this adapter reads. */
export interface IpcEventLike {
  senderFrame?: { url?: string } | null;
}

/** The part of Electron's `ipcMain` this adapter needs; injected so tests can use a fake. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => Promise<IpcAnswer>): void;
}

export interface IpcDeps {
  service: Service;
  /** the local user acting for the company chosen in the UI (an unknown company is refused) */
  currentCaller(companyId?: string): Caller;
  isTrusted(frameUrl?: string): boolean;
  log?: (line: string) => void;
}

/**
 * The IPC adapter: one handler for every operation of the registry, so nothing
 * is written per route. It checks the sender frame on every call, since a
 * navigated or injected frame must never reach the service.
 */
export function registerIpcHandlers(ipcMain: IpcMainLike, deps: IpcDeps): void {
  ipcMain.handle(IPC_CHANNEL, async (event, request) => {
    let name = '?';
    try {
      if (!deps.isTrusted(event.senderFrame?.url ?? undefined)) {
        throw new ApiError('forbidden', 'IPC calls are accepted from the app window only');
      }
      const parsed = readRequest(request);
      name = parsed.name;
      const result = await invokeOperation({ service: deps.service, caller: deps.currentCaller(parsed.companyId) }, name, parsed.input);
      const contract = operations[name as keyof typeof operations] as OperationContract;
      const data = contract.output === 'binary' ? await binaryForIpc(result as BinaryResult) : result;
      return { ok: true, data };
    } catch (err) {
      const error = toApiError(err);
      if (error.key === 'internal') deps.log?.(`internal error in IPC ${name}: ${(err as Error)?.stack ?? err}`);
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
  return { name, input: { params: parts.params, query: parts.query, body: parts.body }, companyId };
}

async function binaryForIpc(file: BinaryResult): Promise<IpcBinary> {
  const bytes = file.bytes ?? new Uint8Array(await readFile(file.file!));
  return { mime: file.mime, name: file.name, size: bytes.byteLength, bytes };
}
