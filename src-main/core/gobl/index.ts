// Pure GOBL helpers: canonical digests and what Silodesk derives from a document (snippet,
// mentions, search text, folder). The engine itself (build, check, correct, sign) is engine/.
export { canonicalJson, digestOf } from './canonical.ts';
export { canonicalSha256, canonicalSha256Parts } from './canonical-bytes.ts';
export { withKnownDigest } from './known-digest.ts';
export type { Digest } from './canonical.ts';
export {
  docTypeOf, ENVELOPE_SCHEMA, INVOICE_SCHEMA, MESSAGE_SCHEMA, PARTY_SCHEMA, PAYMENT_SCHEMA,
} from './doc-types.ts';
export type { Fault } from './fault.ts';
export { jsonPath } from './json-path.ts';
export { snippetOf } from './snippet.ts';
export { mentionsOf } from './mentions.ts';
export type { Mention } from './mentions.ts';
export { searchTextOf, SEARCH_TEXT_MAX_BYTES } from './search-text.ts';
export { defaultFolderOf, isEnvelope, wrapDocument } from './wrap.ts';
export type { Envelope } from './wrap.ts';
