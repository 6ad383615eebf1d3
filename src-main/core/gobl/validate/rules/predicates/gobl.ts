// gobl: the envelope — its digest, its document payload, and signing preconditions.
import type { PredicateTable } from './table.ts';
import type { At } from '../model.ts';
import { digestOf } from '../../../canonical.ts';
import { rootTypeOf } from '../../../shape/schemas.ts';
import { list, obj, str } from '../values.ts';

function validDigest(v: unknown, at: At): boolean {
  const env = obj(v);
  const dig = obj(obj(env?.head)?.dig);
  if (!env || !dig || !obj(env.doc)) return false;
  if (at.ctx.digestTrusted) return true;
  const d = at.ctx.knownDigest ?? digestOf(env.doc);
  return str(dig.alg) === d.alg && str(dig.val) === d.val;
}

// Documents that can refuse signing (CanSign): bill documents need their code, a status also
// its issue date; other documents are always ready.
const NEED_CODE = new Set(['bill.Invoice', 'bill.Delivery', 'bill.Order', 'bill.Payment', 'bill.Status']);

function readyToSign(v: unknown): boolean {
  const doc = obj(obj(v)?.doc);
  if (!doc) return false;
  const type = rootTypeOf(str(doc.$schema)) ?? '';
  if (!NEED_CODE.has(type)) return true;
  const issued = str(doc.issue_date);
  return str(doc.code) !== '' && (type !== 'bill.Status' || (issued !== '' && issued !== '0000-00-00'));
}

export const gobl: PredicateTable = {
  'valid digest': validDigest,
  'doc has payload': (v) => rootTypeOf(str(obj(v)?.$schema)) !== undefined,
  'not signed': (v) => obj(v) !== undefined && list(obj(v)?.sigs).length === 0,
  'has signatures': (v) => list(obj(v)?.sigs).length > 0,
  'no stamps': (v) => list(obj(obj(v)?.head)?.stamps).length === 0,
  'ready to sign': readyToSign,
};
