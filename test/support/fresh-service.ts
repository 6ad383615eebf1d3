import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDefaultCompany } from '../../src-main/core/access/bootstrap.ts';
import type { Ctx } from '../../src-main/core/api/handler.ts';
import type { CompanyKey } from '../../src-main/core/access/company-key.ts';
import { openService, type Service } from '../../src-main/core/service.ts';

/**
 * Runs `work` on a service of its own in a fresh data dir (no jobs, no sync), as the owner
 * of its default company; closes it and removes the dir after. What the migration tests
 * start from: a database at today's schema that they take back to before a migration.
 */
export async function withFreshService<T>(work: (ctx: Ctx & { service: Service; caller: { companyKey: CompanyKey; companyId: string } }) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-fresh-'));
  const service = await openService(dir, { runJobs: false, autoSync: false });
  try {
    const company = await ensureDefaultCompany(service.db);
    return await work({ service, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' } });
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
