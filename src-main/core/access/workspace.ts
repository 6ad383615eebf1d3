import type { Ctx, HandlersOf } from '../api/handler.ts';
import type { workspaceOperations } from '../api/contract/workspace.ts';
import { listCompanies, requireCompany, type Company } from './companies.ts';

/** "Müller & Söhne GmbH" → "muller-sohne-gmbh"; a name with no letters or digits keeps the id's first block. */
export function slugOf(company: Company): string {
  const slug = company.name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug || company.id.slice(0, 8);
}

function workspaceOf(company: Company) {
  return {
    id: company.id,
    name: company.name,
    slug: slugOf(company),
    // A desk holds real books: there is no sandbox mode to be in.
    sandbox: false,
    created_at: company.created_at,
    updated_at: company.updated_at,
  };
}

/**
 * The one organization offline: this install, with the companies the caller may act
 * for (every one for the install's owner, else its own). Its dates span its companies'.
 */
async function installOrg(ctx: Ctx) {
  const { db } = ctx.service;
  const companies = ctx.caller.install ? await listCompanies(db) : [await requireCompany(db, ctx.caller.companyId)];
  const dates = (key: 'created_at' | 'updated_at') => companies.map((c) => c[key]).sort();
  return {
    id: ctx.service.instanceId,
    created_at: dates('created_at')[0]!,
    updated_at: dates('updated_at').at(-1)!,
    name: 'Silodesk',
    workspaces: companies.map(workspaceOf),
  };
}

export const workspaceHandlers: HandlersOf<typeof workspaceOperations> = {
  listOrgs: async (ctx) => [await installOrg(ctx)],
  getWorkspace: async (ctx) => workspaceOf(await requireCompany(ctx.service.db, ctx.caller.companyId)),
};
