import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCompany } from '../../src-main/core/access/bootstrap.ts';
import { companyKeyOf, type CompanyKey } from '../../src-main/core/access/company-key.ts';
import { indexPageQuery } from '../../src-main/core/exports/selection.ts';
import { PARKED_PENDING_COUNT, PENDING_COUNT } from '../../src-main/core/sync/change-rows.ts';
import { pendingSignersSql } from '../../src-main/core/sync/signers.ts';
import { streamsPageSql } from '../../src-main/core/silo/audit-streams.ts';
import { filterSql } from '../../src-main/core/silo/entry-filters.ts';
import { entrySource, type Walk } from '../../src-main/core/silo/filter-plan.ts';
import { SEQ_TIED_SORTS } from '../../src-main/core/silo/sort-ties.ts';
import { SORTS, sortedPageQueries } from '../../src-main/core/silo/sorted-page.ts';
import { relatedQuery } from '../../src-main/core/silo/list.ts';
import { companyToken } from '../../src-main/core/silo/scale-migration.ts';
import { exactNumberQuery, searchSql } from '../../src-main/core/silo/search.ts';
import { withStablePlans } from '../../src-main/core/db/stable-plans.ts';
import { JOB_VIEW_SQL } from '../../src-main/core/transform/job-view.ts';
import { DIGEST_HOLDERS } from '../../src-main/core/silo/bulk-commit.ts';
import { digestHolderSql } from '../../src-main/core/silo/digest-prefix-index.ts';
import { importAll, invoice } from './desk-list-helpers.ts';
import { creditNote, invoiceDoc } from './perf-helpers.ts';
import { openCompany, startTestServer, type TestServer } from './harness.ts';

/**
 * The hot queries stay index look-ups whatever SQLite believes about the data: with no
 * statistics, with statistics of a small database, and with statistics saying a
 * million entries share one company (where SQLite once chose to walk them all).
 * Behaviour, not timings: the plans themselves. SQLite's plans only (EXPLAIN QUERY
 * PLAN): the suites whose behaviour these plans serve (desk-list, company-ids-silo)
 * run on both engines.
 */
let t: TestServer;
/** the default company's key (what its rows are stored under) and its public id */
let company: CompanyKey;
let companyId: string;
let invoiceId: string;
beforeAll(async () => {
  t = await startTestServer();
  ({ key: company, id: companyId } = await ensureDefaultCompany(t.service.db));
  const invoice = await t.call('POST', '/silo/v1/entries', { data: invoiceDoc('PLAN-1') });
  invoiceId = invoice.body.id;
  for (const code of ['PLAN-C1', 'PLAN-C2', 'PLAN-C3']) {
    expect((await t.call('POST', '/silo/v1/entries', { data: creditNote(invoice.body.data.doc, code) })).status).toBe(200);
  }
});
afterAll(() => t.close());

const db = () => t.service.db.sqlite!;

/** SQLite's plan of a statement on `server`'s database (the suite's own, unless another is given), step by step, as the service prepares it. */
function plan(sql: string, params: unknown[], server = t): string[] {
  return (server.service.db.sqlite!.prepare(`EXPLAIN QUERY PLAN ${withStablePlans(sql)}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
}

/** No step reads every row of entries (a SCAN of the table or of one of its indexes). */
const scansEntries = (lines: string[]) => lines.filter((l) => /^SCAN (e|n|entries)\b/.test(l) || /SEARCH (e|n|entries) USING (COVERING )?INDEX \w+ \(company_id=\?\)$/.test(l));

/** Statistics as a million entries of one company would give them, loaded into the planner. */
function millionEntryStatistics(): void {
  db().exec('ANALYZE');
  const indexes = db().prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries'`).all() as Array<{ name: string }>;
  const set = db().prepare('INSERT OR REPLACE INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
  set.run('entries', null, '1000000');
  const unique = new Set((db().prepare(`PRAGMA index_list(entries)`).all() as Array<{ name: string; unique: number }>).filter((i) => i.unique).map((i) => i.name));
  for (const { name } of indexes) {
    const columns = db().prepare(`PRAGMA index_info(${JSON.stringify(name)})`).all() as Array<{ name: string }>;
    // company_id matches every row; every other column narrows down to a few rows (an id to one).
    const per = columns.map((c, i) => (c.name === 'company_id' ? '1000000' : i === columns.length - 1 && unique.has(name) ? '1' : '10'));
    set.run('entries', name, ['1000000', ...per].join(' '));
  }
  db().exec('ANALYZE sqlite_schema');
}

const statistics: Array<[string, () => void]> = [
  ['no statistics', () => {}],
  ['statistics of a small database', () => db().exec('ANALYZE')],
  ['statistics of a million entries in one company', millionEntryStatistics],
];

describe.each(statistics)('with %s', (_name, prepare) => {
  beforeAll(() => prepare());

  it('finds related entries by their ids, never by walking the company', async () => {
    const q = (await relatedQuery(t.service.db, company, invoiceId, { limit: 20, ascending: false }))!;
    const lines = plan(q.sql, q.params);
    expect(scansEntries(lines), lines.join('\n')).toEqual([]);
    expect(lines.some((l) => /SEARCH e USING INDEX sqlite_autoindex_entries_1 \(company_id=\? AND id=\?\)/.test(l)), lines.join('\n')).toBe(true);
    // And it answers: three credit notes name the invoice.
    expect((await t.call('GET', `/silo/v1/entries/${invoiceId}/related`)).body.list).toHaveLength(3);
  });

  it('walks an export along the issue-date index, never sorting the whole selection for a page', () => {
    const ctx = { service: t.service, caller: { companyKey: company, companyId, kind: 'owner' as const } };
    const pages = [
      indexPageQuery(ctx, {}, false),
      indexPageQuery(ctx, {}, false, { issue_date: null, created_at: '2024-01-01T00:00:00.000Z', seq: 7 }),
      indexPageQuery(ctx, {}, true),
      indexPageQuery(ctx, { date_from: '2024-01-01' }, true, { issue_date: '2024-02-01', created_at: '2024-01-01T00:00:00.000Z', seq: 7 }),
      // A window's page with a folder and a state: still along the issue-date index, never the folder's or state's (which hold created_at too).
      indexPageQuery(ctx, { folder: 'invoices', state: 'draft' }, false, { issue_date: null, created_at: '2024-01-01T00:00:00.000Z', seq: 7 }, { issue_date: null, created_at: '2025-01-01T00:00:00.000Z', seq: 7 }),
      indexPageQuery(ctx, { folder: 'invoices', tag: 'x' }, true, undefined, { issue_date: '2025-01-01', created_at: '2025-01-01T00:00:00.000Z', seq: 7 }),
    ];
    for (const [i, page] of pages.entries()) {
      const lines = plan(page.sql, page.params);
      expect(lines.filter((l) => /TEMP B-TREE/.test(l)), lines.join('\n')).toEqual([]);
      expect(lines.some((l) => /USING INDEX entries_sort_issue_date/.test(l)), lines.join('\n')).toBe(true);
      // A page after a position seeks to it (its created_at, the seq ending the index entry checked on the few rows of that
      // instant): it never walks again from the start of its run or of the dates.
      if ([1, 3, 4].includes(i)) expect(lines[0], lines.join('\n')).toMatch(/\(issue_date,created_at\)>\(\?,\?\)|issue_date=\? AND created_at>\?/);
    }
  });

  it('counts the outbox from its index alone, and finds pending signers by kind, not along the outbox', () => {
    const count = plan(PENDING_COUNT, [company]);
    // one walk of the outbox's partial index, no look-up per row
    expect(count, count.join('\n')).toHaveLength(1);
    expect(count[0]).toMatch(/^SEARCH c USING (COVERING )?INDEX sync_changes_pending \(company_id=\?\)$/);
    const parked = plan(PARKED_PENDING_COUNT, [company]);
    expect(parked.filter((l) => /sync_changes_pending|SCAN c/.test(l)), parked.join('\n')).toEqual([]);
    const signers = plan(pendingSignersSql('sqlite'), [company]);
    expect(signers.some((l) => /SEARCH c USING INDEX sync_changes_record \(company_id=\? AND kind=\?\)/.test(l)), signers.join('\n')).toBe(true);
  });

  it('searches within the index, reading only the page’s entries by rowid', async () => {
    const inCompany = `company : "${companyToken(companyId)}" AND {title body} : ("invoice"*)`;
    const cases: Array<[string, string, unknown[]]> = [
      ['unfiltered', searchSql([], 0), [inCompany, 21, 0, company]],
      ['filtered', searchSql(['e.state = ?'], 0), [inCompany, 'draft', 21, 0, company]],
    ];
    for (const [name, sql, params] of cases) {
      const lines = plan(sql, params);
      expect(scansEntries(lines), `${name}\n${lines.join('\n')}`).toEqual([]);
      expect(lines.some((l) => /SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(l)), `${name}\n${lines.join('\n')}`).toBe(true);
      expect(lines.some((l) => /SCAN f VIRTUAL TABLE/.test(l)), `${name}\n${lines.join('\n')}`).toBe(true);
    }
    // Newest first walks the index in its own order: nothing is sorted but the page.
    for (const [, sql, params] of cases) expect(plan(sql, params).filter((l) => /TEMP B-TREE/.test(l)).length).toBeLessThanOrEqual(1);
    // And the search answers (the three credit notes and the invoice hold the word).
    expect((await t.call('GET', '/silo/v1/search?q=invoice')).body.list.length).toBeGreaterThan(0);
  });

  it('reads a list page along the company’s created index, without sorting, and seeks a cursor’s position', () => {
    // Ties go by seq, the rowid that ends every entry of the index (created-ties.ts).
    const sql = `SELECT e.id FROM entries e WHERE e.company_id = ? AND e.trashed_at IS NULL ORDER BY e.created_at DESC, e.seq DESC LIMIT ?`;
    const lines = plan(sql, [company, 21]);
    expect(lines.join('\n')).toMatch(/SEARCH e USING INDEX entries_company_created \(company_id=\?\)/);
    expect(lines.join('\n')).not.toMatch(/TEMP B-TREE/);
    const after = `SELECT e.id FROM entries e WHERE e.company_id = ? AND e.trashed_at IS NULL AND (e.created_at, e.seq) < (?, ?)
      ORDER BY e.created_at DESC, e.seq DESC LIMIT ?`;
    const next = plan(after, [company, '2025-01-01T00:00:00.000Z', 7, 21]);
    expect(next.join('\n')).toMatch(/SEARCH e USING INDEX entries_company_created \(company_id=\? AND created_at<\?\)/);
    expect(next.join('\n')).not.toMatch(/TEMP B-TREE/);
  });

  it('reads a page filtered to a rare tag from the tag’s rows, and a common one along the order’s index', async () => {
    const ctx = (tags: string[]) => t.call('PATCH', `/silo/v1/entries/${invoiceId}`, { tags });
    expect((await ctx(['plan-rare'])).status).toBe(200);
    const walks: Walk[] = [{ index: 'entries_sort_total' }];
    const rare = await entrySource(t.service.db, company, { tag: 'plan-rare' }, walks, 21);
    expect(rare.from).toBe('entry_tags t CROSS JOIN entries e ON e.seq = t.seq');
    const lines = plan(`SELECT e.id FROM ${rare.from} WHERE ${rare.where.join(' AND ')} ORDER BY e.total_e4 DESC, e.created_at DESC, e.id DESC LIMIT 21`, rare.params);
    expect(scansEntries(lines), lines.join('\n')).toEqual([]);
    expect(lines.join('\n')).toMatch(/SEARCH t USING PRIMARY KEY \(company_id=\? AND tag=\?\)/);
    expect(lines.join('\n')).toMatch(/SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    // A tag nobody carries: nothing to read. A state every entry has: the walk along the sort's index finds a page at once.
    expect((await entrySource(t.service.db, company, { tag: 'nobody' }, walks, 21)).from).toBe('entry_tags t CROSS JOIN entries e ON e.seq = t.seq');
    expect((await entrySource(t.service.db, company, { state: 'draft' }, walks, 21)).from).toBe('entries e INDEXED BY entries_sort_total');
    expect((await t.call('GET', '/silo/v1/entries?tag=plan-rare&sort=total')).body.list.map((e: any) => e.id)).toEqual([invoiceId]);
    expect((await ctx([])).status).toBe(200);
    expect((await t.call('GET', '/silo/v1/entries?tag=plan-rare&sort=total')).body.list).toEqual([]);
  });

  it('reads an audit filter’s rows along the action index, a stream at a time, never walking the log', async () => {
    const page = streamsPageSql([{ action: 'entry.created', via: 'http' }, { action: 'token.created', via: 'ipc' }], company, 1_000, 26);
    const lines = plan(page.sql, page.params);
    expect(lines.filter((l) => /audit_log USING INDEX audit_log_action \(company_id=\? AND action=\? AND via=\? AND rowid<\?\)/.test(l)), lines.join('\n')).toHaveLength(2);
    expect(lines.filter((l) => /SCAN audit_log|audit_log_company/.test(l)), lines.join('\n')).toEqual([]);
    const seek = plan('SELECT action FROM audit_log WHERE company_id = ? AND action > ? AND action < ? ORDER BY action LIMIT 1', [company, 'entry', 'entry/']);
    expect(seek.join('\n')).toMatch(/USING COVERING INDEX audit_log_action \(company_id=\? AND action>\? AND action<\?\)/);
  });

  it('counts folders from the kept counts, not from the entries', async () => {
    const lines = plan('SELECT folder, count FROM entry_folder_counts WHERE company_id = ? AND count > 0 ORDER BY folder', [company]);
    expect(lines.join('\n')).not.toMatch(/entries\b/);
    const folders = (await t.call('GET', '/silo/v1/folders')).body.list;
    expect(folders).toEqual([{ folder: 'invoices', count: 4 }]);
  });

  it('finds an entry’s twins by the first digits of their digest, along that index, one by one and a slice at a time', () => {
    const digest = 'ab'.repeat(32);
    const one = plan(...digestHolderSql('sqlite', company, digest, invoiceId));
    expect(one.join('\n')).toMatch(/SEARCH entries USING INDEX entries_company_digest_prefix \(company_id=\? AND <expr>=\?\)/);
    const slice = plan(DIGEST_HOLDERS, [company, JSON.stringify([digest]), JSON.stringify([digest])]);
    expect(slice.join('\n')).toMatch(/SEARCH entries USING INDEX entries_company_digest_prefix \(company_id=\? AND <expr>=\?\)/);
    expect(scansEntries(slice), slice.join('\n')).toEqual([]);
  });

  it('reads a job’s files in the order they were stored along their index, with no sort, even when there are none', () => {
    const lines = plan(JOB_VIEW_SQL.attachments, [company, invoiceId]);
    expect(lines.join('\n')).toMatch(/SEARCH attachments USING INDEX attachments_entry_created \(company_id=\? AND entry_id=\?\)/);
    expect(lines.join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});

describe('a target’s audit rows, among many targets’ (migration 0036)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const { key } = await ensureDefaultCompany(s.service.db);
    const sqlite = s.service.db.sqlite!;
    const insert = sqlite.prepare(`INSERT INTO audit_log (company_id, at, via, actor_id, actor_name, action, target_kind, target_id, detail, hash)
      VALUES (?, '2026-01-01T00:00:00.000Z', 'http', 't', 'T', ?, 'entry', ?, '{}', 'h')`);
    sqlite.transaction(() => {
      for (let i = 0; i < 3_000; i++) insert.run(key, i % 3 === 0 ? 'entry.created' : 'entry.changed', `target-${i % 1_000}`);
    })();
  });
  afterAll(() => s.close());

  it('walks them in seq order along the target index, which ends before seq (the rowid ends it), with statistics or without', async () => {
    const { key } = await ensureDefaultCompany(s.service.db);
    const cases: Array<[string, unknown[], RegExp]> = [
      ['SELECT * FROM audit_log WHERE company_id = ? AND target_id = ? AND seq < ? ORDER BY seq DESC LIMIT 26', [key, 'target-7', 2_000],
        /^SEARCH audit_log USING INDEX audit_log_target \(company_id=\? AND target_id=\? AND rowid<\?\)$/],
      ['SELECT * FROM audit_log WHERE company_id = ? AND target_id = ? ORDER BY seq DESC LIMIT 1', [key, 'target-7'],
        /^SEARCH audit_log USING INDEX audit_log_target \(company_id=\? AND target_id=\?\)$/],
    ];
    for (const analyze of [false, true]) {
      if (analyze) s.service.db.sqlite!.exec('ANALYZE');
      for (const [sql, params, expected] of cases) {
        const lines = plan(sql, params, s);
        expect(lines.join('\n')).toMatch(expected);
        expect(lines).toHaveLength(1);
      }
    }
    const definition = s.service.db.sqlite!.prepare(`SELECT sql FROM sqlite_master WHERE name = 'audit_log_target'`).pluck().get();
    expect(definition).toMatch(/\(company_id, target_id\)$/);
  });
});

describe('the sorted entry list (desk-list.test.ts)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    // Three pages of entries, some without a due date, some credit notes, amounts that tie: every sort pages on.
    await importAll(s, Array.from({ length: 21 }, (_, i) => invoice({
      code: `INV-${i + 1}`,
      supplier: `Supplier ${String.fromCharCode(65 + i)}`,
      issue_date: `2025-01-${String(i + 1).padStart(2, '0')}`,
      ...(i % 2 ? { due_date: `2025-02-${String(i + 1).padStart(2, '0')}` } : {}),
      ...(i % 5 === 0 ? { type: 'credit-note' as const } : {}),
      quantity: (i % 4) + 1,
    })));
  });
  afterAll(() => s.close());

  it('walks one index for every sort, never sorting the table', async () => {
    const { db } = s.service;
    const seen: string[] = [];
    const sql = db.sql.bind(db);
    db.sql = ((text: string, params?: readonly unknown[]) => {
      if (text.includes('INDEXED BY')) seen.push(text);
      return sql(text, params);
    }) as typeof db.sql;
    try {
      for (const sort of ['issue_date', 'due_date', 'number', 'supplier', 'customer', 'net', 'tax', 'total', 'state']) {
        for (const filter of ['', '&folder=invoices', '&tag=x&date_from=2025-01-01']) {
          const first = await s.call('GET', `/silo/v1/entries?sort=${sort}&limit=10${filter}`);
          expect(first.status, JSON.stringify(first.body)).toBe(200);
          if (first.body.next_cursor) await s.call('GET', `/silo/v1/entries?sort=${sort}&limit=10${filter}&cursor=${encodeURIComponent(first.body.next_cursor)}`);
        }
      }
    } finally {
      db.sql = sql;
    }
    expect(seen.length).toBeGreaterThan(18);
    for (const text of new Set(seen)) {
      const lines = plan(text, (text.match(/\?/g) ?? []).map(() => 'x'), s).join('\n');
      expect(lines, text).not.toMatch(/TEMP B-TREE|SCAN e\b(?! USING)/);
      expect(lines, text).toMatch(/USING INDEX entries_sort_/);
    }
  });

  it('starts a page inside a run of equal values at the seq after the cursor, not at the top of the run', async () => {
    const company = (await ensureDefaultCompany(s.service.db)).key;
    for (const sort of Object.keys(SEQ_TIED_SORTS) as Array<keyof typeof SEQ_TIED_SORTS>) {
      for (const ascending of [true, false]) {
        const source = await entrySource(s.service.db, company, {}, [{ index: SORTS[sort].index }], 11);
        const [inRun, beyond] = sortedPageQueries(source, { sort, ascending }, ['v', 'x', 7]);
        const lines = plan(inRun.sql, [...inRun.params, 11], s).join('\n');
        // The run's value fixed, then the rowid (seq) bound: the index is entered right after the cursor's entry.
        expect(lines, inRun.sql).toMatch(new RegExp(`SEARCH e USING INDEX entries_sort_${sort} \\(company_id=\\? AND ${SEQ_TIED_SORTS[sort]}=\\? AND rowid${ascending ? '>' : '<'}\\?\\)`));
        expect(plan(beyond.sql, [...beyond.params, 11], s).join('\n')).not.toMatch(/TEMP B-TREE|SCAN e\b(?! USING)/);
      }
    }
  });
});

describe('one id in two companies (company-ids-silo.test.ts)', () => {
  let s: TestServer;
  let companyB: CompanyKey;
  let id: string;
  let code: string;
  beforeAll(async () => {
    s = await startTestServer();
    const b = await openCompany(s);
    companyB = (await companyKeyOf(s.service.db, b.id))!;
    // The same id stored by both companies, and a credit note of B's naming it by uuid and by number.
    id = uuidv7();
    code = `SHARED-${Math.random().toString(36).slice(2, 8)}`;
    const asB = { authorization: `Bearer ${b.owner}` };
    expect((await s.call('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc(code, { customer: { name: 'Customer of A' } }) })).status).toBe(200);
    expect((await s.call('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc(code, { customer: { name: 'Customer of B' } }) }, asB)).status).toBe(200);
    const credit = await s.call('POST', '/silo/v1/entries', { data: creditNote({ uuid: id, series: 'INV', code, issue_date: '2026-03-02' }, `CN-P-${code}`) }, asB);
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);
  });
  afterAll(() => s.close());

  it('looks related entries and exact numbers up by the company’s keys, never walking the company', async () => {
    const planOf = (q: { sql: string; params: unknown[] }) => plan(q.sql, q.params, s);
    // A step that reads every row of a table, or of the company (a key searched by the company alone, or with a range).
    const walks = (lines: string[]) => lines.filter((l) => /^SCAN (?!h$)/.test(l) || /\(company_id=\?(?: AND \w+[<>]=?\?)*\)$/.test(l));
    for (const prepare of [() => {}, () => s.service.db.sqlite!.exec('ANALYZE')]) {
      prepare();
      const related = planOf((await relatedQuery(s.service.db, companyB, id, { limit: 20, ascending: false }))!);
      expect(walks(related), related.join('\n')).toEqual([]);
      expect(related.some((l) => /SEARCH e USING INDEX sqlite_autoindex_entries_1 \(company_id=\? AND id=\?\)/.test(l)), related.join('\n')).toBe(true);
      const exact = planOf(exactNumberQuery(companyB, `INV-${code}`, filterSql({}, 'e', false))!);
      expect(walks(exact), exact.join('\n')).toEqual([]);
    }
  });
});
