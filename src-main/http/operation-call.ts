// One call of a registry operation over HTTP, whichever front received it (app.ts: Hono; node-front.ts:
// Node's own request, for the operations' own paths): the caller's token, the rate limits, the
// body, the operation itself, and the answer as status, headers and body. Both fronts go through
// here, so there is one authentication and one answer format.
import { resolveToken, type Caller } from '../core/access/tokens.ts';
import { ApiError, toApiError } from '../core/api/errors.ts';
import { invokeOperation } from '../core/api/invoke.ts';
import { writeJsonBody, type JsonInParts } from '../core/api/json-text.ts';
import { declaredHeaders, type BinaryResult, type OperationContract } from '../core/api/operation.ts';
import type { RegisteredOperation } from '../core/api/registry.ts';
import type { Service } from '../core/service.ts';
import { contentDisposition } from '../core/silo/file-name.ts';
import type { BodySource } from './body.ts';
import { readOperationBody } from './body-forms.ts';
import { isOwnersLocalTool, RateLimiter } from './rate-limit.ts';
import { asCompanyKey } from '../core/access/company-key.ts';

/** An operation's request as the front read it. */
export interface OperationRequest {
  /** method and path, for the log of an internal error (never the query: tokens, search text) */
  label(): string;
  params: Record<string, string>;
  query: Record<string, string>;
  /** a request header by lower-case name; one sent twice reads as Node joins it */
  header(name: string): string | undefined;
  /** the client's address, as the socket has it (never a header a client could set) */
  remoteAddress: string | undefined;
  /** the body, read only when the operation takes one */
  body(): BodySource;
}

/** What to answer: JSON text, bytes, a stored file streamed from disk, or JSON written a part at a time. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | { file: string } | JsonInParts;
}

export interface CallLimits {
  /** calls per second and burst allowed per token; the owner's tools over loopback are exempt unless `exemptLocalOwner` is false */
  rateLimit?: { perSecond: number; burst: number; exemptLocalOwner?: boolean };
  /** per client address, for calls without a valid token (public ones and refused ones) */
  anonymousRateLimit?: { perSecond: number; burst: number };
  log?: (line: string) => void;
}

export type OperationCaller = (op: RegisteredOperation, request: OperationRequest) => Promise<Answer>;

// No company: '' is no company's key or id, so every query it makes finds nothing.
const ANONYMOUS: Caller = { companyKey: asCompanyKey(''), companyId: '', kind: 'user' };

// Every answer says nosniff and no-referrer.
const JSON_HEADERS = { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' };

/** The calls of one server: its rate limiters are shared by both fronts. */
export function operationCaller(service: Service, limits: CallLimits): OperationCaller {
  const limiter = new RateLimiter(limits.rateLimit ?? { perSecond: 500, burst: 1000 });
  const exemptLocalOwner = limits.rateLimit?.exemptLocalOwner ?? true;
  // Calls that carry no valid token are counted per client address, each address on its own:
  // guessing tokens is slowed down, and one noisy client does not lock the others out.
  const anonymous = new RateLimiter(limits.anonymousRateLimit ?? { perSecond: 20, burst: 100 });

  return async (op, request) => {
    const { contract } = op;
    let bodyRead = !contract.body;
    try {
      const caller = contract.access === 'public' ? ANONYMOUS : await authenticateLimited(service, request, anonymous);
      const exempt = exemptLocalOwner && isOwnersLocalTool(caller, request.remoteAddress);
      const wait = exempt ? 0 : caller.tokenId ? limiter.take(caller.tokenId) : anonymous.take(clientKey(request));
      if (wait > 0) throw rateLimited(wait);
      const body = contract.body ? await readOperationBody(request.body(), contract) : undefined;
      bodyRead = true;
      const result = await invokeOperation({ service, caller, writesJson: true }, op.name, {
        params: request.params,
        query: request.query,
        body,
        headers: headersOf(request, contract),
      });
      if (contract.output === 'binary') return binaryAnswer(result as BinaryResult);
      return { status: 200, headers: JSON_HEADERS, body: writeJsonBody(result) };
    } catch (err) {
      // An unread body would be taken for the next request on a kept-alive socket.
      return errorAnswer(err, request.label, limits.log, !bodyRead);
    }
  };
}

/** The request headers the operation declares, and only those: nothing else of the request reaches a handler. */
function headersOf(request: OperationRequest, contract: OperationContract): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of declaredHeaders(contract)) {
    const value = request.header(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The bearer token's caller; a call without a valid one is counted against its address first. */
async function authenticateLimited(service: Service, request: OperationRequest, anonymous: RateLimiter): Promise<Caller> {
  try {
    return await authenticate(service, request);
  } catch (err) {
    const wait = anonymous.take(clientKey(request));
    if (wait > 0) throw rateLimited(wait);
    throw err;
  }
}

async function authenticate(service: Service, request: OperationRequest): Promise<Caller> {
  const header = request.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError('unauthorized', 'an Authorization: Bearer <token> header is required', undefined, { 'WWW-Authenticate': 'Bearer' });
  const caller = await resolveToken(service.db, match[1]);
  if (!caller) throw new ApiError('unauthorized', 'the token is not valid', undefined, { 'WWW-Authenticate': 'Bearer' });
  return caller;
}

const rateLimited = (wait: number) =>
  new ApiError('rate-limited', `too many requests; retry in ${wait} s`, undefined, { 'Retry-After': String(wait) });

function clientKey(request: OperationRequest): string {
  return `address:${request.remoteAddress ?? 'unknown'}`;
}

function binaryAnswer(file: BinaryResult): Answer {
  return {
    status: 200,
    headers: {
      'Content-Type': file.mime,
      'Content-Length': String(file.size),
      'Content-Disposition': contentDisposition(file.name, file.inline),
      'X-Content-Type-Options': 'nosniff',
      // Even if a browser were told to render it, an attachment runs nothing.
      'Content-Security-Policy': "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      'Cache-Control': 'private, max-age=0, must-revalidate',
      'Referrer-Policy': 'no-referrer',
    },
    body: file.file ? { file: file.file } : file.bytes!,
  };
}

/** An error as JSON; `where` names the request in the log of an internal error. */
export function errorAnswer(err: unknown, where: () => string, log?: (line: string) => void, closeConnection = false): Answer {
  const error = toApiError(err);
  if (error.key === 'internal') log?.(`internal error in ${where()}: ${(err as Error)?.stack ?? err}`);
  return {
    status: error.status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      ...(closeConnection ? { Connection: 'close' } : {}),
      ...(error.headers ?? {}),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    },
    body: JSON.stringify(error.toBody()),
  };
}
