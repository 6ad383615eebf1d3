import { z } from 'zod';
import { defineProvider } from '../provider.ts';

/** Reads a value by JSON pointer-ish dotted path from the envelope: `doc.totals.payable`, `doc.lines.0.sum`. */
export function valueAt(root: unknown, path: string): unknown {
  let here: unknown = root;
  for (const part of path.split('.').filter(Boolean)) {
    if (here === null || typeof here !== 'object') return undefined;
    here = Array.isArray(here) ? here[Number(part)] : (here as Record<string, unknown>)[part];
  }
  return here;
}

/** A condition for routing: answers OK with code `true` or `false`, for `next` entries to match on. */
export const siloIf = defineProvider({
  id: 'silo.if',
  description: 'Tests a value of the envelope (path like doc.type) and answers OK with code "true" or "false" for routing',
  config: z
    .object({
      path: z.string().min(1).max(300).regex(/^[A-Za-z0-9_$.-]+$/, 'a dotted path like doc.type'),
      equals: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
      exists: z.boolean().optional(),
    })
    .strict()
    .refine((c) => (c.equals === undefined) !== (c.exists === undefined), { message: 'give exactly one of equals and exists' }),
  inline: true,
  run: async (ctx, config) => {
    const value = valueAt((await ctx.entry()).envelope, config.path);
    const holds = config.exists !== undefined ? (value !== undefined) === config.exists : value === config.equals;
    return { status: 'OK', code: holds ? 'true' : 'false', message: `${config.path} ${holds ? 'matches' : 'does not match'}` };
  },
});
