import { z } from 'zod';
import { defineOperation } from '../operation.ts';
import { closedObject, jsonObject } from './common.ts';

// The hosted service's stateless GOBL endpoints (POST /silo/v1/gobl/…): nothing is stored.
const goblAnswer = z.object({
  /** the built document, envelope, options schema (null when the document has none) */
  data: jsonObject.nullable(),
});

export const goblOperations = {
  buildGobl: defineOperation({
    method: 'POST',
    path: '/silo/v1/gobl/build',
    summary: 'Build a GOBL document or envelope (normalise, calculate, validate) without storing it',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    body: closedObject({
      /** a GOBL envelope or document, partial or complete (not signed) */
      data: jsonObject,
      /** answer the whole envelope (head with uuid and digest) instead of the document alone */
      envelop: z.boolean().optional(),
      /** answer the built document even when it still has schema or rule faults (a draft in progress) */
      draft: z.boolean().optional(),
    }),
    output: goblAnswer,
  }),
  correctGobl: defineOperation({
    method: 'POST',
    path: '/silo/v1/gobl/correct',
    summary: 'Correct a GOBL invoice (credit note, debit note, corrective), or describe its correction options',
    area: 'silo',
    access: ['owner', 'user', 'app'],
    body: closedObject({
      /** the GOBL envelope (or invoice) to correct */
      data: jsonObject,
      /** GOBL correction options, e.g. {"type": "credit-note", "reason": "…"} */
      options: jsonObject.optional(),
      /** answer the JSON Schema of the options this document takes instead of correcting it */
      show_options: z.boolean().optional(),
    }),
    output: goblAnswer,
  }),
  signGobl: defineOperation({
    method: 'POST',
    path: '/silo/v1/gobl/sign',
    summary: "Build (when unsigned), validate and sign a GOBL envelope or document with this instance's key",
    area: 'silo',
    access: ['owner', 'user', 'app'],
    body: closedObject({ data: jsonObject }),
    output: goblAnswer,
  }),
};
