// Who the company is on its own invoices: the supplier of the last invoice it issued here
// (signed by this desk), else of the newest invoice stored. A new invoice starts from it.
import type { ApiClient } from '../../api/client.ts';
import { documentOf, obj, type Json } from '../entry/gobl.ts';

const INVOICE = 'https://gobl.org/draft-0/bill/invoice';

export interface CompanyDefaults {
  supplier?: Json;
  currency?: string;
  /** the addons the company's invoices use (es-verifactu-v1…): the new one takes them too */
  addons?: unknown;
}

export async function companyDefaults(api: ApiClient): Promise<CompanyDefaults> {
  const page = await api.listEntries({ query: { limit: 100 } });
  const invoices = page.list.filter((e) => e.doc_schema === INVOICE && e.snippet.type !== 'credit-note');
  const chosen = invoices.find((e) => e.signed) ?? invoices[0];
  if (!chosen) return {};
  const doc = documentOf((await api.getEntry({ params: { id: chosen.id } })).data);
  if (!doc) return {};
  const supplier = obj(doc.supplier);
  return {
    supplier: supplier ? { ...supplier, uuid: undefined } : undefined,
    currency: typeof doc.currency === 'string' ? doc.currency : undefined,
    addons: doc.$addons,
  };
}
