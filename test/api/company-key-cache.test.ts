import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { companyIdOf, companyKeyOf } from '../../src-main/core/access/company-key.ts';
import { createCompany } from '../../src-main/core/access/companies.ts';
import { openSqlite } from '../../src-main/core/db/connection.ts';
import { migrateToLatest } from '../../src-main/core/db/migrate.ts';
import { sqliteDb } from '../../src-main/core/db/sqlite-db.ts';
import { migratePostgres } from '../../src-main/core/db/pg/migrate.ts';
import { pgDb } from '../../src-main/core/db/pg/pg-db.ts';
import { freshDatabase } from '../support/pg-database.ts';

/**
 * What the service remembers of company keys (company-key.ts) is only ever what was
 * committed: a company made in a transaction that rolled back leaves its key to the next
 * company, and nothing read of it in between is taken for that one.
 */
describe('company keys remembered', () => {
  it('forgets a company whose transaction rolled back, and gives its key to the next one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-company-keys-'));
    const sqlite = openSqlite(join(dir, 'silodesk.db'));
    const db = sqliteDb(sqlite);
    try {
      await migrateToLatest(sqlite, db.q, join(dir, 'backups'));
      let gone: { key: string; id: string } | undefined;
      await expect(
        db.tx(async () => {
          const made = await createCompany(db, 'Rolled back');
          // Read in its own transaction, as an audit row or a search row of it would.
          expect(await companyIdOf(db, made.key)).toBe(made.id);
          expect(await companyKeyOf(db, made.id)).toBe(made.key);
          gone = made;
          throw new Error('the request failed after the company was made');
        }, { origin: 'local' }),
      ).rejects.toThrow(/request failed/);

      const next = await createCompany(db, 'Kept');
      expect(next.key).toBe(gone!.key);
      expect(await companyIdOf(db, next.key)).toBe(next.id);
      expect(await companyKeyOf(db, gone!.id)).toBeUndefined();
      expect(await companyKeyOf(db, next.id)).toBe(next.key);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives companies made at once on PostgreSQL a key each: a clash is tried again as a whole', async () => {
    const database = await freshDatabase(inject('pgUrl'));
    const db = pgDb(database.url);
    try {
      await migratePostgres(db.q);
      const made = await Promise.all(Array.from({ length: 5 }, (_, i) => createCompany(db, `At once ${i}`)));
      expect(new Set(made.map((c) => c.key)).size).toBe(5);
      expect(made.map((c) => Number(c.key)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
      for (const c of made) expect(await companyIdOf(db, c.key)).toBe(c.id);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
