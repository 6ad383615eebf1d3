import type { Compilable, Kysely } from 'kysely';
import type { Tables } from './tables.ts';

export type Dialect = 'sqlite' | 'postgres';

/**
 * The data layer's one interface over both engines (issue 14): SQLite on the desktop
 * (better-sqlite3) and PostgreSQL on a firm's shared remote (pg). Everything is async,
 * so one code path serves both. Typed queries are built with `q` (Kysely) and run with
 * `all`/`first`/`run`; raw SQL, where a statement is clearer written out, takes `?`
 * placeholders on both engines.
 *
 * A transaction is a `Db` of its own, passed to the function it runs: its queries
 * see its writes, and nobody else does until it commits. Every transaction names
 * whose writes it makes (`origin`: `local`, or the instance a synced change came from),
 * which is what the change log records; nothing is decided by ambient state.
 */
export interface Db {
  readonly dialect: Dialect;
  readonly q: Kysely<Tables>;
  /** the origin of the transaction this handle runs in; undefined outside one */
  readonly origin: string | undefined;
  all<R>(query: Compilable<R>): Promise<R[]>;
  first<R>(query: Compilable<R>): Promise<R | undefined>;
  run(query: Compilable<unknown>): Promise<{ changes: number }>;
  /** raw SQL with `?` placeholders */
  sql<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /**
   * Runs fn in one transaction, committed when it resolves and rolled back when it
   * throws; inside another transaction it is a savepoint. On PostgreSQL a serialization
   * failure or deadlock is retried (fn must be safe to run again: it only touches the db).
   */
  tx<T>(fn: (tx: Db) => Promise<T>, opts: { origin: string }): Promise<T>;
  close(): Promise<void>;
}

/** `?` placeholders to PostgreSQL's `$1, $2…`, leaving quoted text and identifiers alone. */
export function numberedPlaceholders(text: string): string {
  let n = 0;
  let out = '';
  let quote: string | undefined;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = undefined;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') out += `$${++n}`;
    else out += ch;
  }
  return out;
}
