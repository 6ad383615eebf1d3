import { sha256Hex } from '../sha256.ts';
import { v1 as uuidv1 } from 'uuid';
import { newUuidV7 as uuidv7 } from '../new-uuid.ts';
import type { z } from 'zod';
import { canonicalJson } from '../gobl/index.ts';
import { conflict, notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import { createdAtPage } from '../api/keyset-page.ts';
import type { transformOperations } from '../api/contract/transform.ts';
import { nowIso } from '../clock.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { createEntry, requireEntryRow } from '../silo/entries.ts';
import { jobView, type JobEnvelope, type JobRow, type JobView } from './job-view.ts';
import { checkHostedLimit } from './list-limit.ts';
import { requireEnabledWorkflow } from './workflows.ts';

type JobBody = z.output<(typeof transformOperations)['putJob']['body']>;

// Statements every job's request runs (raw SQL: the statements stay prepared).
const SQL = {
  job: 'SELECT * FROM jobs WHERE company_id = ? AND id = ?',
  hash: 'SELECT request_hash FROM jobs WHERE company_id = ? AND id = ?',
  keyHolder: 'SELECT id, request_hash FROM jobs WHERE company_id = ? AND key = ?',
  insertJob: `INSERT INTO jobs (id, company_id, workflow_id, workflow_version, silo_entry_id, key, status, tags, args, faults, request_hash,
              current_intent_id, run_at, envelope, created_at, updated_at, completed_at)
              VALUES (?, ?, ?, ?, ?, ?, 'QUEUED', ?, ?, '[]', ?, ?, ?, NULL, ?, ?, NULL) RETURNING seq`,
  insertIntent: `INSERT INTO intents (id, company_id, job_id, seq, step_id, name, provider, completed, events, created_at, updated_at)
                 VALUES (?, ?, ?, 1, ?, ?, ?, 0, '[]', ?, ?)`,
};

/** A job's document as its answer carries it: as stored text when the adapter splices text in (json-text.ts). */
const envelopeFor = (ctx: Ctx): JobEnvelope => (ctx.writesJson ? 'text' : 'value');

async function requireJob(ctx: Ctx, id: string): Promise<JobRow> {
  const row = await ctx.service.db.sqlFirst<JobRow>(SQL.job, [ctx.caller.companyKey, id]);
  if (!row) throw notFound(`job ${id}`);
  return row;
}

export async function getJob(ctx: Ctx, id: string, wait = 0): Promise<JobView> {
  const { seq } = await requireJob(ctx, id);
  return answerJob(ctx, id, seq, wait);
}

/** The job as it stands once it ended or `wait` seconds passed, whichever comes first. */
async function answerJob(ctx: Ctx, id: string, seq: number, wait: number): Promise<JobView> {
  if (wait > 0) await ctx.service.jobs.waitFor(seq, wait * 1000);
  return jobView(ctx.service.db, await requireJob(ctx, id), envelopeFor(ctx));
}

export async function getJobByKey(ctx: Ctx, key: string): Promise<JobView> {
  const { db } = ctx.service;
  const row = await db.first(db.q.selectFrom('jobs').selectAll().where('company_id', '=', ctx.caller.companyKey).where('key', '=', key));
  if (!row) throw notFound(`job with key ${JSON.stringify(key)}`);
  return jobView(db, row, envelopeFor(ctx));
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
  const { db } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  const requestHash = sha256Hex(canonicalJson(body));
  let jobId = id ?? uuidv1();

  // A POST without a key names no job that could exist already: its id is made here.
  const replayable = id !== undefined || body.key !== undefined;
  const replay = async (): Promise<boolean> => {
    if (!replayable) return false;
    const existing = await db.sqlFirst<{ request_hash: string }>(SQL.hash, [companyKey, jobId]);
    if (existing) {
      if (existing.request_hash === requestHash) return true;
      throw conflict(`job ${jobId} already exists with a different body`);
    }
    if (body.key === undefined) return false;
    const holder = await db.sqlFirst<{ id: string; request_hash: string }>(SQL.keyHolder, [companyKey, body.key]);
    if (!holder) return false;
    // A PUT names its job: the key held by another id is not the same request.
    if (holder.request_hash !== requestHash || (id !== undefined && holder.id !== id)) {
      throw conflict(`key ${JSON.stringify(body.key)} is already used by job ${holder.id}`);
    }
    jobId = holder.id;
    return true;
  };

  // The new job's seq, from its insert: what the answer waits on, without reading the job first.
  let made: number | undefined;
  if (!(await replay())) {
    const workflow = await requireEnabledWorkflow(ctx, body.workflow_id);
    const first = workflow.def.steps[0];
    await db.tx(async () => {
      if (await replay()) return;
      // Locked on PostgreSQL: an entry trashed at this moment either waits for the job or refuses it (404), never both.
      const entryId = body.silo_entry_id
        ? (await requireEntryRow(ctx, body.silo_entry_id, 'for-update')).id
        : (await createEntry(ctx, undefined, { data: body.data! })).id;
      const at = nowIso();
      const intentId = uuidv7();
      const inserted = await db.sqlFirst<{ seq: number }>(SQL.insertJob, [
        jobId, companyKey, body.workflow_id, workflow.version, entryId, body.key ?? null, JSON.stringify(body.tags ?? []),
        JSON.stringify(body.args ?? {}), requestHash, intentId, Date.now(), at, at,
      ]);
      made = Number(inserted!.seq);
      await db.sqlRun(SQL.insertIntent, [intentId, companyKey, jobId, first.id, first.name, first.provider, at, at]);
    }, { origin: LOCAL });
    ctx.service.jobs.notify();
  }
  return made !== undefined ? answerJob(ctx, jobId, made, wait) : getJob(ctx, jobId, wait);
}

export async function cancelJob(ctx: Ctx, id: string): Promise<JobView> {
  const { db } = ctx.service;
  const row = await requireJob(ctx, id);
  if (!row.completed_at) {
    // Only an unfinished job is marked: it may have ended since it was read.
    await db.run(
      db.q.updateTable('jobs').set({ cancel_requested: 1, updated_at: nowIso() }).where('seq', '=', row.seq).where('completed_at', 'is', null),
    );
    await ctx.service.jobs.cancelIdle(row.seq);
  }
  return jobView(db, await requireJob(ctx, id), envelopeFor(ctx));
}

export async function listJobs(
  ctx: Ctx,
  q: { status?: string; workflow_id?: string; silo_entry_id?: string; created_at?: string; cursor?: string; limit: number; ascending: boolean },
) {
  const { db } = ctx.service;
  const limit = checkHostedLimit(q.limit);
  const scope = JSON.stringify(['jobs', ctx.caller.companyKey, q.status, q.workflow_id, q.silo_entry_id, q.created_at, q.ascending]);
  let query = db.q.selectFrom('jobs').selectAll().where('company_id', '=', ctx.caller.companyKey);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.workflow_id) query = query.where('workflow_id', '=', q.workflow_id);
  if (q.silo_entry_id) query = query.where('silo_entry_id', '=', q.silo_entry_id);
  const { rows, nextCursor } = await createdAtPage(ctx.service, scope, query, { ...q, limit });
  const list: JobView[] = [];
  for (const r of rows) list.push(await jobView(db, r, 'none'));
  return {
    list,
    limit,
    ...(q.created_at ? { created_at: new Date(q.created_at).toISOString() } : {}),
    ...(q.cursor ? { cursor: q.cursor } : {}),
    ...(nextCursor ? { next_cursor: nextCursor } : {}),
  };
}
