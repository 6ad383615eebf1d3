import { sha256Hex } from '../sha256.ts';
import type { z } from 'zod';
import { canonicalJson } from '../gobl/index.ts';
import { ApiError, conflict, notFound } from '../api/errors.ts';
import type { Ctx } from '../api/handler.ts';
import type { workflowBody, workflowPatchBody } from '../api/contract/transform.ts';
import { nowIso } from '../clock.ts';
import type { Selectable } from 'kysely';
import type { WorkflowsTable } from '../db/tables.ts';
import { LOCAL } from '../db/write-scopes.ts';
import { checkDefinition, normalizeStep, type Step, type WorkflowDefinition } from './definition.ts';
import { checkHostedLimit } from './list-limit.ts';
import { timePage } from './time-page.ts';

type WorkflowBody = z.output<typeof workflowBody>;
type WorkflowPatch = z.output<typeof workflowPatchBody>;

export interface WorkflowView extends WorkflowDefinition {
  id: string;
  version: string;
  created_at: string;
  updated_at: string;
}

function definitionOf(ctx: Ctx, body: WorkflowBody): WorkflowDefinition {
  return checkDefinition(
    {
      name: body.name,
      description: body.description ?? '',
      country: body.country ?? '',
      schema: body.schema ?? '',
      steps: body.steps.map(normalizeStep),
      rescue: (body.rescue ?? []).map(normalizeStep),
      disabled: body.disabled ?? false,
    },
    ctx.service.providers,
  );
}

// Every job created reads these (raw SQL: the statements stay prepared).
const WORKFLOW_SQL = {
  row: 'SELECT * FROM workflows WHERE company_id = ? AND id = ?',
  definition: 'SELECT definition FROM workflow_versions WHERE company_id = ? AND workflow_id = ? AND version = ?',
};

export async function loadDefinition(
  ctx: Ctx,
  id: string,
  version?: number,
): Promise<{ def: WorkflowDefinition; version: number; row: WorkflowRow }> {
  const { db } = ctx.service;
  const row = await db.sqlFirst<Selectable<WorkflowsTable>>(WORKFLOW_SQL.row, [ctx.caller.companyKey, id]);
  if (!row) throw notFound(`workflow ${id}`);
  const v = version ?? row.version;
  const stored = await db.sqlFirst<{ definition: string }>(WORKFLOW_SQL.definition, [ctx.caller.companyKey, id, v]);
  if (!stored) throw notFound(`version ${v} of workflow ${id}`);
  return { def: JSON.parse(stored.definition) as WorkflowDefinition, version: v, row };
}

type WorkflowRow = { id: string; created_at: string; updated_at: string; version: number };

/** What a secret config field shows instead of its value; sending it back keeps the stored secret. */
export const SECRET_MASK = '********';

function maskSecrets(ctx: Ctx, steps: Step[]): Step[] {
  return steps.map((step) => {
    const secret = ctx.service.providers.get(step.provider)?.secretFields ?? [];
    const present = secret.filter((f) => step.config[f] !== undefined);
    if (present.length === 0) return step;
    return { ...step, config: { ...step.config, ...Object.fromEntries(present.map((f) => [f, SECRET_MASK])) } };
  });
}

/** A step sent back with a masked secret keeps the value stored under the same step id. */
function unmaskSecrets(ctx: Ctx, steps: Step[], stored: Step[]): Step[] {
  const before = new Map(stored.map((s) => [s.id, s]));
  return steps.map((step) => {
    const old = before.get(step.id);
    const secret = ctx.service.providers.get(step.provider)?.secretFields ?? [];
    const masked = secret.filter((f) => step.config[f] === SECRET_MASK);
    if (masked.length === 0 || !old || old.provider !== step.provider) return step;
    return { ...step, config: { ...step.config, ...Object.fromEntries(masked.map((f) => [f, old.config[f]])) } };
  });
}

function view(ctx: Ctx, id: string, def: WorkflowDefinition, version: number, row: { created_at: string; updated_at: string }): WorkflowView {
  return {
    id,
    ...def,
    steps: maskSecrets(ctx, def.steps),
    rescue: maskSecrets(ctx, def.rescue),
    version: String(version),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function getWorkflow(ctx: Ctx, id: string, version?: number): Promise<WorkflowView> {
  const { def, version: v, row } = await loadDefinition(ctx, id, version);
  return view(ctx, id, def, v, row);
}

/**
 * Creates a workflow under the client's id; the same body again is the same workflow, another is a 409.
 * The id is the company's own: another company holding it is neither a conflict nor a hint that it exists.
 */
export async function putWorkflow(ctx: Ctx, id: string, body: WorkflowBody): Promise<WorkflowView> {
  const { db } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  const requestHash = sha256Hex(canonicalJson(body));
  const held = () =>
    db.first(db.q.selectFrom('workflows').select('request_hash').where('company_id', '=', companyKey).where('id', '=', id));
  const existing = await held();
  if (existing) {
    if (existing.request_hash === requestHash) return getWorkflow(ctx, id, 1);
    throw conflict(`workflow ${id} already exists with a different body; change it with PATCH`);
  }
  const def = definitionOf(ctx, body);
  const at = nowIso();
  await db.tx(async () => {
    if (await held()) throw conflict(`workflow ${id} already exists`);
    await db.run(
      db.q.insertInto('workflows').values({
        id, company_id: companyKey, version: 1, name: def.name, schema: def.schema,
        disabled: def.disabled ? 1 : 0, request_hash: requestHash, created_at: at, updated_at: at,
      }),
    );
    await db.run(
      db.q.insertInto('workflow_versions').values({ company_id: companyKey, workflow_id: id, version: 1, definition: JSON.stringify(def), created_at: at }),
    );
  }, { origin: db.origin ?? LOCAL });
  return getWorkflow(ctx, id);
}

/** A change makes a new version; jobs keep pointing at the version they ran. */
export async function patchWorkflow(ctx: Ctx, id: string, patch: WorkflowPatch): Promise<WorkflowView> {
  const { db } = ctx.service;
  const companyKey = ctx.caller.companyKey;
  const current = await loadDefinition(ctx, id);
  const merged: WorkflowBody = {
    name: patch.name ?? current.def.name,
    description: patch.description ?? current.def.description,
    country: patch.country ?? current.def.country,
    schema: patch.schema ?? current.def.schema,
    steps: patch.steps ?? current.def.steps,
    rescue: patch.rescue ?? current.def.rescue,
    disabled: patch.disabled ?? current.def.disabled,
  };
  const def = definitionOf(ctx, merged);
  def.steps = unmaskSecrets(ctx, def.steps, current.def.steps);
  def.rescue = unmaskSecrets(ctx, def.rescue, current.def.rescue);
  const at = nowIso();
  const version = current.version + 1;
  await db.tx(async () => {
    const { changes } = await db.run(
      db.q
        .updateTable('workflows')
        .set({ version, name: def.name, schema: def.schema, disabled: def.disabled ? 1 : 0, updated_at: at })
        .where('company_id', '=', companyKey)
        .where('id', '=', id)
        .where('version', '=', current.version),
    );
    if (changes !== 1) throw conflict(`workflow ${id} changed meanwhile; retry`);
    await db.run(
      db.q.insertInto('workflow_versions').values({ company_id: companyKey, workflow_id: id, version, definition: JSON.stringify(def), created_at: at }),
    );
  }, { origin: db.origin ?? LOCAL });
  return getWorkflow(ctx, id);
}

/** Workflows newest first, paged by creation time as the hosted service pages them. */
export async function listWorkflows(ctx: Ctx, q: { schema?: string; created_at?: string; limit: number }) {
  const { db } = ctx.service;
  const limit = checkHostedLimit(q.limit);
  let query = db.q.selectFrom('workflows').select(['id', 'created_at']).where('company_id', '=', ctx.caller.companyKey);
  if (q.schema !== undefined) query = query.where('schema', '=', q.schema);
  const { rows, next } = await timePage(db, query, q.created_at, limit);
  const createdAt = q.created_at ? new Date(q.created_at).toISOString() : rows[0]?.created_at;
  const list: WorkflowView[] = [];
  for (const r of rows) list.push(await getWorkflow(ctx, r.id));
  return {
    list,
    limit,
    ...(createdAt ? { created_at: createdAt } : {}),
    ...(next ? { next_created_at: next } : {}),
    ...(q.schema !== undefined ? { schema: q.schema } : {}),
  };
}

export async function requireEnabledWorkflow(ctx: Ctx, id: string) {
  const loaded = await loadDefinition(ctx, id);
  if (loaded.def.disabled) throw new ApiError('conflict', `workflow ${id} is disabled and takes no new jobs`);
  return loaded;
}
