import { ApiError } from '../../api/errors.ts';
import type { SyncRecordOf } from '../../api/contract/sync.ts';
import { canonicalJson } from '../../gobl/index.ts';
import { isOwnIdentity } from '../../keys/identity.ts';
import { SignatureError } from '../../keys/jws.ts';
import { sha256Hex } from '../../sha256.ts';
import type { Service } from '../../service.ts';
import { verifyIssuerJws } from '../peer-keys.ts';
import type { CompanyKey } from '../../access/company-key.ts';

/**
 * Checks, before it is applied, that a series or series entry is exactly what
 * its issuer signed: the signature with the issuer's keys as this company holds
 * them (this install's own keys when it names this install as its issuer, pulled
 * or pushed alike), and every field against the signed payload. So no copy holds
 * a forged or edited entry, and nobody plants a series "issued" by this install.
 */
export async function checkSeriesSigned(service: Service, companyKey: CompanyKey, r: SyncRecordOf['series']): Promise<void> {
  const payload = await signedPayload(service, companyKey, r.issuer, r.sigs[0], '$.record.sigs[0]');
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

export async function checkSeriesEntrySigned(
  service: Service,
  companyKey: CompanyKey,
  issuer: string,
  r: SyncRecordOf['series_entry'],
  previousHash: string,
): Promise<void> {
  const payload = await signedPayload(service, companyKey, issuer, r.sigs[0], '$.record.sigs[0]');
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

async function signedPayload(service: Service, companyKey: CompanyKey, issuer: string, jws: string, path: string): Promise<Record<string, unknown>> {
  try {
    return await verifyIssuerJws(service, companyKey, issuer, jws);
  } catch (err) {
    if (err instanceof SignatureError) {
      const own = await isOwnIdentity(service.db, service.instanceId, issuer);
      const why = own
        ? `refused: it names this instance as its issuer, but this instance did not sign it (${err.message})`
        : err.problem === 'unknown-kid'
          ? `refused: the issuer's keys are not known in this company (${err.message}); its owner pairs the issuing instance first`
          : `refused: ${err.message}`;
      throw refused(why, path);
    }
    throw err;
  }
}

const refused = (message: string, path: string) => new ApiError('validation', message, { [path]: message });
