import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/engine.ts';
import { digitRunsLed } from './sort-keys.ts';

const PAGE = 2000;

/**
 * Migration 0034 (PostgreSQL 0016): every stored number key in the form sort-keys.ts
 * makes now, its digit runs led by their length instead of padded to 20 digits (about
 * 30 bytes an entry, in the row and its index). A page of keys at a time, each page one
 * statement; no trigger watches the column, so nothing but the key and its index change.
 */
export function compactNumberKeys(dialect: Dialect) {
  return async (db: Kysely<any>): Promise<void> => {
    for (let after = 0; ; ) {
      const page = (await sql<{ seq: number | string; number_key: string }>`
        SELECT seq, number_key FROM entries WHERE seq > ${after} AND number_key IS NOT NULL ORDER BY seq LIMIT ${PAGE}`.execute(db)).rows;
      if (page.length === 0) return;
      after = Number(page[page.length - 1].seq);
      const changed = page.map((r) => ({ seq: Number(r.seq), key: digitRunsLed(r.number_key) })).filter((r, i) => r.key !== page[i].number_key);
      if (changed.length === 0) continue;
      const values = sql.join(changed.map((r) => sql`(${r.seq}, ${r.key})`));
      await (dialect === 'sqlite'
        ? sql`UPDATE entries SET number_key = v.column2 FROM (VALUES ${values}) AS v WHERE entries.seq = v.column1`
        : sql`UPDATE entries SET number_key = v.key FROM (VALUES ${values}) AS v(seq, key) WHERE entries.seq = v.seq::bigint`
      ).execute(db);
    }
  };
}
