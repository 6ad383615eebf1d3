import jsonpatch from 'fast-json-patch';
import mergePatch from 'json-merge-patch';
import { z } from 'zod';
import { jsonObject } from '../../api/contract/common.ts';
import { deriveCheckedDocument, toEnvelope, type Envelope } from '../../silo/document.ts';
import { defineProvider } from '../provider.ts';

const operation = z.object({
  op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
  path: z.string(),
  from: z.string().optional(),
  value: z.unknown().optional(),
});

/**
 * Changes the document with a merge patch or a JSON patch over the envelope
 * (paths like /doc/notes). The result must still validate; a signed envelope is
 * sealed and is refused.
 */
export const siloModify = defineProvider({
  id: 'silo.modify',
  description: 'Changes the document with an RFC 7396 merge patch or an RFC 6902 JSON patch (paths from the envelope: /doc/…)',
  config: z
    .object({ merge_patch: jsonObject.optional(), json_patch: z.array(operation).optional() })
    .strict()
    .refine((c) => (c.merge_patch === undefined) !== (c.json_patch === undefined), {
      message: 'give exactly one of merge_patch and json_patch',
    }),
  inline: true,
  engineBound: true,
  run: async (ctx, config) => {
    const entry = await ctx.entry();
    if (entry.signed) return { status: 'KO', code: 'signed', message: 'the envelope is signed; its document cannot change' };
    let changed: unknown;
    try {
      changed = config.merge_patch
        ? mergePatch.apply(structuredClone(entry.envelope), config.merge_patch)
        : jsonpatch.applyPatch(structuredClone(entry.envelope), config.json_patch as jsonpatch.Operation[], true, false).newDocument;
    } catch (err) {
      return { status: 'KO', code: 'patch-failed', message: `the patch cannot apply: ${(err as Error).message.split('\n')[0]}` };
    }
    const { envelope } = toEnvelope(ctx.job.silo_entry_id, changed as Record<string, unknown>);
    const doc = await deriveCheckedDocument(envelope as Envelope);
    if (doc.faults.length > 0) {
      return { status: 'KO', code: 'invalid', message: `the patched document is not valid (${doc.faults.length} faults)`, faults: doc.faults };
    }
    return { status: 'OK', apply: () => ctx.updateEntry({ envelope: doc.envelope }) };
  },
});
