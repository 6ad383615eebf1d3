/**
 * Migration 0010 (issue 12, items 3 and 8).
 *
 * Conflict copies used to be local-only (never pushed, so work done on them stayed
 * on one laptop). They now sync like any entry: the copies made before, with their
 * files and meta, go into the outbox (parents first) and out at the next sync.
 *
 * Trusted signers: the JWKS a company's owner registers, whose GOBL signatures the
 * company accepts on documents (silo/trusted-jwks.ts). Ids are per company.
 */
const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
const UNRECORDED = (kind: string, id: string) =>
  `NOT EXISTS (SELECT 1 FROM sync_changes c WHERE c.company_id = e.company_id AND c.kind = '${kind}' AND c.record_id = ${id})`;

export const COPIES_AND_SIGNERS = [
  `INSERT INTO sync_changes (company_id, kind, record_id, version, deleted, origin, remote_version, synced_version, at)
     SELECT e.company_id, 'entry', e.id, 1, 0, 'local', NULL, NULL, ${NOW}
     FROM entries e JOIN sync_local_only l ON l.entry_id = e.id
     WHERE ${UNRECORDED('entry', 'e.id')} ORDER BY e.seq`,
  `INSERT INTO sync_changes (company_id, kind, record_id, version, deleted, origin, remote_version, synced_version, at)
     SELECT e.company_id, 'attachment', a.entry_id || ':' || a.id, 1, 0, 'local', NULL, NULL, ${NOW}
     FROM attachments a JOIN entries e ON e.id = a.entry_id JOIN sync_local_only l ON l.entry_id = e.id
     WHERE ${UNRECORDED('attachment', "a.entry_id || ':' || a.id")} ORDER BY e.seq, a.id`,
  `INSERT INTO sync_changes (company_id, kind, record_id, version, deleted, origin, remote_version, synced_version, at)
     SELECT e.company_id, 'meta', m.entry_id || ':' || m.src || ':' || m.key, 1, 0, 'local', NULL, NULL, ${NOW}
     FROM entry_meta m JOIN entries e ON e.id = m.entry_id JOIN sync_local_only l ON l.entry_id = e.id
     WHERE ${UNRECORDED('meta', "m.entry_id || ':' || m.src || ':' || m.key")} ORDER BY e.seq, m.src, m.key`,
  `DELETE FROM sync_local_only`,
  `CREATE TABLE trusted_jwks (
     company_id TEXT NOT NULL,
     id TEXT NOT NULL,
     name TEXT NOT NULL,
     keys TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (company_id, id)
   ) STRICT, WITHOUT ROWID`,
];
