// The JSON Schema GOBL answers for `show_options`: its published `bill/correction-options` schema,
// narrowed to what the invoice's regime and addons allow (types with their names, the `ext` keys
// with their codes, a required `reason`) and annotated with `recommended` fields. Keys are written
// in the order GOBL's jsonschema marshaller writes them.
import { readGoblData } from '../defs/index.ts';
import { regimeCodeOf } from '../engine/context.ts';
import type { Node } from '../engine/types.ts';
import { correctionRulesFor, isInvoice, settingOf } from './definition.ts';
import { defaultText, extensionDef } from './extension-defs.ts';
import { documentOf } from './input.ts';

const OPTIONS_DEF = 'bill.CorrectionOptions';

interface TypeChoice { const: string; title?: string; description?: string }

function invoiceTypeChoices(): TypeChoice[] {
  const schema = readGoblData<Node>('schemas/bill/invoice.json');
  return schema.$defs['bill.Invoice'].properties.type.oneOf as TypeChoice[];
}

function typeChoice(type: string): TypeChoice {
  const known = invoiceTypeChoices().find((c) => c.const === type);
  // GOBL names an unknown key with empty strings, which its marshaller then omits.
  return known ? { const: type, title: known.title, description: known.description } : { const: type };
}

function extProperty(key: string): Node | undefined {
  const def = extensionDef(key);
  if (!def) return undefined;
  const prop: Node = {};
  if (def.values && def.values.length > 0) {
    prop.oneOf = def.values.map((v) => {
      const choice: Node = { const: v.code, title: defaultText(v.name) };
      if (v.desc && Object.keys(v.desc).length > 0) choice.description = defaultText(v.desc);
      return choice;
    });
  }
  prop.type = 'string';
  prop.title = defaultText(def.name);
  if (def.desc && Object.keys(def.desc).length > 0) prop.description = defaultText(def.desc);
  return prop;
}

/**
 * The correction options schema for an invoice (or an envelope holding one); null for documents
 * GOBL cannot correct, as GOBL answers nothing for them.
 */
export function correctionOptionsSchema(input: Node): Node | null {
  const doc = documentOf(input);
  if (!isInvoice(doc)) return null;
  const base = structuredClone(readGoblData<Node>('schemas/bill/correction-options.json'));
  const code = (regimeCodeOf(doc) ?? '').toLowerCase();
  const out: Node = {
    $schema: base.$schema,
    $id: `${base.$id}?tax_regime=${code}`,
    $ref: base.$ref,
    $defs: base.$defs,
    $comment: `Generated dynamically for ${code}`,
  };
  const setting = settingOf(doc);
  if (!setting.regime) return out;

  const options: Node = out.$defs[OPTIONS_DEF];
  const props: Node = options.properties;
  const rules = correctionRulesFor(setting);
  const recommended = ['series'];

  if (rules.types.length > 0) {
    const { $ref, title, description } = props.type;
    // Assigning an existing key keeps its place among the properties.
    props.type = { $ref, oneOf: rules.types.map(typeChoice), title, description, default: rules.types[0] };
  }
  if (typeof doc.series === 'string' && doc.series !== '') props.series.default = doc.series;

  if (rules.extensions.length > 0) {
    const { title, description } = props.ext;
    const extProps: Node = {};
    for (const key of rules.extensions) {
      const prop = extProperty(key);
      if (prop) extProps[key] = prop;
    }
    const ext: Node = { properties: extProps, type: 'object', title, description };
    if (Object.keys(extProps).length > 0) ext.recommended = Object.keys(extProps);
    props.ext = ext;
    recommended.push('ext');
  } else {
    delete props.ext;
  }
  if (rules.reasonRequired) options.required = [...options.required, 'reason'];
  if (rules.copyTax) recommended.push('copy_tax');
  options.recommended = recommended;
  return out;
}
