import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../sha256.ts';
import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import type { Selectable } from 'kysely';
import type { Db } from '../db/engine.ts';
import type { TokensTable } from '../db/tables.ts';
import type { CallerKind } from '../api/operation.ts';
import { notFound } from '../api/errors.ts';
import { nowIso } from '../clock.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { rememberCompany, type CompanyKey } from './company-key.ts';

export interface Caller {
  /** the key the company's rows are stored under (company-key.ts): for every query */
  companyKey: CompanyKey;
  /** the company's public id: for whatever leaves the install or is compared with what came in */
  companyId: string;
  kind: CallerKind;
  tokenId?: string;
  /** for application callers: the enrollment the token belongs to */
  enrollmentId?: string;
  /**
   * Acts for the whole install, not one company: the desktop window, and the owner
   * token `serve` writes to `api-token`. Only such a caller lists and renames
   * other companies; every other owner manages their own company alone.
   */
  install?: boolean;
}

type TokenRow = Selectable<TokensTable>;

const PREFIX = 'sd_';
/** last_used_at is a hint for the accountant, not an audit log: at most one write a minute per token */
const TOUCH_EVERY_MS = 60_000;

export const hashToken = (secret: string): string => sha256Hex(secret);

/**
 * Resolved callers by token hash, so a busy client does not pay a query per call.
 * Every write that can change what a token stands for (revoke, rotate, an
 * enrollment disabled) clears it, so a revoked token stops working at once.
 */
const resolved = new WeakMap<Db, Map<string, { caller: Caller; lastUsed: number }>>();

export function forgetResolvedTokens(db: Db): void {
  resolved.delete(db);
}

const newSecret = () => PREFIX + randomBytes(32).toString('base64url');

/** A new random 256-bit token. Only its SHA-256 is stored; the secret is returned once. */
export async function createToken(
  db: Db,
  companyKey: CompanyKey,
  kind: CallerKind,
  name: string,
  enrollmentId: string | null = null,
  /** derives the secret from the new token's id instead of drawing it at random (see access/authorize.ts) */
  secretFor?: (id: string) => string,
): Promise<{ id: string; secret: string }> {
  const id = uuidv7();
  const secret = secretFor ? PREFIX + secretFor(id) : newSecret();
  await db.run(
    db.q.insertInto('tokens').values({
      id,
      company_id: companyKey,
      kind,
      name,
      hash: hashToken(secret),
      enrollment_id: enrollmentId,
      created_at: nowIso(),
      last_used_at: null,
      revoked_at: null,
    }),
  );
  return { id, secret };
}

/** The setting that names the owner token in `api-token` (serve), which acts for the whole install. */
const INSTALL_TOKEN = 'api_token_id';

/**
 * Finds the caller a bearer secret stands for. The lookup is by SHA-256, so timing
 * reveals nothing about the secret; the final comparison is constant-time anyway.
 * A revoked token, or the token of a disabled enrollment, stands for no one.
 */
export async function resolveToken(db: Db, secret: string): Promise<Caller | undefined> {
  if (!secret.startsWith(PREFIX) || secret.length > 200) return undefined;
  const hash = hashToken(secret);
  // Taken now: a write that clears the cache while this lookup awaits the database leaves
  // this map behind, so what the lookup read before that write is never served again.
  const cache = resolved.get(db) ?? new Map();
  resolved.set(db, cache);
  const hit = cache.get(hash);
  // On PostgreSQL another serve process may revoke the token, which this one's cache would never hear of: there, every call reads it.
  if (hit && db.dialect === 'sqlite' && Date.now() - hit.lastUsed < TOUCH_EVERY_MS) return hit.caller;
  const row = await db.first(
    db.q
      .selectFrom('tokens')
      .leftJoin('enrollments', 'enrollments.id', 'tokens.enrollment_id')
      .innerJoin('companies', 'companies.id', 'tokens.company_id')
      .select(['tokens.id', 'tokens.company_id', 'companies.uuid', 'tokens.kind', 'tokens.hash', 'tokens.revoked_at', 'tokens.last_used_at', 'tokens.enrollment_id', 'enrollments.disabled'])
      // Which token is the install's, in the same statement: one round trip per call on PostgreSQL, not two.
      .select((eb) => eb.selectFrom('settings').select('value').where('key', '=', INSTALL_TOKEN).as('install_token_id'))
      .where('tokens.hash', '=', hash),
  );
  if (!row || row.revoked_at) return undefined;
  if (!timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) return undefined;
  if (row.kind === 'app' && (!row.enrollment_id || row.disabled !== 0)) return undefined;
  if (!row.last_used_at || Date.now() - Date.parse(row.last_used_at) > TOUCH_EVERY_MS) {
    await db.run(db.q.updateTable('tokens').set({ last_used_at: nowIso() }).where('id', '=', row.id));
  }
  const install = row.kind === 'owner' && row.id === row.install_token_id;
  const caller: Caller = {
    companyKey: row.company_id,
    companyId: row.uuid,
    kind: row.kind as CallerKind,
    tokenId: row.id,
    ...(row.enrollment_id ? { enrollmentId: row.enrollment_id } : {}),
    ...(install ? { install: true } : {}),
  };
  // Every call names its company by both: what later reads of either take (company-key.ts).
  rememberCompany(db, caller.companyKey, caller.companyId);
  if (cache.size > 10_000) cache.clear();
  cache.set(hash, { caller, lastUsed: Date.now() });
  return caller;
}

/** The id of the owner token in `api-token` (serve), which acts for the whole install. */
export async function installTokenId(db: Db): Promise<string | undefined> {
  return (await db.first(db.q.selectFrom('settings').select('value').where('key', '=', INSTALL_TOKEN)))?.value;
}

export async function setInstallTokenId(db: Db, id: string): Promise<void> {
  await db.run(
    db.q.insertInto('settings').values({ key: INSTALL_TOKEN, value: id }).onConflict((oc) => oc.column('key').doUpdateSet({ value: id })),
  );
  forgetResolvedTokens(db);
}

/** The company a token-managing call acts for: its key for the rows, its public id for the views. */
type TokensOf = Pick<Caller, 'companyKey' | 'companyId'>;

/** `companyId`: the public id of the company the token belongs to (the row holds its key) */
export function tokenView(row: TokenRow, companyId: string) {
  return {
    id: row.id,
    company_id: companyId,
    kind: row.kind as CallerKind,
    name: row.name,
    ...(row.enrollment_id ? { enrollment_id: row.enrollment_id } : {}),
    created_at: row.created_at,
    ...(row.last_used_at ? { last_used_at: row.last_used_at } : {}),
    ...(row.revoked_at ? { revoked_at: row.revoked_at } : {}),
  };
}

export async function listTokens(db: Db, of: TokensOf) {
  const rows = await db.all(db.q.selectFrom('tokens').selectAll().where('company_id', '=', of.companyKey).orderBy('created_at'));
  return rows.map((row) => tokenView(row, of.companyId));
}

/** `lock`: on PostgreSQL, held until the transaction ends (a rotation and a revocation at once run one after the other). */
async function requireToken(db: Db, companyKey: CompanyKey, id: string, lock = false): Promise<TokenRow> {
  const row = await db.first(
    db.q.selectFrom('tokens').selectAll().where('id', '=', id).where('company_id', '=', companyKey).$if(lock && db.dialect === 'postgres', (qb) => qb.forUpdate()),
  );
  if (!row) throw notFound(`token ${id}`);
  return row;
}

export async function revokeToken(db: Db, of: TokensOf, id: string) {
  await requireToken(db, of.companyKey, id);
  forgetResolvedTokens(db);
  await db.run(
    db.q.updateTable('tokens').set({ revoked_at: nowIso() }).where('id', '=', id).where('revoked_at', 'is', null),
  );
  // Again once written: a lookup that read the token while the revocation awaited caches nothing that lasts.
  forgetResolvedTokens(db);
  return tokenView(await requireToken(db, of.companyKey, id), of.companyId);
}

/** Replaces a token's secret: same id, name and kind; the old secret stops working at once. */
export async function rotateToken(db: Db, of: TokensOf, id: string) {
  // One transaction: a revocation landing between the check and the write must not be given a new secret.
  const rotated = await db.tx(async () => {
    const row = await requireToken(db, of.companyKey, id, true);
    if (row.revoked_at) throw notFound(`active token ${id}`);
    const secret = newSecret();
    await db.run(db.q.updateTable('tokens').set({ hash: hashToken(secret), last_used_at: null }).where('id', '=', id));
    return { ...tokenView(await requireToken(db, of.companyKey, id), of.companyId), token: secret };
  }, { origin: LOCAL });
  forgetResolvedTokens(db);
  return rotated;
}
