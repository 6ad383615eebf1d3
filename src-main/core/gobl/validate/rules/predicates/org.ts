// org: identities, inboxes and registrations.
import type { PredicateTable } from './table.ts';
import { isKnownCurrency } from '../../../defs/index.ts';
import { obj, str } from '../values.ts';

export const org: PredicateTable = {
  'key and type must not be used together': (v) => {
    const id = obj(v);
    return id !== undefined && (str(id.key) === '' || str(id.type) === '');
  },
  'one of code, url, email required': (v) => {
    const i = obj(v);
    return i !== undefined && (str(i.code) !== '' || str(i.url) !== '' || str(i.email) !== '');
  },
  'url exclusive': (v) => {
    const i = obj(v);
    return i !== undefined && (str(i.url) === '' || (str(i.code) === '' && str(i.email) === ''));
  },
  'email exclusive': (v) => {
    const i = obj(v);
    return i !== undefined && (str(i.email) === '' || (str(i.code) === '' && str(i.url) === ''));
  },
  'valid currency code': (v) => typeof v === 'string' && isKnownCurrency(v),
};
