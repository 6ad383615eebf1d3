import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { jsonObject, label, uuid } from './common.ts';

export const companySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A token as listed: never its secret, only its SHA-256 is stored anyway. */
export const tokenSchema = z.object({
  id: z.string(),
  company_id: z.string(),
  kind: z.enum(['owner', 'user', 'app']),
  name: z.string(),
  enrollment_id: z.string().optional(),
  created_at: z.string(),
  last_used_at: z.string().optional(),
  revoked_at: z.string().optional(),
});

/** The secret, answered once: when a token is made or rotated. */
const tokenWithSecret = tokenSchema.extend({ token: z.string() });

export const enrollmentSchema = z.object({
  id: z.string(),
  app_id: z.string(),
  owner_id: z.string(),
  company_id: z.string(),
  data: z.unknown(),
  disabled: z.boolean(),
  /** always false: Silodesk has no sandbox, every workspace is real (the hosted field, kept for its clients) */
  sandbox: z.boolean(),
  /** the application's credential: present only in the answer that created it */
  token: z.string().optional(),
  /** with the token: unix seconds of 9999-12-31, as application tokens here do not expire (revoke them instead) */
  token_expires: z.number().int().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});

/**
 * An application's configuration, as `data` or as `Data`: the hosted Go client's
 * update request has no JSON tag and sends the Go field name. One of them, not both.
 */
const enrollmentData = z
  .object({ data: z.unknown().optional(), Data: z.unknown().optional() })
  .refine((b) => b.data === undefined || b.Data === undefined, { message: 'give data or Data, not both', path: ['Data'] })
  .refine((b) => b.data !== undefined || b.Data !== undefined, { message: 'give the configuration as data', path: ['data'] });

/**
 * Enrolling an application: `app_id`, or the hosted clients' OAuth `client_id`
 * (the application then gets a UUID derived from it, the same in every company).
 * `client_secret`, when sent, is kept as its SHA-256: the application authorizes
 * with it later (POST /access/v1/enrollment/authorize). `owner_id`, when sent,
 * must be this token's workspace.
 */
const enrollBody = z
  .object({
    app_id: uuid.optional(),
    client_id: z.string().min(1).max(200).optional(),
    client_secret: z.string().max(1000).optional(),
    owner_id: z.string().max(100).optional(),
    data: z.unknown().optional(),
  })
  .refine((b) => b.app_id !== undefined || b.client_id !== undefined, {
    message: 'give the application as app_id (a UUID) or client_id',
    path: ['app_id'],
  });

/**
 * The hosted Go client's Authorize: the application's OAuth credentials (in the body,
 * or as HTTP Basic auth) and which enrollment: the one of a Bearer token it already
 * holds, `id`, or `owner_id` (the workspace, or the owner the enrollment names).
 */
const authorizeBody = z.object({
  id: z.string().max(100).optional(),
  owner_id: z.string().max(100).optional(),
  client_id: z.string().max(200).optional(),
  client_secret: z.string().max(1000).optional(),
});

const sessionSchema = z.object({
  company: companySchema,
  /** where this install keeps its data (shown to the owner only) */
  data_dir: z.string().optional(),
  caller: z.object({ kind: z.enum(['owner', 'user', 'app']), token_id: z.string().optional() }),
  instance_id: z.string(),
});

const users = ['owner', 'user'] as const;
const owner = ['owner'] as const;
const app = ['app'] as const;

const updateOwnEnrollment = (method: 'PUT' | 'PATCH' | 'POST') =>
  defineOperation({
    method,
    path: '/access/v1/enrollment',
    summary: 'The calling application updates its own embedded configuration',
    area: 'access',
    access: app,
    body: enrollmentData,
    maxBody: 1024 * 1024,
    output: enrollmentSchema,
  });

const localApiSchema = z.object({
  /** whether the localhost HTTP API is switched on */
  enabled: z.boolean(),
  port: z.number().int(),
  /** whether it is listening right now */
  running: z.boolean(),
  url: z.string().optional(),
  /** false where the port is fixed by the command line (`serve`) */
  configurable: z.boolean(),
});

export const accessOperations = {
  getLocalApi: defineOperation({
    method: 'GET',
    path: '/access/v1/local-api',
    summary: 'The localhost HTTP API setting of this install',
    area: 'access',
    access: owner,
    output: localApiSchema,
  }),
  setLocalApi: defineOperation({
    method: 'PUT',
    path: '/access/v1/local-api',
    summary: 'Switch the localhost HTTP API on or off, or move its port (desktop app)',
    area: 'access',
    access: owner,
    body: z.object({ enabled: z.boolean(), port: z.number().int().min(1024).max(65535) }),
    output: localApiSchema,
  }),
  getSession: defineOperation({
    method: 'GET',
    path: '/access/v1/session',
    summary: 'Who the caller is and which company it acts for',
    area: 'access',
    access: ['owner', 'user', 'app'],
    output: sessionSchema,
  }),
  exchangeLoginCode: defineOperation({
    method: 'POST',
    path: '/access/v1/login',
    summary: 'Trade a one-time login code (printed by serve) for a browser session token',
    area: 'access',
    access: 'public',
    body: z.object({ code: z.string().min(1).max(200) }),
    output: z.object({ token: z.string(), company_id: z.string() }),
  }),
  listCompanies: defineOperation({
    method: 'GET',
    path: '/access/v1/companies',
    summary: 'Every company of this install (owner only)',
    area: 'access',
    access: owner,
    output: z.object({ list: z.array(companySchema) }),
  }),
  createCompany: defineOperation({
    method: 'POST',
    path: '/access/v1/companies',
    summary: 'Add a client company; answers its first owner token once',
    area: 'access',
    access: owner,
    body: z.object({ name: label(200) }),
    output: companySchema.extend({ owner_token: z.string() }),
  }),
  renameCompany: defineOperation({
    method: 'PATCH',
    path: '/access/v1/companies/{id}',
    summary: 'Rename a company',
    area: 'access',
    access: owner,
    params: z.object({ id: uuid }),
    body: z.object({ name: label(200) }),
    output: companySchema,
  }),
  listTokens: defineOperation({
    method: 'GET',
    path: '/access/v1/tokens',
    summary: "The current company's tokens, without their secrets",
    area: 'access',
    access: owner,
    output: z.object({ list: z.array(tokenSchema) }),
  }),
  createToken: defineOperation({
    method: 'POST',
    path: '/access/v1/tokens',
    summary: 'Make a user (or owner) token for the current company; the secret is answered once',
    area: 'access',
    access: owner,
    body: z.object({ name: label(200), kind: z.enum(['owner', 'user']).default('user') }),
    output: tokenWithSecret,
  }),
  rotateToken: defineOperation({
    method: 'POST',
    path: '/access/v1/tokens/{id}/rotate',
    summary: 'Replace a token: the old secret stops working, the new one is answered once',
    area: 'access',
    access: owner,
    params: z.object({ id: uuid }),
    output: tokenWithSecret,
  }),
  revokeToken: defineOperation({
    method: 'DELETE',
    path: '/access/v1/tokens/{id}',
    summary: 'Revoke a token for good',
    area: 'access',
    access: owner,
    params: z.object({ id: uuid }),
    output: tokenSchema,
  }),
  putEnrollment: defineOperation({
    method: 'PUT',
    path: '/access/v1/enrollment/{id}',
    summary: 'Enroll an application in the current company; the answer carries its token once',
    area: 'access',
    access: users,
    params: z.object({ id: uuid }),
    body: enrollBody,
    maxBody: 1024 * 1024,
    output: enrollmentSchema,
  }),
  listEnrollments: defineOperation({
    method: 'GET',
    path: '/access/v1/enrollments',
    summary: "The current company's enrolled applications",
    area: 'access',
    access: users,
    output: z.object({ list: z.array(enrollmentSchema) }),
  }),
  setEnrollmentDisabled: defineOperation({
    method: 'PATCH',
    path: '/access/v1/enrollments/{id}',
    summary: 'Disable or re-enable an enrollment (a disabled one cannot call)',
    area: 'access',
    access: users,
    params: z.object({ id: uuid }),
    body: z.object({ disabled: z.boolean() }),
    output: enrollmentSchema,
  }),
  authorizeEnrollment: defineOperation({
    method: 'POST',
    path: '/access/v1/enrollment/authorize',
    summary: "An application proves itself by its client id and secret and gets its enrollment with a token (the hosted Authorize)",
    area: 'access',
    // The client credentials are the authority here, checked by the handler (a Bearer token, when sent, names the enrollment).
    access: 'public',
    headers: z.object({ authorization: z.string().max(4096).optional() }),
    body: authorizeBody,
    output: enrollmentSchema,
  }),
  getOwnEnrollment: defineOperation({
    method: 'GET',
    path: '/access/v1/enrollment',
    summary: 'The calling application reads its own enrollment',
    area: 'access',
    access: app,
    output: enrollmentSchema,
  }),
  putOwnEnrollment: updateOwnEnrollment('PUT'),
  patchOwnEnrollment: updateOwnEnrollment('PATCH'),
  postOwnEnrollment: updateOwnEnrollment('POST'),
};

export type EnrollmentData = z.output<typeof enrollmentData>;
export type EnrollBody = z.output<typeof enrollBody>;
export type AuthorizeBody = z.output<typeof authorizeBody>;
