import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src-main/core/api/errors.ts';
import { parseJsonText, RawNumber } from '../../../src-main/core/gobl/shape/parse.ts';
import { readBodyBytes } from '../../../src-main/http/body.ts';
import { YIELD_EVERY_BYTES } from '../../../src-main/core/files/read-capped.ts';
import { MAX_JSON_DEPTH, parseJsonBody, YIELD_EVERY_CHARS } from '../../../src-main/http/json-body.ts';
import { IN_TURNS_FROM } from '../../../src-main/core/api/json-in-turns.ts';
import { scanJson } from '../../../src-main/http/json-scan.ts';
import { floatKeepsText } from '../../../src-main/core/api/json-tokens.ts';

/**
 * A request body is parsed plainly and only its parts holding numbers a float would change are
 * parsed again with the number-keeping reviver (json-body.ts). Whatever the text, the values must
 * be those parseJsonText makes, and bad JSON must be refused with the message it gives.
 */

// Numbers as a client may write them: canonical ones, and texts a float would change.
const numberText = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
  fc.constantFrom('10.50', '1e5', '-0', '0.10', '12345678901234567890', '1.0', '-1E-7', '9007199254740993', '0', '2.5', '-3', '1e+2'),
);
const ws = fc.constantFrom('', ' ', '\n  ', '\t');
const keyText = fc.oneof(fc.constantFrom('a', 'b', '__proto__', 'entries', 'on_duplicate', 'x"y', 'é\\'), fc.string({ maxLength: 4 }));

const { value: jsonText } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberText,
    fc.constantFrom('true', 'false', 'null'),
    fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)),
    fc.array(tie('value'), { maxLength: 5 }).chain((items) => ws.map((w) => `[${w}${items.join(`${w},`)}${w}]`)),
    // Keys may repeat: JSON.parse keeps the last member of a key.
    fc.array(fc.tuple(keyText, tie('value')), { maxLength: 5 }).chain((members) =>
      ws.map((w) => `{${w}${members.map(([k, v]) => `${JSON.stringify(k)}${w}:${w}${v}`).join(`,${w}`)}${w}}`),
    ),
  ),
}));

/** The same values, class by class: RawNumbers where parseJsonText makes them, own `__proto__` members included. */
function expectSameValues(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

describe('parseJsonBody', () => {
  it('makes the values parseJsonText makes, for any JSON text', async () => {
    await fc.assert(
      fc.asyncProperty(jsonText, ws, async (text, pad) => {
        const body = `${pad}${text}${pad}`;
        expectSameValues(await parseJsonBody(body), parseJsonText(body));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps number text in the parts that hold it, at the root, in a member, in an array member’s element', async () => {
    const text = '{"entries": [{"n": 1}, {"n": 10.50}, 2.0, [3, 1e5]], "entries2": {"deep": {"x": -0}}, "flat": 0.10, "s": "1.50"}';
    const value = (await parseJsonBody(text)) as any;
    expect(value.entries[0].n).toBe(1);
    expect(value.entries[1].n).toEqual(new RawNumber('10.50'));
    expect(value.entries[1].n).toBeInstanceOf(RawNumber);
    expect(value.entries[2]).toEqual(new RawNumber('2.0'));
    expect(value.entries[3]).toEqual([3, new RawNumber('1e5')]);
    expect(value.entries2.deep.x).toEqual(new RawNumber('-0'));
    expect(value.flat).toEqual(new RawNumber('0.10'));
    expect(value.s).toBe('1.50');
    expect(await parseJsonBody(' 1.50 ')).toEqual(new RawNumber('1.50'));
    expect(await parseJsonBody('[1.50, 2]')).toEqual([new RawNumber('1.50'), 2]);
  });

  it('takes the last member of a repeated key, as JSON.parse does', async () => {
    const value = (await parseJsonBody('{"a": [1.50], "b": 1, "a": [2.50], "__proto__": {"x": 1.0}}')) as any;
    expect(value.a).toEqual([new RawNumber('2.50')]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(value.__proto__).toEqual({ x: new RawNumber('1.0') });
    expect((await parseJsonBody('{"a": [1], "a": [1.50]}')) as any).toEqual({ a: [new RawNumber('1.50')] });
    expect((await parseJsonBody('{"a": [1.50], "a": [1]}')) as any).toEqual({ a: [1] });
  });

  it.each(['{"data": {', '', ' ', '[1] 2', '{"a": 01}', '{"a": 1.}', '{"a": -}', '{"a": "x}', "{'a': 1}", '[1,]', '{"a" 1}', 'nul', '"\\x"', '1.50 x'])(
    'refuses %j with the message JSON.parse gives, which parseJsonText gives too',
    async (text) => {
      const messageOf = (parse: () => unknown) => {
        try {
          parse();
        } catch (err) {
          return `request body is not valid JSON: ${(err as Error).message.slice(0, 200)}`;
        }
        return '';
      };
      const expected = messageOf(() => JSON.parse(text));
      expect(expected).not.toBe('');
      expect(messageOf(() => parseJsonText(text))).toBe(expected);
      const refused = await parseJsonBody(text).catch((err: unknown) => err);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).key).toBe('bad-request');
      expect((refused as ApiError).message).toBe(expected);
    },
  );

  it('parses a large body it refuses once, not again to word the refusal', async () => {
    const item = JSON.stringify({ id: 'x', data: { total: '1.00', lines: [1, 2, 3] } });
    const text = `{"items":[${Array(20_000).fill(item).join(',')}],}`;
    const parse = vi.spyOn(JSON, 'parse');
    const refused = await parseJsonBody(text).catch((err: unknown) => err);
    const calls = parse.mock.calls.length;
    parse.mockRestore();
    expect((refused as ApiError).message).toMatch(/^request body is not valid JSON: Expected double-quoted property name in JSON at position \d+/);
    expect(calls).toBe(1);
  });

  it(`parses a body of ${IN_TURNS_FROM} characters or more a piece at a time: the same values, the same refusals`, async () => {
    const row = (i: number) => `{"id": ${i}, "price": 10.50, "qty": 1, "name": "${'n'.repeat(100)}"}`;
    const text = `{"rows": [${Array.from({ length: 12_000 }, (_, i) => row(i)).join(',')}], "total": 1e5}`;
    expect(text.length).toBeGreaterThan(IN_TURNS_FROM);
    const value = (await parseJsonBody(text)) as { rows: Array<{ price: unknown; qty: unknown }>; total: unknown };
    expect(value).toEqual(parseJsonText(text));
    expect(value.rows[11_999].price).toEqual(new RawNumber('10.50'));
    expect(value.total).toEqual(new RawNumber('1e5'));

    const cut = await parseJsonBody(text.slice(0, -40)).catch((err: unknown) => err);
    expect(cut).toMatchObject({ key: 'bad-request', message: expect.stringMatching(/^request body is not valid JSON: /) });
    const deep = await parseJsonBody(`[${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}, "${'x'.repeat(IN_TURNS_FROM)}"]`).catch((err: unknown) => err);
    expect(deep).toMatchObject({ key: 'bad-request', message: `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep` });
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} before parsing, and takes ${MAX_JSON_DEPTH}`, async () => {
    const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const refused = await parseJsonBody(nested(MAX_JSON_DEPTH + 1)).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).key).toBe('bad-request');
    expect((refused as ApiError).message).toBe(`request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
    // Counted before the text is checked, and brackets inside strings do not count.
    expect(((await parseJsonBody(`{"a": ${nested(5000)}`).catch((err: unknown) => err)) as ApiError).message).toMatch(/levels deep/);
    expect(await parseJsonBody(`["${'['.repeat(5000)}\\"["]`)).toEqual([`${'['.repeat(5000)}"[`]);
    expect(await parseJsonBody(nested(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
  });
});

describe('a large body lets other requests in', () => {
  const entries = (n: number, amount: string) => `{"entries": [${Array.from({ length: n }, (_, i) => `{"id": ${i}, "data": {"note": "${'x'.repeat(200)}", "amount": ${amount}}}`).join(', ')}]}`;

  async function othersRanDuring(text: string): Promise<boolean> {
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    await parseJsonBody(text);
    return ran;
  }

  it('yields before what follows a large body, and between the parts parsed again', async () => {
    const plain = entries(2000, '3');
    expect(plain.length).toBeGreaterThan(YIELD_EVERY_CHARS);
    expect(await othersRanDuring(plain)).toBe(true);
    const kept = entries(2000, '10.50');
    expect(await othersRanDuring(kept)).toBe(true);
    const value = (await parseJsonBody(kept)) as any;
    expect(value.entries).toHaveLength(2000);
    expect(value.entries[1999].data.amount).toEqual(new RawNumber('10.50'));
  });

  it('answers a small body without waiting', async () => {
    expect(await othersRanDuring(entries(2, '10.50'))).toBe(false);
  });

  afterEach(() => vi.restoreAllMocks());

  it('lets others in between scanning a large body and parsing it', async () => {
    const text = entries(2000, '3');
    const parse = vi.spyOn(JSON, 'parse');
    const parsedWhole = () => parse.mock.calls.some(([t]) => t === text);
    let parsedBeforeOthers: boolean | undefined;
    setImmediate(() => {
      parsedBeforeOthers = parsedWhole();
    });
    await parseJsonBody(text);
    expect(parsedWhole()).toBe(true);
    expect(parsedBeforeOthers).toBe(false);
  });

  it('lets others in while a large body that came at once is read', async () => {
    // A client's whole body already waiting, as a socket holds it: every chunk is there when asked for.
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const chunks = (5 * YIELD_EVERY_BYTES) / chunk.byteLength;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === chunks) return controller.close();
        pulled++;
        controller.enqueue(chunk);
      },
    });
    const pulledWhenOthersRan: number[] = [];
    const watch = () => {
      pulledWhenOthersRan.push(pulled);
      if (pulled < chunks) setImmediate(watch);
    };
    setImmediate(watch);
    const bytes = await readBodyBytes({ headers: new Headers(), body }, 10 * YIELD_EVERY_BYTES);
    expect(bytes.byteLength).toBe(chunks * chunk.byteLength);
    // Others ran while the body was being read, each time after at most YIELD_EVERY_BYTES more of it.
    const during = pulledWhenOthersRan.filter((n) => n > 0 && n < chunks);
    expect(during.length).toBeGreaterThanOrEqual(3);
    for (const [i, n] of during.entries()) expect(n - (during[i - 1] ?? 0)).toBeLessThanOrEqual(YIELD_EVERY_BYTES / chunk.byteLength + 1);
  });

  it('lets others in once a large body is read, before its reader goes on with it', async () => {
    const bytes = new Uint8Array(2 * YIELD_EVERY_CHARS).fill(0x20);
    expect(bytes.byteLength).toBeLessThan(YIELD_EVERY_BYTES);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    let othersRan = false;
    setImmediate(() => {
      othersRan = true;
    });
    await readBodyBytes({ headers: new Headers(), body }, 10 * YIELD_EVERY_BYTES);
    expect(othersRan).toBe(true);
  });
});

describe('scanJson', () => {
  it.each([
    ['0', true],
    ['-3', true],
    ['123456789012345', true],
    ['2.5', true],
    ['1e+21', true],
    ['-0', false],
    ['10.50', false],
    ['1e5', false],
    ['1.0', false],
    ['9007199254740993', false],
    ['1234567890123456', true],
  ] as const)('floatKeepsText(%s) is %s', (token, keeps) => {
    expect(floatKeepsText(token)).toBe(keeps);
    expect(floatKeepsText(token)).toBe(String(Number(token)) === token);
  });

  it('names the parts holding such numbers and ignores numbers inside strings', () => {
    const text = '{"a": "1.50", "b": [1, 2.50, {"c": 1e5}], "d": 3}';
    const scan = scanJson(text, 10);
    expect(scan.depth).toBe(3);
    expect(scan.units.map((u) => [u.member, u.element, text.slice(u.start, u.end).trim()])).toEqual([
      [1, 1, '2.50'],
      [1, 2, '{"c": 1e5}'],
    ]);
    expect(scan.keys.map(([s, e]) => text.slice(s, e))).toEqual(['"a"', '"b"', '"d"']);
  });
});
