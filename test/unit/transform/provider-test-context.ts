import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { createCompany } from '../../../src-main/core/access/companies.ts';
import type { Ctx } from '../../../src-main/core/api/handler.ts';
import { openService, type Service, type ServiceConfig } from '../../../src-main/core/service.ts';
import { createEntry } from '../../../src-main/core/silo/entries.ts';
import type { StepContext } from '../../../src-main/core/transform/provider.ts';
import { makeStepContext } from '../../../src-main/core/transform/step-context.ts';

export interface ProviderTestBed {
  service: Service;
  dataDir: string;
  ctx: Ctx;
  /** a new entry holding `data` (an envelope gets a fresh head.uuid, so one fixture can fill many entries) */
  entry(data: Record<string, unknown>): Promise<string>;
  /** the context a step of a job on `entryId` gets; `signal` defaults to one never aborted */
  stepContext(entryId: string, options?: { jobId?: string; stepId?: string; signal?: AbortSignal; args?: Record<string, unknown>; key?: string }): StepContext;
  close(): Promise<void>;
}

/** A real service on a temp dir (job engine off), a company, and step contexts as the engine builds them. */
export async function openProviderTestBed(config: Partial<ServiceConfig> = {}): Promise<ProviderTestBed> {
  const dataDir = mkdtempSync(join(tmpdir(), 'silodesk-provider-'));
  const service = await openService(dataDir, { runJobs: false, ...config });
  const company = await createCompany(service.db, 'Test company');
  const ctx: Ctx = { service, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' } };
  return {
    service,
    dataDir,
    ctx,
    entry: async (data) => {
      const fresh = structuredClone(data);
      // GOBL wants a head uuid with a timestamp (v1 or v7)
      if (typeof fresh.head === 'object' && fresh.head !== null) (fresh.head as { uuid: string }).uuid = uuidv7();
      return (await createEntry(ctx, undefined, { data: fresh, allow_invalid: true })).id;
    },
    stepContext: (entryId, options = {}) =>
      makeStepContext(
        ctx,
        {
          id: options.jobId ?? uuidv4(),
          key: options.key ?? null,
          args: options.args ?? {},
          tags: [],
          silo_entry_id: entryId,
          workflow_id: uuidv4(),
        },
        { id: options.stepId ?? uuidv4(), name: 'step under test' },
        1,
        options.signal ?? new AbortController().signal,
      ),
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
