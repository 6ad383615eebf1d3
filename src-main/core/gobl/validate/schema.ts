// Validation against GOBL's own JSON Schemas (data/schemas, draft 2020-12). All schemas are
// registered with one Ajv instance on first use; each document schema is compiled the first
// time a document of that kind is seen. Patterns are Go RE2, translated for JavaScript.
import { readdirSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { goblDataDir, readGoblData } from '../defs/index.ts';
import type { EngineFault, Node } from '../engine/types.ts';
import { dateFields, daysInMonth } from '../shape/days.ts';
import { translateGoPattern } from './go-regexp.ts';
import { VerdictCompiler, type Verdict } from './schema-verdict.ts';
import { childPath } from './rules/walk.ts';

export const ENVELOPE_SCHEMA = 'https://gobl.org/draft-0/envelope';

/** A document or envelope property breaks its JSON Schema. */
export const SCHEMA_FAULT = 'schema';
/** A `$schema` GOBL does not publish. */
export const UNKNOWN_SCHEMA_FAULT = 'schema-unknown';

type Instance = Ajv2020;

function isCivilDate(s: string): boolean {
  // Go reads "" and 0000-00-00 as the zero date
  if (s === '' || s === '0000-00-00') return true;
  const fields = dateFields(s);
  if (fields < 0) return false;
  const y = Math.floor(fields / 10000);
  const mo = Math.floor(fields / 100) % 100;
  const d = fields % 100;
  // Date.UTC reads years 0–99 as 1900–1999, so the round trip this replaced refused them.
  return y >= 100 && mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo);
}

function goRegExpEngine(): ((pattern: string, flags: string) => RegExp) & { code: string } {
  const cache = new Map<string, RegExp>();
  const engine = (pattern: string): RegExp => {
    let re = cache.get(pattern);
    if (!re) {
      const t = translateGoPattern(pattern);
      re = new RegExp(t.source, t.flags);
      cache.set(pattern, re);
    }
    return re;
  };
  return Object.assign(engine, { code: 'new RegExp' });
}

// One engine for Ajv and the verdicts: the same translated pattern for the same Go pattern.
const goPattern = goRegExpEngine();

const FORMATS: Record<string, ((text: string) => boolean) | RegExp | true> = {
  date: isCivilDate,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  uuid: /^$|^(urn:uuid:)?\{?[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}\}?$/,
  uri: true, // cbc.URI and url fields are checked by GOBL's rules, not on parse
  mime: true,
};

let ajv: Instance | undefined;
let schemas: Map<string, Record<string, any>> | undefined;

function schemaFiles(dir: string, prefix: string, out: string[]): void {
  for (const entry of readdirSync(dir + prefix, { withFileTypes: true })) {
    if (entry.isDirectory()) schemaFiles(dir, `${prefix}${entry.name}/`, out);
    else if (entry.name.endsWith('.json')) out.push(prefix + entry.name);
  }
}

const ANNOTATIONS = new Set(['const', 'title', 'description', '$comment']);

function isPureConst(branch: unknown): branch is { const: unknown } {
  return branch !== null && typeof branch === 'object' && 'const' in branch && Object.keys(branch).every((k) => ANNOTATIONS.has(k));
}

/**
 * Two adjustments to GOBL's schemas, neither changing what they accept:
 * - one malformed keyword (`"enum": "advice"` on bill.Delivery's type: a string where JSON
 *   Schema wants a list) is read as the annotation it is, since Ajv refuses the schema;
 * - lists of documented constants (`oneOf: [{const, title}, …]`, hundreds for currencies and
 *   units) become one `enum`: the same values, without building an error for every constant
 *   that does not match, which made validation several times slower.
 */
function prepare(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) prepare(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const obj = node as Record<string, any>;
  if ('enum' in obj && !Array.isArray(obj.enum)) delete obj.enum;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = obj[key];
    if (!Array.isArray(branches)) continue;
    const consts = branches.filter(isPureConst);
    if (consts.length < 2) continue;
    const others = branches.filter((b) => !isPureConst(b));
    const values = consts.map((b) => b.const);
    if (others.length === 0 && new Set(values.map((v) => JSON.stringify(v))).size === values.length) {
      delete obj[key];
      obj.enum = values;
    } else if (key === 'anyOf') {
      obj.anyOf = [{ enum: values }, ...others];
    }
  }
  for (const value of Object.values(obj)) prepare(value);
}

/** Every schema file by `$id`, with the adjustments of `prepare`, read once. */
function loadSchemas(): Map<string, Record<string, any>> {
  if (schemas) return schemas;
  schemas = new Map();
  const files: string[] = [];
  schemaFiles(`${goblDataDir()}schemas/`, '', files);
  for (const file of files.sort()) {
    const schema = structuredClone(readGoblData<Record<string, any>>(`schemas/${file}`));
    prepare(schema);
    schemas.set(schema.$id, schema);
  }
  return schemas;
}

function instance(): Instance {
  if (ajv) return ajv;
  ajv = new Ajv2020({
    strict: false, // GOBL adds annotation keywords (calculated, recommended)
    allErrors: true,
    validateSchema: false,
    code: { regExp: goPattern },
  });
  for (const [name, format] of Object.entries(FORMATS)) ajv.addFormat(name, format);
  for (const schema of loadSchemas().values()) ajv.addSchema(structuredClone(schema));
  return ajv;
}

const compiled = new Map<string, ValidateFunction | null>();

function validator(id: string): ValidateFunction | undefined {
  let v = compiled.get(id);
  if (v === undefined) {
    v = (loadSchemas().has(id) ? instance().getSchema(id) : undefined) ?? null;
    compiled.set(id, v);
  }
  return v ?? undefined;
}

// Valid documents are the common case: a verdict answers "valid" without Ajv's bookkeeping,
// and only a document it does not accept goes to Ajv for the faults.
let verdictCompiler: VerdictCompiler | undefined;
const verdicts = new Map<string, Verdict | null>();

function verdict(id: string): Verdict | undefined {
  let v = verdicts.get(id);
  if (v === undefined) {
    verdictCompiler ??= new VerdictCompiler({ schemas: loadSchemas(), pattern: goPattern, formats: FORMATS });
    v = (loadSchemas().has(id) ? verdictCompiler.compile(id) : undefined) ?? null;
    verdicts.set(id, v);
  }
  return v ?? undefined;
}

/** Compiles the verdict of a schema ahead of its first document (warm-up.ts). */
export function prepareVerdict(id: string): void {
  verdict(id);
}

/** Whether a schema's verdict is compiled already (its first document pays nothing for it). */
export const isVerdictPrepared = (id: string): boolean => verdicts.has(id);

/** True when GOBL publishes a schema with this `$id`. */
export function isKnownSchema(id: unknown): boolean {
  return typeof id === 'string' && loadSchemas().has(id);
}

// `/lines/0/quantity` → `base.lines[0].quantity`, reading the data to tell indexes from keys.
function pointerToPath(base: string, pointer: string, data: unknown): string {
  let path = base;
  let node = data;
  if (pointer === '') return path;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      path += `[${seg}]`;
      node = node[Number(seg)];
    } else {
      path = childPath(path, seg);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return path;
}

function describe(e: ErrorObject): { path: string; message: string } | undefined {
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case 'required':
      return { path: p.missingProperty, message: `${p.missingProperty} is required` };
    case 'additionalProperties':
      return { path: p.additionalProperty, message: `${p.additionalProperty} is not a known property` };
    case 'enum': {
      const allowed = p.allowedValues as unknown[];
      return { path: '', message: allowed.length <= 12 ? `must be one of ${allowed.join(', ')}` : 'is not one of the allowed values' };
    }
    case 'anyOf':
    case 'oneOf':
      return { path: '', message: 'is not one of the allowed values' };
    default:
      return { path: '', message: e.message ?? e.keyword };
  }
}

// Branch errors of an anyOf/oneOf say why each alternative failed; the anyOf/oneOf error is
// the one worth reporting. One fault per path: the first reason is enough to act on.
function toFaults(errors: ErrorObject[], data: unknown, base: string): EngineFault[] {
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const faults: EngineFault[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'if') continue; // its `then` error says what is wrong
    if (alternatives.some((a) => a !== e && e.schemaPath.startsWith(`${a.schemaPath}/`))) continue;
    const d = describe(e);
    if (!d) continue;
    let path = pointerToPath(base, e.instancePath, data);
    if (d.path) path = childPath(path, d.path);
    if (seen.has(path)) continue;
    seen.add(path);
    faults.push({ code: SCHEMA_FAULT, message: d.message, paths: [path] });
  }
  return faults;
}

function validateAgainst(id: string, data: unknown, base: string): EngineFault[] {
  if (verdict(id)?.(data)) return [];
  const v = validator(id);
  if (!v) return [{ code: UNKNOWN_SCHEMA_FAULT, message: `unknown schema ${id}`, paths: [`${base}.$schema`] }];
  if (v(data)) return [];
  return toFaults(v.errors ?? [], data, base);
}

/**
 * JSON Schema faults of an envelope (its own schema, then its document's) or of a bare
 * document. Paths are JSON paths from the root given (`$.doc.lines[0].quantity`).
 */
export function schemaFaults(root: Node): EngineFault[] {
  const schema = root.$schema;
  if (typeof schema !== 'string' || schema === '') {
    return [{ code: UNKNOWN_SCHEMA_FAULT, message: 'the document has no $schema', paths: ['$.$schema'] }];
  }
  if (schema !== ENVELOPE_SCHEMA) return validateAgainst(schema, root, '$');
  const faults = validateAgainst(ENVELOPE_SCHEMA, root, '$');
  const doc = root.doc;
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
    if (typeof doc.$schema === 'string' && doc.$schema !== '') faults.push(...validateAgainst(doc.$schema, doc, '$.doc'));
  }
  return faults;
}

/**
 * Both answers to "is `data` valid against schema `id`?": the verdict's (undefined when the
 * schema has none) and Ajv's. For tests: the verdict may only say yes where Ajv does.
 */
export function schemaAnswers(id: string, data: unknown): { verdict: boolean | undefined; ajv: boolean | undefined } {
  const v = verdict(id);
  const a = validator(id);
  return { verdict: v ? v(data) : undefined, ajv: a ? (a(data) as boolean) : undefined };
}
