import { z } from 'zod';
import { digestOf, INVOICE_SCHEMA, validateEnvelope } from '../../gobl/index.ts';
import { defineProvider } from '../provider.ts';

/**
 * Closes an envelope: signs `{uuid, dig}` with the instance's ES256 key as GOBL
 * does, which seals the document (a signed entry's document can no longer change).
 * Only a valid document is signed, and an invoice needs its code first.
 */
export const siloClose = defineProvider({
  id: 'silo.close',
  description: "Signs the envelope (compact JWS ES256 over {uuid, dig}) with this instance's key; refuses an invoice without a code",
  config: z.object({}).strict(),
  run: (ctx) => {
    const entry = ctx.entry();
    if (entry.signed) return { status: 'SKIP', code: 'already-signed', message: 'the envelope is already signed' };
    const { envelope } = entry;
    const doc = envelope.doc as Record<string, unknown>;
    if (doc.$schema === INVOICE_SCHEMA && (typeof doc.code !== 'string' || doc.code === '')) {
      return { status: 'KO', code: 'no-code', message: 'an invoice needs a code before it is signed (number it with sequence.enumerate)' };
    }
    const faults = validateEnvelope(envelope);
    if (faults.length > 0) {
      return { status: 'KO', code: 'invalid', message: `only a valid document is signed (${faults.length} faults)`, faults };
    }
    const dig = digestOf(doc);
    const sig = ctx.service.keys.sign({ uuid: envelope.head.uuid, dig });
    const sealed = { ...envelope, head: { ...envelope.head, dig }, sigs: [sig] };
    return { status: 'OK', code: 'signed', apply: () => ctx.updateEntry({ envelope: sealed }) };
  },
});
