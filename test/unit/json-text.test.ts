import { describe, expect, it } from 'vitest';
import { JsonText, writeJson } from '../../src-main/core/api/json-text.ts';

describe('JsonText and writeJson', () => {
  it('puts each text into the answer byte for byte, where it stands', () => {
    // 1.10 and a 25-digit number are texts a parse would change: written unchanged, they were not parsed
    const page = { changes: [{ seq: 1, record: { data: new JsonText('{"n":1.10,"big":1234567890123456789012345}') } }, { seq: 2, record: { data: new JsonText('[]') } }], more: false };
    expect(writeJson(page)).toBe('{"changes":[{"seq":1,"record":{"data":{"n":1.10,"big":1234567890123456789012345}}},{"seq":2,"record":{"data":[]}}],"more":false}');
  });

  it('writes what JSON.stringify writes when there is nothing to splice, strings with NULs included', () => {
    const value = { a: 'x\u0000y', b: [1, null, { c: '\u0000' }] };
    expect(writeJson(value)).toBe(JSON.stringify(value));
  });

  it('is the parsed value to any other writer, so an answer can never come out wrong', () => {
    const value = { data: new JsonText('{"n":1.5,"s":"é"}') };
    expect(JSON.parse(JSON.stringify(value))).toEqual({ data: { n: 1.5, s: 'é' } });
    // and after writeJson (which leaves no splicing switched on)
    writeJson({ other: new JsonText('1') });
    expect(JSON.stringify(value)).toBe('{"data":{"n":1.5,"s":"é"}}');
  });

  it('leaves nothing switched on when a value refuses to be written', () => {
    const cyclic: Record<string, unknown> = { data: new JsonText('{}') };
    cyclic.self = cyclic;
    expect(() => writeJson(cyclic)).toThrow(TypeError);
    expect(JSON.stringify({ data: new JsonText('{"a":1}') })).toBe('{"data":{"a":1}}');
  });
});
