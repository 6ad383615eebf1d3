import { Readable } from 'node:stream';
import { answerBytesPaths, sendBytesMembers, type BytesPath } from '../api/bytes-members.ts';
import { AnswerMismatch, parseAnswer } from '../api/client/answer-schema.ts';
import { contractOf, createClient, type ApiClient, type Transport } from '../api/client/client.ts';
import { requestPath } from '../api/client/request-path.ts';
import { ApiError, type ErrorBody } from '../api/errors.ts';
import { IN_TURNS_FROM, JsonTooDeep, MAX_JSON_DEPTH, NotJson, parseJsonInTurns } from '../api/json-in-turns.ts';
import { parseJsonLifting } from '../api/json-lift.ts';
import { writeJsonBody, type JsonInParts } from '../api/json-text.ts';
import { declaredHeaders, type HttpMethod } from '../api/operation.ts';
import { readCapped, TooManyBytes } from '../files/read-capped.ts';
import { nextDelayMs, retryAfterMs, type RetryPolicy } from './backoff.ts';

/** The remote answered with an error that retrying will not fix (4xx other than 429). */
export class RemoteError extends Error {
  readonly status: number;
  readonly body?: ErrorBody;
  constructor(status: number, body: ErrorBody | undefined, what: string) {
    super(`${what}: the remote answered ${status}${body?.message ? ` (${body.message})` : ''}`);
    this.status = status;
    this.body = body;
  }
}

/** The remote could not be reached, or kept failing (network, 5xx, 429), through every retry. */
export class RemoteUnreachable extends Error {}

/** The remote accepted requests but sent no answer in time, again and again: stuck, not offline. */
export class RemoteTimedOut extends RemoteUnreachable {}

/** The remote answered more bytes than such an answer may hold: refused, never stored. */
export class RemoteTooLarge extends Error {
  readonly limit: number;
  constructor(what: string, limit: number) {
    super(`${what}: refused: the remote's answer is larger than ${limit} bytes, more than it may send`);
    this.limit = limit;
  }
}

/** What one answer may carry unless a call says otherwise: a feed page or a batch result is far smaller. */
export const DEFAULT_MAX_RESPONSE_BYTES = 80 * 1024 * 1024;

/** The sync was cancelled while waiting on the remote. */
export class SyncCancelled extends Error {
  constructor() {
    super('sync cancelled');
  }
}

export interface RemoteClientOptions {
  baseUrl: string;
  token: string;
  retry: RetryPolicy;
  signal: AbortSignal;
  /** called with the bytes of each request body sent and each answer received */
  onBytes?: (sent: number, received: number) => void;
  /** waits (tests can speed time up); must reject when the signal aborts */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** What one call to the remote may tune. */
export interface RemoteCallOptions {
  /** the most bytes its answer may hold (default DEFAULT_MAX_RESPONSE_BYTES) */
  maxResponseBytes?: number;
}

/** What the transport adds to a request: the operation's declared headers, already picked, and where its answer carries files. */
interface RequestOptions extends RemoteCallOptions {
  headers?: Record<string, string>;
  answerBytes?: readonly BytesPath[];
}

/** The typed client sync talks to its peer with: one method per operation of the registry. */
export type RemoteApi = ApiClient<RemoteCallOptions>;

/**
 * The typed client for another Silodesk: paths and methods come from the
 * contract, and every answer is parsed with the operation's output schema, so
 * sync works with what the contract declares, never with a cast of whatever
 * arrived. An answer that does not match is a RemoteError (not retried).
 */
export function remoteApi(options: RemoteClientOptions): RemoteApi {
  return createClient(remoteTransport(new RemoteClient(options)));
}

function remoteTransport(http: RemoteClient): Transport<RemoteCallOptions> {
  return {
    async call(name, input, options) {
      const contract = contractOf(name);
      const what = `${contract.method} ${contract.path}`;
      // Sync reads files as content-addressed blobs (readSyncBlobs), never as downloads.
      if (contract.output === 'binary') throw new Error(`${name} answers a file, which sync does not fetch this way`);
      // Only the headers the operation declares: nothing a caller passes can replace the token.
      const headers = Object.fromEntries(declaredHeaders(contract).flatMap((h) => (input.headers?.[h] ? [[h, input.headers[h]!]] : [])));
      // Files go out and come in a part at a time (bytes-members.ts): the answer's arrive as HashedBytes.
      const body = input.body === undefined ? undefined : await sendBytesMembers(contract, input.body);
      const answer = await http.json(contract.method, requestPath(contract, input), body, { ...options, headers, answerBytes: answerBytesPaths(contract) });
      try {
        return parseAnswer(name, answer);
      } catch (err) {
        if (!(err instanceof AnswerMismatch)) throw err;
        throw new RemoteError(200, { key: 'bad-request', code: 'bad-request', message: err.message, fields: err.fields }, what);
      }
    },
  };
}

/**
 * JSON over global fetch to another Silodesk, under the typed client: network
 * errors, timeouts, 5xx and 429 are retried with backoff and jitter, honouring
 * Retry-After; every call the sync makes is idempotent, so a retry is always safe.
 * Answers are read with a size cap. The token goes only in the Authorization
 * header and into no message. Sync code calls `remoteApi`, never this with a path.
 */
export class RemoteClient {
  readonly #o: RemoteClientOptions;

  constructor(options: RemoteClientOptions) {
    this.#o = options;
  }

  async json(method: HttpMethod, path: string, body?: unknown, opts: RequestOptions = {}): Promise<unknown> {
    const { retry, signal } = this.#o;
    const payload = body === undefined ? undefined : writeJsonBody(body);
    const sent = payload === undefined ? 0 : typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    const what = `${method} ${path.split('?')[0]}`;
    const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const maxTimeouts = retry.maxTimeouts ?? 2;
    let timeouts = 0;
    let lastProblem = '';
    for (let attempt = 1; attempt <= retry.maxAttempts; attempt++) {
      if (signal.aborted) throw new SyncCancelled();
      let retryAfter: number | undefined;
      try {
        const res = await fetch(this.#o.baseUrl + path, {
          method,
          headers: {
            ...opts.headers,
            authorization: `Bearer ${this.#o.token}`,
            accept: 'application/json',
            ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(typeof payload === 'object' ? { 'content-length': String(payload.length) } : {}),
          },
          ...requestBody(payload),
          signal: AbortSignal.any([signal, AbortSignal.timeout(retry.timeoutMs)]),
        });
        const bytes = await readAnswer(res, maxBytes, what);
        this.#o.onBytes?.(sent, bytes.byteLength);
        if (res.ok) return await parseJson(bytes, opts.answerBytes ?? [], what);
        if (res.status !== 429 && res.status < 500) throw new RemoteError(res.status, parseError(bytes.toString('utf8')), what);
        lastProblem = `${what}: the remote answered ${res.status}`;
        retryAfter = retryAfterMs(res.headers.get('retry-after'));
      } catch (err) {
        if (err instanceof RemoteError || err instanceof RemoteTooLarge) throw err;
        if (signal.aborted) throw new SyncCancelled();
        if ((err as { name?: string })?.name === 'TimeoutError') {
          timeouts++;
          const seconds = Math.round(retry.timeoutMs / 100) / 10;
          if (timeouts >= maxTimeouts) {
            throw new RemoteTimedOut(
              `${what}: the remote took the request but sent no answer within ${seconds} s, ${timeouts} ${timeouts === 1 ? 'time' : 'times'}; ` +
                'it may be stuck or overloaded. Nothing was lost: the next sync resumes where this one stopped',
            );
          }
        }
        lastProblem = `${what}: ${describeNetworkError(err)}`;
      }
      if (attempt < retry.maxAttempts) await (this.#o.sleep ?? sleep)(nextDelayMs(retry, attempt, retryAfter), signal);
    }
    throw new RemoteUnreachable(`${lastProblem} (after ${retry.maxAttempts} tries)`);
  }
}

/** A body written in parts goes out as a stream, made anew for each try. */
function requestBody(payload: string | JsonInParts | undefined): { body?: string | ReadableStream<Uint8Array>; duplex?: 'half' } {
  if (typeof payload !== 'object') return { body: payload };
  // As the HTTP adapter streams such an answer (app.ts).
  return { body: Readable.toWeb(Readable.from(payload.chunks())) as ReadableStream<Uint8Array>, duplex: 'half' };
}

/**
 * The answer's bytes, read while counting (read-capped.ts): a remote cannot make this instance
 * hold more than `max` bytes of one answer (a lie in Content-Length changes nothing).
 */
async function readAnswer(res: Response, max: number, what: string): Promise<Buffer> {
  try {
    return await readCapped(res.body, max, Number(res.headers.get('content-length') ?? NaN));
  } catch (err) {
    if (!(err instanceof TooManyBytes)) throw err;
    await res.body?.cancel().catch(() => undefined);
    throw new RemoteTooLarge(what, max);
  }
}

/**
 * The answer's value; its files (at `paths`) decoded a part at a time, as HashedBytes
 * (json-lift.ts), and a large one parsed a piece at a time: a feed page of large documents, or a
 * peer that sends an answer of 80 MB, would otherwise hold this instance's event loop.
 */
async function parseJson(bytes: Buffer, paths: readonly BytesPath[], what: string): Promise<unknown> {
  const refused = (message: string) => new RemoteError(200, { key: 'bad-request', code: 'bad-request', message }, what);
  // From IN_TURNS_FROM on as request bodies are, held to the same depth (the walk needs one).
  const parse = (text: string) => (text.length < IN_TURNS_FROM ? JSON.parse(text) : parseJsonInTurns(text, { maxDepth: MAX_JSON_DEPTH }));
  try {
    return await parseJsonLifting(bytes, paths, parse);
  } catch (err) {
    if (err instanceof JsonTooDeep) throw refused(`its answer nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
    if (err instanceof SyntaxError || err instanceof NotJson || err instanceof ApiError) throw refused('its answer is not JSON');
    throw err;
  }
}

function parseError(text: string): ErrorBody | undefined {
  try {
    const body = JSON.parse(text) as ErrorBody;
    return typeof body === 'object' && body !== null && typeof body.message === 'string' ? body : undefined;
  } catch {
    return undefined;
  }
}

/** undici hides the reason in `cause`; a message never includes the URL's secrets (there are none) or the token. */
function describeNetworkError(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? 'network error';
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new SyncCancelled());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SyncCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
