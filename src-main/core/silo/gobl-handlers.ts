// The stateless GOBL endpoints: build, correct and sign a document without storing it, through
// the same engine and the same fault reporting as entries.
import type { HandlersOf } from '../api/handler.ts';
import type { goblOperations } from '../api/contract/gobl.ts';
import { correctionOptionsSchema } from '../gobl/correct/index.ts';
import { runOffLoop } from '../gobl/engine-thread/index.ts';
import { BuildError } from '../gobl/engine/index.ts';
import { faultOf } from '../gobl/fault.ts';
import { admitDocument, buildFaulted } from './admit.ts';
import type { Envelope } from './document.ts';
import { optionsAt, pathsFor, refuseFaults } from './faults-error.ts';

type Json = Record<string, unknown>;

/** Builds, refusing (422) what GOBL refuses and, unless a draft is asked for, a result with faults. */
async function built(data: Json, draft: boolean, now: Date): Promise<Envelope> {
  const result = await buildFaulted(data as Envelope, { now });
  if (!result.built || (result.faults.length > 0 && !draft)) refuseFaults(result.faults, pathsFor(data), 'GOBL cannot build the document');
  return result.built;
}

export const goblHandlers: HandlersOf<typeof goblOperations> = {
  buildGobl: async (_ctx, { body }) => {
    const envelope = await built(body.data, body.draft === true, new Date());
    return { data: body.envelop ? envelope : envelope.doc };
  },
  correctGobl: async (_ctx, { body }) => {
    if (body.show_options) return { data: correctionOptionsSchema(body.data) };
    const now = new Date();
    let corrected: Json;
    try {
      corrected = (await runOffLoop({ op: 'correct', data: body.data, options: body.options ?? {}, now })).outcome as Json;
    } catch (err) {
      if (!(err instanceof BuildError)) throw err;
      refuseFaults(err.faults.map((f) => faultOf(f)), optionsAt('options'), 'GOBL cannot correct the document');
    }
    return { data: await built(corrected, false, now) };
  },
  signGobl: async (ctx, { body }) => {
    const { envelope } = await admitDocument(undefined, body.data, { sign: true, keys: ctx.service.keys });
    return { data: envelope };
  },
};
