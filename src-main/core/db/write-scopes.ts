import type Database from 'better-sqlite3';
import { nowIso } from '../clock.ts';
import type { Sqlite } from './connection.ts';
import { asCompanyKey, type CompanyKey } from '../access/company-key.ts';

/** Whose writes a transaction makes: `local` (a person or the service here), or the instance a synced change came from. */
export type Origin = string;

export const LOCAL: Origin = 'local';

/** A record one transaction changed, as the change trigger named it (change-triggers.ts). */
export interface WrittenRecord<C = unknown> {
  company_id: CompanyKey;
  kind: string;
  /** the record's id as sync names it (`entry-id:file-id`…): shown, never taken apart */
  record_id: string;
  /** the entry a child record (attachment, meta) hangs from */
  entry_id: string | null;
  deleted: boolean;
  /** what the write path had said about itself when it wrote (who for, as what: audit-actor.ts), taken then */
  context: C;
  /**
   * A scope inside this one wrote the record too, and put it on record as it ended: what
   * this scope keeps may be there already (an entry created here, changed in there).
   */
  keptInside?: boolean;
}

/** What names a record among those one transaction changed: written twice, it is kept once, as it ended up. */
export const writtenKey = (r: Pick<WrittenRecord, 'company_id' | 'kind' | 'record_id'>): string => `${r.company_id}\u0000${r.kind}\u0000${r.record_id}`;

/** Puts the records a transaction changed on record (entry history, audit log), in that transaction. */
export type KeepRecords<C> = (records: WrittenRecord<C>[], origin: Origin) => Promise<void>;

/** What a transaction asks of the service as it writes: who it writes for (taken at each write), and what to put on record before it commits. */
export interface WriteHooks<C> {
  context(): C;
  keep: KeepRecords<C>;
  /** a record written again in the same scope: the context it is kept with (by default the later write's) */
  merge?: (earlier: C, later: C) => C;
}

/** One transaction or savepoint that writes: its origin, its mark in the change log, what it changed. */
export interface WriteScope {
  readonly origin: Origin;
  /** the change log's highest seq when the scope began (or when a scope inside it ended): rows past it are this write's */
  mark: number;
  readonly written: Map<string, WrittenRecord<any>>;
  /** the records scopes inside this one put on record as they ended (writtenKey) */
  readonly keptInside: Set<string>;
}

/**
 * The write scopes open on one connection, innermost last, and the functions the
 * change triggers call. A write to a synced table asks `silodesk_written` for the
 * origin in force: with no scope open it gets NULL and the trigger aborts the write.
 * better-sqlite3 runs one statement at a time on the connection, so the innermost
 * scope is always the one whose statement fired the trigger.
 */
export class WriteScopes<C> {
  readonly #stack: WriteScope[] = [];
  readonly #keep: KeepRecords<C>;
  #mark: Database.Statement<unknown[], unknown> | undefined;
  readonly #sqlite: Sqlite;

  /** `context`: taken at each write, handed back with its record to `keep` (`merge`d when a record is written again). */
  constructor(sqlite: Sqlite, context: () => C, keep: KeepRecords<C>, merge?: (earlier: C, later: C) => C) {
    this.#sqlite = sqlite;
    this.#keep = keep;
    const fn = { deterministic: false, directOnly: false } as const;
    sqlite.function('silodesk_written', fn, (companyKey: unknown, kind: unknown, recordId: unknown, entryId: unknown, deleted: unknown) => {
      const scope = this.#stack.at(-1);
      if (!scope) return null;
      const record: WrittenRecord<C> = {
        company_id: asCompanyKey(String(companyKey)),
        kind: String(kind),
        record_id: String(recordId),
        entry_id: entryId === null ? null : String(entryId),
        deleted: Number(deleted) === 1,
        context: context(),
      };
      const key = writtenKey(record);
      // Written twice by one transaction: kept once, as it ended up (a file replaced: deleted, then inserted).
      const earlier = scope.written.get(key);
      if (earlier && merge) record.context = merge(earlier.context, record.context);
      scope.written.delete(key);
      scope.written.set(key, record);
      return scope.origin;
    });
    sqlite.function('silodesk_origin', fn, () => this.#stack.at(-1)?.origin ?? null);
    sqlite.function('silodesk_mark', fn, () => this.#stack.at(-1)?.mark ?? Number.MAX_SAFE_INTEGER);
    sqlite.function('silodesk_now', fn, () => nowIso());
  }

  /** The origin of the innermost transaction open now; undefined outside every transaction. */
  get origin(): Origin | undefined {
    return this.#stack.at(-1)?.origin;
  }

  /** A transaction or savepoint has just begun: its writes are `origin`'s until it ends. */
  open(origin: Origin): WriteScope {
    if (typeof origin !== 'string' || origin === '') throw new TypeError('a transaction names its origin: db.tx(fn, { origin })');
    const scope: WriteScope = { origin, mark: this.#markNow(), written: new Map(), keptInside: new Set() };
    this.#stack.push(scope);
    return scope;
  }

  /**
   * The scope's work succeeded: its records are put on record now, inside it (before
   * its COMMIT or RELEASE), each with the context of its write. The scope around it
   * counts what this one wrote as written before its own later writes.
   */
  async keep(scope: WriteScope): Promise<void> {
    const outer = this.#stack.at(-1) === scope ? this.#stack.at(-2) : undefined;
    if (scope.written.size > 0) {
      for (const [key, record] of scope.written) if (scope.keptInside.has(key)) record.keptInside = true;
      await this.#keep([...scope.written.values()], scope.origin);
      if (outer) outer.mark = this.#markNow();
    }
    for (const key of [...scope.keptInside, ...scope.written.keys()]) outer?.keptInside.add(key);
  }

  /** The scope ended (committed, or rolled back when its work threw): the one around it is in force again. */
  close(scope: WriteScope): void {
    const top = this.#stack.pop();
    if (top !== scope) throw new Error('write scopes must end innermost first');
  }

  #markNow(): number {
    try {
      this.#mark ??= this.#sqlite.prepare(`SELECT seq FROM sqlite_sequence WHERE name = 'sync_changes'`).pluck();
    } catch {
      // A database not migrated yet has no change log: nothing in it is past any mark.
      return 0;
    }
    return (this.#mark.get() as number | undefined) ?? 0;
  }
}
