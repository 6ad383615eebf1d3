import { sha256Hex } from '../sha256.ts';
import type { Selectable } from 'kysely';
import { v5 as uuidv5 } from 'uuid';
import { canonicalJson } from '../gobl/index.ts';
import { conflict, notFound, validationError } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { EnrollBody, EnrollmentData } from '../api/contract/access.ts';
import type { EnrollmentsTable } from '../db/tables.ts';
import { nowIso } from '../clock.ts';
import { createToken, forgetResolvedTokens, hashToken } from './tokens.ts';
import { LOCAL } from '../db/write-scopes.ts';

/** SHA-256 (hex) of an OAuth client secret: all that is kept of it. */
export const hashClientSecret = (secret: string): string => hashToken(secret);

export type EnrollmentRow = Selectable<EnrollmentsTable>;

// Fixed namespace: an OAuth client id always maps to the same application UUID.
const CLIENT_ID_NAMESPACE = '3f6c1a52-8f0e-4d7b-9a61-2b7e5c0d4e19';

/**
 * Hosted clients renew a token shortly before `token_expires`. Tokens here last
 * until revoked, so the answer says so with the last second of year 9999 (a
 * zero would make the Go client renew before every call).
 */
export const NEVER_EXPIRES = Math.floor(Date.UTC(9999, 11, 31, 23, 59, 59) / 1000);

/** `companyId`: the public id of the company the enrollment is in (the row holds its key) */
export function view(row: EnrollmentRow, companyId: string, token?: string) {
  return {
    id: row.id,
    app_id: row.app_id,
    owner_id: row.owner_id,
    company_id: companyId,
    data: JSON.parse(row.data) as unknown,
    disabled: row.disabled === 1,
    sandbox: false,
    ...(token ? { token, token_expires: NEVER_EXPIRES } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The application UUID an OAuth client id stands for: the same in every company. */
export function appIdOfClient(clientId: string): string {
  return uuidv5(`client_id:${clientId}`, CLIENT_ID_NAMESPACE);
}

/** The application an enrollment request names: its UUID, or one derived from its OAuth client id. */
function appIdOf(body: EnrollBody): string {
  return body.app_id ?? appIdOfClient(body.client_id!);
}

/** The configuration an update carries, under either spelling (see the contract). */
export function enrollmentDataOf(body: EnrollmentData): unknown {
  return body.data !== undefined ? body.data : body.Data;
}

async function requireEnrollment(ctx: Ctx, id: string): Promise<EnrollmentRow> {
  const { db } = ctx.service;
  const row = await db.first(
    db.q.selectFrom('enrollments').selectAll().where('id', '=', id).where('company_id', '=', ctx.caller.companyKey),
  );
  if (!row) throw notFound(`enrollment ${id}`);
  return row;
}

/**
 * Enrolls an application in the caller's company and mints its token, answered
 * this once. Replaying the same request answers the enrollment without a token
 * (the secret cannot be shown again; rotate it if it was lost); another body
 * under the id, or the same application twice in a company, is a 409.
 */
export async function enroll(ctx: Ctx, id: string, body: EnrollBody) {
  const { db } = ctx.service;
  if (body.owner_id && body.owner_id !== ctx.caller.companyId) {
    throw validationError(`owner_id ${body.owner_id} is not the workspace this token acts for (${ctx.caller.companyId})`, {
      '$.owner_id': 'must be the id of this workspace (GET /access/v1/workspace), or left out',
    });
  }
  const appId = appIdOf(body);
  // Neither the client secret nor the owner are part of the request's identity: only the
  // secret's hash is kept, and the owner can only be this company.
  const secretHash = body.client_secret ? hashClientSecret(body.client_secret) : null;
  const requestHash = sha256Hex(canonicalJson({ app_id: appId, data: body.data ?? {} }));
  return db.tx(async () => {
    const existing = await db.first(db.q.selectFrom('enrollments').selectAll().where('id', '=', id));
    if (existing) {
      if (existing.company_id === ctx.caller.companyKey && existing.request_hash === requestHash) {
        // A replay may bring the secret a first enrollment lacked; it never replaces one already kept.
        if (secretHash && !existing.client_secret_hash) {
          await db.run(db.q.updateTable('enrollments').set({ client_secret_hash: secretHash }).where('id', '=', id));
        }
        return view(existing, ctx.caller.companyId);
      }
      throw conflict(`enrollment ${id} already exists with a different body`);
    }
    const twin = await db.first(
      db.q.selectFrom('enrollments').select('id').where('company_id', '=', ctx.caller.companyKey).where('app_id', '=', appId),
    );
    if (twin) throw conflict(`application ${appId} is already enrolled in this company (enrollment ${twin.id})`);
    const at = nowIso();
    const row = {
      id,
      company_id: ctx.caller.companyKey,
      app_id: appId,
      owner_id: ctx.caller.tokenId ?? ctx.caller.companyId,
      data: JSON.stringify(body.data ?? {}),
      disabled: 0,
      request_hash: requestHash,
      client_secret_hash: secretHash,
      authorized_token_id: null,
      created_at: at,
      updated_at: at,
    };
    await db.run(db.q.insertInto('enrollments').values(row));
    const { secret } = await createToken(db, ctx.caller.companyKey, 'app', `application ${body.client_id ?? appId}`, id);
    return view(row, ctx.caller.companyId, secret);
  }, { origin: LOCAL });
}

export async function listEnrollments(ctx: Ctx) {
  const { db } = ctx.service;
  return {
    list: (
      await db.all(db.q.selectFrom('enrollments').selectAll().where('company_id', '=', ctx.caller.companyKey).orderBy('created_at'))
    ).map((r) => view(r, ctx.caller.companyId)),
  };
}

export async function setEnrollmentDisabled(ctx: Ctx, id: string, disabled: boolean) {
  const { db } = ctx.service;
  await requireEnrollment(ctx, id);
  await db.run(db.q.updateTable('enrollments').set({ disabled: disabled ? 1 : 0, updated_at: nowIso() }).where('id', '=', id));
  forgetResolvedTokens(db);
  return view(await requireEnrollment(ctx, id), ctx.caller.companyId);
}

/** The calling application's own enrollment, found through its token. */
export async function ownEnrollment(ctx: Ctx) {
  if (!ctx.caller.enrollmentId) throw notFound('enrollment of this token');
  return view(await requireEnrollment(ctx, ctx.caller.enrollmentId), ctx.caller.companyId);
}

export async function updateOwnEnrollment(ctx: Ctx, body: EnrollmentData) {
  const { db } = ctx.service;
  const data = enrollmentDataOf(body);
  const current = await ownEnrollment(ctx);
  await db.run(
    db.q.updateTable('enrollments').set({ data: JSON.stringify(data ?? {}), updated_at: nowIso() }).where('id', '=', current.id),
  );
  return ownEnrollment(ctx);
}
