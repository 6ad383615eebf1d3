import type { IpcAnswer } from '../core/api/client/ipc-answer.ts';
import { errorStatus, toApiError, type ErrorBody } from '../core/api/errors.ts';

/**
 * The relay between the desktop shell (Electron's main process) and the service
 * in its own process: the one protocol both sides speak, over anything shaped
 * like a message port (Electron's parentPort and UtilityProcess, a Node child
 * process' IPC channel, an in-memory pair in tests; see ports.ts).
 *
 *   shell → service   start {config} · call {id, name, input, caller} · shutdown
 *   service → shell   ready | failed {message} · answer {id, ok, data | error} · notice {notice} · closed
 *
 * Errors cross as the registry's ApiError JSON ({key, code, message, fields}),
 * never as thrown objects, so a 404 or a 422 with its fields arrives intact.
 * Pure: no Electron, no service; both ends are tested here in one process.
 */

/** The part of a message port the relay needs. */
export interface RelayPort {
  postMessage(message: unknown): void;
  /** every message that arrives, already taken out of its event */
  onMessage(listener: (message: unknown) => void): void;
}

/**
 * Whom a call is made for. The shell holds no database, so it names the caller and
 * the service resolves it: the desktop window, for the company chosen in it.
 */
export interface RelayCaller {
  kind: 'desktop';
  company_id?: string;
}

export interface RelayInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  /** the headers an operation declares (If-Match), as HTTP would carry them */
  headers?: unknown;
}

/** What the service side runs calls on, once started. */
export interface RelayHandler {
  call(name: string, input: RelayInput, caller: RelayCaller): Promise<unknown>;
  /** stops the service (every call under way has been answered by then) */
  close(): Promise<void>;
}

type Answer = { type: 'answer'; id: number } & IpcAnswer;

const MAX_NAME = 100;

const unavailable = (message: string): ErrorBody => ({ key: 'unavailable', code: 'unavailable', message });
const badRequest = (message: string): ErrorBody => ({ key: 'bad-request', code: 'bad-request', message });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An error body as it arrived, or an internal error when it is not one. */
function errorBodyOf(value: unknown): ErrorBody {
  if (isRecord(value) && typeof value.key === 'string' && Object.hasOwn(errorStatus, value.key) && typeof value.message === 'string') {
    const fields = isRecord(value.fields) && Object.values(value.fields).every((v) => typeof v === 'string')
      ? (value.fields as Record<string, string>)
      : undefined;
    const key = value.key as ErrorBody['key'];
    return { key, code: key, message: value.message, ...(fields ? { fields } : {}) };
  }
  return { key: 'internal', code: 'internal', message: 'internal error' };
}

// ── the shell's end

export interface RelayClient<Config> {
  /** sends the start message; resolves once the service is ready, rejects with why it could not start */
  start(config: Config): Promise<void>;
  /** one operation; never rejects: errors come back as `{ok: false, error}` */
  call(name: string, input: RelayInput, caller: RelayCaller): Promise<IpcAnswer>;
  /** asks the service to finish what is under way and stop; resolves when it has closed (or is gone) */
  shutdown(): Promise<void>;
  /** the service's process is gone: calls waiting and later ones are answered `unavailable` */
  lost(why: string): void;
}

export function createRelayClient<Config, Notice = never>(
  port: RelayPort,
  options: { onNotice?(notice: Notice): void; log?(line: string): void } = {},
): RelayClient<Config> {
  const pending = new Map<number, (answer: IpcAnswer) => void>();
  let nextId = 1;
  let gone: string | undefined;
  let started: { resolve(): void; reject(err: Error): void } | undefined;
  let closing: Promise<void> | undefined;
  let closed: (() => void) | undefined;

  port.onMessage((message) => {
    if (!isRecord(message)) return options.log?.('relay: a message that is not an object was ignored');
    switch (message.type) {
      case 'answer': {
        const settle = typeof message.id === 'number' ? pending.get(message.id) : undefined;
        if (!settle) return options.log?.('relay: an answer to no call was ignored');
        pending.delete(message.id as number);
        settle(message.ok === true ? { ok: true, data: message.data } : { ok: false, error: errorBodyOf(message.error) });
        return;
      }
      case 'ready':
        started?.resolve();
        started = undefined;
        return;
      case 'failed':
        started?.reject(new Error(typeof message.message === 'string' ? message.message : 'the service could not start'));
        started = undefined;
        return;
      case 'notice':
        options.onNotice?.(message.notice as Notice);
        return;
      case 'closed':
        finish('the service has stopped');
        return;
      default:
        options.log?.(`relay: a message of unknown type ${String(message.type).slice(0, 40)} was ignored`);
    }
  });

  function finish(why: string): void {
    gone ??= why;
    for (const settle of pending.values()) settle({ ok: false, error: unavailable(gone) });
    pending.clear();
    started?.reject(new Error(gone));
    started = undefined;
    closed?.();
  }

  return {
    start(config) {
      if (gone) return Promise.reject(new Error(gone));
      return new Promise<void>((resolve, reject) => {
        started = { resolve, reject };
        port.postMessage({ type: 'start', config });
      });
    },
    call(name, input, caller) {
      if (gone) return Promise.resolve({ ok: false, error: unavailable(gone) });
      if (closing) return Promise.resolve({ ok: false, error: unavailable('the service is stopping') });
      const id = nextId++;
      return new Promise<IpcAnswer>((resolve) => {
        pending.set(id, resolve);
        try {
          port.postMessage({ type: 'call', id, name, input, caller });
        } catch {
          // an input that cannot be cloned (a function, a symbol) never left this process
          pending.delete(id);
          resolve({ ok: false, error: badRequest('the input of a call must be plain data') });
        }
      });
    },
    shutdown() {
      if (gone) return Promise.resolve();
      closing ??= new Promise<void>((resolve) => {
        closed = resolve;
        port.postMessage({ type: 'shutdown' });
      });
      return closing;
    },
    lost: finish,
  };
}

// ── the service's end

export interface ServeRelayOptions {
  /** the service has closed after a shutdown (code 0), or could not start (code 1): the process may exit */
  onClosed(code: number): void;
  log?(line: string): void;
}

/**
 * Serves calls from the shell: opens the handler on `start`, answers each call
 * with its own id (calls run concurrently, answers go back as each finishes),
 * and on `shutdown` refuses new calls, waits for those under way, closes, and
 * says `closed`.
 */
export function serveRelay<Config, Notice = never>(
  port: RelayPort,
  open: (config: Config, notify: (notice: Notice) => void) => Promise<RelayHandler>,
  options: ServeRelayOptions,
): void {
  let opened: Promise<RelayHandler> | undefined;
  let stopping = false;
  const underWay = new Set<Promise<void>>();

  const send = (message: unknown) => port.postMessage(message);
  const answer = (message: Answer) => {
    try {
      send(message);
    } catch {
      // an answer that cannot be cloned must still answer its call
      options.log?.(`relay: the answer to call ${message.id} could not be sent`);
      send({ type: 'answer', id: message.id, ok: false, error: { key: 'internal', code: 'internal', message: 'internal error' } });
    }
  };

  port.onMessage((message) => {
    if (!isRecord(message)) return options.log?.('relay: a message that is not an object was ignored');
    if (message.type === 'start') return start(message.config as Config);
    if (message.type === 'call') return void track(run(message));
    if (message.type === 'shutdown') return void shutdown();
    options.log?.(`relay: a message of unknown type ${String(message.type).slice(0, 40)} was ignored`);
  });

  function start(config: Config): void {
    if (opened) return options.log?.('relay: a second start was ignored');
    opened = open(config, (notice) => send({ type: 'notice', notice }));
    opened.then(
      () => send({ type: 'ready' }),
      (err: unknown) => {
        send({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
        options.onClosed(1);
      },
    );
  }

  function track(work: Promise<void>): void {
    underWay.add(work);
    void work.finally(() => underWay.delete(work));
  }

  async function run(message: Record<string, unknown>): Promise<void> {
    const { id } = message;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return options.log?.('relay: a call without a valid id was ignored');
    const refuse = (error: ErrorBody) => answer({ type: 'answer', id, ok: false, error });
    const request = readCall(message);
    if (typeof request === 'string') return refuse(badRequest(request));
    if (stopping) return refuse(unavailable('the service is stopping'));
    if (!opened) return refuse(unavailable('the service has not been started'));
    try {
      const handler = await opened;
      const data = await handler.call(request.name, request.input, request.caller);
      answer({ type: 'answer', id, ok: true, data });
    } catch (err) {
      // An ApiError keeps its key, message and fields; anything else is a bare 500 (no stack, no SQL).
      const error = toApiError(err);
      if (error.key === 'internal') options.log?.(`internal error in ${request.name}: ${(err as Error)?.stack ?? String(err)}`);
      refuse(error.toBody());
    }
  }

  async function shutdown(): Promise<void> {
    if (stopping) return;
    stopping = true;
    await Promise.allSettled([...underWay]);
    let code = 0;
    if (opened) {
      try {
        await (await opened).close();
      } catch (err) {
        code = 1;
        options.log?.(`relay: the service did not close cleanly: ${(err as Error)?.message ?? String(err)}`);
      }
    }
    send({ type: 'closed' });
    options.onClosed(code);
  }
}

/** A call message's parts, checked; a string says what is wrong with it. */
function readCall(message: Record<string, unknown>): { name: string; input: RelayInput; caller: RelayCaller } | string {
  const { name, input, caller } = message;
  if (typeof name !== 'string' || name === '' || name.length > MAX_NAME) return 'a call names its operation';
  if (input !== undefined && input !== null && !isRecord(input)) return 'the input of a call is {params?, query?, body?}';
  const parts = (input ?? {}) as RelayInput;
  if (!isRecord(caller) || caller.kind !== 'desktop') return 'a call names its caller';
  if (caller.company_id !== undefined && (typeof caller.company_id !== 'string' || caller.company_id.length > MAX_NAME)) {
    return 'company_id must be a string';
  }
  return {
    name,
    input: { params: parts.params, query: parts.query, body: parts.body, headers: parts.headers },
    caller: { kind: 'desktop', ...(caller.company_id !== undefined ? { company_id: caller.company_id as string } : {}) },
  };
}
