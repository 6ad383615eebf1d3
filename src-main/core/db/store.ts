import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type Compilable } from 'kysely';
import type { Sqlite } from './connection.ts';
import type { Tables } from './tables.ts';

type Statement = Database.Statement<unknown[], unknown>;

/**
 * Typed queries are built with Kysely and executed synchronously on better-sqlite3.
 * Synchronous execution makes a transaction a plain function call that nothing else
 * can interleave with, which is what keeps idempotent creates and series numbering
 * simple and correct; prepared statements are cached by SQL text.
 */
export class Store {
  readonly sqlite: Sqlite;
  readonly q: Kysely<Tables>;
  readonly #statements = new Map<string, Statement>();

  constructor(sqlite: Sqlite) {
    this.sqlite = sqlite;
    this.q = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  }

  statement(sqlText: string): Statement {
    let stmt = this.#statements.get(sqlText);
    if (!stmt) {
      stmt = this.sqlite.prepare<unknown[], unknown>(sqlText);
      if (this.#statements.size > 1000) this.#statements.clear();
      this.#statements.set(sqlText, stmt);
    }
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
    return this.sqlite.transaction(fn).immediate();
  }
}
