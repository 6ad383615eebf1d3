import { z } from 'zod';
import { faultOf } from '../../gobl/fault.ts';
import { documentReadyToSign, signEnvelope } from '../../gobl/sign/index.ts';
import { defineProvider } from '../provider.ts';
import { documentCheck } from './checked-document.ts';

/**
 * Closes an envelope: signs it as GOBL does (a compact ES256 JWS over {uuid, dig, iat} with the
 * instance's key), which seals the document (a signed entry's document can no longer change).
 * Only a document GOBL finds nothing wrong with is signed, and it needs its code first.
 */
export const siloClose = defineProvider({
  id: 'silo.close',
  description: "Signs the envelope as GOBL does (compact JWS ES256 over {uuid, dig, iat}) with this instance's key; refuses a document without a code or with faults",
  config: z.object({}).strict(),
  inline: true,
  engineBound: true,
  run: async (ctx) => {
    const entry = await ctx.entry();
    if (entry.signed) return { status: 'SKIP', code: 'already-signed', message: 'the envelope is already signed' };
    const { envelope } = entry;
    if (!documentReadyToSign(envelope.doc as Record<string, unknown>)) {
      return { status: 'KO', code: 'no-code', message: 'a document needs its code before it is signed (number it with sequence.enumerate)' };
    }
    // gobl.validate just before, in the same round, found these already (checked-document.ts).
    const faults = (await documentCheck(envelope)).map((f) => faultOf(f, 'silo.close'));
    if (faults.length > 0) {
      return { status: 'KO', code: 'invalid', message: `only a valid document is signed (${faults.length} faults)`, faults };
    }
    const keys = ctx.service.keys;
    const sealed = ctx.seal ? ctx.seal(envelope) : signEnvelope(envelope, { kid: keys.kid, sign: (payload) => keys.sign(payload) });
    return { status: 'OK', code: 'signed', apply: () => ctx.updateEntry({ envelope: sealed as typeof envelope }) };
  },
});
