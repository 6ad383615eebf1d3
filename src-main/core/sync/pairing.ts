import { ApiError, badRequest } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import type { PublicJwk } from '../keys/instance-keys.ts';
import { instanceKeySets, storeInstanceKeys } from './peer-keys.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { CompanyKey } from '../access/company-key.ts';

/**
 * The remote's side of who may speak for an instance in a company.
 *
 * An instance is paired with a company by the company's owner (an owner token
 * presenting itself at its first sync, or the owner pairing it by hand). Pairing
 * binds the instance to a token and registers its public keys in that company
 * only. From then on only that token (or an owner) may push as that instance or
 * add keys for it, so a user token, or any token of another company, can neither
 * register keys for it nor borrow its origin.
 *
 * Each sync presents the instance's identity counter: the one it acknowledged
 * last and the next one it proposes. The remote keeps the last it acknowledged;
 * a counter behind it means the data folder went back in time (restored from a
 * backup) or was copied and the copy synced first: the answer is `diverged`, and
 * the instance takes a new id. Proposals are idempotent, so a sync killed after
 * the remote took the proposal but before the instance did is not mistaken for one.
 */

export interface Counter {
  counter: number;
  nonce: string;
}

export interface IdentityClaim {
  instance_id: string;
  /** the id this instance had before it was re-identified, when it pairs under a new one */
  former_instance_id?: string;
  keys: PublicJwk[];
  acknowledged: Counter;
  next: Counter;
}

export type IdentityAnswer =
  | { status: 'paired' | 'ok'; instance_id: string }
  | { status: 'diverged'; instance_id: string; acknowledged_counter: number };

type PairingRow = NonNullable<Awaited<ReturnType<typeof findPairing>>>;

export async function findPairing(db: Db, companyKey: CompanyKey, instanceId: string) {
  return db.first(
    db.q.selectFrom('sync_pairings').selectAll().where('company_id', '=', companyKey).where('instance_id', '=', instanceId),
  );
}

/**
 * The pairing, read to be changed in this transaction: on PostgreSQL, where two requests
 * about one instance run at once, the row is locked until the transaction ends, so the
 * second reads what the first left (a counter moved on, a pairing removed).
 */
async function lockPairing(db: Db, companyKey: CompanyKey, instanceId: string) {
  return db.first(
    db.q
      .selectFrom('sync_pairings')
      .selectAll()
      .where('company_id', '=', companyKey)
      .where('instance_id', '=', instanceId)
      .$if(db.dialect === 'postgres', (qb) => qb.forUpdate()),
  );
}

const sameCounter = (a: Counter, b: { ack_counter: number; ack_nonce: string }) => a.counter === b.ack_counter && a.nonce === b.ack_nonce;

export async function presentIdentity(ctx: Ctx, claim: IdentityClaim): Promise<IdentityAnswer> {
  const { db, instanceId } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  if (claim.instance_id === instanceId) throw badRequest('this is the id of this instance itself', { '$.instance_id': 'must be the syncing instance' });
  if (claim.next.counter !== claim.acknowledged.counter + 1) {
    throw badRequest('next.counter must follow acknowledged.counter', { '$.next.counter': `must be ${claim.acknowledged.counter + 1}` });
  }
  return db.tx(async () => {
    const pairing = await lockPairing(db, companyKey, claim.instance_id);
    if (!pairing) {
      requireOwner(ctx, claim.instance_id);
      await pair(ctx, claim.instance_id, claim.keys, ctx.caller.tokenId ?? null, claim.former_instance_id ?? null, claim.next);
      return { status: 'paired' as const, instance_id: instanceId };
    }
    requireBound(ctx, pairing);
    const behind = !sameCounter(claim.acknowledged, pairing) && !sameCounter(claim.next, pairing) && claim.acknowledged.counter <= pairing.ack_counter;
    if (behind) return { status: 'diverged' as const, instance_id: instanceId, acknowledged_counter: pairing.ack_counter };
    // In step, or ahead: this remote was itself restored from an older backup; the instance's word stands.
    await storeInstanceKeys(db, companyKey, claim.instance_id, claim.keys);
    await db.run(
      db.q
        .updateTable('sync_pairings')
        .set({ ack_counter: claim.next.counter, ack_nonce: claim.next.nonce, seen_at: nowIso() })
        .where('company_id', '=', companyKey)
        .where('instance_id', '=', claim.instance_id),
    );
    return { status: 'ok' as const, instance_id: instanceId };
  }, { origin: LOCAL });
}

/** The owner pairs an instance by hand (a laptop that syncs with a user token), binding it to that token. */
export async function pairByOwner(ctx: Ctx, instanceId: string, body: { keys: PublicJwk[]; token_id?: string }) {
  const { db } = ctx.service;
  if (instanceId === ctx.service.instanceId) throw badRequest('this is the id of this instance itself', { instance_id: 'must be another instance' });
  return db.tx(async () => {
    const tokenId = body.token_id ?? ctx.caller.tokenId ?? null;
    if (tokenId) {
      const token = await db.first(db.q.selectFrom('tokens').select('id').where('id', '=', tokenId).where('company_id', '=', ctx.caller.companyKey));
      if (!token) throw new ApiError('not-found', `token ${tokenId} not found`);
    }
    const existing = await lockPairing(db, ctx.caller.companyKey, instanceId);
    if (existing) {
      await db.run(
        db.q.updateTable('sync_pairings').set({ token_id: tokenId }).where('company_id', '=', ctx.caller.companyKey).where('instance_id', '=', instanceId),
      );
      await storeInstanceKeys(db, ctx.caller.companyKey, instanceId, body.keys);
    } else {
      await pair(ctx, instanceId, body.keys, tokenId, null, { counter: 0, nonce: '' });
    }
    return peerView(db, (await findPairing(db, ctx.caller.companyKey, instanceId))!);
  }, { origin: LOCAL });
}

/** Found and removed in one transaction: of two at once, the second finds nothing to remove. */
export async function unpair(ctx: Ctx, instanceId: string) {
  const { db } = ctx.service;
  return db.tx(async () => {
    const row = await lockPairing(db, ctx.caller.companyKey, instanceId);
    if (!row) throw new ApiError('not-found', `paired instance ${instanceId} not found`);
    await db.run(db.q.deleteFrom('sync_pairings').where('company_id', '=', ctx.caller.companyKey).where('instance_id', '=', instanceId));
    return peerView(db, row);
  }, { origin: LOCAL });
}

export async function listPeers(ctx: Ctx) {
  const { db } = ctx.service;
  const rows = await db.all(db.q.selectFrom('sync_pairings').selectAll().where('company_id', '=', ctx.caller.companyKey).orderBy('paired_at'));
  const list: Array<Awaited<ReturnType<typeof peerView>>> = [];
  for (const r of rows) list.push(await peerView(db, r));
  return { list };
}

async function peerView(db: Db, row: PairingRow) {
  const keys = (await instanceKeySets(db, row.company_id)).find((s) => s.instance_id === row.instance_id)?.keys ?? [];
  return {
    instance_id: row.instance_id,
    ...(row.token_id ? { token_id: row.token_id } : {}),
    ...(row.successor_of ? { successor_of: row.successor_of } : {}),
    paired_at: row.paired_at,
    ...(row.seen_at ? { seen_at: row.seen_at } : {}),
    keys,
  };
}

/** Adding keys (the instance rotated) is for the token it is bound to, or an owner. */
/** The pairing checked and the keys added in one transaction: an unpairing cannot come in between. */
export async function addInstanceKeys(ctx: Ctx, instanceId: string, keys: PublicJwk[]): Promise<number> {
  const { db } = ctx.service;
  if (instanceId === ctx.service.instanceId) throw badRequest('these are keys of this instance itself', { '$.instance_id': 'must be another instance' });
  return db.tx(async () => {
    const pairing = await lockPairing(db, ctx.caller.companyKey, instanceId);
    if (!pairing) {
      throw new ApiError(
        'forbidden',
        `instance ${instanceId} is not paired with this company; its owner pairs it first (PUT /sync/v1/peers/${instanceId})`,
      );
    }
    requireBound(ctx, pairing);
    return storeInstanceKeys(db, ctx.caller.companyKey, instanceId, keys);
  }, { origin: LOCAL });
}

/**
 * A push names its origin; the origin of a paired instance is that instance's
 * alone. An origin nobody paired is only a label (tools that push plain records);
 * it carries no signing authority, since series records verify against keys
 * registered through pairing.
 */
export async function checkOrigin(ctx: Ctx, origin: string): Promise<void> {
  const pairing = await findPairing(ctx.service.db, ctx.caller.companyKey, origin);
  if (pairing) requireBound(ctx, pairing);
}

function requireOwner(ctx: Ctx, instanceId: string): void {
  if (ctx.caller.kind === 'owner') return;
  throw new ApiError(
    'forbidden',
    `instance ${instanceId} is not paired with this company: the company's owner pairs it (sync once with an owner token, ` +
      `or PUT /sync/v1/peers/${instanceId} with this token's id)`,
  );
}

function requireBound(ctx: Ctx, pairing: PairingRow): void {
  if (ctx.caller.kind === 'owner') return;
  if (pairing.token_id !== null && pairing.token_id === ctx.caller.tokenId) return;
  throw new ApiError('forbidden', `instance ${pairing.instance_id} is paired with this company through another token; this token cannot speak for it`);
}

async function pair(ctx: Ctx, instanceId: string, keys: PublicJwk[], tokenId: string | null, successorOf: string | null, counter: Counter): Promise<void> {
  const { db } = ctx.service;
  await db.run(
    db.q.insertInto('sync_pairings').values({
      company_id: ctx.caller.companyKey,
      instance_id: instanceId,
      token_id: tokenId,
      successor_of: successorOf,
      ack_counter: counter.counter,
      ack_nonce: counter.nonce,
      paired_at: nowIso(),
      seen_at: nowIso(),
    }),
  );
  await storeInstanceKeys(db, ctx.caller.companyKey, instanceId, keys);
}
