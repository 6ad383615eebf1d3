// Digests a caller has already worked out, for the one document it is working on. Importing an
// entry digests its document three times over: the request's hash covers the document, the
// silo digests the document as given (head.dig), and the engine digests its rebuild, which for
// a document GOBL built is the same tree. The request's hash can note the document's digest on
// the way (canonical-bytes.ts), and while that document is known here, digestOf answers it
// without writing and hashing it again, and a rebuild equal to it takes it as its own.
//
// The promise that makes this safe is the caller's: the document does not change while it is
// known. It is known for one call only (withKnownDigest), by identity, never by content.
import type { Digest } from './canonical.ts';

const known = new WeakMap<object, Digest>();

/**
 * Runs `work` with the digest of `doc` known to be `digest`. `doc` must not change until the
 * promise `work` returns settles; it is forgotten then.
 */
export async function withKnownDigest<T>(doc: object, digest: Digest, work: () => Promise<T>): Promise<T> {
  known.set(doc, digest);
  try {
    return await work();
  } finally {
    known.delete(doc);
  }
}

/** The digest of `doc` while a caller has it known (a copy: callers keep and change digests). */
export function knownDigestOf(doc: unknown): Digest | undefined {
  if (typeof doc !== 'object' || doc === null) return undefined;
  const digest = known.get(doc);
  return digest === undefined ? undefined : { alg: digest.alg, val: digest.val };
}
