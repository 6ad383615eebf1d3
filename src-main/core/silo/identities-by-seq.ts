/**
 * A document's identity (its type, series, code and issue date: what a reference by
 * number matches) is keyed by its entry's seq, no longer by (company, entry id): the
 * identities' rows and their code index each held the entry's 36-character id (the code
 * index as the key it points with), about 90 bytes an entry (migration 0033). The uuid
 * column goes with it: a document is found by its uuid through entries.doc_uuid.
 *
 * SQLite makes the table anew (a key cannot change in place); rows of entries gone are
 * not carried over. The code index stays partial: only documents with a code are in it.
 */
const madeAnew = (seq: string, text: string, strict: string): string[] => [
  `CREATE TABLE entry_identities_new (
     seq ${seq} PRIMARY KEY REFERENCES entries(seq) ON DELETE CASCADE,
     company_id ${text} NOT NULL,
     type ${text}, series ${text}, code ${text}, issue_date ${text}
   )${strict}`,
  `INSERT INTO entry_identities_new (seq, company_id, type, series, code, issue_date)
     SELECT e.seq, i.company_id, i.type, i.series, i.code, i.issue_date
     FROM entry_identities i JOIN entries e ON e.company_id = i.company_id AND e.id = i.entry_id`,
  `DROP TABLE entry_identities`,
  `ALTER TABLE entry_identities_new RENAME TO entry_identities`,
  `CREATE INDEX entry_identities_code ON entry_identities(company_id, code) WHERE code IS NOT NULL`,
];

export const IDENTITIES_BY_SEQ = madeAnew('INTEGER', 'TEXT', ' STRICT');
/** PostgreSQL's twin (0015): the same table and index, made anew the same way. */
export const IDENTITIES_BY_SEQ_PG = madeAnew('bigint', 'text', '');
