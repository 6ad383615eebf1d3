import type { z } from 'zod';

/** Error keys and their HTTP status (DESIGN §4). `key` and `code` carry the same value on the wire. */
export const errorStatus = {
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  gone: 410,
  conflict: 409,
  /** an `If-Match` naming a version the resource is no longer at */
  'precondition-failed': 412,
  'too-large': 413,
  'unsupported-media-type': 415,
  validation: 422,
  'rate-limited': 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorKey = keyof typeof errorStatus;

export interface ErrorBody {
  key: ErrorKey;
  code: ErrorKey;
  message: string;
  fields?: Record<string, string>;
}

export class ApiError extends Error {
  readonly key: ErrorKey;
  readonly fields?: Record<string, string>;
  readonly headers?: Record<string, string>;

  constructor(key: ErrorKey, message: string, fields?: Record<string, string>, headers?: Record<string, string>) {
    super(message);
    this.key = key;
    this.fields = fields;
    this.headers = headers;
  }

  get status(): number {
    return errorStatus[this.key];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { key: this.key, code: this.key, message: this.message };
    if (this.fields && Object.keys(this.fields).length > 0) body.fields = this.fields;
    return body;
  }
}

export const notFound = (what: string) => new ApiError('not-found', `${what} not found`);
export const conflict = (message: string) => new ApiError('conflict', message);
export const badRequest = (message: string, fields?: Record<string, string>) =>
  new ApiError('bad-request', message, fields);
export const preconditionFailed = (message: string, fields?: Record<string, string>) =>
  new ApiError('precondition-failed', message, fields);
export const validationError = (message: string, fields: Record<string, string>) =>
  new ApiError('validation', message, fields);

/** JSON path of a zod issue, in the `$.a.b[0]` form used by faults too. */
export function jsonPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(String(part))) out += `.${String(part)}`;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}

export function fieldsOf(error: z.ZodError, prefix = '$'): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    // zod reports unknown members at their parent; a client fixes them one by one, by name.
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = jsonPath(prefix, [...issue.path, key]);
        if (!(path in fields)) fields[path] = 'is not a field this operation takes';
      }
      continue;
    }
    const path = jsonPath(prefix, issue.path);
    if (!(path in fields)) fields[path] = issue.message;
  }
  return fields;
}

/** Anything thrown that is not an ApiError becomes a bare 500: no stack, no SQL. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError('internal', 'internal error');
}
