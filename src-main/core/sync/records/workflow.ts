import { ApiError, validationError } from '../../api/errors.ts';
import type { Ctx } from '../../api/handler.ts';
import { workflowRecord, type SyncRecordOf } from '../../api/contract/sync.ts';
import type { Step, WorkflowDefinition } from '../../transform/definition.ts';
import { loadDefinition, patchWorkflow, putWorkflow, SECRET_MASK } from '../../transform/workflows.ts';
import { uuidRef, type RecordKind } from './kind.ts';

type WorkflowRecord = SyncRecordOf['workflow'];


/**
 * A workflow travels as its current definition; applying a different one makes a
 * new local version (jobs keep pointing at the version they ran, and every older
 * version, including one that lost a conflict, stays in the history).
 */
export const workflowKind: RecordKind<WorkflowRecord, string> = {
  kind: 'workflow',
  schema: workflowRecord,
  refOf: uuidRef,
  async read(ctx, id, opts) {
    let loaded: Awaited<ReturnType<typeof loadDefinition>>;
    try {
      loaded = await loadDefinition(ctx, id);
    } catch (err) {
      if (err instanceof ApiError && err.key === 'not-found') return undefined;
      throw err;
    }
    const def = opts.revealSecrets ? loaded.def : masked(ctx, loaded.def);
    return { id, workflow_version: loaded.version, definition: def, created_at: loaded.row.created_at };
  },
  content: (r) => r.definition,
  async apply(ctx, id, record) {
    if (record === null) throw validationError('workflows are never deleted', { '$.deleted': 'not supported for workflows' });
    if (record.id !== id) throw validationError('record id must equal the id in the path', { '$.record.id': `must equal ${id}` });
    const { db } = ctx.service;
    // Another company's workflow under the same id is another workflow: this one is made beside it.
    const exists = await db.first(db.q.selectFrom('workflows').select('id').where('company_id', '=', ctx.caller.companyKey).where('id', '=', id));
    const body = { ...record.definition } as WorkflowDefinition;
    if (exists) await patchWorkflow(ctx, id, body);
    else await putWorkflow(ctx, id, body);
  },
};

/** What an application token sees: secrets masked, as every other answer shows them. */
function masked(ctx: Ctx, def: WorkflowDefinition): WorkflowDefinition {
  const mask = (steps: Step[]) =>
    steps.map((step) => {
      const secret = (ctx.service.providers.get(step.provider)?.secretFields ?? []).filter((f) => step.config[f] !== undefined);
      if (secret.length === 0) return step;
      return { ...step, config: { ...step.config, ...Object.fromEntries(secret.map((f) => [f, SECRET_MASK])) } };
    });
  return { ...def, steps: mask(def.steps), rescue: mask(def.rescue) };
}
