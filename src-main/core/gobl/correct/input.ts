// A correction starts from an envelope (GOBL's `correct` endpoint only takes envelopes, because
// some regimes need stamps from the original's head) or, for local use, a bare document.
import type { Node } from '../engine/types.ts';

const ENVELOPE_SCHEMA = 'https://gobl.org/draft-0/envelope';

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isEnvelope(input: Node): boolean {
  return input.$schema === ENVELOPE_SCHEMA && isObject(input.doc);
}

export function documentOf(input: Node): Node {
  return isEnvelope(input) ? input.doc : input;
}

export interface Stamp { prv: string; val: string }

export function isStamp(value: unknown): value is Stamp {
  return isObject(value) && typeof value.prv === 'string' && typeof value.val === 'string';
}

/** Stamps of the original envelope's head: GOBL offers them to the correction options. */
export function headStampsOf(input: Node): Stamp[] {
  if (!isEnvelope(input) || !isObject(input.head) || !Array.isArray(input.head.stamps)) return [];
  return input.head.stamps.filter(isStamp);
}
