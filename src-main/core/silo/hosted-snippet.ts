import type { z } from 'zod';
import type { snippetSchema } from '../api/contract/silo.ts';
import { isEnvelope, snippetOf } from '../gobl/index.ts';
import { docTypeOf } from '../gobl/doc-types.ts';

type Json = Record<string, unknown>;

/**
 * An entry's `snippet` as the hosted service shapes it (contract: snippetSchema): for an
 * invoice or payment `{uuid, type, series, code, currency, issue_date, supplier: {…},
 * customer: {…}, total, tax, total_with_tax, payable, p_series, p_code, p_uuid}` (GOBL's
 * totals by their GOBL names: `total` is before tax), for a party `{uuid, name, alias,
 * country, tax_code}`, for a message `{uuid, title}`. The desk adds `title` to every kind,
 * and `due_date` and `sum` where the document has them.
 */
export type HostedSnippet = z.output<typeof snippetSchema>;
/** A party as the hosted service's snippets carry it (its Go client's `snippets.OrgParty`). */
export type SnippetParty = NonNullable<HostedSnippet['supplier']>;

const PARTY_FIELDS = ['uuid', 'name', 'alias', 'country', 'tax_code'] as const;

/**
 * What an entry row stores as its snippet: the desk's flat summary (snippetOf, which
 * the list's columns, sorts and sums read) plus the flat members the hosted shape
 * needs beyond it (`supplier_tax_code`, `payable`, `p_code`…). Strings only; the document's
 * own uuid is the entry's `doc_uuid` column.
 */
export function storedSnippetOf(envelope: unknown): Record<string, string> {
  return { ...snippetOf(envelope), ...hostedExtrasOf(envelope) };
}

function hostedExtrasOf(envelope: unknown): Record<string, string> {
  const doc = asObject(isEnvelope(envelope) ? envelope.doc : envelope) ?? {};
  const out: Record<string, string> = {};
  const put = (name: string, value: unknown) => {
    if (typeof value === 'string' && value.trim() !== '') out[name] = value;
  };
  switch (docTypeOf(doc.$schema)) {
    case 'bill/invoice':
    case 'bill/payment': {
      for (const role of ['supplier', 'customer'] as const) {
        const party = partyOf(asObject(doc[role]));
        for (const field of PARTY_FIELDS) put(`${role}_${field}`, party[field]);
      }
      const totals = asObject(doc.totals);
      if (totals) {
        put('total_with_tax', totals.total_with_tax);
        put('payable', totals.payable);
      }
      const preceding = Array.isArray(doc.preceding) ? asObject(doc.preceding[0]) : undefined;
      if (preceding) {
        put('p_series', preceding.series);
        put('p_code', preceding.code);
        put('p_uuid', preceding.uuid);
      }
      break;
    }
    case 'org/party': {
      const party = partyOf(doc);
      for (const field of PARTY_FIELDS) if (field !== 'uuid') put(field, party[field]);
      break;
    }
  }
  return out;
}

function partyOf(party: Json | undefined): SnippetParty {
  if (!party) return {};
  const taxId = asObject(party.tax_id);
  return {
    uuid: str(party.uuid),
    name: str(party.name),
    alias: str(party.alias),
    country: str(taxId?.country),
    tax_code: str(taxId?.code),
  };
}

/**
 * The hosted shape of a stored snippet. A row stored before the hosted members were
 * kept still answers its parties by the name the desk summarised.
 */
export function hostedSnippet(docSchema: string, flat: Record<string, string>, docUuid: string | null): HostedSnippet {
  const uuid = docUuid !== null ? { uuid: docUuid } : {};
  const pick = (...names: string[]) => {
    const out: Record<string, string> = {};
    for (const name of names) if (flat[name] !== undefined) out[name] = flat[name];
    return out;
  };
  switch (docTypeOf(docSchema)) {
    case 'bill/invoice':
    case 'bill/payment': {
      const isInvoice = docTypeOf(docSchema) === 'bill/invoice';
      const out: HostedSnippet = { ...pick('title'), ...uuid, ...pick('type', 'series', 'code', 'currency', 'issue_date', 'due_date', 'sum', 'tax', 'total_with_tax', 'payable', 'p_series', 'p_code', 'p_uuid') };
      const supplier = partyIn(flat, 'supplier');
      const customer = partyIn(flat, 'customer');
      if (supplier) out.supplier = supplier;
      if (customer) out.customer = customer;
      // GOBL's totals.total (before tax) for an invoice; a payment's own total.
      const total = isInvoice ? flat.net : flat.total;
      if (total !== undefined) out.total = total;
      // Rows stored before `payable` was kept: the desk's total was payable, else total with tax.
      if (isInvoice && out.payable === undefined && out.total_with_tax === undefined && flat.total !== undefined) out.payable = flat.total;
      return out;
    }
    case 'org/party':
      return { ...pick('title'), ...uuid, ...pick('name', 'alias', 'country', 'tax_code') };
    default:
      return { ...pick('title'), ...uuid };
  }
}

function partyIn(flat: Record<string, string>, role: 'supplier' | 'customer'): SnippetParty | undefined {
  const party: SnippetParty = {};
  for (const field of PARTY_FIELDS) {
    const value = flat[`${role}_${field}`];
    if (value !== undefined) party[field] = value;
  }
  // A party known only by the summary's display name (no hosted members stored yet).
  if (party.name === undefined && party.alias === undefined && flat[role] !== undefined && Object.keys(party).length === 0) party.name = flat[role];
  return Object.keys(party).length > 0 ? party : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function asObject(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}
