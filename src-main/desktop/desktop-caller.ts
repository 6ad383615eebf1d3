import { requireCompany, type StoredCompany } from '../core/access/companies.ts';
import type { Caller } from '../core/access/tokens.ts';
import type { Db } from '../core/db/engine.ts';

/**
 * Who the desktop window acts as: the install's owner (it manages every company),
 * for the company chosen in its company switcher (the first company when none is
 * chosen). An unknown company is a 404, never a silent fallback to another
 * company's data.
 */
export async function desktopCaller(db: Db, defaultCompany: StoredCompany, companyId?: string): Promise<Caller> {
  const company = companyId ? await requireCompany(db, companyId) : defaultCompany;
  return { companyKey: company.key, companyId: company.id, kind: 'owner', install: true };
}
