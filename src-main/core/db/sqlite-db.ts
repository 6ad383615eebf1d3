import type Database from 'better-sqlite3';
import { setImmediate as immediate } from 'node:timers/promises';
import { Kysely, SqliteDialect, type Compilable } from 'kysely';
import { optimizeSqlite, type Sqlite } from './connection.ts';
import { withStablePlans } from './stable-plans.ts';
import type { Db, TxOptions } from './engine.ts';
import { TxFrames, type TxFrame } from './tx-frames.ts';
import type { Tables } from './tables.ts';
import { LOCAL, WriteScopes, type WriteHooks } from './write-scopes.ts';
import { writeGateOf } from './write-gate.ts';

type Statement = Database.Statement<unknown[], unknown>;

/** Statements kept prepared; past this, the least recently used goes (a hot query is never the one dropped). */
const STATEMENT_CACHE = 500;
/** Write transactions between two refreshes of the planner's statistics (connection.ts). */
const OPTIMIZE_EVERY = 20_000;

type Frame = TxFrame<Frame>;

/** Transactions committed together (SqliteDb #startGroup). */
interface Group {
  /** the transaction's own frame: no flow's (each member runs in a savepoint frame of its own) */
  readonly frame: Frame;
  /** true until the group stops taking members: a transaction begun now joins */
  joinable: boolean;
  members: number;
  /** BEGIN done (or failed: every member fails with it); begun again when the first member fails */
  begun: Promise<void>;
  /** the last member's savepoint, done or failed: the next one runs after it */
  chain: Promise<void>;
  /** COMMIT done */
  committed: Promise<void>;
}

/** The most transactions one COMMIT ends: the first of them waits for the others, so their number is bounded. */
const MAX_GROUP = 64;

const frames = new TxFrames<Frame>();

/**
 * The async interface (engine.ts) over one better-sqlite3 connection. Statements run
 * synchronously, so a call outside every transaction runs at once and answers a
 * settled promise. A transaction does yield between its statements, and other
 * requests' code runs then; this is one connection with one writer, so a transaction
 * holds it from BEGIN to COMMIT: calls from outside wait their turn (a read included,
 * which here would otherwise see its uncommitted rows), calls from its own flow go on.
 * Transactions begun together share one COMMIT (#startGroup).
 */
class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const;
  readonly q: Kysely<Tables>;
  readonly sqlite: Sqlite;
  readonly #statements = new Map<string, Statement>();
  #scopes: WriteScopes<unknown> | undefined;
  #writes = 0;
  #busy = false;
  #group: Group | undefined;
  readonly #waiting: (() => void)[] = [];

  constructor(sqlite: Sqlite) {
    this.sqlite = sqlite;
    this.q = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  }

  hook<C>(hooks: WriteHooks<C> | undefined): void {
    this.#scopes = new WriteScopes<C>(this.sqlite, hooks?.context ?? (() => undefined as C), hooks?.keep ?? (async () => undefined), hooks?.merge) as WriteScopes<unknown>;
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
    const stmt = this.sqlite.prepare<unknown[], unknown>(withStablePlans(sqlText));
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

  /**
   * A statement that writes outside any transaction commits on its own: it takes the write
   * gate as a transaction does (#inGate), or SQLite's busy handler would sleep on the event
   * loop for as long as the checkpoint thread's RESTART took (a token's last use, written
   * once a minute, could land there).
   */
  #write<T>(work: () => T): Promise<T> {
    if (this.#frame() || !writeGateOf(this.sqlite)) return this.#call(work);
    return this.#turn(() => this.#inGate(async () => work()));
  }

  /**
   * Runs a write (a transaction, or a lone statement) holding the write gate: the checkpoint
   * thread may hold the write lock (write-gate.ts), and the wait for it is here, as a promise,
   * not in SQLite's busy handler. Called in the connection's turn.
   */
  async #inGate<T>(work: () => Promise<T>): Promise<T> {
    const gate = writeGateOf(this.sqlite);
    const wait = gate?.enter();
    if (wait) await wait;
    try {
      return await work();
    } finally {
      gate?.leave();
    }
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
    return this.#write(() => {
      const { sql, parameters } = query.compile();
      return { changes: this.#statement(sql).run(...(parameters as unknown[])).changes };
    });
  }

  sql<R = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    let statement: Statement;
    try {
      statement = this.#statement(text);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    if (statement.reader) return this.#call(() => statement.all(...params) as R[]);
    return this.#write(() => {
      statement.run(...params);
      return [];
    });
  }

  sqlFirst<R = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<R | undefined> {
    return this.#call(() => this.#statement(text).get(...params) as R | undefined);
  }

  sqlRun(text: string, params: readonly unknown[] = []): Promise<{ changes: number }> {
    return this.#write(() => ({ changes: this.#statement(text).run(...params).changes }));
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
    const group = this.#group?.joinable ? this.#group : this.#startGroup();
    return this.#join(group, fn, opts.origin);
  }

  /**
   * Group commit. A COMMIT costs far more than a small transaction's statements (every
   * page it dirtied goes to the WAL: a series entry dirties about fifteen), and the
   * transactions of requests that arrive together dirty mostly the same pages. So one
   * IMMEDIATE transaction holds the connection for the transactions begun until the
   * event loop has taken in what else arrived (one setImmediate after the last: nothing
   * when nothing waits); each runs in it as a savepoint of its own, one after another,
   * as if it had begun after the one before committed. One COMMIT ends them all, and
   * none answers before it; a COMMIT that fails fails them all.
   */
  #startGroup(): Group {
    const frame: Frame = { db: this, origin: LOCAL, depth: 1, parent: undefined, open: false };
    let begun!: { resolve: () => void; reject: (err: unknown) => void };
    const group: Group = {
      frame,
      joinable: true,
      members: 0,
      begun: new Promise<void>((resolve, reject) => (begun = { resolve, reject })),
      chain: Promise.resolve(),
      committed: Promise.resolve(),
    };
    group.begun.catch(() => undefined);
    this.#group = group;
    group.committed = this.#turn(async () => {
      await this.#inGate(async () => {
        try {
          this.sqlite.exec('BEGIN IMMEDIATE');
        } catch (err) {
          this.#endGroup(group);
          begun.reject(err);
          throw err;
        }
        begun.resolve();
        try {
          await group.chain;
          await immediate();
          this.#endGroup(group);
          await group.chain;
          this.sqlite.exec('COMMIT');
        } catch (err) {
          if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
          throw err;
        } finally {
          this.#endGroup(group);
        }
      });
      this.wrote(group.members);
    });
    group.committed.catch(() => undefined);
    return group;
  }

  #endGroup(group: Group): void {
    group.joinable = false;
    if (this.#group === group) this.#group = undefined;
  }

  /**
   * One transaction of a group, after the members before it; it answers once the group
   * has committed. The first runs in the group's transaction itself, the others in a
   * savepoint each: inside a savepoint every statement that writes ends by walking all
   * the pages the savepoint journaled so far (SQLite's in-memory sub-journal is
   * truncated from its start), which made an import slice's insert cost 40–50% more.
   */
  async #join<T>(group: Group, fn: () => Promise<T>, origin: string): Promise<T> {
    const first = ++group.members === 1;
    if (group.members >= MAX_GROUP) this.#endGroup(group);
    const run = group.chain
      .then(() => group.begun)
      .then(() => (first ? this.#alone(group, fn, origin) : this.#savepoint(group.frame, fn, origin)));
    group.chain = run.then(
      () => undefined,
      () => undefined,
    );
    const result = await run;
    await group.committed;
    return result;
  }

  /**
   * The first member of a group, in the group's own transaction: nothing ran in it
   * before, so a failure rolls it back whole and begins it again for the members after
   * (should that BEGIN fail, they fail with it, and so does the group's COMMIT).
   */
  #alone<T>(group: Group, fn: () => Promise<T>, origin: string): Promise<T> {
    const frame: Frame = { db: this, origin, depth: group.frame.depth + 1, parent: frames.current, open: true };
    return this.#written(frame, fn, {
      undo: () => {
        if (this.sqlite.inTransaction) this.sqlite.exec('ROLLBACK');
        group.begun = Promise.resolve().then(() => {
          try {
            this.sqlite.exec('BEGIN IMMEDIATE');
          } catch (beginErr) {
            // As when a group cannot begin at all: it takes no more members.
            this.#endGroup(group);
            throw beginErr;
          }
        });
        group.begun.catch(() => undefined);
      },
    });
  }

  #savepoint<T>(outer: Frame, fn: () => Promise<T>, origin: string): Promise<T> {
    const name = `sp${outer.depth}`;
    this.sqlite.exec(`SAVEPOINT ${name}`);
    const frame: Frame = { db: this, origin, depth: outer.depth + 1, parent: frames.current, open: true };
    return this.#written(frame, fn, {
      done: () => this.sqlite.exec(`RELEASE ${name}`),
      undo: () => this.sqlite.exec(`ROLLBACK TO ${name}; RELEASE ${name}`),
    });
  }

  /**
   * Runs `fn` in `frame` with its origin in force for the triggers (the outer one is back
   * when it ends) and what it wrote put on record before it ends; then `done`, or, when
   * either throws, `undo`.
   */
  async #written<T>(frame: Frame, fn: () => Promise<T>, end: { done?: () => void; undo: () => void }): Promise<T> {
    const scopes = this.#writeScopes();
    let scope;
    try {
      scope = scopes.open(frame.origin);
      const result = await frames.run(frame, fn);
      await frames.run(frame, () => scopes.keep(scope!));
      end.done?.();
      return result;
    } catch (err) {
      end.undo();
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
