import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type Compilable } from 'kysely';
import { optimizeSqlite, type Sqlite } from './connection.ts';
import type { Tables } from './tables.ts';

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
  #writes = 0;

  constructor(sqlite: Sqlite) {
    this.sqlite = sqlite;
    this.q = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
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

  /** Runs fn in one IMMEDIATE transaction (takes the write lock up front: no upgrade deadlocks). */
  tx<T>(fn: () => T): T {
    const nested = this.sqlite.inTransaction;
    const result = this.sqlite.transaction(fn).immediate();
    if (!nested) this.wrote(1);
    return result;
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
