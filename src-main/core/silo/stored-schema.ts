import { ENVELOPE_SCHEMA } from '../gobl/doc-types.ts';

/**
 * An entry's `doc_schema` and `env_schema` as its row stores them. Nearly every one is
 * GOBL's (`https://gobl.org/draft-0/bill/invoice`, `…/envelope`), and the 25 characters
 * they share were 50 bytes of every entry: a GOBL schema is stored as `~` and the rest
 * (`~bill/invoice`). Any other is stored as it is, and one that itself begins with `~`
 * gets a second one in front, so every stored text reads back as exactly what was stored.
 * Rows written before keep the whole URL, which reads the same.
 */
const GOBL_SCHEMAS = 'https://gobl.org/draft-0/';
const SHORT = '~';

/** The text a row stores for a document's or envelope's `$schema`. */
export function storedSchema(schema: string): string {
  if (schema.startsWith(GOBL_SCHEMAS) && !schema.startsWith(SHORT, GOBL_SCHEMAS.length)) return SHORT + schema.slice(GOBL_SCHEMAS.length);
  return schema.startsWith(SHORT) ? SHORT + schema : schema;
}

/** The schema a row's text stands for, whichever way it was stored. */
export function schemaFromStored(stored: string): string {
  if (stored.startsWith(SHORT + SHORT)) return stored.slice(1);
  return stored.startsWith(SHORT) ? GOBL_SCHEMAS + stored.slice(1) : stored;
}

/**
 * An entry's `env_schema` as its row stores it: the empty text for GOBL's envelope, which
 * every entry's is (the silo wraps anything else in one: wrap.ts), 9 bytes of every entry
 * less; any other as storedSchema stores it. Rows written before keep `~envelope`, which
 * reads the same. (An envelope schema that is itself empty cannot be stored: it is not one.)
 */
export function storedEnvSchema(schema: string): string {
  return schema === ENVELOPE_SCHEMA ? '' : storedSchema(schema);
}

/** The envelope schema an entry's row stands for, whichever way it was stored. */
export function envSchemaFromStored(stored: string): string {
  return stored === '' ? ENVELOPE_SCHEMA : schemaFromStored(stored);
}

/**
 * An entry's `digest_alg` likewise: the empty text for SHA-256, the silo's only digest
 * (digestOf), 6 bytes of every entry less; rows written before keep `sha256`.
 */
const DEFAULT_DIGEST_ALG = 'sha256';
export const storedDigestAlg = (alg: string): string => (alg === DEFAULT_DIGEST_ALG ? '' : alg);
export const digestAlgFromStored = (stored: string): string => (stored === '' ? DEFAULT_DIGEST_ALG : stored);

/** The digest an entry's row stands for, its algorithm read back from the stored form. */
export const digestOfRow = (row: { digest_alg: string; digest_val: string }): { alg: string; val: string } => ({
  alg: digestAlgFromStored(row.digest_alg),
  val: row.digest_val,
});
