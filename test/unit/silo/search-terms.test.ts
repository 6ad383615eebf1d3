import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqlite, type Sqlite } from '../../../src-main/core/db/connection.ts';
import type { Db } from '../../../src-main/core/db/engine.ts';
import { migrateToLatest } from '../../../src-main/core/db/migrate.ts';
import { migrations } from '../../../src-main/core/db/migrations.ts';
import { sqliteDb } from '../../../src-main/core/db/sqlite-db.ts';
import { companyToken } from '../../../src-main/core/silo/scale-migration.ts';
import { companyFtsQuery, companySearchMatch } from '../../../src-main/core/silo/search.ts';
import { FOLD_EVERY, MAX_NAMED, noteSearchWords, prefixWords, worthNaming } from '../../../src-main/core/silo/search-terms.ts';

/**
 * A prefix typed last is read as the words it stands for (search-terms.ts): those words
 * are FTS5's own, known from the write that brings them, and the named query finds
 * exactly what FTS5's merge of the prefix finds.
 */
let dir: string;
let sqlite: Sqlite;
let db: Db;
const COMPANY = 'company-1';

async function open(list = migrations) {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-terms-'));
  sqlite = openSqlite(join(dir, 'silodesk.db'));
  await migrateToLatest(sqlite, sqliteDb(sqlite).q, join(dir, 'backups'), list);
  db = sqliteDb(sqlite);
}
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

let nextRow = 1;
/** A search row as derived-index.ts writes it: the index's row, and its words noted. */
async function writeRow(title: string, body: string, company = COMPANY): Promise<number> {
  const rowid = nextRow++;
  await db.sqlRun('INSERT INTO entries_fts (rowid, title, body, company) VALUES (?, ?, ?, ?)', [rowid, title, body, companyToken(company)]);
  await noteSearchWords(db, `${title} ${body}`);
  return rowid;
}

const PAGE = 'SELECT rowid FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rowid DESC LIMIT 50';
const hits = (match: string | undefined) => (sqlite.prepare(PAGE).all(match) as Array<{ rowid: number }>).map((r) => r.rowid);
const freshRows = () => (sqlite.prepare('SELECT count(*) AS n FROM search_terms_fresh').get() as { n: number }).n;
const wordsOf = async (prefix: string) => [...((await prefixWords(db, prefix)) ?? new Map()).keys()];
const docsOf = (term: string) => (sqlite.prepare('SELECT docs FROM search_terms WHERE term = ?').get(term) as { docs: number } | undefined)?.docs;

describe('the search index’s words', () => {
  beforeEach(() => open());

  it('are known as soon as a row holds them, and stay known once folded', async () => {
    await writeRow('Invoice ZQ-1', 'Ünïcode Trading 2025-03-01');
    expect(docsOf('invoice')).toBeUndefined(); // not folded yet: only the small index has it
    expect(await wordsOf('INVO')).toEqual(['invoice']);
    for (let i = 1; i < FOLD_EVERY; i++) await writeRow(`Invoice ZQ-${i + 1}`, `line ${i}`);
    expect(freshRows()).toBe(0); // the FOLD_EVERYth row folded them all
    expect(docsOf('invoice')).toBe(FOLD_EVERY);
    expect(docsOf('unicode')).toBe(1); // FTS5 took the diacritics off, and so the word is kept
    expect(docsOf(companyToken(COMPANY))).toBeUndefined(); // the company column is no word of a document
    expect(docsOf('zq')).toBe(FOLD_EVERY);
    expect(docsOf('2025')).toBe(1); // numbers too: a year typed in part is a common search
    expect(await wordsOf('2025')).toEqual(['2025']);
    await writeRow('Invoices', 'more');
    expect(freshRows()).toBe(1);
    expect(await wordsOf('invoic')).toEqual(['invoice', 'invoices']); // folded and fresh together
    expect((await prefixWords(db, 'invoic'))!.get('invoice')).toBe(FOLD_EVERY);
  });

  it('are left to the merge when they are many or the prefix is not plain ASCII', async () => {
    await writeRow('Ünïcode', Array.from({ length: MAX_NAMED + 1 }, (_, i) => `w${10000 + i}`).join(' '));
    expect(await wordsOf('w1100')).toEqual(Array.from({ length: 10 }, (_, i) => `w1100${i}`));
    expect(await prefixWords(db, 'w1')).toBeUndefined();
    expect(await prefixWords(db, 'ünï')).toBeUndefined();
    expect(await wordsOf('uni')).toEqual(['unicode']);
  });

  it('are named when that reads less than merging their lists', () => {
    const words = (n: number, listed: number) => new Map(Array.from({ length: n }, (_, i) => [`w${i}`, listed / n]));
    expect(worthNaming(new Map([['invoice', 970_585], ['invoices', 14_706]]))).toBe(true); // "invoice" at 1M: 0.16 ms named, 29 ms merged
    expect(worthNaming(words(1003, 2_060_026))).toBe(true); // "202": 14 ms named, 54 ms merged
    expect(worthNaming(words(11_830, 222_701))).toBe(false); // "000": 236 ms named, 8 ms merged
    expect(worthNaming(words(1, 40))).toBe(false); // a short list is merged at once
    expect(worthNaming(new Map())).toBe(false);
  });

  it('name the very hits the merged prefix finds, newest first', async () => {
    // A small alphabet so prefixes share many words, with upper case, digits and words that end where a prefix does.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = () => Array.from({ length: 2 + random(5) }, () => 'abAB019'[random(7)]).join('');
    const text = () => Array.from({ length: 1 + random(6) }, word).join(random(2) ? ' ' : '-');
    for (let i = 0; i < 600; i++) await writeRow(text(), text(), i % 5 === 0 ? 'company-2' : COMPANY);
    let named = 0;
    for (const prefix of ['aba', 'ABA', 'a0b', '019', 'bbb', 'b1a', 'aab', 'ba9', 'abab', 'zzz']) {
      const words = await wordsOf(prefix);
      named += words.length;
      const merged = hits(companyFtsQuery(COMPANY, prefix));
      expect(hits(companyFtsQuery(COMPANY, prefix, words)), prefix).toEqual(merged);
      expect(hits(companyFtsQuery(COMPANY, `b ${prefix}`, words)), prefix).toEqual(hits(companyFtsQuery(COMPANY, `b ${prefix}`)));
      expect(merged.length, prefix).toBeLessThanOrEqual(50);
    }
    expect(named).toBeGreaterThan(0);
  });
});

describe('a search whose last word is a prefix', () => {
  beforeEach(() => open());

  it('names the words once their lists are long, and finds what the merge finds', async () => {
    for (let i = 0; i < 1200; i++) await writeRow(`Invoice A-${i}`, i % 6 === 0 ? 'invoices invoiced' : 'paid', i % 4 === 0 ? 'company-2' : COMPANY);
    const match = await companySearchMatch(db, COMPANY, 'A INVOI');
    expect(match).toBe(`company : "${companyToken(COMPANY)}" AND {title body} : ("A" AND ("invoice" OR "invoiced" OR "invoices"))`);
    expect(hits(match)).toEqual(hits(companyFtsQuery(COMPANY, 'A INVOI')));
    expect(hits(match)).toHaveLength(50);
    expect(await companySearchMatch(db, COMPANY, 'A 119')).toBe(`company : "${companyToken(COMPANY)}" AND {title body} : ("A" AND "119"*)`); // eleven words of one entry each
  });
});

describe('migration 0017_search_terms', () => {
  it('takes the words of an index built before it, without the company tokens', async () => {
    await open(Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '0017')));
    for (let i = 1; i <= 3; i++) {
      await db.sqlRun('INSERT INTO entries_fts (rowid, title, body, company) VALUES (?, ?, ?, ?)', [i, `Factura F-${i}`, i === 1 ? 'factura' : 'otro', companyToken(COMPANY)]);
    }
    await migrateToLatest(sqlite, db.q, join(dir, 'backups'));
    expect(docsOf('factura')).toBeGreaterThanOrEqual(3); // a word in both columns of a row counts for each: an estimate, never less
    expect(docsOf('otro')).toBe(2);
    expect(docsOf(companyToken(COMPANY))).toBeUndefined();
    expect(await wordsOf('fac')).toEqual(['factura']);
  });
});
