// The exact bytes of Go's `json.MarshalIndent(v, "", "\t")`, which is how GOBL writes a
// built envelope. Key order is whatever the objects carry: run `conform` first to get Go's
// struct order.
import { RawNumber } from './raw-number.ts';

/** Go's JSON text for `value`, tab-indented, without a trailing newline. */
export function marshalGo(value: unknown): string {
  const out: string[] = [];
  writeValue(value, '', out);
  return out.join('');
}

/** Go's compact JSON (`json.Marshal`), for callers that need the unindented form. */
export function marshalGoCompact(value: unknown): string {
  const out: string[] = [];
  writeValue(value, null, out);
  return out.join('');
}

function writeValue(value: unknown, indent: string | null, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('null');
    return;
  }
  switch (typeof value) {
    case 'string':
      out.push(quoteGo(value));
      return;
    case 'number':
      out.push(goNumber(value));
      return;
    case 'boolean':
      out.push(value ? 'true' : 'false');
      return;
    case 'bigint':
      out.push(value.toString());
      return;
    default:
      break;
  }
  if (value instanceof RawNumber) {
    out.push(value.text);
    return;
  }
  const inner = indent === null ? null : `${indent}\t`;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[]');
      return;
    }
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      if (inner !== null) out.push('\n', inner);
      writeValue(item, inner, out);
    });
    if (indent !== null) out.push('\n', indent);
    out.push(']');
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) {
    out.push('{}');
    return;
  }
  out.push('{');
  entries.forEach(([key, item], i) => {
    if (i > 0) out.push(',');
    if (inner !== null) out.push('\n', inner);
    out.push(quoteGo(key), inner !== null ? ': ' : ':');
    writeValue(item, inner, out);
  });
  if (indent !== null) out.push('\n', indent);
  out.push('}');
}

// Go prints float64 like JavaScript does (exponent form below 1e-6 and from 1e21) except
// that it keeps the sign of negative zero.
function goNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${n}`);
  if (Object.is(n, -0)) return '-0';
  return String(n);
}

const HEX = '0123456789abcdef';

/**
 * A string quoted as Go's encoder does with HTML escaping on: `<`, `>`, `&`, U+2028 and
 * U+2029 become \u escapes, control characters use the short forms Go knows (\b \f \n \r
 * \t) or lower-case \u00XX, and lone surrogates (invalid UTF-8 in Go) become U+FFFD.
 */
export function quoteGo(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let esc: string | undefined;
    if (c < 0x20) {
      switch (c) {
        case 0x08: esc = '\\b'; break;
        case 0x0c: esc = '\\f'; break;
        case 0x0a: esc = '\\n'; break;
        case 0x0d: esc = '\\r'; break;
        case 0x09: esc = '\\t'; break;
        default: esc = `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
      }
    } else if (c === 0x22) esc = '\\"';
    else if (c === 0x5c) esc = '\\\\';
    else if (c === 0x3c) esc = '\\u003c';
    else if (c === 0x3e) esc = '\\u003e';
    else if (c === 0x26) esc = '\\u0026';
    else if (c === 0x2028) esc = '\\u2028';
    else if (c === 0x2029) esc = '\\u2029';
    else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      esc = '\ufffd';
    }
    if (esc !== undefined) {
      out += s.slice(start, i) + esc;
      start = i + 1;
    }
  }
  return `${out + s.slice(start)}"`;
}
