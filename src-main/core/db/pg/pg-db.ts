import { Kysely, PostgresDialect, type Compilable } from 'kysely';
import pg from 'pg';
import { numberedPlaceholders, type Db } from '../engine.ts';
import type { Tables } from '../tables.ts';

/** SQLSTATEs after which a transaction is simply tried again: serialization failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 5;

type Runner = pg.Pool | pg.PoolClient;

// bigint columns (counts, sequence numbers) come back as numbers, as SQLite gives them; ours stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (text) => Number(text));

/**
 * The async interface (engine.ts) over a PostgreSQL pool. Outside a transaction each
 * statement takes any pooled connection; a transaction holds one client from BEGIN to
 * COMMIT and its origin is set for the triggers that record changes (`silodesk.origin`,
 * local to the transaction, so a pooled connection never carries it further).
 */
class PgDb implements Db {
  readonly dialect = 'postgres' as const;
  readonly q: Kysely<Tables>;
  readonly origin: string | undefined;
  readonly #pool: pg.Pool;
  readonly #runner: Runner;
  readonly #depth: number;

  constructor(pool: pg.Pool, q: Kysely<Tables>, runner: Runner, depth: number, origin: string | undefined) {
    this.#pool = pool;
    this.q = q;
    this.#runner = runner;
    this.#depth = depth;
    this.origin = origin;
  }

  async all<R>(query: Compilable<R>): Promise<R[]> {
    const { sql, parameters } = query.compile();
    return (await this.#runner.query(sql, parameters as unknown[])).rows as R[];
  }

  async first<R>(query: Compilable<R>): Promise<R | undefined> {
    return (await this.all(query))[0];
  }

  async run(query: Compilable<unknown>): Promise<{ changes: number }> {
    const { sql, parameters } = query.compile();
    return { changes: (await this.#runner.query(sql, parameters as unknown[])).rowCount ?? 0 };
  }

  async sql<R = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    return (await this.#runner.query(numberedPlaceholders(text), params as unknown[])).rows as R[];
  }

  async tx<T>(fn: (tx: Db) => Promise<T>, opts: { origin: string }): Promise<T> {
    if (this.#depth > 0) {
      const client = this.#runner as pg.PoolClient;
      const name = `sp${this.#depth}`;
      await client.query(`SAVEPOINT ${name}`);
      await setOrigin(client, opts.origin);
      try {
        const result = await fn(new PgDb(this.#pool, this.q, client, this.#depth + 1, opts.origin));
        await client.query(`RELEASE SAVEPOINT ${name}`);
        await setOrigin(client, this.origin!);
        return result;
      } catch (err) {
        await client.query(`ROLLBACK TO SAVEPOINT ${name}`);
        await client.query(`RELEASE SAVEPOINT ${name}`);
        await setOrigin(client, this.origin!);
        throw err;
      }
    }
    for (let attempt = 1; ; attempt++) {
      const client = await this.#pool.connect();
      try {
        await client.query('BEGIN');
        await setOrigin(client, opts.origin);
        const result = await fn(new PgDb(this.#pool, this.q, client, 1, opts.origin));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (attempt < MAX_ATTEMPTS && RETRYABLE.has((err as { code?: string }).code ?? '')) continue;
        throw err;
      } finally {
        client.release();
      }
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}

function setOrigin(client: pg.PoolClient, origin: string): Promise<unknown> {
  return client.query(`SELECT set_config('silodesk.origin', $1, true)`, [origin]);
}

export function pgDb(url: string, opts: { max?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 });
  // Queries are only compiled by this Kysely (with PostgreSQL's syntax); the pool runs them.
  const q = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return new PgDb(pool, q, pool, 0, undefined);
}
