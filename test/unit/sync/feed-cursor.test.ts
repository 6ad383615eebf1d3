import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '../../../src-main/core/access/companies.ts';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { openService, type Service } from '../../../src-main/core/service.ts';
import { decodeFeedCursor, encodeFeedCursor } from '../../../src-main/core/sync/feed-cursor.ts';

let service: Service;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-cursor-'));
  service = await openService(dir, { runJobs: false, autoSync: false });
  // Five changes in the log: five trusted signers written (their triggers record the changes), stored under a company's key.
  const { key } = await createCompany(service.db, 'C');
  const insert = service.db.sqlite!.prepare(`INSERT INTO trusted_jwks (company_id, id, name, keys, created_at, updated_at) VALUES (?, ?, 'S', '[]', '', '')`);
  await service.db.tx(async () => {
    for (let i = 0; i < 5; i++) insert.run(key, `s${i}`);
  }, { origin: 'local' });
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const decode = (cursor: string, instance = 'i1', company = 'c1', secret = service.cursorSecret) =>
  decodeFeedCursor(secret, service.db, instance, company, cursor);

async function goneReason(fn: () => Promise<unknown>): Promise<string> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(410);
    return (err as ApiError).message;
  }
  throw new Error('expected 410');
}

describe('feed cursors', () => {
  it('round-trip a position of this instance and company', async () => {
    expect(await decode(encodeFeedCursor(service.cursorSecret, 'i1', 'c1', 3))).toBe(3);
    expect(await decode(encodeFeedCursor(service.cursorSecret, 'i1', 'c1', 0))).toBe(0);
  });

  it('are 410 when forged, foreign, for another company, or ahead of every change ever numbered', async () => {
    const good = encodeFeedCursor(service.cursorSecret, 'i1', 'c1', 3);
    expect(await goneReason(() => decode('x'))).toMatch(/not one of this feed/);
    expect(await goneReason(() => decode(`${good.split('.')[0]}.AAAA`))).toMatch(/not one of this instance/);
    expect(await goneReason(() => decode(good, 'i1', 'c1', randomBytes(32)))).toMatch(/not one of this instance/);
    expect(await goneReason(() => decode(good, 'i2'))).toMatch(/another instance/);
    expect(await goneReason(() => decode(good, 'i1', 'c2'))).toMatch(/another company/);
    expect(await goneReason(() => decode(encodeFeedCursor(service.cursorSecret, 'i1', 'c1', 6)))).toMatch(/restored from a backup/);
  });
});
