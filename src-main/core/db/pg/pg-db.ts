import { randomUUID } from 'node:crypto';
import { Kysely, PostgresDialect, type Compilable } from 'kysely';
import pg from 'pg';
import { validationError } from '../../api/errors.ts';
import { numberedPlaceholders, type Db, type TxOptions } from '../engine.ts';
import { TxFrames, type TxFrame } from '../tx-frames.ts';
import type { Tables } from '../tables.ts';
import { writtenKey, type WriteHooks, type WrittenRecord } from '../write-scopes.ts';
import type { CompanyKey } from '../../access/company-key.ts';
import { WRITTEN_INDEX, WRITTEN_TABLE } from './change-triggers.ts';

/**
 * SQLSTATEs after which a transaction is simply tried again: serialization failure,
 * deadlock, and a unique violation — an idempotent create racing its twin (the same id
 * or key at once) finds the other's row on the retry, and answers as a replay or a 409.
 */
const RETRYABLE = new Set(['40001', '40P01', '23505']);
const MAX_ATTEMPTS = 5;

// bigint columns (counts, sequence numbers) come back as numbers, as SQLite gives them; ours stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));

/** One transaction or savepoint under way, as its async flow sees it. */
interface Frame extends TxFrame<Frame> {
  readonly client: pg.PoolClient;
  /**
   * The write scopes the change triggers noted this frame's writes under, the one in
   * force last: a new one after each savepoint inside it, so that what the savepoint
   * wrote counts as written before the frame's later writes (as on SQLite, write-scopes.ts).
   */
  readonly scopes: string[];
  /** whether a statement that may write ran in this frame (one that did not has nothing to put on record) */
  wrote: boolean;
  /** the write contexts the transaction's writes were made in, by the number the triggers note */
  readonly contexts: unknown[];
  /** the context last handed to the connection */
  context: unknown;
  /** the records frames inside this one put on record as they ended (writtenKey; WrittenRecord.keptInside) */
  readonly keptInside: Set<string>;
}

interface WrittenRow {
  n: number;
  company_id: CompanyKey;
  kind: string;
  record_id: string;
  entry_id: string | null;
  deleted: number;
  context: string | null;
}

const frames = new TxFrames<Frame>();

/** Pooled connections that have their `silodesk_written` table. */
const prepared = new WeakSet<pg.PoolClient>();

/**
 * The async interface (engine.ts) over a PostgreSQL pool. Outside a transaction each
 * statement takes any pooled connection; a transaction holds one client from BEGIN to
 * COMMIT, and calls from its async flow run on it. Its origin is set for the triggers
 * that record changes (`silodesk.origin`, local to the transaction, so a pooled
 * connection never carries it further).
 */
class PgDb implements Db {
  readonly dialect = 'postgres' as const;
  readonly q: Kysely<Tables>;
  readonly sqlite = undefined;
  readonly #pool: pg.Pool;
  #hooks: WriteHooks<unknown> | undefined;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
    // An idle connection the server ended (a restart, a drop) leaves the pool; the next query takes a new one.
    pool.on('error', () => undefined);
    // Queries are only compiled by this Kysely (with PostgreSQL's syntax); the pool runs them.
    this.q = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  }

  hook(hooks: WriteHooks<unknown> | undefined): void {
    this.#hooks = hooks;
  }

  get origin(): string | undefined {
    return this.#frame()?.origin;
  }

  #frame(): Frame | undefined {
    return frames.innermostOf(this);
  }

  /**
   * Where a statement runs: the transaction's connection, or any pooled one. Before a
   * statement that may write, the connection is told the context of the write (a read
   * fires no trigger, so it costs no round trip of its own).
   */
  async #runner(text: string): Promise<pg.Pool | pg.PoolClient> {
    const frame = this.#frame();
    if (!frame) return this.#pool;
    if (READ.test(text)) return frame.client;
    frame.wrote = true;
    const context = this.#hooks?.context();
    if (context !== frame.context) {
      frame.context = context;
      frame.contexts.push(context);
      await frame.client.query(`SELECT set_config('silodesk.context', $1, true)`, [String(frame.contexts.length - 1)]);
    }
    return frame.client;
  }

  /** One statement, where #runner says; text PostgreSQL cannot hold is the caller's mistake, not the server's. */
  async #query(text: string, params: readonly unknown[]): Promise<pg.QueryResult> {
    const runner = await this.#runner(text);
    try {
      return await runner.query(text, params as unknown[]);
    } catch (err) {
      throw UNSTORABLE_TEXT.has((err as { code?: string }).code ?? '') ? unstorableText() : err;
    }
  }

  async all<R>(query: Compilable<R>): Promise<R[]> {
    const { sql, parameters } = query.compile();
    return (await this.#query(sql, parameters)).rows as R[];
  }

  async first<R>(query: Compilable<R>): Promise<R | undefined> {
    return (await this.all(query))[0];
  }

  async run(query: Compilable<unknown>): Promise<{ changes: number }> {
    const { sql, parameters } = query.compile();
    return { changes: (await this.#query(sql, parameters)).rowCount ?? 0 };
  }

  async sql<R = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    return (await this.#query(numberedPlaceholders(text), params)).rows as R[];
  }

  async sqlFirst<R = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<R | undefined> {
    return (await this.sql<R>(text, params))[0];
  }

  async sqlRun(text: string, params: readonly unknown[] = []): Promise<{ changes: number }> {
    return { changes: (await this.#query(numberedPlaceholders(text), params)).rowCount ?? 0 };
  }

  async tx<T>(fn: () => Promise<T>, opts: TxOptions): Promise<T> {
    if (typeof opts.origin !== 'string' || opts.origin === '') throw new TypeError('a transaction names its origin: db.tx(fn, { origin })');
    const outer = this.#frame();
    if (outer) return this.#savepoint(outer, fn, opts.origin);
    for (let attempt = 1; ; attempt++) {
      const client = await this.#pool.connect();
      // Every connection notes what its transactions changed in a table of its own (change-triggers.ts), made at its first.
      if (!prepared.has(client)) {
        try {
          await client.query(WRITTEN_TABLE);
          await client.query(WRITTEN_INDEX);
        } catch (err) {
          client.release(err as Error);
          throw err;
        }
        prepared.add(client);
      }
      const frame: Frame = {
        db: this, client, origin: opts.origin, depth: 1, parent: frames.current, scopes: [randomUUID()], wrote: false, contexts: [], context: NO_CONTEXT, open: true, keptInside: new Set(),
      };
      try {
        await client.query(`${opts.snapshot ? 'BEGIN ISOLATION LEVEL REPEATABLE READ' : 'BEGIN'}; ${PLANS}; ${setScope(client, opts.origin, frame.scopes[0])}`);
        const result = await frames.run(frame, fn);
        await this.#keep(frame);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (attempt < MAX_ATTEMPTS && RETRYABLE.has((err as { code?: string }).code ?? '')) continue;
        throw err;
      } finally {
        frame.open = false;
        client.release();
      }
    }
  }

  async #savepoint<T>(outer: Frame, fn: () => Promise<T>, origin: string): Promise<T> {
    const { client } = outer;
    const name = `sp${outer.depth}`;
    const frame: Frame = {
      db: this, client, origin, depth: outer.depth + 1, parent: frames.current, scopes: [randomUUID()], wrote: false, contexts: outer.contexts, context: NO_CONTEXT, open: true, keptInside: new Set(),
    };
    // One round trip to begin it, one to end it: the statement and the scope in force after it, together.
    await client.query(`SAVEPOINT ${name}; ${setScope(client, origin, frame.scopes[0])}`);
    const next = randomUUID();
    try {
      const result = await frames.run(frame, fn);
      const kept = await this.#keep(frame);
      await client.query(`RELEASE SAVEPOINT ${name}; ${setScope(client, outer.origin, next)}`);
      for (const key of [...frame.keptInside, ...kept]) outer.keptInside.add(key);
      return result;
    } catch (err) {
      await client.query(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}; ${setScope(client, outer.origin, next)}`);
      throw err;
    } finally {
      frame.open = false;
      outer.scopes.push(next);
      outer.context = NO_CONTEXT;
    }
  }

  /** Puts what a write scope changed on record, inside it, each record with the context of its write (write-scopes.ts). */
  async #keep(frame: Frame): Promise<string[]> {
    if (!frame.wrote) return [];
    const written = (
      await frame.client.query<WrittenRow>(
        `DELETE FROM silodesk_written WHERE scope = ANY($1::text[]) RETURNING n, company_id, kind, record_id, entry_id, deleted, context`,
        [frame.scopes],
      )
    ).rows.sort((a, b) => a.n - b.n);
    if (written.length === 0 || !this.#hooks) return [];
    // Written in two of the frame's scopes (before a savepoint and after it): kept once, as it ended up, where it was last written.
    const contextOf = (r: WrittenRow) => (r.context === null || r.context === '' ? undefined : frame.contexts[Number(r.context)]);
    const merge = this.#hooks.merge;
    const last = new Map<string, WrittenRecord<unknown>>();
    for (const r of written) {
      const key = writtenKey(r);
      const earlier = last.get(key);
      const context = earlier && merge ? merge(earlier.context, contextOf(r)) : contextOf(r);
      last.delete(key);
      last.set(key, {
        company_id: r.company_id, kind: r.kind, record_id: r.record_id, entry_id: r.entry_id, deleted: Number(r.deleted) === 1, context, keptInside: frame.keptInside.has(key),
      });
    }
    const records = [...last.values()];
    await frames.run(frame, () => this.#hooks!.keep(records, frame.origin));
    return [...last.keys()];
  }

  wrote(): void {
    // autovacuum keeps PostgreSQL's statistics
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}

/** Before any write a transaction's frame has handed the connection no context yet. */
const NO_CONTEXT = Symbol('no context');

/**
 * The statement that puts the origin and write scope in force for the change triggers,
 * local to the transaction. Literals, not parameters, so that it travels in one
 * round trip with the statement it follows (a simple query may hold several).
 */
function setScope(client: pg.PoolClient, origin: string, scope: string): string {
  return `SELECT set_config('silodesk.origin', ${client.escapeLiteral(origin)}, true), set_config('silodesk.scope', ${client.escapeLiteral(scope)}, true), set_config('silodesk.context', '', true)`;
}

/**
 * A session keeps the plans of the statements its triggers run (the change log's
 * look-up, each foreign-key check) once they seem as good as any: on a fresh remote
 * they are made while the tables are empty, and stay sequential scans as the first
 * sync fills them (a push of 10,000 entries spent a third of its time so). Custom
 * plans are made for the tables as they are; the statements are simple to plan.
 */
const PLANS = 'SET LOCAL plan_cache_mode = force_custom_plan';

/**
 * SQLSTATEs of text PostgreSQL cannot hold: the NUL character in a text value (22021),
 * or `\u0000` in a jsonb one (22P05). SQLite keeps such text; here it is refused as bad
 * input (422), never an internal error.
 */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);
const unstorableText = () =>
  validationError('text may not contain the NUL character (U+0000) on this server', { $: 'holds U+0000, which PostgreSQL cannot store' });

/** A statement that reads only: it fires no trigger, so it needs no write context. */
const READ = /^\s*select\b/i;

/**
 * The async interface over a PostgreSQL database. `hooks` are given the Db itself:
 * what the service puts on record as a transaction ends needs to write through it.
 */
export function pgDb(url: string, opts: { max?: number; hooks?: (db: Db) => WriteHooks<any> } = {}): Db {
  const db = new PgDb(new pg.Pool({ connectionString: url, max: opts.max ?? 10 }));
  db.hook(opts.hooks?.(db));
  return db;
}
