import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, badRequest, notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { AuthorizeBody } from '../api/contract/access.ts';
import { appIdOfClient, hashClientSecret, view, type EnrollmentRow } from './enrollments.ts';
import { createToken, hashToken, resolveToken } from './tokens.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { companyIdOf, companyKeyOf } from './company-key.ts';

/**
 * POST /access/v1/enrollment/authorize, as the hosted Go client calls it: the
 * application's client id and secret (in the body, or as HTTP Basic auth) and the
 * enrollment named by a Bearer token, `id`, or `owner_id`. The answer is the
 * enrollment with a token the application then calls with.
 */

interface Credentials {
  clientId: string;
  clientSecret: string;
}

const refused = (message: string) => new ApiError('unauthorized', message);

/** The Authorization header, read as Bearer or Basic; anything else is ignored. */
function readAuthorization(header: string | undefined): { bearer?: string; basic?: Credentials } {
  if (!header) return {};
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return { bearer: bearer[1] };
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic) return {};
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return {};
  return { basic: { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) } };
}

function credentialsOf(body: AuthorizeBody, basic: Credentials | undefined): Credentials {
  const clientId = body.client_id || basic?.clientId;
  const clientSecret = body.client_secret || basic?.clientSecret;
  if (!clientId || !clientSecret) {
    throw refused("give the application's client_id and client_secret, in the body or as HTTP Basic auth");
  }
  return { clientId, clientSecret };
}

/** Which enrollment the request names: the Bearer token's, `id`'s, or `owner_id`'s (with this application). */
async function enrollmentNamed(ctx: Ctx, body: AuthorizeBody, bearer: string | undefined, appId: string): Promise<EnrollmentRow | undefined> {
  const { db } = ctx.service;
  const enrollments = db.q.selectFrom('enrollments').selectAll().where('app_id', '=', appId);
  if (bearer) {
    const caller = await resolveToken(db, bearer);
    if (!caller) throw refused('the token is not valid');
    // An application's token names its own enrollment; a person's token names their workspace.
    if (caller.enrollmentId) return db.first(enrollments.where('id', '=', caller.enrollmentId));
    if (body.owner_id && body.owner_id !== caller.companyId) return undefined;
    return db.first(enrollments.where('company_id', '=', caller.companyKey));
  }
  if (body.id) return db.first(enrollments.where('id', '=', body.id));
  if (body.owner_id) {
    const ownerId = body.owner_id;
    // The hosted owner is the workspace; the enrollments here also name the token that enrolled.
    const workspace = await companyKeyOf(db, ownerId);
    return db.first(enrollments.where((eb) => eb.or([...(workspace ? [eb('company_id', '=', workspace)] : []), eb('owner_id', '=', ownerId)])));
  }
  throw badRequest('name the enrollment: owner_id, id, or an Authorization: Bearer token', {
    '$.owner_id': 'the workspace the application is enrolled in',
  });
}

function secretMatches(row: EnrollmentRow, clientSecret: string): boolean {
  if (!row.client_secret_hash) return false;
  return timingSafeEqual(Buffer.from(row.client_secret_hash), Buffer.from(hashClientSecret(clientSecret)));
}

/**
 * The token authorizing hands out: one per enrollment, its secret derived from the
 * client secret and the token's id, so each authorization answers the same token
 * (sessions made on every request pile up no tokens) and only its hash is stored.
 * Once an owner revokes it, or the client secret differs, a new one is made.
 */
function authorizedToken(ctx: Ctx, row: EnrollmentRow, creds: Credentials): Promise<string> {
  const { db } = ctx.service;
  const derive = (tokenId: string) =>
    createHmac('sha256', creds.clientSecret).update(`silodesk authorize ${row.id} ${tokenId}`).digest('base64url');
  return db.tx(async () => {
    // Read again in the transaction: another authorization may have made the token since `row` was read. Locked on
    // PostgreSQL until commit: two authorizations at once would each mint a token, and the second overwrite the first's.
    const tokenId = (
      await db.first(
        db.q.selectFrom('enrollments').select('authorized_token_id').where('id', '=', row.id).$if(db.dialect === 'postgres', (qb) => qb.forUpdate()),
      )
    )?.authorized_token_id;
    const current = tokenId ? await db.first(db.q.selectFrom('tokens').selectAll().where('id', '=', tokenId)) : undefined;
    if (current && !current.revoked_at && current.enrollment_id === row.id) {
      const secret = `sd_${derive(current.id)}`;
      if (timingSafeEqual(Buffer.from(current.hash), Buffer.from(hashToken(secret)))) return secret;
    }
    const { id, secret } = await createToken(db, row.company_id, 'app', `application ${creds.clientId} (authorized)`, row.id, derive);
    await db.run(db.q.updateTable('enrollments').set({ authorized_token_id: id }).where('id', '=', row.id));
    return secret;
  }, { origin: LOCAL });
}

export async function authorizeEnrollment(ctx: Ctx, body: AuthorizeBody, authorization: string | undefined) {
  const { bearer, basic } = readAuthorization(authorization);
  const creds = credentialsOf(body, basic);
  const row = await enrollmentNamed(ctx, body, bearer, appIdOfClient(creds.clientId));
  // The hosted client reads a 404 as "application not enrolled".
  if (!row) throw notFound('enrollment of this application');
  if (!secretMatches(row, creds.clientSecret)) {
    throw refused(
      row.client_secret_hash
        ? 'the client secret is not the one this application was enrolled with'
        : 'this enrollment was made without a client_secret: repeat its PUT /access/v1/enrollment/{id} adding client_secret',
    );
  }
  if (row.disabled !== 0) throw new ApiError('forbidden', 'this enrollment is disabled');
  // A Bearer application token is still good (tokens here last until revoked): it is answered back.
  const token = bearer && (await resolveToken(ctx.service.db, bearer))?.enrollmentId === row.id ? bearer : await authorizedToken(ctx, row, creds);
  return view(row, await companyIdOf(ctx.service.db, row.company_id), token);
}
