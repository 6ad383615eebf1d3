import { z } from 'zod';
import { operations } from './contract/index.ts';
import type { OperationContract } from './operation.ts';
import { errorStatus } from './errors.ts';
import { fault } from './contract/common.ts';

/** Every error answer: nothing beyond these members (a refused document's 422 adds its `faults`). */
const errorBody = () => ({
  type: 'object',
  required: ['key', 'code', 'message'],
  properties: {
    key: { type: 'string', enum: Object.keys(errorStatus) },
    code: { type: 'string', enum: Object.keys(errorStatus) },
    message: { type: 'string' },
    fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'problems by JSON path' },
    faults: { type: 'array', items: jsonSchema(fault, 'output'), description: 'a refused document: what GOBL found wrong with it' },
  },
  additionalProperties: false,
});

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query' | 'header') {
  if (!schema) return [];
  const s = jsonSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
  return Object.entries(s.properties ?? {}).map(([name, prop]) => ({
    name,
    in: where,
    required: where === 'path' || (s.required ?? []).includes(name),
    schema: prop,
  }));
}

/** The media types an operation's body is taken in (see OperationContract.bodyForms). */
function requestContent(op: OperationContract, body: z.ZodType): Record<string, unknown> {
  const forms = op.bodyForms;
  if (forms?.raw) return { 'application/octet-stream': { schema: { type: 'string', format: 'binary', description: 'the bytes, as they are' } } };
  const schema = jsonSchema(body, 'input');
  const content: Record<string, unknown> = { 'application/json': { schema } };
  if (forms?.multipart) {
    const props = { ...((schema.properties as Record<string, unknown>) ?? {}) };
    props[forms.multipart.file] = { type: 'string', contentMediaType: 'application/octet-stream', description: 'the file part' };
    content['multipart/form-data'] = { schema: { ...schema, properties: props } };
  }
  return content;
}

/** The OpenAPI 3.1 document of the whole service, derived from the operation contracts. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, op] of Object.entries(operations) as Array<[string, OperationContract]>) {
    const item = (paths[op.path] ??= {});
    item[op.method.toLowerCase()] = {
      operationId: name,
      summary: op.summary,
      tags: [op.area],
      security: op.access === 'public' ? [] : [{ bearer: [] }],
      'x-silodesk-access': op.access,
      parameters: [...parameters(op.params, 'path'), ...parameters(op.query, 'query'), ...parameters(op.headers, 'header')],
      ...(op.body ? { requestBody: { required: true, content: requestContent(op, op.body) } } : {}),
      responses: {
        200:
          op.output === 'binary'
            ? { description: 'the file', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }
            : { description: 'success', content: { 'application/json': { schema: jsonSchema(op.output, 'output') } } },
        default: { description: 'error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Silodesk', version: '1', description: 'Silo, Transform, Sequence and Access over local SQLite.' },
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: { Error: errorBody() },
    },
  };
}
