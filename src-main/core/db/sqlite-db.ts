import type { Compilable, Kysely } from 'kysely';
import type { Db } from './engine.ts';
import type { Store } from './store.ts';
import type { Tables } from './tables.ts';

/**
 * The async interface (engine.ts) over one better-sqlite3 connection. Statements run
 * synchronously, so their promises are already settled; but an async transaction
 * still yields between statements, and other requests' code may run then. SQLite has
 * one writer and this is one connection: whoever holds `turn` has it to themselves. A
 * transaction holds it from BEGIN to COMMIT, so nothing else (a read included, which
 * on this connection would see the transaction's uncommitted rows) runs in between.
 */
class Turn {
  #tail: Promise<void> = Promise.resolve();

  async run<T>(fn: () => T | Promise<T>): Promise<T> {
    const before = this.#tail;
    let release!: () => void;
    this.#tail = new Promise((resolve) => (release = resolve));
    await before;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const;
  readonly #store: Store;
  readonly #turn: Turn;
  readonly #depth: number;
  readonly origin: string | undefined;

  constructor(store: Store, turn: Turn, depth: number, origin: string | undefined) {
    this.#store = store;
    this.#turn = turn;
    this.#depth = depth;
    this.origin = origin;
  }

  get q(): Kysely<Tables> {
    return this.#store.q;
  }

  #now<T>(fn: () => T): Promise<T> {
    // Inside a transaction the turn is already ours; outside, wait for it.
    return this.#depth > 0 ? Promise.resolve().then(fn) : this.#turn.run(fn);
  }

  all<R>(query: Compilable<R>): Promise<R[]> {
    return this.#now(() => this.#store.all(query));
  }

  first<R>(query: Compilable<R>): Promise<R | undefined> {
    return this.#now(() => this.#store.first(query));
  }

  run(query: Compilable<unknown>): Promise<{ changes: number }> {
    return this.#now(() => this.#store.run(query));
  }

  sql<R = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    return this.#now(() => {
      const statement = this.#store.statement(text);
      if (statement.reader) return statement.all(...params) as R[];
      statement.run(...params);
      return [];
    });
  }

  async tx<T>(fn: (tx: Db) => Promise<T>, opts: { origin: string }): Promise<T> {
    const sqlite = this.#store.sqlite;
    const inner = new SqliteDb(this.#store, this.#turn, this.#depth + 1, opts.origin);
    // Its origin is in force for the change triggers while it runs (write-scopes.ts); what it changed goes on record before it ends.
    if (this.#depth > 0) {
      const name = `sp${this.#depth}`;
      sqlite.exec(`SAVEPOINT ${name}`);
      const scope = this.#store.openWrites(opts.origin);
      try {
        const result = await fn(inner);
        this.#store.keepWrites(scope);
        sqlite.exec(`RELEASE ${name}`);
        return result;
      } catch (err) {
        sqlite.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
        throw err;
      } finally {
        this.#store.closeWrites(scope);
      }
    }
    return this.#turn.run(async () => {
      sqlite.exec('BEGIN IMMEDIATE');
      const scope = this.#store.openWrites(opts.origin);
      try {
        const result = await fn(inner);
        this.#store.keepWrites(scope);
        sqlite.exec('COMMIT');
        this.#store.wrote(1);
        return result;
      } catch (err) {
        if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
        throw err;
      } finally {
        this.#store.closeWrites(scope);
      }
    });
  }

  async close(): Promise<void> {
    await this.#turn.run(() => this.#store.sqlite.close());
  }
}

export function sqliteDb(store: Store): Db {
  return new SqliteDb(store, new Turn(), 0, undefined);
}
