import { UUID_PATTERN } from './uuid-pattern.ts';

/** A UUID the document refers to, and where: e.g. {uuid, context: 'preceding'} for a credit note. */
export type Mention = { uuid: string; context: string };

/**
 * Every UUID-valued string inside a document except its own top-level `uuid`.
 * `context` is the path family it sits under: object keys joined with '.',
 * array indices dropped and a final `uuid` key dropped, so
 * `preceding[0].uuid` → 'preceding' and `lines[3].item.uuid` → 'lines.item'.
 * Identical (uuid, context) pairs are reported once.
 */
export function mentionsOf(doc: unknown): Mention[] {
  const found = new Map<string, Mention>();
  const keys: string[] = [];

  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.length !== 36 || !UUID_PATTERN.test(value)) return;
      // The document's own id is what others mention, not a mention itself.
      if (keys.length === 1 && keys[0] === 'uuid') return;
      const context = (keys.at(-1) === 'uuid' ? keys.slice(0, -1) : keys).join('.');
      const uuid = value.toLowerCase();
      const id = `${uuid} ${context}`;
      if (!found.has(id)) found.set(id, { uuid, context });
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        keys.push(key);
        visit((value as Record<string, unknown>)[key]);
        keys.pop();
      }
    }
  };

  visit(doc);
  return [...found.values()];
}
