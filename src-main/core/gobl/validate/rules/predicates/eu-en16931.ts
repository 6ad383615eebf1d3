// eu-en16931 addon (EN 16931-1:2017): exemption notes, reasons for allowances and charges,
// payment terms when due, inbox schemes, and the UNTDID tax category of combos.
import type { PredicateTable } from './table.ts';
import { parseDec } from '../decimal.ts';
import { extCode, hasExt, isNil, list, obj, str } from '../values.ts';
import type { Check } from '../model.ts';

const EXEMPT_CATEGORIES = new Set(['E', 'AE', 'K', 'G', 'O']);

// Exempt UNTDID categories in the VAT totals without a VATEX code each need a tax note with
// that category.
function exemptionNotes(v: unknown): boolean {
  const inv = obj(v);
  const totals = obj(inv?.totals);
  if (!inv || !totals || !obj(totals.taxes)) return true;
  const needNote = new Set<string>();
  for (const cat of list(obj(totals.taxes)?.categories)) {
    if (str(obj(cat)?.code) !== 'VAT') continue;
    for (const rate of list(obj(cat)?.rates)) {
      const taxCat = extCode(obj(rate)?.ext, 'untdid-tax-category');
      if (EXEMPT_CATEGORIES.has(taxCat) && extCode(obj(rate)?.ext, 'cef-vatex') === '') needNote.add(taxCat);
    }
  }
  if (needNote.size === 0) return true;
  const noted = new Set(list(obj(inv.tax)?.notes).map((n) => extCode(obj(n)?.ext, 'untdid-tax-category')));
  return [...needNote].every((c) => noted.has(c));
}

function nonZero(amount: unknown): boolean {
  const d = parseDec(amount);
  return d !== undefined && d.m !== 0n;
}

function isDueStandardInvoice(v: unknown): boolean {
  const inv = obj(v);
  const totals = obj(inv?.totals);
  if (!inv || str(inv.type) !== 'standard' || !totals) return false;
  return isNil(totals.due) ? nonZero(totals.payable) : nonZero(totals.due);
}

function reasonOr(extKey: string): Check {
  return (v) => {
    const x = obj(v);
    return !x || str(x.reason) !== '' || hasExt(x.ext, extKey);
  };
}

const category = (v: unknown): string => str(obj(v)?.cat);

export const euEn16931: PredicateTable = {
  'exemption notes': exemptionNotes,
  'is due standard invoice': isDueStandardInvoice,
  'reason or allowance': reasonOr('untdid-allowance'),
  'reason or charge': reasonOr('untdid-charge'),
  'has due dates or notes': (v) => {
    const t = obj(v);
    return !t || list(t.due_dates).length > 0 || str(t.notes) !== '';
  },
  'scheme required with code': (v) => {
    const i = obj(v);
    return !i || str(i.code) === '' || str(i.scheme) !== '';
  },
  'code required with scheme': (v) => {
    const i = obj(v);
    return !i || str(i.scheme) === '' || str(i.code) !== '';
  },
  'is VAT': (v) => obj(v) !== undefined && category(v) === 'VAT',
  'is IGIC': (v) => obj(v) !== undefined && category(v) === 'IGIC',
  'is IPSI': (v) => obj(v) !== undefined && category(v) === 'IPSI',
  'is outside scope': (v) => obj(v) !== undefined && !['VAT', 'IGIC', 'IPSI'].includes(category(v)),
  'is non-exempt': (v) => obj(v) !== undefined && ['S', 'Z', 'L', 'M'].includes(extCode(obj(v)?.ext, 'untdid-tax-category')),
};
