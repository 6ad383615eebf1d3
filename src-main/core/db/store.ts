import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type Compilable } from 'kysely';
import { inWriteContext, writeContext, type WriteContext } from '../silo/audit-actor.ts';
import { keepRecordOf } from '../silo/record-keeping.ts';
import { optimizeSqlite, type Sqlite } from './connection.ts';
import type { Tables } from './tables.ts';
import { WriteScopes, type Origin, type WriteScope } from './write-scopes.ts';

/** What every transaction says: whose writes it makes (write-scopes.ts). */
export interface TxOptions {
  origin: Origin;
}

type Statement = Database.Statement<unknown[], unknown>;

/** Statements kept prepared; past this, the least recently used goes (a hot query is never the one dropped). */
const STATEMENT_CACHE = 500;
/** Write transactions between two refreshes of the planner's statistics (connection.ts). */
const OPTIMIZE_EVERY = 20_000;

/**
 * Typed queries are built with Kysely and executed synchronously on better-sqlite3.
 * Synchronous execution makes a transaction a plain function call that nothing else
 * can interleave with, which is what keeps idempotent creates and series numbering
 * simple and correct. Prepared statements are kept by SQL text: hot paths pass a
 * constant string (its hash is computed once by the engine), so a look-up is cheap.
 */
export class Store {
  readonly sqlite: Sqlite;
  readonly q: Kysely<Tables>;
  readonly #statements = new Map<string, Statement>();
  readonly #scopes: WriteScopes<WriteContext>;
  #writes = 0;

  constructor(sqlite: Sqlite) {
    this.sqlite = sqlite;
    this.q = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
    // Every record a transaction changed goes on record (history, audit log) before it commits, named as its write was.
    this.#scopes = new WriteScopes(sqlite, () => writeContext(this), (records, origin) => {
      for (const record of records) inWriteContext(this, record.context, () => keepRecordOf(this, record, origin));
    });
  }

  /**
   * The origin of the transaction in force (the innermost one); undefined outside
   * every transaction. A write path that both a person here and sync run passes it on
   * (`{ origin: store.origin ?? LOCAL }`): inside sync's transaction its writes are the
   * other instance's; called on its own, it is a local user action.
   */
  get origin(): Origin | undefined {
    return this.#scopes.origin;
  }

  statement(sqlText: string): Statement {
    const cached = this.#statements.get(sqlText);
    if (cached) {
      // Map keeps insertion order: moving a hit to the end makes the first key the least recently used.
      if (this.#statements.size > STATEMENT_CACHE / 2) {
        this.#statements.delete(sqlText);
        this.#statements.set(sqlText, cached);
      }
      return cached;
    }
    const stmt = this.sqlite.prepare<unknown[], unknown>(sqlText);
    if (this.#statements.size >= STATEMENT_CACHE) this.#statements.delete(this.#statements.keys().next().value!);
    this.#statements.set(sqlText, stmt);
    return stmt;
  }

  all<R>(query: Compilable<R>): R[] {
    const { sql, parameters } = query.compile();
    return this.statement(sql).all(...(parameters as unknown[])) as R[];
  }

  first<R>(query: Compilable<R>): R | undefined {
    const { sql, parameters } = query.compile();
    return this.statement(sql).get(...(parameters as unknown[])) as R | undefined;
  }

  run(query: Compilable<unknown>): { changes: number } {
    const { sql, parameters } = query.compile();
    const info = this.statement(sql).run(...(parameters as unknown[]));
    return { changes: info.changes };
  }

  /**
   * Runs fn in one IMMEDIATE transaction (takes the write lock up front: no upgrade
   * deadlocks); inside another, in a savepoint. Its writes to synced tables are
   * recorded as `origin`'s by the database's triggers (change-triggers.ts), and put on
   * record once per record before it ends; a savepoint with another origin gives the
   * outer one back when it ends.
   */
  tx<T>(fn: () => T, opts: TxOptions): T {
    const nested = this.sqlite.inTransaction;
    const result = this.sqlite.transaction(() => {
      const scope = this.#scopes.open(opts.origin);
      try {
        const out = fn();
        this.#scopes.keep(scope);
        return out;
      } finally {
        this.#scopes.close(scope);
      }
    }).immediate();
    if (!nested) this.wrote(1);
    return result;
  }

  /**
   * For a transaction begun by other means (the async interface, sqlite-db.ts): call
   * `openWrites` right after BEGIN or SAVEPOINT, `keepWrites` just before COMMIT or
   * RELEASE, and `closeWrites` once it has ended either way.
   */
  openWrites(origin: Origin): WriteScope {
    return this.#scopes.open(origin);
  }

  keepWrites(scope: WriteScope): void {
    this.#scopes.keep(scope);
  }

  closeWrites(scope: WriteScope): void {
    this.#scopes.close(scope);
  }

  /**
   * Counts written rows (a bulk write says how many); every OPTIMIZE_EVERY the
   * planner's statistics are refreshed, outside any transaction, so plans follow
   * the data as it grows from ten entries to a million.
   */
  wrote(rows: number): void {
    this.#writes += rows;
    if (this.#writes < OPTIMIZE_EVERY || this.sqlite.inTransaction) return;
    this.#writes = 0;
    optimizeSqlite(this.sqlite);
  }
}
