import { NEGATIVE_TYPES } from './sort-keys.ts';
import { snippetFieldSql, type SnippetSqlField } from './stored-snippet.ts';

/**
 * Net, tax and total of the live entries kept per (company, folder, state, month of
 * issue, currency) by triggers, so "all matching" on the desk adds up a handful of rows
 * instead of every entry: at a million entries the sums read every snippet, 3.5–6.3 s.
 *
 * Each amount is read from the snippet, as the scan reads it: a string of digits with at
 * most 4 decimals is kept in ten-thousandths (a credit note negative), with how many
 * entries state each amount at 0–4 decimals, so a sum is written at the most decimals
 * its group has, exactly as the scan writes it. Anything else (more decimals, spaces, a
 * number that is no string, more than 14 digits) counts in `inexact`, and a sum that
 * would include one reads the entries instead (sums.ts). Nothing is read from the sort
 * columns: they are written by an UPDATE right after the row, which would move every
 * new entry out of its group and in again (60 µs an imported entry).
 */
const FIELDS = ['net', 'tax', 'total'] as const;
const SCALES = [0, 1, 2, 3, 4] as const;

/** The table's amount columns: each field's sum, and its count of entries per number of decimals. */
export const SUM_COLUMNS = FIELDS.flatMap((f) => [`${f}_e4`, ...SCALES.map((s) => `${f}_s${s}`)]);

const KEY = ['company_id', 'folder', 'state', 'month', 'currency'];

function table(dialect: 'sqlite' | 'postgres'): string {
  const int = dialect === 'sqlite' ? 'INTEGER' : 'bigint';
  // A sum past 64 bits becomes a REAL in SQLite rather than failing the write: ANY takes it, and sums.ts reads it as inexact.
  const total = dialect === 'sqlite' ? 'ANY' : 'numeric';
  const text = dialect === 'sqlite' ? 'TEXT' : 'text';
  return `CREATE TABLE entry_sums (
     company_id ${text} NOT NULL, folder ${text} NOT NULL, state ${text} NOT NULL, month ${text} NOT NULL, currency ${text} NOT NULL,
     entries ${int} NOT NULL, inexact ${int} NOT NULL,
     ${SUM_COLUMNS.map((c) => `${c} ${c.endsWith('_e4') ? total : int} NOT NULL`).join(', ')},
     PRIMARY KEY (${KEY.join(', ')})
   )${dialect === 'sqlite' ? ' STRICT, WITHOUT ROWID' : ''}`;
}

/** The document types whose amounts count negative: the scan's own (sort-keys.ts), so the two cannot differ. */
const NEGATIVE = `(${[...NEGATIVE_TYPES].map((t) => `'${t}'`).join(', ')})`;

/**
 * The amounts of `r` (NEW, OLD, or an `entries` alias in `from`) read from its snippet
 * once, as a subquery `d`: per field its value (net_v), whether it is one the groups hold
 * exactly (net_ok), its decimals (net_d) and ten-thousandths (net_e4), and the entry's
 * currency (cur, as the sort column takes it) and sign (neg); with `carry`'s columns of r.
 * Written inline, every use of an amount extracted it again (16 µs a row against 5).
 *
 * Fenced, each step ends in `OFFSET 0`, which neither engine's planner merges into the
 * query around it. Merged, as SQLite did before 0039, each column is its expression
 * again wherever the next step names it: 62 GLOBs and 48 instr() a side, 28 µs, against
 * 22 and 10 µs fenced.
 */
function amounts(r: string, dialect: 'sqlite' | 'postgres', shape: Shape, from = '', carry: readonly string[] = []): string {
  const sqlite = dialect === 'sqlite';
  const fence = !shape.fenced ? '' : sqlite ? ' LIMIT -1 OFFSET 0' : ' OFFSET 0';
  const named = (key: SnippetSqlField) => (shape.forms === 'either' ? snippetFieldSql(`${r}.snippet`, key) : `json_extract(${r}.snippet, '$.${key}')`);
  const value = (key: SnippetSqlField) => (sqlite ? named(key) : `(${r}.snippet::jsonb ->> '${key}')`);
  // PostgreSQL's ->> gives text for any JSON value: whether it was a string is asked apart.
  const stringness = (key: SnippetSqlField) => (sqlite ? `typeof(${value(key)}) = 'text'` : `jsonb_typeof(${r}.snippet::jsonb -> '${key}') = 'string'`);
  const read = `SELECT ${[
    ...carry.map((c) => `${r}.${c}`),
    ...FIELDS.map((f) => `${value(f)} AS ${f}_v, ${stringness(f)} AS ${f}_text`),
    `${value('currency')} AS cur_v, ${stringness('currency')} AS cur_text, ${value('type')} AS type_v`,
  ].join(', ')} ${from}${fence}`;
  const dot = (f: string) => (sqlite ? `instr(${f}_v, '.')` : `position('.' IN ${f}_v)`);
  const decimals = (f: string) => `(CASE WHEN ${f}_text AND ${dot(f)} > 0 THEN length(${f}_v) - ${dot(f)} ELSE 0 END)`;
  // What the scan's /^\s*([+-]?)(\d+)(?:\.(\d+))?\s*$/ takes, untrimmed, with at most 4 decimals and 14 digits.
  const digits = (f: string) => `replace(replace(replace(${f}_v, '.', ''), '-', ''), '+', '')`;
  const ok = (f: string) =>
    sqlite
      ? `(${f}_text AND ${f}_v GLOB '*[0-9]*' AND ${f}_v NOT GLOB '*[^0-9.+-]*' AND substr(${f}_v, 2) NOT GLOB '*[+-]*'
          AND ${f}_v NOT GLOB '*.*.*' AND ${f}_v NOT GLOB '*.' AND ${f}_v NOT GLOB '.*' AND ${f}_v NOT GLOB '[+-].*'
          AND ${decimals(f)} <= 4 AND length(${digits(f)}) <= 14)`
      : `(${f}_text AND ${f}_v ~ '^[+-]?[0-9]+([.][0-9]{1,4})?$' AND length(${digits(f)}) <= 14)`;
  const e4 = (f: string) =>
    `(CASE WHEN ${f}_ok THEN CAST(replace(${f}_v, '.', '') AS ${sqlite ? 'INTEGER' : 'bigint'}) * (CASE ${f}_d WHEN 0 THEN 10000 WHEN 1 THEN 1000 WHEN 2 THEN 100 WHEN 3 THEN 10 ELSE 1 END) ELSE 0 END)`;
  const currency = sqlite ? `(CASE WHEN cur_text AND cur_v GLOB '[A-Z][A-Z][A-Z]' THEN cur_v END)` : `(CASE WHEN cur_text AND cur_v ~ '^[A-Z]{3}$' THEN cur_v END)`;
  // Three steps, each a subquery, so nothing is worked out twice: the values; whether each is exact, and its decimals; its ten-thousandths.
  const checked = `SELECT ${[...carry, ...FIELDS.map((f) => `${f}_v, ${ok(f)} AS ${f}_ok, ${decimals(f)} AS ${f}_d`), `${currency} AS cur`, `(CASE WHEN type_v IN ${NEGATIVE} THEN -1 ELSE 1 END) AS neg`].join(', ')} FROM (${read}) v${fence}`;
  const scaled = FIELDS.map((f) => `${f}_v, ${f}_ok, ${f}_d, ${e4(f)} AS ${f}_e4`);
  return `(SELECT ${[...carry, ...scaled, 'cur', 'neg'].join(', ')} FROM (${checked}) w${fence}) d`;
}

/** The values one entry adds to its group, times `sign`, in the order of COLUMNS (over `r` and its amounts `d`). */
function contribution(r: string, sign: string): string[] {
  const priced = 'd.cur IS NOT NULL';
  return [
    `${r}.company_id`,
    `${r}.folder`,
    `${r}.state`,
    `coalesce(substr(${r}.issue_date, 1, 7), '')`,
    `coalesce(d.cur, '')`,
    sign,
    `${sign} * (CASE WHEN ${priced} AND NOT (${FIELDS.map((f) => `(d.${f}_v IS NULL OR d.${f}_ok)`).join(' AND ')}) THEN 1 ELSE 0 END)`,
    ...FIELDS.flatMap((f) => [
      `${sign} * (CASE WHEN ${priced} THEN d.neg * d.${f}_e4 ELSE 0 END)`,
      ...SCALES.map((s) => `${sign} * (CASE WHEN ${priced} AND d.${f}_d = ${s} THEN 1 ELSE 0 END)`),
    ]),
  ];
}

const COLUMNS = [...KEY, 'entries', 'inexact', ...SUM_COLUMNS];

/**
 * Adds the rows `from` gives (each a group's key and amounts, in the order of COLUMNS) to
 * their groups, a group that exists taking them into its sums. `WHERE true`: SQLite's parser
 * needs it between a SELECT's FROM and ON CONFLICT.
 */
const addToGroups = (values: string[], from: string): string =>
  `INSERT INTO entry_sums (${COLUMNS.join(', ')}) SELECT ${values.join(', ')} FROM ${from} WHERE true
       ON CONFLICT (${KEY.join(', ')}) DO UPDATE SET ${COLUMNS.slice(KEY.length).map((c) => `${c} = entry_sums.${c} + excluded.${c}`).join(', ')};`;

/** Drops the group `r` (NEW or OLD) was in once it holds no entry. */
const dropIfEmpty = (r: string): string =>
  `DELETE FROM entry_sums WHERE company_id = ${r}.company_id AND folder = ${r}.folder AND state = ${r}.state
       AND month = coalesce(substr(${r}.issue_date, 1, 7), '') AND entries = 0;`;

/** Adds one entry's amounts to its group (sign 1), or takes them away (-1) and drops the group once it is empty. */
function follow(r: string, sign: string, dialect: 'sqlite' | 'postgres', shape: Shape, adding = false): string {
  const add = addToGroups(contribution(r, sign), amounts(r, dialect, shape));
  if (adding) return add;
  return `${add}
     ${dropIfEmpty(r)}`;
}

/**
 * An entry that moves to another group with the same amounts (its state, folder or
 * company changed; its snippet and date did not): the amounts are worked out once, from
 * NEW, and taken from the old group and added to the new in one statement, two rows of
 * one INSERT. The CROSS JOIN keeps the amounts the outer loop, so they are not worked out
 * again for the second row. Worked out for each side, a job's change of state spent
 * 110 µs in the triggers.
 */
function move(dialect: 'sqlite' | 'postgres', shape: Shape): string {
  const sides = `(SELECT -1 AS sign, OLD.company_id AS company_id, OLD.folder AS folder, OLD.state AS state, OLD.issue_date AS issue_date
       UNION ALL SELECT 1, NEW.company_id, NEW.folder, NEW.state, NEW.issue_date) k`;
  return `${addToGroups(contribution('k', 'k.sign'), `${amounts('NEW', dialect, shape)} CROSS JOIN ${sides}`)}
     ${dropIfEmpty('OLD')}`;
}

/** When an update only moves a live entry between groups (move), in each engine's words for "is the same as". */
function movesOnly(dialect: 'sqlite' | 'postgres'): string {
  const same = dialect === 'sqlite' ? 'IS' : 'IS NOT DISTINCT FROM';
  return `OLD.trashed_at IS NULL AND NEW.trashed_at IS NULL AND OLD.snippet ${same} NEW.snippet AND OLD.issue_date ${same} NEW.issue_date`;
}

/** The columns of an entry a group and its amounts are made of. */
const ENTRY_COLUMNS = ['company_id', 'folder', 'state', 'issue_date'];

/** The groups of the live entries already stored (the migration's back-fill). */
function backfill(dialect: 'sqlite' | 'postgres'): string {
  return `INSERT INTO entry_sums (${COLUMNS.join(', ')})
     SELECT ${COLUMNS.map((c, i) => (i < KEY.length ? `g.${c}` : `sum(g.${c})`)).join(', ')}
     FROM (SELECT ${contribution('d', '1')
       .map((v, i) => `${v} AS ${COLUMNS[i]}`)
       .join(', ')} FROM ${amounts('e', dialect, FIRST, 'FROM entries e WHERE e.trashed_at IS NULL', ENTRY_COLUMNS)}) g
     GROUP BY ${KEY.map((c) => `g.${c}`).join(', ')}`;
}

/** What moves an entry between groups or changes its amounts. */
const WATCHED = ['company_id', 'folder', 'state', 'issue_date', 'snippet', 'trashed_at'];

/** What moves an entry to another group, its amounts unchanged. */
const MOVED = ['company_id', 'folder', 'state'];

/** Which forms of a stored snippet the SQLite triggers read (stored-snippet.ts). */
type SnippetForms = 'objects' | 'either';

/**
 * How one generation of the triggers is written: 0019 read the object, every row's form
 * then; 0029 reads either; 0039 (PostgreSQL 0019) fences the amounts' steps; 0040
 * (PostgreSQL 0020) moves an entry between groups with its amounts worked out once. An
 * older migration's text stays as it ran.
 */
interface Shape {
  forms: SnippetForms;
  fenced: boolean;
  moves: boolean;
}
const FIRST: Shape = { forms: 'objects', fenced: false, moves: false };
const EITHER: Shape = { forms: 'either', fenced: false, moves: false };
const FENCED: Shape = { forms: 'either', fenced: true, moves: false };
const MOVING: Shape = { forms: 'either', fenced: true, moves: true };

/** The SQLite triggers that keep the sums. */
function sqliteTriggers(shape: Shape): string[] {
  return [
    `CREATE TRIGGER entries_sums_insert AFTER INSERT ON entries WHEN NEW.trashed_at IS NULL BEGIN
     ${follow('NEW', '1', 'sqlite', shape, true)}
   END`,
    `CREATE TRIGGER entries_sums_delete AFTER DELETE ON entries WHEN OLD.trashed_at IS NULL BEGIN
     ${follow('OLD', '-1', 'sqlite', shape)}
   END`,
    `CREATE TRIGGER entries_sums_update AFTER UPDATE OF ${WATCHED.join(', ')} ON entries
     WHEN (OLD.trashed_at IS NULL OR NEW.trashed_at IS NULL) AND (${WATCHED.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ')})${shape.moves ? ` AND NOT (${movesOnly('sqlite')})` : ''} BEGIN
     ${follow('OLD', '(CASE WHEN OLD.trashed_at IS NULL THEN -1 ELSE 0 END)', 'sqlite', shape)}
     ${follow('NEW', '(CASE WHEN NEW.trashed_at IS NULL THEN 1 ELSE 0 END)', 'sqlite', shape)}
   END`,
    ...(shape.moves
      ? [
          `CREATE TRIGGER entries_sums_move AFTER UPDATE OF ${MOVED.join(', ')} ON entries
     WHEN ${movesOnly('sqlite')} AND (${MOVED.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ')}) BEGIN
     ${move('sqlite', shape)}
   END`,
        ]
      : []),
  ];
}

const TRIGGER_NAMES = ['entries_sums_insert', 'entries_sums_delete', 'entries_sums_update'];

export const ENTRY_SUMS_SCHEMA = [table('sqlite'), backfill('sqlite'), ...sqliteTriggers(FIRST)];

/** PostgreSQL's one function behind its three triggers. */
function pgFollow(shape: Shape, replace = false): string {
  return `CREATE ${replace ? 'OR REPLACE ' : ''}FUNCTION entry_sums_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN${shape.moves ? `
     IF TG_OP = 'UPDATE' AND ${movesOnly('postgres')} THEN
       ${move('postgres', shape)}
       RETURN NULL;
     END IF;` : ''}
     IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.trashed_at IS NULL THEN
       ${follow('OLD', '-1', 'postgres', shape)}
     END IF;
     IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.trashed_at IS NULL THEN
       ${follow('NEW', '1', 'postgres', shape, true)}
     END IF;
     RETURN NULL;
   END $$`;
}

export const ENTRY_SUMS_SCHEMA_PG = [
  table('postgres'),
  backfill('postgres'),
  pgFollow(FIRST),
  `CREATE TRIGGER entries_sums_insert AFTER INSERT ON entries FOR EACH ROW EXECUTE FUNCTION entry_sums_follow()`,
  `CREATE TRIGGER entries_sums_delete AFTER DELETE ON entries FOR EACH ROW EXECUTE FUNCTION entry_sums_follow()`,
  `CREATE TRIGGER entries_sums_update AFTER UPDATE OF ${WATCHED.join(', ')} ON entries FOR EACH ROW
     WHEN (${WATCHED.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')})
     EXECUTE FUNCTION entry_sums_follow()`,
];

/**
 * Migration 0029: the triggers again, reading a snippet in either form a row stores it
 * (stored-snippet.ts): the packed array from now on, the object before.
 */
export const ENTRY_SUMS_READ_PACKED = [...TRIGGER_NAMES.map((name) => `DROP TRIGGER ${name}`), ...sqliteTriggers(EITHER)];

/** Migration 0039: the triggers again, their amounts fenced; a state's change cost 80 µs of its 120 in them. */
export const ENTRY_SUMS_FENCED = [...TRIGGER_NAMES.map((name) => `DROP TRIGGER ${name}`), ...sqliteTriggers(FENCED)];

/** PostgreSQL's migration 0019: its function again, fenced the same way. */
export const ENTRY_SUMS_FENCED_PG = [pgFollow(FENCED, true)];

/** Migration 0040: an entry moved between groups (a change of state) with its amounts worked out once, not for each side. */
export const ENTRY_SUMS_MOVING = [...TRIGGER_NAMES.map((name) => `DROP TRIGGER ${name}`), ...sqliteTriggers(MOVING)];

/** PostgreSQL's migration 0020: its function again, moving the same way. */
export const ENTRY_SUMS_MOVING_PG = [pgFollow(MOVING, true)];
