import type { Dialect } from '../db/engine.ts';
import { billingTitle } from '../gobl/snippet.ts';

/**
 * An entry's snippet as its row stores it (entries.snippet). On SQLite, from migration
 * 0029, a JSON array of its members by position: a format number, then each member of
 * FIELDS in order, `null` where the snippet has none. A member that only repeats another
 * is stored as a marker: 1 for "the same as its twin" (TWINS), and for the title 1 or 2,
 * "the title an invoice or a payment with these members has" (billingTitle). Names and
 * repeats were two thirds of the 488 bytes an average snippet took; packed it is about
 * 170. Rows written before keep the object, and both forms read the same. PostgreSQL
 * keeps the object, as its own functions read members by name.
 */
const FORMAT_1 = 1;

/** Every member a stored snippet has (storedSnippetOf), in the order it makes them. */
const FIELDS = [
  'title', 'type', 'series', 'code', 'issue_date', 'due_date', 'supplier', 'customer', 'currency', 'total', 'sum', 'net', 'tax',
  'supplier_uuid', 'supplier_name', 'supplier_alias', 'supplier_country', 'supplier_tax_code',
  'customer_uuid', 'customer_name', 'customer_alias', 'customer_country', 'customer_tax_code',
  'total_with_tax', 'payable', 'p_series', 'p_code', 'p_uuid',
  'name', 'alias', 'country', 'tax_code',
] as const;

type Field = (typeof FIELDS)[number];
const KNOWN: ReadonlySet<string> = new Set(FIELDS);

/** Members that most often say what another already says: a party's name is what the desk shows, payable is the total. */
const TWINS: Readonly<Partial<Record<Field, Field>>> = {
  supplier_name: 'supplier',
  customer_name: 'customer',
  total_with_tax: 'total',
  payable: 'total',
  sum: 'net',
};

const SAME_AS_TWIN = 1;
const TITLE_MARKERS = { 1: 'invoice', 2: 'payment' } as const;

/** The members SQL reads (sums, their triggers): never stored as a marker, so a path reads the value itself. */
export type SnippetSqlField = 'type' | 'currency' | 'total' | 'net' | 'tax' | 'issue_date';

/** The text an entry row of `dialect` stores for `snippet`. */
export function storedSnippetText(snippet: Record<string, string>, dialect: Dialect): string {
  if (dialect !== 'sqlite') return JSON.stringify(snippet);
  const packed = packSnippet(snippet);
  return JSON.stringify(packed ?? snippet);
}

/** The snippet a row stores, whichever form it is in. */
export function snippetFromStored(text: string): Record<string, string> {
  const stored: unknown = JSON.parse(text);
  if (!Array.isArray(stored)) return stored as Record<string, string>;
  if (stored[0] !== FORMAT_1) throw new Error(`a stored snippet of unknown format ${String(stored[0])}`);
  const raw = (field: Field): unknown => stored[FIELDS.indexOf(field) + 1];
  const member = (field: Field): string | undefined => {
    const value = raw(field);
    return typeof value === 'string' ? value : undefined;
  };
  const out: Record<string, string> = {};
  for (const [i, field] of FIELDS.entries()) {
    const value: unknown = stored[i + 1];
    if (typeof value === 'string') out[field] = value;
    else if (field === 'title' && (value === 1 || value === 2)) {
      out.title = billingTitle(TITLE_MARKERS[value], { type: member('type'), series: member('series'), code: member('code'), supplier: member('supplier'), customer: member('customer') });
    } else if (value === SAME_AS_TWIN && TWINS[field]) {
      const twin = member(TWINS[field]);
      if (twin !== undefined) out[field] = twin;
    }
  }
  return out;
}

/**
 * SQLite's expression for one member of a stored snippet in `column`, in either form
 * (the object's by name, the array's by position): its JSON value, as json_extract gives it.
 */
export function snippetFieldSql(column: string, field: SnippetSqlField): string {
  return `json_extract(${column}, CASE WHEN substr(${column}, 1, 1) = '[' THEN '$[${FIELDS.indexOf(field) + 1}]' ELSE '$.${field}' END)`;
}

/** The array form, or undefined for a snippet it cannot hold (a member it does not know, a value that is no string). */
function packSnippet(snippet: Record<string, string>): unknown[] | undefined {
  for (const [key, value] of Object.entries(snippet)) if (!KNOWN.has(key) || typeof value !== 'string') return undefined;
  const parts = { type: snippet.type, series: snippet.series, code: snippet.code, supplier: snippet.supplier, customer: snippet.customer };
  const out: unknown[] = [FORMAT_1];
  for (const field of FIELDS) {
    const value = snippet[field];
    const twin = TWINS[field];
    if (value === undefined) out.push(null);
    else if (field === 'title' && value === billingTitle('invoice', parts)) out.push(1);
    else if (field === 'title' && value === billingTitle('payment', parts)) out.push(2);
    else if (twin && snippet[twin] === value) out.push(SAME_AS_TWIN);
    else out.push(value);
  }
  while (out.at(-1) === null) out.pop();
  return out;
}
