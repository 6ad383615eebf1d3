// JSON text → values, keeping each number's source text when a float would lose it. Node 24's
// JSON.parse hands the reviver the source text of every primitive; older runtimes do not, and
// then a small scanner of our own does the same job.
import { RawNumber } from './raw-number.ts';

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

function keepNumberText(_key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  return context.source === String(value) ? value : new RawNumber(context.source);
}

let reviverHasSource: boolean | undefined;

function supportsSource(): boolean {
  reviverHasSource ??= (JSON.parse('1', ((_k: string, _v: unknown, c?: { source?: string }) => c?.source === '1') as Reviver) as boolean) === true;
  return reviverHasSource;
}

/** Parses JSON text; numbers whose text differs from their float's (`10.50`, `1e5`) become RawNumbers. */
export function parseJsonPreservingNumbers(text: string): unknown {
  if (supportsSource()) return JSON.parse(text, keepNumberText as Reviver);
  return parseJsonByScanner(text);
}

/** The fallback for runtimes whose JSON.parse gives no source text (exported for tests). */
export function parseJsonByScanner(text: string): unknown {
  return new Scanner(text).document();
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Scanner {
  private readonly text: string;
  private pos = 0;

  constructor(text: string) {
    this.text = text;
  }

  document(): unknown {
    const value = this.value();
    this.space();
    if (this.pos !== this.text.length) this.fail('unexpected text after JSON');
    return value;
  }

  private fail(message: string): never {
    throw new SyntaxError(`${message} at position ${this.pos}`);
  }

  private space(): void {
    while (this.pos < this.text.length && ' \t\n\r'.includes(this.text[this.pos])) this.pos++;
  }

  private value(): unknown {
    this.space();
    const c = this.text[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail('unexpected token');
    this.pos += m[0].length;
    const n = Number(m[0]);
    return String(n) === m[0] ? n : new RawNumber(m[0]);
  }

  private string(): string {
    const start = this.pos;
    this.pos++;
    while (this.pos < this.text.length) {
      const c = this.text[this.pos];
      if (c === '\\') this.pos += 2;
      else if (c === '"') {
        this.pos++;
        return JSON.parse(this.text.slice(start, this.pos)) as string;
      } else this.pos++;
    }
    return this.fail('unterminated string');
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    this.space();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.space();
      const c = this.text[this.pos++];
      if (c === ']') return out;
      if (c !== ',') this.fail('expected , or ]');
    }
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    this.space();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return out;
    }
    for (;;) {
      this.space();
      if (this.text[this.pos] !== '"') this.fail('expected a key');
      const key = this.string();
      this.space();
      if (this.text[this.pos++] !== ':') this.fail('expected :');
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.space();
      const c = this.text[this.pos++];
      if (c === '}') return out;
      if (c !== ',') this.fail('expected , or }');
    }
  }
}
