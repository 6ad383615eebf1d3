import { AsyncLocalStorage } from 'node:async_hooks';
import type { Caller } from '../access/tokens.ts';
import type { Db } from '../db/engine.ts';
import type { CompanyKey } from '../access/company-key.ts';

/** Where a change came from. `system`: the service itself (the trash's retention purge). */
export type Via = 'http' | 'ipc' | 'sync' | 'workflow' | 'system';

/** Who made a change, as history and the audit log name them. */
export interface Actor {
  via: Via;
  /** a token id, `desktop`, another instance's id, a job id, or what the service was doing */
  id: string;
  /** what a person reads: the token's name, "Desktop app", "Workflow …" */
  name: string;
  /** the API operation the change was made by, when it was one */
  operation?: string;
}

interface CallScope {
  db: Db;
  caller: Caller;
  operation: string;
  /** false once the handler has answered: work it left scheduled is not the caller's any more */
  open: boolean;
}

/*
 * The operation a request runs, across its awaits (an import works in slices). Work
 * the request only schedules must not inherit it: the job runner is detached from it
 * (detachRunner), and a scope is closed once its handler has answered.
 */
const requests = new AsyncLocalStorage<CallScope>();

/** Runs an operation's handler with its caller and name known to every write it makes. */
export async function withCall<T>(db: Db, caller: Caller, operation: string, fn: () => T | Promise<T>): Promise<T> {
  const scope: CallScope = { db, caller, operation, open: true };
  try {
    return await requests.run(scope, fn);
  } finally {
    scope.open = false;
  }
}

/**
 * Jobs are queued by requests, and the runner's loop starts from the request that
 * woke it (setImmediate keeps the async context): its steps run detached from every
 * request, so a step's changes are the workflow's, never the caller's who queued it.
 */
export function detachRunner(runner: { notify(): void }): void {
  const detached = AsyncLocalStorage.snapshot();
  const notify = runner.notify.bind(runner);
  runner.notify = () => detached(notify);
}

/** The scopes below as they stand at one write: who it is put down to, and as what. */
export interface WriteContext {
  writer: Caller | undefined;
  actor: Actor | undefined;
  action: string | undefined;
  /** the write changed nothing an entry's history tracks (version-keeping.ts: a signature added, a mark, derived columns) */
  outsideHistory?: boolean;
}

const NONE: WriteContext = { writer: undefined, actor: undefined, action: undefined };

/*
 * What the write paths say about the writes they make, per database, across their
 * awaits: a scope holds for the async flow it runs and nothing else, so two requests
 * writing at once never borrow each other's writer.
 */
const writeScopes = new AsyncLocalStorage<ReadonlyMap<Db, WriteContext>>();

/** Runs `fn` with `db`'s write context changed, answering what `fn` answers (a value or a promise, as it is). */
function within<T>(db: Db, change: (now: WriteContext) => WriteContext, fn: () => T): T {
  const all = writeScopes.getStore();
  const next = new Map(all);
  next.set(db, change(all?.get(db) ?? NONE));
  return writeScopes.run(next, fn);
}

const scoped = <T>(db: Db, change: (now: WriteContext) => WriteContext, fn: () => T | Promise<T>): Promise<T> => Promise.resolve(within(db, change, fn));

/** A write path that has its caller at hand (ctx) says so: it outranks whatever request is around it. */
export const asWriter = <T>(db: Db, caller: Caller, fn: () => T | Promise<T>): Promise<T> => scoped(db, (now) => ({ ...now, writer: caller }), fn);

/** Runs `fn` with every change it makes put down to `actor` (work the service does on its own). */
export const withActor = <T>(db: Db, actor: Actor, fn: () => T | Promise<T>): Promise<T> => scoped(db, (now) => ({ ...now, actor }), fn);

/** withActor for a caller that tells a synchronous answer from a promise (the job runner's steps): `fn`'s own answer. */
export const asActor = <T>(db: Db, actor: Actor, fn: () => T): T => within(db, (now) => ({ ...now, actor }), fn);

/** Names what the changes `fn` makes are (`trashed`, `restored`, `purged`, `reverted`), for history and the log. */
export const asAction = <T>(db: Db, action: string, fn: () => T | Promise<T>): Promise<T> => scoped(db, (now) => ({ ...now, action }), fn);

export const currentAction = (db: Db): string | undefined => writeScopes.getStore()?.get(db)?.action;

/**
 * Runs `fn`, a write that changes none of what an entry's history tracks, saying so:
 * the record kept of it then needs no look-up of the entry's last version, unless the
 * same transaction also wrote the entry otherwise (mergeWriteContexts).
 */
export const outsideHistory = <T>(db: Db, fn: () => T): T => within(db, (now) => ({ ...now, outsideHistory: true }), fn);

/** A record written twice by one transaction is kept with its last write's context, outside history only if both writes were. */
export const mergeWriteContexts = (earlier: WriteContext | undefined, later: WriteContext): WriteContext =>
  // A PostgreSQL write made before any context was handed to the connection has none (pg-db.ts).
  (later as WriteContext | undefined)?.outsideHistory && !earlier?.outsideHistory ? { ...later, outsideHistory: false } : later;

/**
 * Taken when the database records a change (db/write-scopes.ts), so the record kept
 * of it at the end of its transaction names who wrote it and as what, even when the
 * scope was narrower than the transaction (a file trashed inside a larger write).
 */
export const writeContext = (db: Db): WriteContext => writeScopes.getStore()?.get(db) ?? NONE;

/** Runs fn with the scopes as they stood at a write (record-keeping.ts, as its transaction ends). */
export function inWriteContext<T>(db: Db, context: WriteContext, fn: () => T | Promise<T>): Promise<T> {
  return scoped(db, () => context, fn);
}

const tokenNames = new WeakMap<Db, Map<string, string>>();

async function tokenName(db: Db, tokenId: string): Promise<string> {
  const cache = tokenNames.get(db) ?? new Map<string, string>();
  tokenNames.set(db, cache);
  let name = cache.get(tokenId);
  if (name === undefined) {
    const row = await db.sqlFirst<{ name: string; kind: string }>('SELECT name, kind FROM tokens WHERE id = ?', [tokenId]);
    // "clerk (user token)"; a name that says its kind already keeps its own words.
    name = row ? (row.name.toLowerCase().includes(row.kind) ? row.name : `${row.name} (${row.kind} token)`) : 'a token';
    if (cache.size > 1000) cache.clear();
    cache.set(tokenId, name);
  }
  return name;
}

/**
 * The job working on an entry now, for a change a workflow step makes to it when the
 * runner did not say (it names each step's job: asActor). Ids of entries, jobs and
 * workflows are the company's own (issue 12).
 */
function runningJobOn(db: Db, companyKey: CompanyKey, entryId: string): Promise<{ id: string; name: string } | undefined> {
  return db.sqlFirst<{ id: string; name: string }>(
    `SELECT j.id AS id, w.name AS name FROM jobs j JOIN workflows w ON w.company_id = j.company_id AND w.id = j.workflow_id
     WHERE j.company_id = ? AND j.silo_entry_id = ? AND j.completed_at IS NULL ORDER BY j.created_at DESC LIMIT 1`,
    [companyKey, entryId],
  );
}

interface ActorBase {
  /** the sync origin of the write (change-log.ts): `local`, another instance's id, or null */
  origin?: string | null;
  /** the writer's caller, when the one asking has it (a handler's ctx) */
  caller?: Caller;
  /**
   * Whether a job of the company may be open on the entry: false when the asker looked
   * for the jobs open on many entries at once and this one has none (record-keeping.ts),
   * so the job working on it is not looked up one entry at a time.
   */
  jobMayBeOpen?: () => Promise<boolean>;
}

/** The entry changed, to name the job working on it: an entry id only means something with its company. */
export type ActorQuery = ActorBase & ({ companyKey?: undefined; entryId?: undefined } | { companyKey: CompanyKey; entryId: string });

/**
 * Who is making the change being written now. In order: what the service declared
 * (withActor); a change applied from another instance (sync, by its instance id); the
 * caller (the write path's own, else the request's): a token over HTTP, the desktop
 * window over IPC. Anything else runs outside every request: the job runner, named by
 * the job working on the entry.
 */
export async function currentActor(db: Db, q: ActorQuery = {}): Promise<Actor> {
  const scope = writeContext(db);
  if (scope.actor) return scope.actor;
  const request = requests.getStore();
  const call = request && request.open && request.db === db ? request : undefined;
  const caller = q.caller ?? scope.writer ?? call?.caller;
  const op = call && call.caller === caller ? { operation: call.operation } : {};
  if (q.origin && q.origin !== 'local') {
    const by = caller?.tokenId ? `, pushed with ${await tokenName(db, caller.tokenId)}` : '';
    return { via: 'sync', id: q.origin, name: `Silodesk instance ${q.origin}${by}`, ...op };
  }
  if (caller?.tokenId) return { via: 'http', id: caller.tokenId, name: await tokenName(db, caller.tokenId), ...op };
  if (caller?.install) return { via: 'ipc', id: 'desktop', name: 'Desktop app', ...op };
  const job = q.entryId && (q.jobMayBeOpen === undefined || (await q.jobMayBeOpen())) ? await runningJobOn(db, q.companyKey, q.entryId) : undefined;
  return job ? { via: 'workflow', id: job.id, name: `Workflow “${job.name}”` } : { via: 'workflow', id: 'workflow', name: 'Workflow' };
}
