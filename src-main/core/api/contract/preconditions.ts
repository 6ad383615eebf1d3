import { z } from 'zod';

/**
 * What an `If-Match` header asks for (RFC 9110 §13.1.1): any current version (`*`),
 * or one of the versions listed. A version is the entry's `version`, sent as an
 * entity tag (`"4"`; a weak `W/"4"` or a bare `4` are read the same way).
 */
export type IfMatch = { any: true } | { versions: number[] };

const TAG = /^(?:W\/)?"?([0-9]{1,15})"?$/;

export const ifMatch = z
  .string()
  .max(512)
  .transform((value, ctx): IfMatch => {
    const text = value.trim();
    if (text === '*') return { any: true };
    const versions: number[] = [];
    for (const part of text.split(',')) {
      const m = TAG.exec(part.trim());
      if (!m) {
        ctx.addIssue({ code: 'custom', message: 'must be * or the entry version as an entity tag, e.g. "4"' });
        return z.NEVER;
      }
      versions.push(Number(m[1]));
    }
    return { versions };
  })
  .meta({ description: 'the entry version the change is based on, e.g. "4"; a stale one is refused with 412 precondition-failed' });

/** The headers of an entry write that may be conditional: without If-Match it is not. */
export const entryPreconditionHeaders = z.object({ 'if-match': ifMatch.optional() });

/** Whether `version` satisfies the header; an absent resource satisfies none (not even `*`). */
export function ifMatchAccepts(header: IfMatch, version: number | undefined): boolean {
  if (version === undefined) return false;
  return 'any' in header || header.versions.includes(version);
}
