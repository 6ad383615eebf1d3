import { ApiError } from '../../api/errors.ts';
import type { SyncRecordOf } from '../../api/contract/sync.ts';
import { canonicalJson } from '../../gobl/index.ts';
import { SignatureError } from '../../keys/jws.ts';
import type { Store } from '../../db/store.ts';
import { sha256Hex } from '../../sequence/chain.ts';
import { verifyPeerJws } from '../peer-keys.ts';

/**
 * Checks, before a copy takes it, that a series or series entry is exactly what
 * its issuer signed: the signature with the issuer's keys, and every field
 * against the signed payload. So a copy can never hold a forged or edited entry,
 * and `verifySeries` on it holds from the first entry.
 */
export function checkSeriesSigned(store: Store, r: SyncRecordOf['series']): void {
  const payload = signedPayload(store, r.issuer, r.sigs[0], '$.record.sigs[0]');
  const expected: Record<string, unknown> = {
    series_id: r.id,
    code: r.code,
    prefix: r.prefix,
    padding: r.padding,
    suffix: r.suffix,
    start: r.start,
    iss: r.issuer,
    csig: r.sigs[1] === undefined ? undefined : sha256Hex(r.sigs[1]),
  };
  for (const [field, value] of Object.entries(expected)) {
    if (payload[field] !== value) throw refused(`series ${field} differs from what the issuer signed`, '$.record.sigs[0]');
  }
}

export function checkSeriesEntrySigned(
  store: Store,
  issuer: string,
  r: SyncRecordOf['series_entry'],
  previousHash: string,
): void {
  const payload = signedPayload(store, issuer, r.sigs[0], '$.record.sigs[0]');
  const expected: Record<string, unknown> = {
    series_id: r.series_id,
    id: r.id,
    index: r.index,
    code: r.code,
    previous_id: r.previous_id ?? null,
    prev: previousHash,
    at: r.created_at,
    iss: issuer,
    csig: r.sigs[1] === undefined ? undefined : sha256Hex(r.sigs[1]),
  };
  for (const [field, value] of Object.entries(expected)) {
    if ((payload[field] ?? undefined) !== (value ?? undefined)) {
      throw refused(`series entry ${field} differs from what the issuer signed`, '$.record.sigs[0]');
    }
  }
  if (canonicalJson(payload.meta) !== canonicalJson(r.meta)) throw refused('series entry meta differs from what the issuer signed', '$.record.meta');
}

function signedPayload(store: Store, issuer: string, jws: string, path: string): Record<string, unknown> {
  try {
    return verifyPeerJws(store, issuer, jws);
  } catch (err) {
    if (err instanceof SignatureError) {
      const why = err.problem === 'unknown-kid' ? `the issuer's keys are not known here (${err.message}); send them to /sync/v1/keys` : err.message;
      throw refused(why, path);
    }
    throw err;
  }
}

const refused = (message: string, path: string) => new ApiError('validation', message, { [path]: message });
