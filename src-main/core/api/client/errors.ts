import { errorStatus, type ErrorBody, type ErrorKey } from '../errors.ts';

/** An error answer of the service, the same whether it came over HTTP, IPC or the relay. */
export class ApiClientError extends Error {
  readonly key: ErrorKey;
  readonly code: ErrorKey;
  readonly fields?: Record<string, string>;
  /** the HTTP status (derived from the key over IPC); 0 when the service could not be reached */
  readonly status: number;

  constructor(body: { key: ErrorKey; message: string; fields?: Record<string, string> }, status: number) {
    super(body.message);
    this.name = 'ApiClientError';
    this.key = body.key;
    this.code = body.key;
    this.fields = body.fields;
    this.status = status;
  }

  /** From an error body as the service sends it; anything unrecognisable becomes a key by status. */
  static fromBody(body: unknown, status?: number): ApiClientError {
    const candidate = (typeof body === 'object' && body !== null ? body : {}) as Partial<ErrorBody>;
    const key = isErrorKey(candidate.key) ? candidate.key : isErrorKey(candidate.code) ? candidate.code : keyForStatus(status);
    const message = typeof candidate.message === 'string' ? candidate.message : `request failed (${key})`;
    const fields = isStringRecord(candidate.fields) ? candidate.fields : undefined;
    return new ApiClientError({ key, message, fields }, status ?? errorStatus[key]);
  }

  /** The body this error was made from, as the service would send it. */
  toBody(): ErrorBody {
    return { key: this.key, code: this.key, message: this.message, ...(this.fields ? { fields: this.fields } : {}) };
  }
}

function isErrorKey(value: unknown): value is ErrorKey {
  return typeof value === 'string' && Object.hasOwn(errorStatus, value);
}

function keyForStatus(status: number | undefined): ErrorKey {
  const match = (Object.entries(errorStatus) as Array<[ErrorKey, number]>).find(([, s]) => s === status);
  return match ? match[0] : 'internal';
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}
