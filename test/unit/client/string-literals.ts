/**
 * The string literals of a TypeScript source, comments left out: each quoted
 * string whole, and each template literal as its static chunks (the text between
 * `${…}`), with the line each starts on. Regex literals are skipped. A small lexer
 * (the project's TypeScript 7 has no JS API), enough for the API-path check.
 */
export interface Literal {
  text: string;
  line: number;
}

const REGEX_MAY_FOLLOW = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);

export function stringLiterals(source: string): Literal[] {
  const out: Literal[] = [];
  let i = 0;
  let line = 1;
  let last = ''; // the last significant character, to tell a regex from a division
  let lastWord = '';
  const templateDepth: number[] = []; // brace depth at which each open `${` resumes its template

  const readTemplate = (): void => {
    // at the character after ` or after the } closing an expression
    let text = '';
    const start = line;
    while (i < source.length) {
      const c = source[i];
      if (c === '\\') {
        text += source.slice(i, i + 2);
        i += 2;
        continue;
      }
      if (c === '`') {
        i++;
        out.push({ text, line: start });
        last = '`';
        return;
      }
      if (c === '$' && source[i + 1] === '{') {
        i += 2;
        out.push({ text, line: start });
        templateDepth.push(0);
        last = '{';
        return;
      }
      if (c === '\n') line++;
      text += c;
      i++;
    }
  };

  while (i < source.length) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      line += source.slice(i, stop).split('\n').length - 1;
      i = stop;
      continue;
    }
    if (c === '/' && (REGEX_MAY_FOLLOW.has(last) || ['return', 'typeof', 'case', 'of', 'in'].includes(lastWord))) {
      // a regex literal: to its closing slash, past escapes and [classes]
      i++;
      let inClass = false;
      while (i < source.length && source[i] !== '\n') {
        const r = source[i];
        if (r === '\\') i++;
        else if (r === '[') inClass = true;
        else if (r === ']') inClass = false;
        else if (r === '/' && !inClass) break;
        i++;
      }
      i++;
      while (/[a-z]/i.test(source[i] ?? '')) i++;
      last = ')';
      lastWord = '';
      continue;
    }
    if (c === '"' || c === "'") {
      const start = line;
      let text = '';
      i++;
      while (i < source.length && source[i] !== c && source[i] !== '\n') {
        if (source[i] === '\\') {
          text += source.slice(i, i + 2);
          i += 2;
          continue;
        }
        text += source[i++];
      }
      i++;
      out.push({ text, line: start });
      last = c;
      lastWord = '';
      continue;
    }
    if (c === '`') {
      i++;
      readTemplate();
      lastWord = '';
      continue;
    }
    if (templateDepth.length > 0 && (c === '{' || c === '}')) {
      if (c === '{') templateDepth[templateDepth.length - 1]++;
      else if (templateDepth[templateDepth.length - 1] === 0) {
        templateDepth.pop();
        i++;
        readTemplate();
        continue;
      } else templateDepth[templateDepth.length - 1]--;
    }
    if (/[A-Za-z0-9_$]/.test(c)) {
      let word = '';
      while (i < source.length && /[A-Za-z0-9_$]/.test(source[i])) word += source[i++];
      last = 'a';
      lastWord = word;
      continue;
    }
    last = c;
    lastWord = '';
    i++;
  }
  return out;
}
