import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { withStablePlans } from '../../src-main/core/db/stable-plans.ts';

describe('withStablePlans', () => {
  it('writes a placeholder the planner would look into with a unary plus', () => {
    expect(withStablePlans('SELECT hash FROM audit_log WHERE company_id = ? ORDER BY seq DESC LIMIT 1')).toBe(
      'SELECT hash FROM audit_log WHERE company_id = +? ORDER BY seq DESC LIMIT 1',
    );
    expect(withStablePlans('select * from t where a=? and b == ?2 and c is @c limit ? offset $o')).toBe(
      'select * from t where a=+? and b == +?2 and c is +@c limit +? offset +$o',
    );
    expect(withStablePlans('UPDATE "t" SET "x" = ? WHERE [id] = :id')).toBe('UPDATE "t" SET "x" = +? WHERE [id] = +:id');
  });

  it('leaves every other placeholder, and anything quoted or commented, as it is', () => {
    const untouched = [
      'SELECT 1 FROM t WHERE a > ? AND b <= ? AND c != ? AND d <> ? AND e >= ?',
      'SELECT 1 FROM t WHERE a IN (?, ?) AND b LIKE ? AND c BETWEEN ? AND ?',
      'SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rank',
      'INSERT INTO t (a, b) VALUES (?, ?) ON CONFLICT DO NOTHING',
      "SELECT 'a = ?' AS said, \"b = ?\" FROM t -- where c = ?\n WHERE d IS NOT ?",
      "SELECT 'it''s = ?' /* = ? */ FROM t",
    ];
    for (const sql of untouched) expect(withStablePlans(sql), sql).toBe(sql);
  });

  it('changes neither what a statement finds nor the plan that finds it', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE t (seq INTEGER PRIMARY KEY, k TEXT NOT NULL, n INTEGER, note TEXT) STRICT;
      CREATE INDEX t_k ON t (k, seq);
      INSERT INTO t (k, n, note) VALUES ('1', 1, NULL), ('1', 2, 'x'), ('2', 3, 'y'), ('10', 10, NULL), ('01', 4, 'z');`);
    const cases: Array<[string, unknown[]]> = [
      ['SELECT seq FROM t WHERE k = ? ORDER BY seq DESC LIMIT ?', ['1', 1]],
      // A number bound against a TEXT column is compared as text, as before; so is NULL, which matches nothing.
      ['SELECT seq FROM t WHERE k = ? ORDER BY seq', [1]],
      ['SELECT seq FROM t WHERE k = ? ORDER BY seq', [null]],
      ['SELECT seq FROM t WHERE note IS ? ORDER BY seq', [null]],
      ['SELECT seq FROM t WHERE n = ? ORDER BY seq', ['10']],
      ['SELECT seq FROM t WHERE k = ? ORDER BY seq LIMIT ? OFFSET ?', ['1', 5, 1]],
      ['SELECT k, count(*) AS c FROM t WHERE n == ? GROUP BY k', [2]],
    ];
    for (const [sql, params] of cases) {
      const stable = withStablePlans(sql);
      expect(stable, sql).not.toBe(sql);
      expect(db.prepare(stable).all(...params), sql).toEqual(db.prepare(sql).all(...params));
      const plan = (text: string) => (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
      expect(plan(stable), sql).toEqual(plan(sql));
    }
  });
});
