import { operations, type OperationName } from '../../../src-main/core/api/contract/index.ts';
import type { OperationContract } from '../../../src-main/core/api/operation.ts';
import type { IpcAnswer } from '../../../src-main/ipc/channel.ts';
import type { SilodeskBridge } from '../../../src-preload/api.ts';
import { ApiClientError } from './errors.ts';

export { ApiClientError } from './errors.ts';

/** What a client sends for one operation; the parts mirror the contract's schemas. */
export interface CallInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/** How calls reach the service: IPC in the desktop app, HTTP in the browser. */
export interface Transport {
  call(name: OperationName, input: CallInput): Promise<unknown>;
}

/**
 * The bridge as a preload that knows about companies exposes it: the third argument
 * is the company the window acts for, sent on as `{ name, input, company_id }`.
 */
interface CompanyAwareBridge {
  call(name: string, input: unknown, companyId?: string): Promise<IpcAnswer>;
}

export interface IpcTransportOptions {
  /** read on every call: the company chosen in Settings (none means the install's default) */
  companyId?(): string | undefined;
}

/** Calls through the preload bridge. Binary results arrive as `{mime, name, size, bytes}`. */
export function ipcTransport(bridge: SilodeskBridge, options: IpcTransportOptions = {}): Transport {
  const companyAware = bridge as CompanyAwareBridge;
  return {
    async call(name, input) {
      const companyId = options.companyId?.();
      const answer = companyId ? await companyAware.call(name, input, companyId) : await bridge.call(name, input);
      if (answer.ok) return answer.data;
      throw ApiClientError.fromBody(answer.error);
    },
  };
}

export interface HttpTransportOptions {
  /** read on every call, so a token entered later is picked up */
  token(): string | undefined;
  fetch?: typeof fetch;
  /** origin to call; empty means the page's own origin */
  baseUrl?: string;
}

/** Calls the HTTP API; method and path come from each operation's contract. Binary results are Blobs. */
export function httpTransport(options: HttpTransportOptions): Transport {
  const baseUrl = options.baseUrl ?? '';
  return {
    async call(name, input) {
      const contract = operations[name] as OperationContract;
      const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
      const headers: Record<string, string> = { Accept: 'application/json' };
      const token = options.token();
      if (token) headers.Authorization = `Bearer ${token}`;
      const init: RequestInit = { method: contract.method, headers, credentials: 'omit', cache: 'no-store' };
      if (input.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify(input.body);
      }

      const url = baseUrl + requestPath(contract, input);
      let response: Response;
      try {
        response = await doFetch(url, init);
      } catch {
        throw new ApiClientError({ key: 'unavailable', message: 'the Silodesk service cannot be reached' }, 0);
      }
      if (!response.ok) throw ApiClientError.fromBody(await readJson(response), response.status);
      return contract.output === 'binary' ? response.blob() : response.json();
    },
  };
}

/** The contract's path with its `{name}` parameters filled in, plus the query string. */
export function requestPath(contract: OperationContract, input: CallInput): string {
  const path = contract.path.replace(/\{(\w+)\}/g, (_match, key: string) => {
    const value = input.params?.[key];
    if (value === undefined || value === null || value === '') {
      throw new ApiClientError({ key: 'bad-request', message: `path parameter ${key} is missing` }, 400);
    }
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) search.append(key, String(item));
    }
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}
