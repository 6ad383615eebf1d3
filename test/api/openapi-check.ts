import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

type Json = Record<string, any>;

interface RouteOf {
  method: string;
  pattern: RegExp;
  /** static segments count more than parameters, as the HTTP adapter orders its routes */
  specificity: number;
  responses: Json;
  operationId: string;
}

const COMPONENTS_ID = 'https://silodesk.test/openapi-components';

/**
 * Holds every answer an API test receives to the service's own `/openapi.json`: the
 * operation is found by method and path, a 2xx JSON body must match its 200 schema
 * and any other JSON body the error schema, with no member the schema does not name
 * and every declared type honoured. A mismatch throws, so the test that received
 * the answer fails and says which operation and which member.
 */
export class OpenApiCheck {
  private readonly routes: RouteOf[] = [];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  /** how many answers were held to the document (a test can see the check is on) */
  checked = 0;

  constructor(document: Json) {
    this.ajv.addSchema({ $id: COMPONENTS_ID, $defs: document.components?.schemas ?? {} });
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+');
        this.routes.push({
          method: method.toUpperCase(),
          pattern: new RegExp(`^${source}$`),
          specificity: path.split('/').filter((s) => s && !s.startsWith('{')).length * 10 - (path.match(/\{/g)?.length ?? 0),
          responses: (op as Json).responses ?? {},
          operationId: (op as Json).operationId,
        });
      }
    }
    this.routes.sort((a, b) => b.specificity - a.specificity);
  }

  /** Throws when a JSON answer does not match what /openapi.json declares for it. */
  check(method: string, url: string, status: number, contentType: string | null, text: string): void {
    this.checked++;
    const path = new URL(url, 'http://x').pathname;
    const route = this.routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(path));
    const isJson = /^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType ?? '');
    if (!route) {
      // Outside the registry: the web UI, /openapi.json itself, or an area's 404.
      if (isJson && status >= 400 && /^\/(silo|transform|sequence|access|utils|sync)\//.test(path)) this.validate('error', `${method} ${path}`, status, this.errorSchema(), text);
      return;
    }
    const where = `${route.operationId} (${method} ${path}) answered ${status}`;
    if (status >= 200 && status < 300) {
      const declared = route.responses['200']?.content ?? {};
      const json = declared['application/json']?.schema;
      if (!json) {
        if (isJson && !declared['application/octet-stream']) throw new Error(`${where} with JSON, but /openapi.json declares no JSON answer`);
        return;
      }
      if (!isJson) throw new Error(`${where} with ${contentType}, but /openapi.json declares application/json`);
      this.validate(`${route.operationId}:${status}`, where, status, json, text);
      return;
    }
    if (!isJson) return;
    this.validate('error', where, status, route.responses.default?.content?.['application/json']?.schema ?? this.errorSchema(), text);
  }

  private errorSchema(): Json {
    return { $ref: '#/components/schemas/Error' };
  }

  private validate(cacheKey: string, where: string, status: number, schema: Json, text: string): void {
    let validate = this.compiled.get(cacheKey);
    if (!validate) {
      validate = this.ajv.compile(rewriteRefs(schema));
      this.compiled.set(cacheKey, validate);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`${where} with a body that is not JSON`);
    }
    if (!validate(body)) {
      const problems = (validate.errors ?? []).slice(0, 8).map((e) => {
        const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
        return `${e.instancePath || '(root)'} ${e.message}${extra}`;
      });
      throw new Error(`${where} outside its /openapi.json schema: ${problems.join('; ')}`);
    }
  }
}

/** `#/components/schemas/X` points into the OpenAPI document, which Ajv holds as a schema of its own. */
function rewriteRefs(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')
      ? `${COMPONENTS_ID}#/$defs/${v.slice('#/components/schemas/'.length)}`
      : rewriteRefs(v);
  }
  return out;
}

/** A fetch that holds every answer to the OpenAPI check before handing it on. */
export function checkedFetch(check: () => OpenApiCheck | undefined, inner: typeof fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const checker = check();
    if (!checker) return response;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');
    const type = response.headers.get('content-type');
    if (!/json/i.test(type ?? '')) {
      checker.check(method, url, response.status, type, '');
      return response;
    }
    const text = await response.clone().text();
    checker.check(method, url, response.status, type, text);
    return response;
  };
}
