import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDefaultCompany } from '../../../src-main/core/access/bootstrap.ts';
import type { Ctx } from '../../../src-main/core/api/handler.ts';
import { issueEntry } from '../../../src-main/core/sequence/issue.ts';
import { putSeries } from '../../../src-main/core/sequence/series.ts';
import { verifySeries } from '../../../src-main/core/sequence/verify.ts';
import { openService, type Service } from '../../../src-main/core/service.ts';
import { turnsDuring } from '../../support/event-loop-turns.ts';

let dataDir: string;
let service: Service;
let ctx: Ctx;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'silodesk-verify-'));
  service = await openService(dataDir);
  const company = await ensureDefaultCompany(service.db);
  ctx = { service, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' } };
});
afterAll(async () => {
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('verifySeries beside numbers being issued', () => {
  it('reads the head and the entries up to it together: a first entry issued meanwhile is not taken for tampering', async () => {
    const series = await putSeries(ctx, uuidv4(), { name: 'Race', description: '', code: 'R', prefix: 'R-', padding: 0, suffix: '', start: 1 });
    // Both start before either is awaited: the issue's transaction is under way while verify reads.
    const [during, issued] = await Promise.all([verifySeries(ctx, series.id), issueEntry(ctx, series.id, uuidv4(), {})]);
    expect(during).toEqual({ valid: true, count: 0 });
    expect(issued.idx).toBe(1);
    expect(await verifySeries(ctx, series.id)).toEqual({ valid: true, count: 1 });
  });
});

describe('verifySeries of a long series', () => {
  it('lets other work run while it checks, and still finds every entry', async () => {
    const series = await putSeries(ctx, uuidv4(), { name: 'Long', description: '', code: 'L', prefix: 'L-', padding: 0, suffix: '', start: 1 });
    for (let i = 0; i < 1_200; i++) await issueEntry(ctx, series.id, uuidv4(), {});
    const { result, turns, ms } = await turnsDuring(() => verifySeries(ctx, series.id));
    expect(result).toEqual({ valid: true, count: 1_200 });
    // a turn at least every 20 ms of checking (about 120 ms here); checked a page at a time, it gave only 2
    expect(turns, `${turns} turns in ${ms.toFixed(0)} ms`).toBeGreaterThanOrEqual(Math.max(4, Math.floor(ms / 30)));
  });
});
