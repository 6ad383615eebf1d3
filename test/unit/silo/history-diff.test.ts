import { describe, expect, it } from 'vitest';
import { diffJson, MAX_CHANGES } from '../../../src-main/core/silo/history-diff.ts';

describe('diffJson', () => {
  it('lists changes depth first, keys in order, a value on one side only as one change', async () => {
    const before = { a: 1, b: { x: 1, y: 2 }, c: [1, 2, 3], d: 'same', gone: { whole: [1] } };
    const after = { b: { x: 1, y: 3, z: 4 }, c: [1, 5], e: true, d: 'same', a: 1 };
    expect(await diffJson(before, after)).toEqual([
      { path: '$.b.y', kind: 'changed', before: 2, after: 3 },
      { path: '$.b.z', kind: 'added', after: 4 },
      { path: '$.c[1]', kind: 'changed', before: 2, after: 5 },
      { path: '$.c[2]', kind: 'removed', before: 3 },
      { path: '$.gone', kind: 'removed', before: { whole: [1] } },
      { path: '$.e', kind: 'added', after: true },
    ]);
  });

  it('tells a container from a scalar or the other kind of container, and null from an object', async () => {
    expect(await diffJson({ a: { x: 1 }, b: [], c: null, d: '1' }, { a: 'x', b: {}, c: {}, d: 1 })).toEqual([
      { path: '$.a', kind: 'changed', before: { x: 1 }, after: 'x' },
      { path: '$.b', kind: 'changed', before: [], after: {} },
      { path: '$.c', kind: 'changed', before: null, after: {} },
      { path: '$.d', kind: 'changed', before: '1', after: 1 },
    ]);
    expect(await diffJson({ a: null, b: [{}], c: false }, { a: null, b: [{}], c: false })).toEqual([]);
  });

  it("leaves out the envelope's digest, which changes with every edit", async () => {
    const head = (val: string) => ({ head: { dig: { alg: 'sha256', val } }, doc: { code: val } });
    expect(await diffJson(head('1'), head('2'))).toEqual([{ path: '$.doc.code', kind: 'changed', before: '1', after: '2' }]);
  });

  it('stops at MAX_CHANGES, and lets others run while it walks a large document', async () => {
    const lines = (name: string) => Array.from({ length: 20_000 }, (_, i) => ({ i, item: { name: `${name} ${i}`, price: '1.00' }, sum: '1.00' }));
    let othersRan = 0;
    const others = setInterval(() => othersRan++, 0);
    try {
      const changes = await diffJson({ lines: lines('A') }, { lines: lines('B') });
      expect(changes).toHaveLength(MAX_CHANGES);
      expect(changes[0]).toEqual({ path: '$.lines[0].item.name', kind: 'changed', before: 'A 0', after: 'B 0' });
      expect(changes.at(-1)!.path).toBe(`$.lines[${MAX_CHANGES - 1}].item.name`);
      // The same lines but the last: 140,000 values walked, with turns for others between.
      othersRan = 0;
      const last = lines('A');
      last[19_999].sum = '2.00';
      expect(await diffJson({ lines: lines('A') }, { lines: last })).toEqual([{ path: '$.lines[19999].sum', kind: 'changed', before: '1.00', after: '2.00' }]);
      expect(othersRan).toBeGreaterThan(0);
    } finally {
      clearInterval(others);
    }
  });
});
