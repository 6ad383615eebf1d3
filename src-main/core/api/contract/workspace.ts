import { z } from 'zod';
import { defineOperation } from '../operation.ts';

/** The hosted service's workspace is a Silodesk company; the shape is the hosted one. */
export const workspaceSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** the name in lower case, words joined by `-`, for clients that key on it */
  slug: z.string(),
  /** always false: Silodesk has no sandbox, every company is real (clients check this before creating anything) */
  sandbox: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

/**
 * The hosted organization, which groups workspaces. Offline there is one: this
 * install (its id is the install's `instance_id`), holding the companies the caller may act for.
 */
export const orgSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  name: z.string(),
  workspaces: z.array(workspaceSchema),
});

export const workspaceOperations = {
  listOrgs: defineOperation({
    method: 'GET',
    path: '/access/v1/orgs',
    summary: 'The organizations of the caller with their workspaces, in the hosted shape: here one, this install',
    area: 'access',
    // As hosted: a person's token, not an application's.
    access: ['owner', 'user'],
    output: z.array(orgSchema),
  }),
  getWorkspace: defineOperation({
    method: 'GET',
    path: '/access/v1/workspace',
    summary: 'The workspace (company) the token acts for, in the hosted shape; never a sandbox',
    area: 'access',
    access: ['owner', 'user', 'app'],
    output: workspaceSchema,
  }),
};
