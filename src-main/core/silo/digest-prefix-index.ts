/**
 * Migrations 0030 and 0037 (SQLite only). Twins are found by their document's digest (an
 * import's duplicates, findTwin), and the index held all 64 hex digits of it: 126 bytes of
 * every entry. It holds a prefix now (two documents that share one are told apart by the
 * digest in the row, which the look-ups compare too). PostgreSQL keeps
 * its index on the whole digest: its look-ups name the digest itself and need nothing else.
 */
/** 0030's index held the first 16 digits as text. */
export const DIGEST_INDEX_BY_PREFIX = [
  'DROP INDEX IF EXISTS entries_company_digest',
  `CREATE INDEX entries_company_digest_prefix ON entries (company_id, substr(digest_val, 1, 16))`,
];

/**
 * SQLite's expression for a digest's prefix: the indexed one, and the looked-up one's,
 * alike. Since migration 0037 its first 12 digits as the 6 bytes they spell (48 bits: at
 * a million entries a look-up meets another document's prefix about once in 280 million),
 * 7 bytes of every entry's index entry instead of 17. A digest that is not hex (none the
 * silo makes) has no prefix, so no twin: the look-up compares the digest in the row anyway.
 */
export const digestPrefix = (digest: string): string => `unhex(substr(${digest}, 1, 12))`;

export const DIGEST_INDEX_BY_BYTES = [
  'DROP INDEX entries_company_digest_prefix',
  `CREATE INDEX entries_company_digest_prefix ON entries (company_id, ${digestPrefix('digest_val')})`,
];

/** The entry other than `id` holding a digest, the earliest stored: [SQL, its parameters]. */
export function digestHolderSql(dialect: 'sqlite' | 'postgres', company: string, digest: string, id: string): [string, unknown[]] {
  return dialect === 'sqlite'
    ? [`SELECT id FROM entries WHERE company_id = ? AND ${digestPrefix('digest_val')} = ${digestPrefix('?')} AND digest_val = ? AND id <> ? LIMIT 1`, [company, digest, digest, id]]
    : ['SELECT id FROM entries WHERE company_id = ? AND digest_val = ? AND id <> ? ORDER BY seq LIMIT 1', [company, digest, id]];
}
