// The document schemas Silodesk validates, by `$schema` URI. Any other GOBL
// document type (orders, deliveries, statuses...) is stored as it is, with
// only its envelope checked.
import type { z } from 'zod';
import { INVOICE_SCHEMA, MESSAGE_SCHEMA, PARTY_SCHEMA, PAYMENT_SCHEMA } from '../doc-types.ts';
import { invoice } from './invoice.ts';
import { message } from './message.ts';
import { party } from './org.ts';
import { payment } from './payment.ts';

export { envelope } from './head.ts';
export { invoice, message, party, payment };

export const docSchemaByUri: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  [INVOICE_SCHEMA, invoice],
  [PAYMENT_SCHEMA, payment],
  [PARTY_SCHEMA, party],
  [MESSAGE_SCHEMA, message],
]);
