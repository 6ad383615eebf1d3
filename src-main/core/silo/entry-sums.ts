/**
 * Net, tax and total of the live entries kept per (company, folder, state, month of
 * issue, currency) by triggers, so "all matching" on the desk adds up a handful of rows
 * instead of every entry: at a million entries the sums read every snippet, 6.25 s with
 * the event loop held.
 *
 * Amounts are kept as the sort columns hold them (net_e4…: ten-thousandths, a credit
 * note negative), with how many entries state each amount at 0–4 decimals, so a sum is
 * written at the most decimals its group has, exactly as the scan writes it. An entry
 * whose amount the columns cannot hold exactly (more than 4 decimals, spaces, a number
 * that is no string, a clamped value) counts in `inexact`, and a sum that would include
 * one is made by reading the entries instead (sums.ts).
 */
const FIELDS = ['net', 'tax', 'total'] as const;
const SCALES = [0, 1, 2, 3, 4] as const;

/** The table's amount columns: each field's sum, and its count of entries per number of decimals. */
export const SUM_COLUMNS = FIELDS.flatMap((f) => [`${f}_e4`, ...SCALES.map((s) => `${f}_s${s}`)]);

const KEY = ['company_id', 'folder', 'state', 'month', 'currency'];

function table(dialect: 'sqlite' | 'postgres'): string {
  const int = dialect === 'sqlite' ? 'INTEGER' : 'bigint';
  const text = dialect === 'sqlite' ? 'TEXT' : 'text';
  return `CREATE TABLE entry_sums (
     company_id ${text} NOT NULL, folder ${text} NOT NULL, state ${text} NOT NULL, month ${text} NOT NULL, currency ${text} NOT NULL,
     entries ${int} NOT NULL, inexact ${int} NOT NULL,
     ${SUM_COLUMNS.map((c) => `${c} ${int} NOT NULL`).join(', ')},
     PRIMARY KEY (${KEY.join(', ')})
   )${dialect === 'sqlite' ? ' STRICT, WITHOUT ROWID' : ''}`;
}

/**
 * The amounts of `r` (NEW, OLD, or an `entries` alias in `from`), each read from the
 * snippet once and with its number of decimals, as a subquery `d` (net_v, net_text,
 * net_d, tax_v…, and `carry`'s columns of r): written inline, every use of an amount
 * extracted it again, 16 µs a row against 5.
 */
function amounts(r: string, dialect: 'sqlite' | 'postgres', from = '', carry: readonly string[] = []): string {
  const value = (f: string) => (dialect === 'sqlite' ? `json_extract(${r}.snippet, '$.${f}')` : `(${r}.snippet::jsonb ->> '${f}')`);
  // PostgreSQL's ->> gives text for any JSON value: whether it was a string is asked apart.
  const isText = (f: string) => (dialect === 'sqlite' ? `typeof(${f}_v) = 'text'` : `${f}_s`);
  const stringness = (f: string) => (dialect === 'sqlite' ? '' : `, jsonb_typeof(${r}.snippet::jsonb -> '${f}') = 'string' AS ${f}_s`);
  const dot = (f: string) => (dialect === 'sqlite' ? `instr(${f}_v, '.')` : `position('.' IN ${f}_v)`);
  const read = `SELECT ${[...carry.map((c) => `${r}.${c}`), ...FIELDS.map((f) => `${value(f)} AS ${f}_v${stringness(f)}`)].join(', ')} ${from}`;
  const decimals = FIELDS.map(
    (f) => `${f}_v, ${isText(f)} AS ${f}_text, (CASE WHEN ${isText(f)} AND ${dot(f)} > 0 THEN length(${f}_v) - ${dot(f)} ELSE 0 END) AS ${f}_d`,
  );
  return `(SELECT ${[...carry, ...decimals].join(', ')} FROM (${read}) v) d`;
}

/** The values one entry adds to its group, times `sign`, in the order of COLUMNS (over `r` and its amounts `d`). */
function contribution(r: string, sign: string): string[] {
  const priced = `${r}.currency IS NOT NULL`;
  // Exact: no amount and no column value, or a trimmed string of at most 4 decimals the column holds unclamped.
  const exact = (f: string) =>
    `((d.${f}_v IS NULL AND ${r}.${f}_e4 IS NULL) OR (d.${f}_text AND d.${f}_v = trim(d.${f}_v) AND d.${f}_d <= 4
      AND ${r}.${f}_e4 IS NOT NULL AND abs(${r}.${f}_e4) < 9007199254740991))`;
  return [
    `${r}.company_id`,
    `${r}.folder`,
    `${r}.state`,
    `coalesce(substr(${r}.issue_date, 1, 7), '')`,
    `coalesce(${r}.currency, '')`,
    sign,
    `${sign} * (CASE WHEN ${priced} AND NOT (${FIELDS.map(exact).join(' AND ')}) THEN 1 ELSE 0 END)`,
    ...FIELDS.flatMap((f) => [
      `${sign} * (CASE WHEN ${priced} THEN coalesce(${r}.${f}_e4, 0) ELSE 0 END)`,
      ...SCALES.map((s) => `${sign} * (CASE WHEN ${priced} AND d.${f}_d = ${s} THEN 1 ELSE 0 END)`),
    ]),
  ];
}

const COLUMNS = [...KEY, 'entries', 'inexact', ...SUM_COLUMNS];

/** Adds one entry's amounts to its group (sign 1), or takes them away (-1) and drops the group once it is empty. */
function follow(r: string, sign: string, dialect: 'sqlite' | 'postgres', adding = false): string {
  const sets = COLUMNS.slice(KEY.length).map((c) => `${c} = entry_sums.${c} + excluded.${c}`);
  // `WHERE true`: SQLite's parser needs it between a SELECT's FROM and ON CONFLICT.
  const add = `INSERT INTO entry_sums (${COLUMNS.join(', ')}) SELECT ${contribution(r, sign).join(', ')} FROM ${amounts(r, dialect)} WHERE true
       ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET ${sets.join(', ')};`;
  if (adding) return add;
  return `${add}
     DELETE FROM entry_sums WHERE company_id = ${r}.company_id AND folder = ${r}.folder AND state = ${r}.state
       AND month = coalesce(substr(${r}.issue_date, 1, 7), '') AND currency = coalesce(${r}.currency, '') AND entries = 0;`;
}

/** The columns of an entry a group and its amounts are made of. */
const ENTRY_COLUMNS = ['company_id', 'folder', 'state', 'issue_date', 'currency', 'net_e4', 'tax_e4', 'total_e4'];

/** The groups of the live entries already stored (the migration's back-fill). */
function backfill(dialect: 'sqlite' | 'postgres'): string {
  return `INSERT INTO entry_sums (${COLUMNS.join(', ')})
     SELECT ${COLUMNS.map((c, i) => (i < KEY.length ? `g.${c}` : `sum(g.${c})`)).join(', ')}
     FROM (SELECT ${contribution('d', '1')
       .map((v, i) => `${v} AS ${COLUMNS[i]}`)
       .join(', ')} FROM ${amounts('e', dialect, 'FROM entries e WHERE e.trashed_at IS NULL', ENTRY_COLUMNS)}) g
     GROUP BY ${KEY.map((c) => `g.${c}`).join(', ')}`;
}

/** What moves an entry between groups or changes its amounts. */
const WATCHED = ['company_id', 'folder', 'state', 'issue_date', 'currency', 'net_e4', 'tax_e4', 'total_e4', 'snippet', 'trashed_at'];

export const ENTRY_SUMS_SCHEMA = [
  table('sqlite'),
  backfill('sqlite'),
  `CREATE TRIGGER entries_sums_insert AFTER INSERT ON entries WHEN NEW.trashed_at IS NULL BEGIN
     ${follow('NEW', '1', 'sqlite', true)}
   END`,
  `CREATE TRIGGER entries_sums_delete AFTER DELETE ON entries WHEN OLD.trashed_at IS NULL BEGIN
     ${follow('OLD', '-1', 'sqlite')}
   END`,
  `CREATE TRIGGER entries_sums_update AFTER UPDATE OF ${WATCHED.join(', ')} ON entries
     WHEN (OLD.trashed_at IS NULL OR NEW.trashed_at IS NULL) AND (${WATCHED.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ')}) BEGIN
     ${follow('OLD', '(CASE WHEN OLD.trashed_at IS NULL THEN -1 ELSE 0 END)', 'sqlite')}
     ${follow('NEW', '(CASE WHEN NEW.trashed_at IS NULL THEN 1 ELSE 0 END)', 'sqlite')}
   END`,
];

export const ENTRY_SUMS_SCHEMA_PG = [
  table('postgres'),
  backfill('postgres'),
  `CREATE FUNCTION entry_sums_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.trashed_at IS NULL THEN
       ${follow('OLD', '-1', 'postgres')}
     END IF;
     IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.trashed_at IS NULL THEN
       ${follow('NEW', '1', 'postgres', true)}
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER entries_sums_insert AFTER INSERT ON entries FOR EACH ROW EXECUTE FUNCTION entry_sums_follow()`,
  `CREATE TRIGGER entries_sums_delete AFTER DELETE ON entries FOR EACH ROW EXECUTE FUNCTION entry_sums_follow()`,
  `CREATE TRIGGER entries_sums_update AFTER UPDATE OF ${WATCHED.join(', ')} ON entries FOR EACH ROW
     WHEN (${WATCHED.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')})
     EXECUTE FUNCTION entry_sums_follow()`,
];
