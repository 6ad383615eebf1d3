// GOBL writes a few tests as expr-lang expressions over the Go struct (`Base != nil || Percent
// != nil`, `string(Country) in ['','BR']`, `!Retained || !Informative`). This compiles that
// small subset: || && ! == != in, string(X), nil, string literals and lists. Go field names are
// read as their JSON names (Go's CamelCase → snake_case); `this` is the value itself.
import { isNil, isObject } from './values.ts';

type Eval = (value: unknown) => unknown;

const NIL = Symbol('nil');

const TOKEN = /\s*(\|\||&&|==|!=|!|\(|\)|\[|\]|,|"[^"]*"|'[^']*'|[A-Za-z_][A-Za-z0-9_]*|-?\d+(?:\.\d+)?)/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) {
      if (text.slice(start).trim() === '') break;
      throw new Error(`cannot read expression at "${text.slice(start)}"`);
    }
    tokens.push(match[1]);
  }
  return tokens;
}

function jsonName(goName: string): string {
  return goName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function field(name: string): Eval {
  if (name === 'this') return (v) => v;
  const key = jsonName(name);
  return (v) => (isObject(v) ? v[key] : undefined);
}

// Go compares typed values: an absent string is "", an absent pointer is nil.
function same(a: unknown, b: unknown): boolean {
  if (a === NIL) return isNil(b);
  if (b === NIL) return isNil(a);
  if (typeof a === 'string' || typeof b === 'string') return String(a ?? '') === String(b ?? '');
  return (a ?? null) === (b ?? null);
}

class Parser {
  private pos = 0;
  private readonly tokens: string[];
  constructor(tokens: string[]) {
    this.tokens = tokens;
  }

  private peek(): string | undefined {
    return this.tokens[this.pos];
  }

  private take(expected?: string): string {
    const t = this.tokens[this.pos++];
    if (t === undefined || (expected !== undefined && t !== expected)) {
      throw new Error(`expected ${expected ?? 'a token'}, found ${t ?? 'the end'}`);
    }
    return t;
  }

  parse(): Eval {
    const e = this.or();
    if (this.pos !== this.tokens.length) throw new Error(`unexpected "${this.peek()}"`);
    return e;
  }

  private or(): Eval {
    let left = this.and();
    while (this.peek() === '||') {
      this.take();
      const l = left;
      const r = this.and();
      left = (v) => Boolean(l(v)) || Boolean(r(v));
    }
    return left;
  }

  private and(): Eval {
    let left = this.unary();
    while (this.peek() === '&&') {
      this.take();
      const l = left;
      const r = this.unary();
      left = (v) => Boolean(l(v)) && Boolean(r(v));
    }
    return left;
  }

  private unary(): Eval {
    if (this.peek() === '!') {
      this.take();
      const inner = this.unary();
      return (v) => !inner(v);
    }
    return this.comparison();
  }

  private comparison(): Eval {
    const left = this.primary();
    const op = this.peek();
    if (op === '==' || op === '!=') {
      this.take();
      const right = this.primary();
      return op === '==' ? (v) => same(left(v), right(v)) : (v) => !same(left(v), right(v));
    }
    if (op === 'in') {
      this.take();
      const right = this.primary();
      return (v) => {
        const items = right(v);
        const x = left(v);
        return Array.isArray(items) && items.some((item) => same(item, x));
      };
    }
    return left;
  }

  private primary(): Eval {
    const t = this.take();
    if (t === '(') {
      const inner = this.or();
      this.take(')');
      return inner;
    }
    if (t === '[') {
      const items: Eval[] = [];
      while (this.peek() !== ']') {
        items.push(this.primary());
        if (this.peek() === ',') this.take();
      }
      this.take(']');
      return (v) => items.map((item) => item(v));
    }
    if (t === 'nil') return () => NIL;
    if (t === 'true' || t === 'false') {
      const b = t === 'true';
      return () => b;
    }
    if (t[0] === '"' || t[0] === "'") {
      const s = t.slice(1, -1);
      return () => s;
    }
    if (/^-?\d/.test(t)) {
      const n = Number(t);
      return () => n;
    }
    if (t === 'string' && this.peek() === '(') {
      this.take('(');
      const inner = this.or();
      this.take(')');
      return (v) => {
        const x = inner(v);
        return isNil(x) || x === NIL ? '' : String(x);
      };
    }
    if (t === 'len' && this.peek() === '(') {
      this.take('(');
      const inner = this.or();
      this.take(')');
      return (v) => {
        const x = inner(v);
        return typeof x === 'string' || Array.isArray(x) ? x.length : 0;
      };
    }
    if (/^[A-Za-z_]/.test(t)) return field(t);
    throw new Error(`unexpected "${t}"`);
  }
}

/** True when the text reads as an expression rather than a test description. */
export function looksLikeExpr(text: string): boolean {
  return /==|!=|\|\||&&|^!|\bstring\(/.test(text);
}

/** Compiles an expression to a boolean check on the value (the Go struct it was written for). */
export function compileExpr(text: string): (value: unknown) => boolean {
  const e = new Parser(tokenize(text)).parse();
  return (value) => Boolean(e(value));
}
