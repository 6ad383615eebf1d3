import type { Ctx } from '../api/handler.ts';
import { currentActor } from './audit-actor.ts';
import { appendAudit } from './audit-log.ts';
import { companyKeyOf } from '../access/company-key.ts';

interface Input {
  params?: any;
  query?: any;
  body?: any;
}

interface Fact {
  action: string;
  target_kind: string;
  target_id: string;
  detail?: Record<string, unknown>;
  /** the public id of the company the fact belongs to, when not the caller's (a login names its company) */
  company_id?: string;
}

/**
 * The operations that change settings, tokens and access rather than records (whose
 * changes the change log puts on record, record-keeping.ts), and what each one's row
 * in the audit log says. Details name what was set, never a secret: no token, no
 * remote token, no key material.
 */
const AUDITED: Record<string, (input: Input, result: any, ctx: Ctx) => Fact | undefined> = {
  exchangeLoginCode: (_i, r) => ({ action: 'token.login', target_kind: 'token', target_id: 'browser session', company_id: r?.company_id }),
  createCompany: (_i, r) => ({ action: 'company.created', target_kind: 'company', target_id: r.id, detail: { name: r.name } }),
  renameCompany: (i) => ({ action: 'company.renamed', target_kind: 'company', target_id: i.params.id, detail: { name: i.body.name } }),
  createToken: (i, r) => ({ action: 'token.created', target_kind: 'token', target_id: r.id, detail: { name: i.body.name, kind: i.body.kind } }),
  rotateToken: (i) => ({ action: 'token.rotated', target_kind: 'token', target_id: i.params.id }),
  revokeToken: (i) => ({ action: 'token.revoked', target_kind: 'token', target_id: i.params.id }),
  putEnrollment: (i) => ({ action: 'enrollment.saved', target_kind: 'enrollment', target_id: i.params.id }),
  setEnrollmentDisabled: (i) => ({ action: i.body.disabled ? 'enrollment.disabled' : 'enrollment.enabled', target_kind: 'enrollment', target_id: i.params.id }),
  putOwnEnrollment: (_i, _r, ctx) => ({ action: 'enrollment.saved', target_kind: 'enrollment', target_id: ctx.caller.enrollmentId ?? '' }),
  patchOwnEnrollment: (_i, _r, ctx) => ({ action: 'enrollment.saved', target_kind: 'enrollment', target_id: ctx.caller.enrollmentId ?? '' }),
  postOwnEnrollment: (_i, _r, ctx) => ({ action: 'enrollment.saved', target_kind: 'enrollment', target_id: ctx.caller.enrollmentId ?? '' }),
  setLocalApi: (i) => ({ action: 'settings.local-api', target_kind: 'settings', target_id: 'local-api', detail: { enabled: i.body.enabled } }),
  putView: (i) => ({ action: 'view.saved', target_kind: 'view', target_id: i.params.id, detail: { name: i.body.name } }),
  deleteView: (i) => ({ action: 'view.deleted', target_kind: 'view', target_id: i.params.id }),
  putSyncSettings: (i) => ({
    action: 'settings.sync',
    target_kind: 'settings',
    target_id: 'sync',
    detail: { remote_url: i.body.remote_url, interval_minutes: i.body.interval_minutes, paused: i.body.paused, token_changed: i.body.token !== undefined },
  }),
  deleteSyncSettings: () => ({ action: 'settings.sync-removed', target_kind: 'settings', target_id: 'sync' }),
  pairSyncPeer: (i) => ({ action: 'sync.peer-paired', target_kind: 'instance', target_id: i.params.instance_id }),
  unpairSyncPeer: (i) => ({ action: 'sync.peer-unpaired', target_kind: 'instance', target_id: i.params.instance_id }),
  putSyncKeys: (i, r) => ({ action: 'sync.keys-added', target_kind: 'instance', target_id: i.body.instance_id, detail: { added: r.added } }),
  resolveSyncConflict: (i, r) => ({ action: 'sync.conflict-resolved', target_kind: 'conflict', target_id: i.params.id, detail: { resolution: r.resolution ?? null } }),
  retryParkedChange: (i) => ({ action: 'sync.parked-retried', target_kind: 'parked', target_id: i.params.id }),
  putBackupSettings: (i) => ({
    action: 'settings.backup',
    target_kind: 'settings',
    target_id: 'backup',
    detail: { folder: i.body.folder, every_hours: i.body.every_hours, keep: i.body.keep, enabled: i.body.enabled },
  }),
  releaseSeriesHold: (i) => ({ action: 'series.hold-released', target_kind: 'series', target_id: i.params.id }),
  putTrashSettings: (i) => ({ action: 'settings.trash', target_kind: 'settings', target_id: 'trash', detail: { retention_days: i.body.retention_days } }),
};

/**
 * Puts a successful settings, token or access operation on record, right after it
 * answered (these write outside the change log; their handlers may be async, so they
 * cannot share its transaction). A failure to record is logged, never turned into a
 * failure of what already happened.
 */
export async function auditOperation(ctx: Ctx, name: string, input: Input, result: unknown): Promise<void> {
  const describe = AUDITED[name];
  if (!describe) return;
  const { db } = ctx.service;
  try {
    const fact = describe(input, result, ctx);
    // A fact may name its company by public id (a sign-in's answer); the log is kept under its key.
    const company = fact?.company_id !== undefined ? await companyKeyOf(db, fact.company_id) : ctx.caller.companyKey;
    if (!fact || !company) return;
    // A sign-in has no caller yet: the one-time code is what it shows.
    const actor =
      name === 'exchangeLoginCode' ? { via: 'http' as const, id: 'login-code', name: 'Sign-in with a one-time code' } : await currentActor(db, { caller: ctx.caller });
    await appendAudit(db, { ...actor, operation: name }, { ...fact, company_id: company });
  } catch (err) {
    ctx.service.log?.(`audit of ${name} not recorded: ${(err as Error).message}`);
  }
}
