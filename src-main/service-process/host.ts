import { readFile } from 'node:fs/promises';
import { ensureDefaultCompany } from '../core/access/bootstrap.ts';
import { setLocalApiControl } from '../core/access/local-api.ts';
import type { IpcBinary } from '../core/api/client/ipc-answer.ts';
import { operations } from '../core/api/contract/index.ts';
import { invokeOperation, type RawInput } from '../core/api/invoke.ts';
import type { BinaryResult, OperationContract } from '../core/api/operation.ts';
import type { Caller } from '../core/access/tokens.ts';
import { openService, type Service, type ServiceConfig } from '../core/service.ts';
import { desktopCaller } from '../desktop/desktop-caller.ts';
import { createLocalApiControl } from '../desktop/local-api-control.ts';
import { startHttpServer } from '../http/server.ts';
import { handedOverSealer, type HandedKey } from './handed-keys.ts';
import type { RelayHandler } from './relay.ts';

/** What the shell tells the service process when it starts it. */
export interface ServiceStartConfig {
  dataDir: string;
  /** the private signing keys, unsealed by the shell with the keychain (handed-keys.ts) */
  keys: HandedKey[];
  /** the localhost HTTP API as the user left it (settings.json is the shell's) */
  localApi: { enabled: boolean; port: number };
  /** service tuning (tests shorten retries); the desktop app passes none */
  tuning?: Partial<Pick<ServiceConfig, 'runner' | 'sync' | 'autoSync'>>;
}

/** What the service tells the shell unasked. */
export type ServiceNotice = { kind: 'local-api-setting'; setting: { enabled: boolean; port: number } };

/**
 * The service as the desktop app runs it, in its own process: the database, the
 * job runner, sync and the localhost HTTP API all live here, so a long import or
 * a sync page never holds up the window. Calls arrive from the relay and go
 * through the same single entry point as HTTP's (invokeOperation).
 */
export async function openServiceHost(
  config: ServiceStartConfig,
  notify: (notice: ServiceNotice) => void,
  log: (line: string) => void,
): Promise<RelayHandler> {
  const service = await openService(config.dataDir, { protectKey: handedOverSealer(config.keys), log, ...config.tuning });
  const defaultCompany = await ensureDefaultCompany(service.db);

  const localApi = createLocalApiControl({
    initial: config.localApi,
    start: (port) => startHttpServer(service, { host: '127.0.0.1', port }),
    // the shell keeps the setting in settings.json, with the window's
    save: (setting) => notify({ kind: 'local-api-setting', setting }),
  });
  setLocalApiControl(service, localApi);
  await localApi.apply().catch((err: unknown) => log(`silodesk: localhost API not started: ${(err as Error)?.message ?? err}`));

  return {
    call: async (name, input, caller) => callService(service, await desktopCaller(service.db, defaultCompany, caller.company_id), name, input),
    async close() {
      await localApi.stop();
      await service.close();
    },
  };
}

/** One operation for a caller, through the single entry point; a file is answered as its bytes. */
export async function callService(service: Service, caller: Caller, name: string, input: RawInput): Promise<unknown> {
  const result = await invokeOperation({ service, caller }, name, input);
  const contract = operations[name as keyof typeof operations] as OperationContract;
  return contract.output === 'binary' ? binaryAnswer(result as BinaryResult) : result;
}

/** A file answered as its bytes: the shell and the window get no path on this machine's disk. */
async function binaryAnswer(file: BinaryResult): Promise<IpcBinary> {
  const bytes = file.bytes ?? new Uint8Array(await readFile(file.file!));
  return { mime: file.mime, name: file.name, size: bytes.byteLength, bytes };
}
