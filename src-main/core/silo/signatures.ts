// Signatures on the way in. A stored envelope with `sigs` is shown signed and its document can
// never change again, so a signature is taken only when it verifies, in GOBL's form
// (verifyEnvelopeSigs: ES256 over head uuid + digest, the digest matching the document), against
// a key this company trusts: this instance's own keys, the keys of the instances paired with it
// through sync (the issuers whose series and documents it receives), or a JWKS its owner registered
// as trusted (trusted-jwks.ts). Anything else is a 422 naming the signature.
import type { Ctx } from '../api/handler.ts';
import { validationError } from '../api/errors.ts';
import { digestOf } from '../gobl/index.ts';
import { verifyEnvelopeSigs, type SigProblem, type VerifyingJwk } from '../gobl/sign/index.ts';
import { isOwnIdentity } from '../keys/identity.ts';
import type { Envelope } from './document.ts';
import { trustedJwksKeys } from './trusted-jwks.ts';

/** More signatures than any real document carries; each is checked against every trusted key. */
export const MAX_SIGS = 16;

/** Checks an envelope's `sigs` before it is stored; rejects with a 422 naming `<at>.sigs[i]`. */
export type SigsCheck = (envelope: Envelope) => Promise<void>;

const PROBLEM: Record<SigProblem, string> = {
  malformed: 'is not a compact ES256 JWS with a JSON payload',
  'no-matching-key': "no key this company trusts verifies it (this instance's keys, its paired instances' keys, or a trusted JWKS)",
  'head-mismatch': "signs another uuid or digest than this envelope's head",
  'outside-key-window': "was made outside its key's valid_from..valid_until",
  'doc-changed': 'signs head.dig, but the document no longer matches it',
};

/** Every public key a signature on a document of the caller's company may verify with. */
export async function trustedKeys(ctx: Ctx): Promise<VerifyingJwk[]> {
  const { db, instanceId, keys } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  const peers: VerifyingJwk[] = [];
  for (const row of await db.all(db.q.selectFrom('sync_instance_keys').select(['instance_id', 'jwk']).where('company_id', '=', companyKey))) {
    // This install is trusted through its own key files only, whatever was registered under its id.
    if (!(await isOwnIdentity(db, instanceId, row.instance_id))) peers.push(JSON.parse(row.jwk) as VerifyingJwk);
  }
  return [...keys.jwks().keys, ...peers, ...(await trustedJwksKeys(db, companyKey))];
}

/**
 * The check for the caller's company, `at` being where the envelope sits in the
 * request (`$.data`, or `$.record.data` for a synced record). Keys are read once, at
 * the first signed envelope, so a bulk import of unsigned documents costs nothing.
 */
export function sigsCheckFor(ctx: Ctx, at = '$.data'): SigsCheck {
  let keys: VerifyingJwk[] | undefined;
  return (envelope) => verifySigsOrRefuse(envelope, async () => (keys ??= await trustedKeys(ctx)), at);
}

export async function verifySigsOrRefuse(envelope: Envelope, keys: () => Promise<VerifyingJwk[]>, at = '$.data'): Promise<void> {
  // Absent or null: unsigned (GOBL leaves an empty list out).
  if (envelope.sigs === undefined || envelope.sigs === null) return;
  const sigs = envelope.sigs as unknown;
  if (!Array.isArray(sigs) || !sigs.every((s) => typeof s === 'string')) {
    throw validationError('sigs must be a list of compact JWS signatures', { [`${at}.sigs`]: 'must be an array of strings' });
  }
  if (sigs.length === 0) return;
  if (sigs.length > MAX_SIGS) {
    throw validationError(`an envelope carries at most ${MAX_SIGS} signatures`, { [`${at}.sigs`]: `at most ${MAX_SIGS}` });
  }
  const report = verifyEnvelopeSigs(envelope, await keys());
  if (report.valid) return;
  const fields: Record<string, string> = {};
  for (const sig of report.sigs) if (!sig.valid) fields[`${at}.sigs[${sig.index}]`] = `the signature ${PROBLEM[sig.problem ?? 'malformed']}`;
  if (Object.keys(fields).length === 0) fields[`${at}.sigs`] = `the signature ${PROBLEM['doc-changed']}`;
  const first = Object.entries(fields)[0];
  throw validationError(`signature not accepted: ${first[0]} ${first[1].replace(/^the signature /, '')}`, fields);
}

/**
 * Whether `next` carries exactly the signatures `stored` already has, over the same
 * head and an unchanged document: they were verified when they came in and need not
 * be again (a key since unpaired or untrusted must not make a label change on a
 * signed entry fail).
 */
export function sameSignatures(stored: Envelope | undefined, next: Envelope): boolean {
  if (!stored || !Array.isArray(stored.sigs) || !Array.isArray(next.sigs)) return false;
  if (stored.sigs.length !== next.sigs.length || !stored.sigs.every((s, i) => s === next.sigs![i])) return false;
  const dig = next.head?.dig;
  if (stored.head?.uuid !== next.head?.uuid || stored.head?.dig?.val !== dig?.val || stored.head?.dig?.alg !== dig?.alg) return false;
  return digestOf(next.doc ?? null).val === dig?.val;
}
