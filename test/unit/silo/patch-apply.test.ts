// A patch of an entry's document: applied in place (no deep copies of a large document), and a
// patch that cannot apply is a 422 naming the operation at fault.
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { applyPatch } from '../../../src-main/core/silo/patch-apply.ts';

const refusal = (work: () => unknown): { message: string; fields: unknown } => {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { message: (error as ApiError).message, fields: (error as ApiError & { fields?: unknown }).fields };
  }
  throw new Error('expected a refusal');
};

describe('applyPatch', () => {
  const envelope = () => ({ doc: { lines: [{ i: 1, quantity: '2' }, { i: 2, quantity: '5' }], notes: [{ text: 'a' }] } });

  it('applies a JSON patch in place, operation by operation, without copying the document', () => {
    const clone = vi.spyOn(globalThis, 'structuredClone');
    try {
      const current = envelope();
      const patched = applyPatch(current, 'application/json-patch+json', [
        { op: 'replace', path: '/doc/lines/0/quantity', value: '3' },
        { op: 'test', path: '/doc/lines/0/quantity', value: '3' },
        { op: 'remove', path: '/doc/notes' },
      ]);
      expect(patched).toBe(current);
      expect(patched).toEqual({ doc: { lines: [{ i: 1, quantity: '3' }, { i: 2, quantity: '5' }] } });
      expect(applyPatch(envelope(), 'application/merge-patch+json', { doc: { notes: null } })).toEqual({ doc: { lines: envelope().doc.lines } });
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
  });

  it('names the operation that cannot apply, checked against what the ones before it left', () => {
    const failing = refusal(() => applyPatch(envelope(), 'application/json-patch+json', [
      { op: 'remove', path: '/doc/notes' },
      { op: 'replace', path: '/doc/notes/0/text', value: 'b' },
    ]));
    expect(failing.message).toMatch(/^JSON patch operation 1 cannot apply: OPERATION_PATH_UNRESOLVABLE/);
    expect(Object.keys(failing.fields as object)).toEqual(['$.data[1]']);
    const test = refusal(() => applyPatch(envelope(), 'application/json-patch+json', [{ op: 'test', path: '/doc/lines/1/quantity', value: '6' }]));
    expect(test.message).toMatch(/^JSON patch operation 0 cannot apply: TEST_OPERATION_FAILED/);
    const unknown = refusal(() => applyPatch(envelope(), 'application/json-patch+json', [{ op: 'frobnicate', path: '/doc' }]));
    expect(unknown.message).toMatch(/^JSON patch operation 0 cannot apply: OPERATION_OP_INVALID/);
    const prototype = refusal(() => applyPatch(envelope(), 'application/json-patch+json', [{ op: 'add', path: '/__proto__/polluted', value: 1 }]));
    expect(prototype.message).toMatch(/JSON patch/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(refusal(() => applyPatch(envelope(), 'application/json-patch+json', [{ op: 'replace', path: '', value: 'text' }])).message).toMatch(/must leave an object/);
  });
});
