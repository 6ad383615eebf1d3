import { z } from 'zod';
import type { HandlersOf } from '../api/handler.ts';
import type { transformOperations } from '../api/contract/transform.ts';
import { cancelJob, createJob, getJob, getJobByKey, listJobs } from './jobs.ts';
import { getWorkflow, listWorkflows, patchWorkflow, putWorkflow } from './workflows.ts';

export const transformHandlers: HandlersOf<typeof transformOperations> = {
  putWorkflow: (ctx, { params, body }) => putWorkflow(ctx, params.id, body),
  patchWorkflow: (ctx, { params, body }) => patchWorkflow(ctx, params.id, body),
  getWorkflow: (ctx, { params, query }) => getWorkflow(ctx, params.id, query.version),
  listWorkflows: (ctx, { query }) => listWorkflows(ctx, query),
  listProviders: (ctx) => ({
    list: [...ctx.service.providers.values()].map((p) => ({
      id: p.id,
      description: p.description,
      config_schema: z.toJSONSchema(p.config, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    })),
  }),
  createJob: (ctx, { query, body }) => createJob(ctx, undefined, body, query.wait),
  putJob: (ctx, { params, query, body }) => createJob(ctx, params.id, body, query.wait),
  getJob: (ctx, { params, query }) => getJob(ctx, params.id, query.wait),
  getJobByKey: (ctx, { params }) => getJobByKey(ctx, params.key),
  listJobs: (ctx, { query }) => listJobs(ctx, query),
  cancelJob: (ctx, { params }) => cancelJob(ctx, params.id),
};
