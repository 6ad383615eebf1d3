import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, type StoredCompany } from '../../src-main/core/access/companies.ts';
import { operations } from '../../src-main/core/api/contract/index.ts';
import { ApiError } from '../../src-main/core/api/errors.ts';
import { invokeOperation } from '../../src-main/core/api/invoke.ts';
import type { OperationContract } from '../../src-main/core/api/operation.ts';
import { CALLER_KINDS, mayCall, permissionsMarkdown } from '../../src-main/core/api/permissions.ts';
import { openService, type Service } from '../../src-main/core/service.ts';

let service: Service;
let dir: string;
let company: StoredCompany;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'silodesk-perm-'));
  service = await openService(dir, { runJobs: false });
  company = await createCompany(service.db, 'Acme');
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Whatever an operation answers with empty input, it must not be `forbidden` exactly when the table allows the caller. */
async function forbidden(name: string, kind: 'owner' | 'user' | 'app'): Promise<boolean> {
  try {
    await invokeOperation({ service, caller: { companyKey: company.key, companyId: company.id, kind, tokenId: 'perm-test' } }, name, { params: {}, query: {}, body: {} });
    return false;
  } catch (err) {
    return err instanceof ApiError && err.key === 'forbidden';
  }
}

describe('permissions', () => {
  const entries = Object.entries(operations as Record<string, OperationContract>);

  it('every operation declares who may call it', () => {
    for (const [name, op] of entries) {
      expect(op.access === 'public' || (Array.isArray(op.access) && op.access.length > 0), name).toBe(true);
    }
  });

  for (const [name, op] of entries) {
    for (const kind of CALLER_KINDS) {
      const allowed = mayCall(op, kind);
      it(`${name}: ${kind} is ${allowed ? 'allowed' : 'refused'}`, async () => {
        expect(await forbidden(name, kind)).toBe(!allowed);
      });
    }
  }

  it('README shows the table exactly as the registry defines it', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const between = /<!-- permissions:start -->\n([\s\S]*?)\n<!-- permissions:end -->/.exec(readme);
    expect(between, 'README has the permissions markers').not.toBeNull();
    expect(between![1]).toBe(permissionsMarkdown());
  });
});
