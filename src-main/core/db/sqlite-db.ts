import type Database from 'better-sqlite3';
import { Kysely, SqliteDialect, type Compilable } from 'kysely';
import { optimizeSqlite, type Sqlite } from './connection.ts';
import type { Db, TxOptions } from './engine.ts';
import { TxFrames, type TxFrame } from './tx-frames.ts';
import type { Tables } from './tables.ts';
import { WriteScopes, type WriteHooks } from './write-scopes.ts';

type Statement = Database.Statement<unknown[], unknown>;

/** Statements kept prepared; past this, the least recently used goes (a hot query is never the one dropped). */
const STATEMENT_CACHE = 500;
/** Write transactions between two refreshes of the planner's statistics (connection.ts). */
const OPTIMIZE_EVERY = 20_000;

type Frame = TxFrame<Frame>;

const frames = new TxFrames<Frame>();

/**
 * The async interface (engine.ts) over one better-sqlite3 connection. Statements run
 * synchronously, so a call outside every transaction runs at once and answers a
 * settled promise. A transaction does yield between its statements, and other
 * requests' code runs then; this is one connection with one writer, so a transaction
 * holds it from BEGIN to COMMIT: calls from outside wait their turn (a read included,
 * which here would otherwise see its uncommitted rows), calls from its own flow go on.
 */
class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const;
  readonly q: Kysely<Tables>;
  readonly sqlite: Sqlite;
  readonly #statements = new Map<string, Statement>();
  #scopes: WriteScopes<unknown> | undefined;
  #writes = 0;
  #busy = false;
  readonly #waiting: (() => void)[] = [];

  constructor(sqlite: Sqlite) {
    this.sqlite = sqlite;
    this.q = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  }

  hook<C>(hooks: WriteHooks<C> | undefined): void {
    this.#scopes = new WriteScopes<C>(this.sqlite, hooks?.context ?? (() => undefined as C), hooks?.keep ?? (async () => undefined)) as WriteScopes<unknown>;
  }

  get origin(): string | undefined {
    return this.#frame()?.origin;
  }

  #frame(): Frame | undefined {
    return frames.innermostOf(this);
  }

  #statement(sqlText: string): Statement {
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

  /** Runs one statement's work now when the connection is free or ours, else when its turn comes. */
  #call<T>(work: () => T): Promise<T> {
    if (!this.#busy || this.#frame()) {
      try {
        return Promise.resolve(work());
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    return this.#turn(async () => work());
  }

  async #turn<T>(work: () => Promise<T>): Promise<T> {
    if (this.#busy) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#busy = true;
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      // The turn passes straight to the next in line, so nobody can slip in between.
      if (next) next();
      else this.#busy = false;
    }
  }

  all<R>(query: Compilable<R>): Promise<R[]> {
    return this.#call(() => {
      const { sql, parameters } = query.compile();
      return this.#statement(sql).all(...(parameters as unknown[])) as R[];
    });
  }

  first<R>(query: Compilable<R>): Promise<R | undefined> {
    return this.#call(() => {
      const { sql, parameters } = query.compile();
      return this.#statement(sql).get(...(parameters as unknown[])) as R | undefined;
    });
  }

  run(query: Compilable<unknown>): Promise<{ changes: number }> {
    return this.#call(() => {
      const { sql, parameters } = query.compile();
      return { changes: this.#statement(sql).run(...(parameters as unknown[])).changes };
    });
  }

  sql<R = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    return this.#call(() => {
      const statement = this.#statement(text);
      if (statement.reader) return statement.all(...params) as R[];
      statement.run(...params);
      return [];
    });
  }

  sqlFirst<R = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<R | undefined> {
    return this.#call(() => this.#statement(text).get(...params) as R | undefined);
  }

  sqlRun(text: string, params: readonly unknown[] = []): Promise<{ changes: number }> {
    return this.#call(() => ({ changes: this.#statement(text).run(...params).changes }));
  }

  /**
   * One IMMEDIATE transaction (it takes the write lock up front: no upgrade deadlocks);
   * inside another, a savepoint. Its writes to synced tables are recorded as `origin`'s
   * by the database's triggers (change-triggers.ts) and put on record once per record
   * before it ends (write-scopes.ts).
   */
  tx<T>(fn: () => Promise<T>, opts: TxOptions): Promise<T> {
    const outer = this.#frame();
    if (outer) return this.#savepoint(outer, fn, opts.origin);
    return this.#turn(async () => {
      const sqlite = this.sqlite;
      const scopes = this.#writeScopes();
      sqlite.exec('BEGIN IMMEDIATE');
      const frame: Frame = { db: this, origin: opts.origin, depth: 1, parent: frames.current, open: true };
      let scope;
      try {
        scope = scopes.open(opts.origin);
        const result = await frames.run(frame, fn);
        await frames.run(frame, () => scopes.keep(scope!));
        sqlite.exec('COMMIT');
        this.wrote(1);
        return result;
      } catch (err) {
        if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
        throw err;
      } finally {
        frame.open = false;
        if (scope) scopes.close(scope);
      }
    });
  }

  async #savepoint<T>(outer: Frame, fn: () => Promise<T>, origin: string): Promise<T> {
    const sqlite = this.sqlite;
    const scopes = this.#writeScopes();
    const name = `sp${outer.depth}`;
    sqlite.exec(`SAVEPOINT ${name}`);
    const frame: Frame = { db: this, origin, depth: outer.depth + 1, parent: frames.current, open: true };
    let scope;
    try {
      // Another origin is in force for the triggers while it runs; the outer one is back when it ends.
      scope = scopes.open(origin);
      const result = await frames.run(frame, fn);
      await frames.run(frame, () => scopes.keep(scope!));
      sqlite.exec(`RELEASE ${name}`);
      return result;
    } catch (err) {
      sqlite.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw err;
    } finally {
      frame.open = false;
      if (scope) scopes.close(scope);
    }
  }

  #writeScopes(): WriteScopes<unknown> {
    if (!this.#scopes) this.hook(undefined);
    return this.#scopes!;
  }

  /**
   * Counts written rows (a bulk write says how many); every OPTIMIZE_EVERY the planner's
   * statistics are refreshed, outside any transaction, so plans follow the data as it
   * grows from ten entries to a million.
   */
  wrote(rows: number): void {
    this.#writes += rows;
    if (this.#writes < OPTIMIZE_EVERY || this.sqlite.inTransaction) return;
    this.#writes = 0;
    optimizeSqlite(this.sqlite);
  }

  async close(): Promise<void> {
    await this.#turn(async () => this.sqlite.close());
  }
}

/**
 * The async interface over an open SQLite connection (connection.ts). `hooks` are
 * given the Db itself: what the service puts on record as a transaction ends needs
 * to write through it.
 */
export function sqliteDb(sqlite: Sqlite, hooks?: (db: Db) => WriteHooks<any>): Db {
  const db = new SqliteDb(sqlite);
  db.hook(hooks?.(db));
  return db;
}
