import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { fault, jsonObject, label, queryBool, queryInt, tags, timestamp, uuid } from './common.ts';
import { hostedLimit, jobId, waitQuery } from './transform-query.ts';

const outcomeStatus = z.enum(['OK', 'KO', 'SKIP', 'TIMEOUT', '']);

export const nextSchema = z.object({
  status: outcomeStatus.optional(),
  code: z.string().max(100).optional(),
  step_id: uuid.optional(),
  stop: z.boolean().optional(),
});

/** A step as clients send it: `provider` or (as the hosted service's clients say) `action`. */
export const stepInput = z
  .object({
    id: uuid.optional(),
    name: z.string().max(200).optional(),
    provider: z.string().max(100).optional(),
    action: z.string().max(100).optional(),
    config: jsonObject.optional(),
    notes: z.string().max(5000).optional(),
    next: z.array(nextSchema).max(50).optional(),
  })
  .refine((s) => s.provider !== undefined || s.action !== undefined, { message: 'a step needs a provider', path: ['provider'] });

export const stepSchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  config: jsonObject,
  notes: z.string(),
  next: z.array(nextSchema),
});

const workflowFields = {
  name: label(200),
  description: z.string().max(5000).optional(),
  country: z.string().max(10).optional(),
  schema: z.string().max(300).optional(),
  steps: z.array(stepInput).min(1, 'a workflow needs at least one step').max(100),
  /** steps run when a step ends KO with no route for it */
  rescue: z.array(stepInput).max(100).optional(),
  disabled: z.boolean().optional(),
};

export const workflowBody = z.object(workflowFields);
export const workflowPatchBody = z.object({
  name: workflowFields.name.optional(),
  description: workflowFields.description,
  country: workflowFields.country,
  schema: workflowFields.schema,
  steps: workflowFields.steps.optional(),
  rescue: workflowFields.rescue,
  disabled: workflowFields.disabled,
});

export const workflowSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  country: z.string(),
  schema: z.string(),
  steps: z.array(stepSchema),
  rescue: z.array(stepSchema),
  disabled: z.boolean(),
  version: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

const intentEvent = z.object({
  at: z.string(),
  index: z.number().int(),
  status: z.string(),
  code: z.string().optional(),
  message: z.string().optional(),
});

export const jobSchema = z.object({
  id: z.string(),
  key: z.string().optional(),
  workflow_id: z.string(),
  workflow_version: z.string(),
  silo_entry_id: z.string(),
  status: z.string(),
  tags: z.array(z.string()),
  args: jsonObject,
  envelope: jsonObject.optional(),
  attachments: z.array(
    z.object({
      id: z.string(),
      desc: z.string(),
      hash: z.string(),
      meta: jsonObject,
      mime: z.string(),
      name: z.string(),
      size: z.number().int(),
      url: z.string(),
    }),
  ),
  faults: z.array(fault),
  intents: z.array(
    z.object({
      id: z.string(),
      step_id: z.string(),
      name: z.string(),
      provider: z.string(),
      completed: z.boolean(),
      events: z.array(intentEvent),
      created_at: z.string(),
      updated_at: z.string(),
    }),
  ),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().optional(),
});

const jobBody = z
  .object({
    workflow_id: uuid,
    silo_entry_id: uuid.optional(),
    data: jsonObject.optional(),
    tags: tags.optional(),
    args: jsonObject.optional(),
    key: label(255).optional(),
  })
  .refine((b) => (b.silo_entry_id === undefined) !== (b.data === undefined), {
    message: 'give exactly one of silo_entry_id and data',
    path: ['silo_entry_id'],
  });

export const transformOperations = {
  putWorkflow: defineOperation({
    method: 'PUT',
    path: '/transform/v1/workflows/{id}',
    summary: 'Create a workflow under a client-chosen UUID (idempotent)',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    params: z.object({ id: uuid }),
    body: workflowBody,
    output: workflowSchema,
  }),
  patchWorkflow: defineOperation({
    method: 'PATCH',
    path: '/transform/v1/workflows/{id}',
    summary: 'Change a workflow: makes a new version, earlier versions are kept',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    params: z.object({ id: uuid }),
    body: workflowPatchBody,
    output: workflowSchema,
  }),
  getWorkflow: defineOperation({
    method: 'GET',
    path: '/transform/v1/workflows/{id}',
    summary: 'Fetch a workflow (its latest version, or ?version=N)',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    params: z.object({ id: uuid }),
    query: z.object({ version: queryInt(1, 1_000_000).optional() }),
    output: workflowSchema,
  }),
  listWorkflows: defineOperation({
    method: 'GET',
    path: '/transform/v1/workflows',
    summary: 'List the workflows of the current company',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    // Paged as the hosted service pages workflows: by creation time, newest first;
    // pass `next_created_at` back as `created_at` for the next page.
    query: z.object({
      schema: z.string().max(300).optional(),
      created_at: timestamp.optional(),
      limit: hostedLimit,
    }),
    output: z.object({
      list: z.array(workflowSchema),
      limit: z.number().int(),
      /** the queried timestamp, or the creation time of the page's first workflow */
      created_at: z.string().optional(),
      /** where the next page starts; absent on the last page */
      next_created_at: z.string().optional(),
      schema: z.string().optional(),
    }),
  }),
  listProviders: defineOperation({
    method: 'GET',
    path: '/transform/v1/providers',
    summary: 'The step providers this instance runs, with the JSON Schema of their config',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    output: z.object({
      list: z.array(z.object({ id: z.string(), description: z.string(), config_schema: jsonObject })),
    }),
  }),
  createJob: defineOperation({
    method: 'POST',
    path: '/transform/v1/jobs',
    summary: 'Run a workflow over a silo entry or a new document (server-made id; idempotent with a `key`)',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    query: waitQuery,
    body: jobBody,
    output: jobSchema,
  }),
  putJob: defineOperation({
    method: 'PUT',
    path: '/transform/v1/jobs/{id}',
    summary: 'Run a workflow under a client-chosen UUID v1 or v7 (idempotent)',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    params: z.object({ id: jobId }),
    query: waitQuery,
    body: jobBody,
    output: jobSchema,
  }),
  getJob: defineOperation({
    method: 'GET',
    path: '/transform/v1/jobs/{id}',
    summary: 'Fetch a job with its intents and events (?wait=N holds until it completes)',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    params: z.object({ id: uuid }),
    query: waitQuery,
    output: jobSchema,
  }),
  getJobByKey: defineOperation({
    method: 'GET',
    path: '/transform/v1/jobs/key/{key}',
    summary: 'Fetch a job by its idempotency key',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    params: z.object({ key: label(255) }),
    output: jobSchema,
  }),
  listJobs: defineOperation({
    method: 'GET',
    path: '/transform/v1/jobs',
    summary: 'List jobs, newest first, by status, workflow or entry',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    query: z.object({
      status: z.enum(['QUEUED', 'RUN', 'ERR', 'OK', 'KO']).optional(),
      workflow_id: uuid.optional(),
      silo_entry_id: uuid.optional(),
      created_at: timestamp.optional(),
      cursor: z.string().max(512).optional(),
      limit: hostedLimit,
      ascending: queryBool.default(false),
    }),
    output: z.object({
      list: z.array(jobSchema),
      limit: z.number().int(),
      created_at: z.string().optional(),
      cursor: z.string().optional(),
      next_cursor: z.string().optional(),
    }),
  }),
  cancelJob: defineOperation({
    method: 'POST',
    path: '/transform/v1/jobs/{id}/cancel',
    summary: 'Cancel a job: it ends KO after the step now running, if any',
    area: 'transform',
    access: ['owner', 'user', 'app'],
    params: z.object({ id: uuid }),
    output: jobSchema,
  }),
};
