import type { HandlersOf } from '../api/handler.ts';
import type { workspaceOperations } from '../api/contract/workspace.ts';
import { requireCompany, type Company } from './companies.ts';

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

export const workspaceHandlers: HandlersOf<typeof workspaceOperations> = {
  getWorkspace: (ctx) => {
    const company = requireCompany(ctx.service.store, ctx.caller.companyId);
    return {
      id: company.id,
      name: company.name,
      slug: slugOf(company),
      // A desk holds real books: there is no sandbox mode to be in.
      sandbox: false,
      created_at: company.created_at,
      updated_at: company.updated_at,
    };
  },
};
