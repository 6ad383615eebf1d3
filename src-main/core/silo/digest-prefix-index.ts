/**
 * Migration 0030 (SQLite only). Twins are found by their document's digest (an import's
 * duplicates, findTwin), and the index held all 64 hex digits of it: 126 bytes of every
 * entry. It holds the first 16 now (64 bits: two documents that share them are told apart
 * by the digest in the row, which the look-ups compare too), 78 bytes. PostgreSQL keeps
 * its index on the whole digest: its look-ups name the digest itself and need nothing else.
 */
/** SQLite's expression for the first 16 digits of a digest: the indexed one, and the looked-up one's, alike. */
export const digestPrefix = (digest: string): string => `substr(${digest}, 1, 16)`;

export const DIGEST_INDEX_BY_PREFIX = [
  'DROP INDEX IF EXISTS entries_company_digest',
  `CREATE INDEX entries_company_digest_prefix ON entries (company_id, ${digestPrefix('digest_val')})`,
];

/** The entry other than `id` holding a digest, the earliest stored: [SQL, its parameters]. */
export function digestHolderSql(dialect: 'sqlite' | 'postgres', company: string, digest: string, id: string): [string, unknown[]] {
  return dialect === 'sqlite'
    ? [`SELECT id FROM entries WHERE company_id = ? AND ${digestPrefix('digest_val')} = ${digestPrefix('?')} AND digest_val = ? AND id <> ? LIMIT 1`, [company, digest, digest, id]]
    : ['SELECT id FROM entries WHERE company_id = ? AND digest_val = ? AND id <> ? ORDER BY seq LIMIT 1', [company, digest, id]];
}
