import type { OperationContract } from '../operation.ts';
import { ApiClientError } from './errors.ts';

/** What a client sends for one operation; the parts mirror the contract's schemas. */
export interface CallInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** headers the operation declares (`if-match`), by lower-case name; transports send only those */
  headers?: Record<string, string | undefined>;
}

/**
 * The contract's path with its `{name}` parameters filled in, plus the query
 * string: the one place outside the contract where a request's path is made.
 * Each parameter is encoded on its own, so a value cannot change the path.
 */
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
