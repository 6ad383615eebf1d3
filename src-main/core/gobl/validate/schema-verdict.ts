// A yes/no answer to "does this value satisfy the JSON Schema?", for the common case of a valid
// document. Ajv answers it too, but builds an error object for every alternative it rejects on
// the way and a path string for every value it visits; this answers with plain closures and
// nothing else. It is one-sided by design: `true` must mean Ajv accepts the value, so every
// keyword is read exactly as Ajv reads it (cited below), and a schema using anything else is
// not compiled at all (the caller then asks Ajv). Faults always come from Ajv.

export type Verdict = (value: unknown) => boolean;

type Schema = Record<string, any> | boolean;

export interface VerdictSources {
  /** Every schema file by `$id`, as given to Ajv. */
  schemas: ReadonlyMap<string, Record<string, any>>;
  /** The pattern engine Ajv was given (`code.regExp`; its flags argument is not used). */
  pattern: (source: string, flags: string) => RegExp;
  /** The formats given to Ajv: a function or RegExp tests a string, `true` accepts any. */
  formats: Readonly<Record<string, ((text: string) => boolean) | RegExp | true>>;
}

/** A keyword this compiler does not read: the schema is left to Ajv. */
class Unsupported extends Error {}

// Keywords that do not take part in validation (Ajv runs with strict: false, so unknown
// annotation keywords such as GOBL's `calculated` are ignored by it too).
const ANNOTATIONS = new Set([
  '$schema', '$id', '$defs', '$comment', 'title', 'description', 'examples', 'default',
  'calculated', 'recommended', 'contentEncoding', 'contentMediaType', 'deprecated', 'readOnly', 'writeOnly',
]);

const ACCEPT: Verdict = () => true;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Ajv's ucs2length: string length in code points, not UTF-16 units.
function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    n++;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if ((next & 0xfc00) === 0xdc00) i++;
    }
  }
  return n;
}

// Ajv's dataType checks (compile/validate/dataType.js), with strictNumbers on.
function typeCheck(type: string): Verdict {
  switch (type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'null':
      return (v) => v === null;
    case 'array':
      return Array.isArray;
    case 'object':
      return isObject;
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'integer':
      return (v) => typeof v === 'number' && !(v % 1) && !Number.isNaN(v) && Number.isFinite(v);
    default:
      throw new Unsupported(`type ${type}`);
  }
}

function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

function all(checks: Verdict[]): Verdict {
  if (checks.length === 0) return ACCEPT;
  if (checks.length === 1) return checks[0];
  return (v) => {
    for (const check of checks) if (!check(v)) return false;
    return true;
  };
}

/** Compiles verdicts for the schemas of `sources`, sharing every compiled `$ref` target. */
export class VerdictCompiler {
  private readonly sources: VerdictSources;
  private readonly byRef = new Map<string, Verdict>();

  constructor(sources: VerdictSources) {
    this.sources = sources;
  }

  /** The verdict for the schema with this `$id`, or undefined when it uses a keyword not read here. */
  compile(id: string): Verdict | undefined {
    try {
      return this.ref(id, id);
    } catch (error) {
      if (error instanceof Unsupported) return undefined;
      throw error;
    }
  }

  // `$ref` targets: `https://gobl.org/draft-0/cbc/code`, `…/code#/$defs/cbc.Code` or `#/$defs/x`.
  private ref(ref: string, base: string): Verdict {
    const hash = ref.indexOf('#');
    const file = hash === 0 ? base : hash > 0 ? ref.slice(0, hash) : ref;
    const pointer = hash >= 0 ? ref.slice(hash + 1) : '';
    const key = `${file}#${pointer}`;
    const known = this.byRef.get(key);
    if (known) return known;
    // While its own schema is compiled, a recursive reference goes through a forwarder; every
    // later reference gets the compiled verdict itself.
    let target: Verdict = ACCEPT;
    this.byRef.set(key, (v) => target(v));
    const root = this.sources.schemas.get(file);
    if (!root) throw new Unsupported(`unknown schema ${file}`);
    target = this.node(resolvePointer(root, pointer), file);
    this.byRef.set(key, target);
    return target;
  }

  private node(schema: Schema, base: string): Verdict {
    if (schema === true) return ACCEPT;
    if (schema === false) return () => false;
    const checks: Verdict[] = [];
    const keys = Object.keys(schema);
    for (const key of keys) {
      if (ANNOTATIONS.has(key)) {
        if (key === '$id' && schema.$id !== base) throw new Unsupported('nested $id');
        continue;
      }
      const check = this.keyword(key, schema, base);
      if (check) checks.push(check);
    }
    return all(checks);
  }

  /** One keyword's check; undefined when it is read together with another one. */
  private keyword(key: string, schema: Record<string, any>, base: string): Verdict | undefined {
    const value = schema[key];
    switch (key) {
      case '$ref':
        return this.ref(value, base);
      case 'type': {
        const types = (Array.isArray(value) ? value : [value]).map(typeCheck);
        return types.length === 1 ? types[0] : (v) => types.some((t) => t(v));
      }
      case 'properties':
      case 'required':
        // Read once, together, for the first of the two keywords met.
        if (key === 'required' && isObject(schema.properties)) return undefined;
        return this.objectCheck(schema, base);
      case 'patternProperties':
        return this.patternProperties(value, base);
      case 'items':
        return this.items(value, base);
      case 'enum':
        return enumCheck(value);
      case 'const':
        return enumCheck([value]);
      case 'pattern': {
        const re = this.sources.pattern(value, 'u');
        return (v) => typeof v !== 'string' || re.test(v);
      }
      case 'minLength':
      case 'maxLength':
        return lengthCheck(key, value);
      case 'format':
        return this.format(value);
      case 'allOf':
        return all(this.list(value, base));
      case 'anyOf': {
        const branches = this.list(value, base);
        return (v) => branches.some((b) => b(v));
      }
      case 'oneOf': {
        const branches = this.list(value, base);
        return (v) => {
          let passed = 0;
          for (const b of branches) if (b(v) && ++passed > 1) return false;
          return passed === 1;
        };
      }
      case 'not': {
        const inner = this.node(value, base);
        return (v) => !inner(v);
      }
      case 'if':
        return this.conditional(schema, base);
      case 'then':
      case 'else':
        return undefined; // read with `if` (without an `if`, Ajv ignores them)
      default:
        throw new Unsupported(`keyword ${key}`);
    }
  }

  private list(value: unknown, base: string): Verdict[] {
    if (!Array.isArray(value) || value.length === 0) throw new Unsupported('empty list of schemas');
    return value.map((s) => this.node(s, base));
  }

  // properties + required, for objects only (Ajv: a property is there when it is not undefined,
  // inherited ones included, as ownProperties is off).
  private objectCheck(schema: Record<string, any>, base: string): Verdict {
    const props = new Map<string, Verdict>();
    if (schema.properties !== undefined) {
      if (!isObject(schema.properties)) throw new Unsupported('properties');
      for (const [name, sub] of Object.entries(schema.properties)) {
        const check = this.node(sub as Schema, base);
        if (check !== ACCEPT) props.set(name, check);
      }
    }
    const required: string[] = schema.required ?? [];
    if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) throw new Unsupported('required');
    const checked = [...props];
    // Ajv reads `data[name]`, which sees inherited properties too; a plain object inherits
    // none but Object.prototype's, so only a schema naming one of those needs every read.
    const byOwnKeys = !checked.some(([name]) => name in Object.prototype);
    return (v) => {
      if (!isObject(v)) return true;
      for (const name of required) if (v[name] === undefined) return false;
      if (byOwnKeys && Object.getPrototypeOf(v) === Object.prototype) {
        // JSON data: its own enumerable keys are all it has. A node sets a few of its type's
        // many properties, so reading its keys beats asking for every property.
        for (const key in v) {
          const check = props.get(key);
          if (check !== undefined && v[key] !== undefined && !check(v[key])) return false;
        }
        return true;
      }
      for (const [name, check] of checked) {
        const x = v[name];
        if (x !== undefined && !check(x)) return false;
      }
      return true;
    };
  }

  private patternProperties(value: unknown, base: string): Verdict {
    if (!isObject(value)) throw new Unsupported('patternProperties');
    const entries = Object.entries(value).map(([source, sub]) => ({ re: this.sources.pattern(source, 'u'), check: this.node(sub as Schema, base) }));
    return (v) => {
      if (!isObject(v)) return true;
      // Ajv iterates with for…in.
      for (const key in v) {
        for (const { re, check } of entries) if (re.test(key) && !check(v[key])) return false;
      }
      return true;
    };
  }

  private items(value: unknown, base: string): Verdict {
    if (Array.isArray(value)) throw new Unsupported('items as a list');
    const check = this.node(value as Schema, base);
    return (v) => {
      if (!Array.isArray(v)) return true;
      for (let i = 0; i < v.length; i++) if (!check(v[i])) return false;
      return true;
    };
  }

  private format(name: unknown): Verdict {
    const format = typeof name === 'string' ? this.sources.formats[name] : undefined;
    if (format === undefined) throw new Unsupported(`format ${String(name)}`);
    if (format === true) return ACCEPT;
    if (format instanceof RegExp) return (v) => typeof v !== 'string' || format.test(v);
    return (v) => typeof v !== 'string' || format(v);
  }

  private conditional(schema: Record<string, any>, base: string): Verdict {
    const test = this.node(schema.if, base);
    const then = schema.then === undefined ? ACCEPT : this.node(schema.then, base);
    const otherwise = schema.else === undefined ? ACCEPT : this.node(schema.else, base);
    return (v) => (test(v) ? then(v) : otherwise(v));
  }
}

function enumCheck(values: unknown): Verdict {
  if (!Array.isArray(values) || !values.every(isPrimitive)) throw new Unsupported('enum of non-primitive values');
  // Ajv compares primitives with ===; NaN never occurs in JSON data.
  const set = new Set(values);
  return (v) => set.has(v);
}

function lengthCheck(key: 'minLength' | 'maxLength', limit: unknown): Verdict {
  if (typeof limit !== 'number') throw new Unsupported(key);
  if (key === 'maxLength') return (v) => typeof v !== 'string' || codePoints(v) <= limit;
  return (v) => typeof v !== 'string' || codePoints(v) >= limit;
}

function resolvePointer(root: Record<string, any>, pointer: string): Schema {
  if (pointer === '' || pointer === '/') return root;
  let node: any = root;
  for (const raw of pointer.slice(1).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = node?.[part];
    if (node === undefined) throw new Unsupported(`unresolved pointer ${pointer}`);
  }
  return node;
}
