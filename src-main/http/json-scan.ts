// One pass over a JSON body's text, before it is parsed, to learn what plain JSON.parse cannot
// tell: how deep it nests, and where its numbers are written in a way a float would change
// (`10.50`, `1e5`, `-0`, integers beyond 2^53). A body without such numbers parses to the same
// values with plain JSON.parse as with the number-keeping reviver, at a fifth of the cost; one
// with them only needs the parts that hold them parsed again with the reviver (json-body.ts).
// The text is not checked here: JSON.parse does that, and what this pass reports of a text
// JSON.parse refuses is never used.

import { CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, floatKeepsText, numberEnd, OPEN_BRACE, OPEN_BRACKET, QUOTE, startsNumber, stringEnd } from '../core/api/json-tokens.ts';

/** A part of the body that holds a number a float would change: the root's member or element, or an element of its array. */
export interface JsonUnit {
  /** the position of the root's member (object) or element (array) */
  member: number;
  /** the element of that member's array, when the member's value is an array */
  element?: number;
  /** where the unit's value is written: text.slice(start, end) */
  start: number;
  end: number;
}

export interface JsonScan {
  /** the deepest `[`/`{` nesting; past `limit`, the scan stops and reports limit + 1 */
  depth: number;
  /** the root's value is itself such a number */
  rootNumber: boolean;
  /** the root's object keys by member position, as written (quotes included); empty for an array root */
  keys: Array<[number, number]>;
  units: JsonUnit[];
}

/** Scans JSON text (see the file's comment); stops early once it nests deeper than `limit`. */
export function scanJson(text: string, limit: number): JsonScan {
  const out: JsonScan = { depth: 0, rootNumber: false, keys: [], units: [] };
  let depth = 0;
  let rootIsObject = false;
  // the root's current member (level 1) and, inside an array member, its current element (level 2)
  let member = 0;
  let memberStart = 0;
  let memberFlagged = false;
  let expectKey = false;
  let level2 = false;
  let element = 0;
  let elementStart = 0;
  let elementFlagged = false;

  const closeMember = (end: number) => {
    if (memberFlagged) out.units.push({ member, start: memberStart, end });
    memberFlagged = false;
  };
  const closeElement = (end: number) => {
    if (elementFlagged) out.units.push({ member, element, start: elementStart, end });
    elementFlagged = false;
  };

  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) return out;
      if (depth === 1 && expectKey) {
        out.keys.push([i, end]);
        expectKey = false;
      }
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > out.depth) {
        out.depth = depth;
        if (depth > limit) return out;
      }
      if (depth === 1) {
        rootIsObject = c === OPEN_BRACE;
        expectKey = rootIsObject;
        memberStart = i + 1;
      } else if (depth === 2) {
        level2 = c === OPEN_BRACKET;
        element = 0;
        elementStart = i + 1;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 2 && level2) {
        closeElement(i);
        level2 = false;
      } else if (depth === 1) closeMember(i);
      depth--;
    } else if (c === COMMA) {
      if (depth === 1) {
        closeMember(i);
        member++;
        memberStart = i + 1;
        expectKey = rootIsObject;
      } else if (depth === 2 && level2) {
        closeElement(i);
        element++;
        elementStart = i + 1;
      }
    } else if (c === COLON) {
      // A member's value starts after its key's colon.
      if (depth === 1) memberStart = i + 1;
    } else if (startsNumber(c)) {
      const end = numberEnd(text, i, n);
      if (!floatKeepsText(text.slice(i, end))) {
        if (depth === 0) out.rootNumber = true;
        else if (depth >= 2 && level2) elementFlagged = true;
        else memberFlagged = true;
      }
      i = end - 1;
    }
  }
  return out;
}
