import type { Transport } from './client.ts';
import { contractOf } from './client.ts';
import { declaredHeaders } from '../operation.ts';
import { ApiClientError } from './errors.ts';
import { requestPath } from './request-path.ts';

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
      const contract = contractOf(name);
      const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
      const headers: Record<string, string> = { Accept: 'application/json' };
      const token = options.token();
      if (token) headers.Authorization = `Bearer ${token}`;
      for (const name of declaredHeaders(contract)) {
        const value = input.headers?.[name];
        if (value !== undefined) headers[name] = value;
      }
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

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}
