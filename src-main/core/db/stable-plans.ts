/**
 * A statement's text as SQLite should prepare it so that its plan never depends on the
 * values bound to it.
 *
 * Since 3.47, SQLite's planner looks at the value bound to a placeholder in a few places:
 * the right side of `=` or `IS` (whether it is NULL, to leave out an ORDER BY or GROUP BY
 * term it holds constant), and LIMIT and OFFSET. Having looked, it marks the statement to
 * be prepared again whenever another value is bound, which for a cached statement is every
 * run: the planning is paid each time (5 µs for a one-line look-up, over 40 µs for a
 * longer query; the last link of the audit log cost 9 µs against 3). A unary plus makes the
 * placeholder an expression the planner never looks into; it changes neither the value
 * nor how it compares (a bare placeholder has no affinity or collation either), and an
 * index serves `col = +?` as it serves `col = ?`.
 *
 * Only placeholders outside quotes and comments, after `=`, `==`, `IS`, `LIMIT` or
 * `OFFSET`, are written with the plus. Any other, after `LIKE` or `MATCH`, in a list or a
 * range, is left as it is: the planner has no second look there, or wants it (LIKE's
 * prefix).
 */
export function withStablePlans(sql: string): string {
  let out = '';
  let previous = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const end = tokenEnd(sql, i);
    const token = sql.slice(i, end);
    if (/\s/.test(c) || token.startsWith('--') || token.startsWith('/*')) {
      out += token;
    } else if (isPlaceholder(token)) {
      out += STABLE_AFTER.has(previous) ? `+${token}` : token;
      previous = '?';
    } else {
      out += token;
      previous = token.toLowerCase();
    }
    i = end;
  }
  return out;
}

/** The tokens after which SQLite looks at a bound value while it plans (lowercase). */
const STABLE_AFTER: ReadonlySet<string> = new Set(['=', '==', 'is', 'limit', 'offset']);

const isPlaceholder = (token: string): boolean => /^(?:\?\d*|[:@$][A-Za-z_]\w*)$/.test(token);

/** Where the token that starts at `i` ends: a quoted text or name, a comment, a word, a placeholder, an operator. */
function tokenEnd(sql: string, i: number): number {
  const c = sql[i];
  const closing = c === "'" || c === '"' || c === '`' ? c : c === '[' ? ']' : undefined;
  if (closing) {
    let j = i + 1;
    for (;;) {
      const at = sql.indexOf(closing, j);
      if (at === -1) return sql.length;
      // A quote written twice inside stands for itself.
      if (closing !== ']' && sql[at + 1] === closing) j = at + 2;
      else return at + 1;
    }
  }
  if (sql.startsWith('--', i)) {
    const at = sql.indexOf('\n', i);
    return at === -1 ? sql.length : at;
  }
  if (sql.startsWith('/*', i)) {
    const at = sql.indexOf('*/', i + 2);
    return at === -1 ? sql.length : at + 2;
  }
  const run = (pattern: RegExp, from: number) => {
    let j = from;
    while (j < sql.length && pattern.test(sql[j])) j++;
    return j;
  };
  if (/\s/.test(c)) return run(/\s/, i);
  if (c === '?') return run(/\d/, i + 1);
  if ((c === ':' || c === '@' || c === '$') && /[A-Za-z_]/.test(sql[i + 1] ?? '')) return run(/\w/, i + 1);
  if (/[\w$]/.test(c)) return run(/[\w$]/, i);
  if (/[=<>!|]/.test(c)) return run(/[=<>!|]/, i);
  return i + 1;
}
