// head.from / head.to: the endpoints a document travels between, as GOBL's envelope fills them in
// when they are empty. Who sends depends on the document type (a purchase order flows from the
// customer, a self-billed invoice too, a delivery receipt from the receiver…).
import type { Node } from './types.ts';

function firstEndpoint(party: unknown): string | undefined {
  const endpoints = (party as Node | undefined)?.endpoints;
  if (!Array.isArray(endpoints)) return undefined;
  const first = endpoints.find((e) => e !== null && typeof e === 'object');
  return typeof first?.uri === 'string' && first.uri !== '' ? first.uri : undefined;
}

function hasTag(doc: Node, tag: string): boolean {
  return Array.isArray(doc.$tags) && doc.$tags.includes(tag);
}

/** [sender, receiver] endpoint URIs of a document, either possibly undefined. */
function endpointsOf(doc: Node, rootType: string): [string | undefined, string | undefined] {
  const supplier = firstEndpoint(doc.supplier);
  const customer = firstEndpoint(doc.customer);
  switch (rootType) {
    case 'bill.Invoice':
      return hasTag(doc, 'self-billed') ? [customer, supplier] : [supplier, customer];
    case 'bill.Order':
      return doc.type === 'purchase' ? [customer, supplier] : [supplier, customer];
    case 'bill.Payment':
      return doc.type === 'advice' ? [customer, supplier] : [supplier, customer];
    case 'bill.Delivery': {
      const despatcher = firstEndpoint(doc.despatcher) ?? supplier;
      const receiver = firstEndpoint(doc.receiver) ?? customer;
      return doc.type === 'receipt' ? [receiver, despatcher] : [despatcher, receiver];
    }
    case 'bill.Status':
      if (doc.type === 'response') return [customer, supplier];
      if (doc.type === 'update') return [supplier, customer];
      return [undefined, undefined];
    default:
      return [undefined, undefined];
  }
}

/** Fills head.from and head.to from the document where the head leaves them empty. */
export function fillRouting(head: Node, doc: Node, rootType: string): void {
  const [from, to] = endpointsOf(doc, rootType);
  if (!head.from && from) head.from = from;
  if (!head.to && to) head.to = to;
}
