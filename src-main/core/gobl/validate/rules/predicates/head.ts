// head: envelope header stamps and links.
import type { PredicateTable } from './table.ts';
import { isNil, list, obj, str } from '../values.ts';

const LINK_CATEGORIES = new Set(['format', 'portal', 'request', 'response', 'agreement', 'verification', 'attachment']);
const LINK_MIMES = new Set([
  'application/pdf',
  'image/jpeg',
  'image/png',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
  'text/html',
  'application/xml',
  'text/xml',
  'application/json',
]);

function noDuplicates(items: unknown, identity: (item: Record<string, any>) => string): boolean {
  const seen = new Set<string>();
  for (const item of list(items)) {
    const id = identity(obj(item) ?? {});
    if (seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}

export const head: PredicateTable = {
  'no duplicate stamps': (v) => noDuplicates(v, (s) => str(s.prv)),
  'no duplicate links': (v) => noDuplicates(v, (l) => `${str(l.category)}\u0000${str(l.key)}`),
  'valid or empty': (v) => str(v) === '' || LINK_CATEGORIES.has(str(v)),
  'valid or empty MIME': (v) => str(v) === '' || LINK_MIMES.has(str(v)),
  'no digest without MIME': (v) => {
    const link = obj(v);
    return !link || str(link.mime) !== '' || isNil(link.digest);
  },
};
