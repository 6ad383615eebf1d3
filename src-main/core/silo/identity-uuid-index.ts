/**
 * Migration 0025 (PostgreSQL 0010). Migration 0011 dropped `entry_identities_uuid`: a
 * document's uuid is found through `entries_company_doc_uuid`, which holds the same
 * thing. Migration 0015 made the company part of every key and made the index again
 * with the others, so every entry paid 131 bytes and an index write for it since. No
 * query reads `entry_identities` by uuid.
 */
export const IDENTITY_UUID_INDEX_GONE = ['DROP INDEX IF EXISTS entry_identities_uuid'];
