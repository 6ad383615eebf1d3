import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { searchWords } from '../../../src-main/core/db/pg/search.ts';

/**
 * PostgreSQL's search index is fed the words SQLite's FTS5 would index (pg/search.ts),
 * so a search finds the same entries on both engines. FTS5 itself is the oracle here:
 * each text goes into an FTS5 table with entries_fts's tokenizer, and the terms it
 * keeps (fts5vocab) must be exactly the words `searchWords` gives PostgreSQL.
 */
const TEXTS = [
  'Factura SAMPLE-001 · Café Müller GmbH, 12.50 EUR',
  'invoice@acme.example — ÉTÉ Ærø ﬁnance Straße',
  'Αθήνα ΟΔΟΣ Πειραιώς τέλος',
  'Москва Ёлка йогурт',
  '東京都 渋谷区 請求書 2025',
  'São Paulo, Ñandú, Crème brûlée, Łódź, İstanbul',
  'tab\tsep\nnew line_under-score 1,234.56 ¾ ①',
];

function fts5Terms(text: string): string[] {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2');
             CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row');`);
    db.prepare('INSERT INTO t (body) VALUES (?)').run(text);
    return (db.prepare('SELECT term FROM v').all() as Array<{ term: string }>).map((r) => r.term).sort();
  } finally {
    db.close();
  }
}

describe('the words PostgreSQL indexes', () => {
  for (const text of TEXTS) {
    it(`are FTS5's for ${JSON.stringify(text.slice(0, 30))}`, () => {
      expect([...searchWords(text)].sort()).toEqual(fts5Terms(text));
    });
  }
});
