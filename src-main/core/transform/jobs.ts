import { createHash } from 'node:crypto';
import { v1 as uuidv1, v7 as uuidv7 } from 'uuid';
import type { z } from 'zod';
import { canonicalJson } from '../gobl/index.ts';
import { conflict, notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { createdAtPage } from '../api/keyset-page.ts';
import type { transformOperations } from '../api/contract/transform.ts';
import { nowIso } from '../clock.ts';
import { createEntry, requireEntryRow } from '../silo/entries.ts';
import { jobView, type JobRow, type JobView } from './job-view.ts';
import { checkHostedLimit } from './list-limit.ts';
import { requireEnabledWorkflow } from './workflows.ts';

type JobBody = z.output<(typeof transformOperations)['putJob']['body']>;

function requireJob(ctx: Ctx, id: string): JobRow {
  const { store } = ctx.service;
  const row = store.first(store.q.selectFrom('jobs').selectAll().where('company_id', '=', ctx.caller.companyId).where('id', '=', id));
  if (!row) throw notFound(`job ${id}`);
  return row;
}

export async function getJob(ctx: Ctx, id: string, wait = 0): Promise<JobView> {
  const { seq } = requireJob(ctx, id);
  if (wait > 0) await ctx.service.jobs.waitFor(seq, wait * 1000);
  return jobView(ctx.service.store, requireJob(ctx, id));
}

export function getJobByKey(ctx: Ctx, key: string): JobView {
  const { store } = ctx.service;
  const row = store.first(store.q.selectFrom('jobs').selectAll().where('company_id', '=', ctx.caller.companyId).where('key', '=', key));
  if (!row) throw notFound(`job with key ${JSON.stringify(key)}`);
  return jobView(store, row);
}

/**
 * Queues a workflow run. One replay rule for both ways of creating a job: the same
 * request again — a PUT under the same id, or a POST with the same `key` — answers
 * the job the first one made, 200 (and stores no second document); the id or key
 * with another body, or the key under another PUT id, is a 409. A POST without a
 * key makes a new job each time. Ids and keys are the company's own: another company
 * holding the same is neither a conflict nor a sign that it exists.
 * `data` is stored as a new silo entry in the same transaction as the job.
 */
export async function createJob(ctx: Ctx, id: string | undefined, body: JobBody, wait = 0): Promise<JobView> {
  const { store } = ctx.service;
  const companyId = ctx.caller.companyId;
  const requestHash = createHash('sha256').update(canonicalJson(body)).digest('hex');
  let jobId = id ?? uuidv1();

  const replay = (): boolean => {
    const existing = store.first(
      store.q.selectFrom('jobs').select('request_hash').where('company_id', '=', companyId).where('id', '=', jobId),
    );
    if (existing) {
      if (existing.request_hash === requestHash) return true;
      throw conflict(`job ${jobId} already exists with a different body`);
    }
    if (body.key === undefined) return false;
    const holder = store.first(
      store.q.selectFrom('jobs').select(['id', 'request_hash']).where('company_id', '=', companyId).where('key', '=', body.key),
    );
    if (!holder) return false;
    // A PUT names its job: the key held by another id is not the same request.
    if (holder.request_hash !== requestHash || (id !== undefined && holder.id !== id)) {
      throw conflict(`key ${JSON.stringify(body.key)} is already used by job ${holder.id}`);
    }
    jobId = holder.id;
    return true;
  };

  if (!replay()) {
    const workflow = requireEnabledWorkflow(ctx, body.workflow_id);
    const first = workflow.def.steps[0];
    store.tx(() => {
      if (replay()) return;
      const entryId = body.silo_entry_id
        ? requireEntryRow(ctx, body.silo_entry_id).id
        : createEntry(ctx, undefined, { data: body.data! }).id;
      const at = nowIso();
      const intentId = uuidv7();
      store.run(
        store.q.insertInto('jobs').values({
          id: jobId,
          company_id: companyId,
          workflow_id: body.workflow_id,
          workflow_version: workflow.version,
          silo_entry_id: entryId,
          key: body.key ?? null,
          status: 'QUEUED',
          tags: JSON.stringify(body.tags ?? []),
          args: JSON.stringify(body.args ?? {}),
          faults: '[]',
          request_hash: requestHash,
          current_intent_id: intentId,
          run_at: Date.now(),
          envelope: null,
          created_at: at,
          updated_at: at,
          completed_at: null,
        }),
      );
      store.run(
        store.q.insertInto('intents').values({
          id: intentId, company_id: companyId, job_id: jobId, seq: 1, step_id: first.id, name: first.name, provider: first.provider,
          completed: 0, events: '[]', created_at: at, updated_at: at,
        }),
      );
    });
    ctx.service.jobs.notify();
  }
  return getJob(ctx, jobId, wait);
}

export function cancelJob(ctx: Ctx, id: string): JobView {
  const { store } = ctx.service;
  const row = requireJob(ctx, id);
  if (!row.completed_at) {
    store.run(store.q.updateTable('jobs').set({ cancel_requested: 1, updated_at: nowIso() }).where('seq', '=', row.seq));
    ctx.service.jobs.cancelIdle(row.seq);
  }
  return jobView(store, requireJob(ctx, id));
}

export function listJobs(
  ctx: Ctx,
  q: { status?: string; workflow_id?: string; silo_entry_id?: string; created_at?: string; cursor?: string; limit: number; ascending: boolean },
) {
  const { store } = ctx.service;
  const limit = checkHostedLimit(q.limit);
  const scope = JSON.stringify(['jobs', ctx.caller.companyId, q.status, q.workflow_id, q.silo_entry_id, q.created_at, q.ascending]);
  let query = store.q.selectFrom('jobs').selectAll().where('company_id', '=', ctx.caller.companyId);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.workflow_id) query = query.where('workflow_id', '=', q.workflow_id);
  if (q.silo_entry_id) query = query.where('silo_entry_id', '=', q.silo_entry_id);
  const { rows, nextCursor } = createdAtPage(ctx.service, scope, query, { ...q, limit });
  return {
    list: rows.map((r) => jobView(store, r, false)),
    limit,
    ...(q.created_at ? { created_at: new Date(q.created_at).toISOString() } : {}),
    ...(q.cursor ? { cursor: q.cursor } : {}),
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
  };
}
