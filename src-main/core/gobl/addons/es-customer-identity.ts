// Shared by the Spanish addons (SII, TicketBAI, VERI*FACTU): a customer without a Spanish tax ID
// code is identified by its first identity, whose key maps to the AEAT identity-type code.
import type { Node } from '../engine/types.ts';
import { extMerge } from './ext.ts';
import { own, str } from './lookup.ts';

const IDENTITY_TYPE_CODES: Readonly<Record<string, string>> = {
  passport: '03',
  foreign: '04',
  resident: '05',
  other: '06',
};

export function setCustomerIdentityType(customer: Node | undefined, extKey: string): void {
  if (!customer || typeof customer !== 'object') return;
  const taxId = customer.tax_id;
  if (taxId && taxId.country === 'ES' && str(taxId.code) !== '') return;
  const first = Array.isArray(customer.identities) ? customer.identities[0] : undefined;
  if (!first || typeof first !== 'object') return;
  const code = own(IDENTITY_TYPE_CODES, first.key);
  if (code) extMerge(first, { [extKey]: code });
}
