// GOBL's patterns (in its JSON Schemas and rule tests) are Go RE2 syntax. JavaScript reads most
// of it the same way; these are the differences that occur or could: named groups `(?P<n>`,
// `\s` (ASCII-only in Go), `\pL` shorthand, `\x{...}`, `\A`/`\z`, a leading `(?i)`, and escaped
// punctuation that Unicode-mode JavaScript refuses (`\&`).

const SYNTAX = new Set(['^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/']);
const GO_SPACE = '\\t\\n\\f\\r ';

/** The JavaScript source (for the `u` flag) and flags equivalent to a Go pattern. */
export function translateGoPattern(pattern: string): { source: string; flags: string } {
  let flags = 'u';
  let src = pattern;
  const inline = /^\(\?([imsU]+)\)/.exec(src);
  if (inline) {
    if (inline[1].includes('i')) flags += 'i';
    if (inline[1].includes('s')) flags += 's';
    if (inline[1].includes('m')) flags += 'm';
    src = src.slice(inline[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      const n = src[i + 1];
      i++;
      if (n === undefined) {
        out += '\\\\';
      } else if (n === 's') {
        out += inClass ? GO_SPACE : `[${GO_SPACE}]`;
      } else if (n === 'S') {
        out += inClass ? '\\S' : `[^${GO_SPACE}]`;
      } else if (n === 'A') {
        out += '^';
      } else if (n === 'z') {
        out += '$';
      } else if ((n === 'p' || n === 'P') && src[i + 1] !== '{') {
        out += `\\${n}{${src[i + 1]}}`;
        i++;
      } else if (n === 'x' && src[i + 1] === '{') {
        const end = src.indexOf('}', i);
        out += `\\u{${src.slice(i + 2, end)}}`;
        i = end;
      } else if (/[A-Za-z0-9]/.test(n) || SYNTAX.has(n) || (n === '-' && inClass)) {
        out += `\\${n}`;
      } else {
        out += n; // punctuation Go lets you escape needlessly
      }
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // a `]` right after `[` or `[^` is a literal in Go
      if (src[i + 1] === '^') {
        out += '^';
        i++;
      }
      if (src[i + 1] === ']') {
        out += '\\]';
        i++;
      }
      continue;
    }
    if (c === '(' && src.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
      continue;
    }
    out += c;
  }
  return { source: out, flags };
}

const cache = new Map<string, RegExp>();

/** A JavaScript RegExp that matches what the Go pattern matches (compiled once per pattern). */
export function goRegExp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    const { source, flags } = translateGoPattern(pattern);
    re = new RegExp(source, flags);
    cache.set(pattern, re);
  }
  return re;
}
