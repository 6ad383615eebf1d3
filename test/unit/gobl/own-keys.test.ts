// The walkers that list a plain object's keys with for…in still read only own keys of any
// other object, as Object.keys does.
import { describe, expect, it } from 'vitest';
import { canonicalSha256 } from '../../../src-main/core/gobl/canonical-bytes.ts';
import { canonicalJson } from '../../../src-main/core/gobl/canonical.ts';
import { isSameJson } from '../../../src-main/core/gobl/engine/same-json.ts';
import { prepareInput } from '../../../src-main/core/gobl/shape/parse.ts';
import { createHash } from 'node:crypto';

// Objects that inherit enumerable keys: for…in would list `name` and `alias` too.
const PROTO = { name: 'inherited', alias: 'inherited' };
function withInherited<T extends object>(own: T): T {
  return Object.assign(Object.create(PROTO), own);
}

describe('objects that are not plain', () => {
  it('are prepared from their own keys only', () => {
    const party = prepareInput(withInherited({ alias: 'Own' }), 'org.Party', { basePath: [] });
    expect(party).toEqual({ alias: 'Own' });
    expect(prepareInput({ alias: 'Own' }, 'org.Party', { basePath: [] })).toEqual(party);
  });

  it('are digested and compared by their own keys only', () => {
    const odd = withInherited({ b: 1 });
    expect(canonicalSha256(odd, 'hex')).toBe(createHash('sha256').update(canonicalJson(odd)).digest('hex'));
    expect(canonicalJson(odd)).toBe('{"b":1}');
    expect(isSameJson(odd, withInherited({ b: 1 }))).toBe(true);
    expect(isSameJson(odd, withInherited({ b: 2 }))).toBe(false);
    expect(isSameJson(odd, { b: 1 })).toBe(false); // another prototype, as before
  });
});
