import { notFound } from '../api/errors.ts';
import type { Ctx, HandlersOf } from '../api/handler.ts';
import type { accessOperations } from '../api/contract/access.ts';
import { authorizeEnrollment } from './authorize.ts';
import { companyView, createCompany, listCompanies, renameCompany, requireCompany } from './companies.ts';
import { enroll, listEnrollments, ownEnrollment, setEnrollmentDisabled, updateOwnEnrollment } from './enrollments.ts';
import { getLocalApi, setLocalApi } from './local-api.ts';
import { exchangeLoginCode } from './login-codes.ts';
import { createToken, listTokens, revokeToken, rotateToken, tokenView } from './tokens.ts';
import { LOCAL } from '../db/write-scopes.ts';

export const accessHandlers: HandlersOf<typeof accessOperations> = {
  getSession: async (ctx) => ({
    company: companyView(await requireCompany(ctx.service.db, ctx.caller.companyId)),
    ...(ctx.caller.kind === 'owner' ? { data_dir: ctx.service.dataDir } : {}),
    caller: { kind: ctx.caller.kind, ...(ctx.caller.tokenId ? { token_id: ctx.caller.tokenId } : {}) },
    instance_id: ctx.service.instanceId,
  }),
  exchangeLoginCode: (ctx, { body }) => exchangeLoginCode(ctx.service, body.code),
  getLocalApi: (ctx) => getLocalApi(ctx.service),
  setLocalApi: (ctx, { body }) => setLocalApi(ctx.service, body.enabled, body.port),
  listCompanies: async (ctx) => ({ list: await companiesOf(ctx) }),
  createCompany: (ctx, { body }) => {
    const { db } = ctx.service;
    // Any owner may open a new company (its owner token is answered once); it touches no other company.
    return db.tx(async () => {
      const company = await createCompany(db, body.name);
      const { secret } = await createToken(db, company.key, 'owner', 'owner (made with the company)');
      return { ...companyView(company), owner_token: secret };
    }, { origin: LOCAL });
  },
  renameCompany: (ctx, { params, body }) => {
    // Another company is not found, whether it exists or not: its existence is not this owner's business.
    if (!ctx.caller.install && params.id !== ctx.caller.companyId) throw notFound(`company ${params.id}`);
    return renameCompany(ctx.service.db, params.id, body.name);
  },
  listTokens: async (ctx) => ({ list: await listTokens(ctx.service.db, ctx.caller) }),
  createToken: async (ctx, { body }) => {
    const { db } = ctx.service;
    const { id, secret } = await createToken(db, ctx.caller.companyKey, body.kind, body.name);
    const row = (await db.first(db.q.selectFrom('tokens').selectAll().where('id', '=', id)))!;
    return { ...tokenView(row, ctx.caller.companyId), token: secret };
  },
  rotateToken: (ctx, { params }) => rotateToken(ctx.service.db, ctx.caller, params.id),
  revokeToken: (ctx, { params }) => revokeToken(ctx.service.db, ctx.caller, params.id),
  putEnrollment: (ctx, { params, body }) => enroll(ctx, params.id, body),
  listEnrollments: (ctx) => listEnrollments(ctx),
  setEnrollmentDisabled: (ctx, { params, body }) => setEnrollmentDisabled(ctx, params.id, body.disabled),
  authorizeEnrollment: (ctx, { body, headers }) => authorizeEnrollment(ctx, body, headers.authorization),
  getOwnEnrollment: (ctx) => ownEnrollment(ctx),
  putOwnEnrollment: (ctx, { body }) => updateOwnEnrollment(ctx, body),
  patchOwnEnrollment: (ctx, { body }) => updateOwnEnrollment(ctx, body),
  postOwnEnrollment: (ctx, { body }) => updateOwnEnrollment(ctx, body),
};

/** Every company for a caller acting for the install (the desktop window, the api-token owner); else the caller's own. */
async function companiesOf(ctx: Ctx) {
  if (ctx.caller.install) return (await listCompanies(ctx.service.db)).map(companyView);
  return [companyView(await requireCompany(ctx.service.db, ctx.caller.companyId))];
}
