import type { Compilable, Kysely } from 'kysely';
import type { Sqlite } from './connection.ts';
import type { Tables } from './tables.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface TxOptions {
  /** whose writes it makes: `local`, or the instance a synced change came from */
  origin: string;
  /**
   * Every read sees one snapshot of the database, taken at its first statement (a feed
   * page and its high-water mark, a chain and its head). SQLite's transactions always
   * do; on PostgreSQL it is REPEATABLE READ, which the default READ COMMITTED is not.
   */
  snapshot?: boolean;
}

/**
 * The data layer's one interface over both engines (issue 14): SQLite on the desktop
 * (better-sqlite3) and PostgreSQL on a firm's shared remote (pg). Everything is async,
 * so one code path serves both. Typed queries are built with `q` (Kysely) and run with
 * `all`/`first`/`run`; raw SQL, where a statement is clearer written out (or hot enough
 * that compiling it each time shows), takes `?` placeholders on both engines.
 *
 * `tx(fn, { origin })` runs fn in one transaction: committed when it resolves, rolled
 * back when it throws, a savepoint inside another. While fn runs, every call on this
 * Db made from fn's async flow is the transaction's (it sees its writes; on SQLite,
 * nothing else runs in between; on PostgreSQL, it is the transaction's connection), so
 * a write path needs no second handle. Every transaction names whose writes it makes
 * (`origin`: `local`, or the instance a synced change came from), which is what the
 * change log records; a write to a synced table outside one is refused by the database.
 */
export interface Db {
  readonly dialect: Dialect;
  /** builds typed queries (never runs them: pass them to all/first/run) */
  readonly q: Kysely<Tables>;
  /** the origin of the transaction in force; undefined outside every transaction */
  readonly origin: string | undefined;
  all<R>(query: Compilable<R>): Promise<R[]>;
  first<R>(query: Compilable<R>): Promise<R | undefined>;
  run(query: Compilable<unknown>): Promise<{ changes: number }>;
  /** raw SQL with `?` placeholders: every row */
  sql<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** raw SQL: the first row, if any */
  sqlFirst<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R | undefined>;
  /** raw SQL that writes: how many rows it changed */
  sqlRun(text: string, params?: readonly unknown[]): Promise<{ changes: number }>;
  /**
   * Runs fn in one transaction (a savepoint inside another). On PostgreSQL a
   * serialization failure or deadlock is retried, so fn must be safe to run again: it
   * only touches the database.
   */
  tx<T>(fn: () => Promise<T>, opts: TxOptions): Promise<T>;
  /**
   * A bulk write says how many rows it wrote: SQLite refreshes the planner's statistics
   * now and then as the data grows (PostgreSQL's autovacuum does that by itself).
   */
  wrote(rows: number): void;
  /** the SQLite connection, for what only SQLite does (backups, checkpoints); undefined on PostgreSQL */
  readonly sqlite: Sqlite | undefined;
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
