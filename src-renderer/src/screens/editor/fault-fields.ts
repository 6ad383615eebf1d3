// Where GOBL's faults belong in the editor: a fault's JSON path (from the envelope, or from the
// document when the build reports it so) names the field it is shown beside.
import { ApiClientError } from '../../api/errors.ts';

/** A fault of the document being edited: where it is, and GOBL's message. */
export interface EditorFault {
  path: string;
  message: string;
}

/** The faults a refused build names, by the request path of each (`$.data…` → the document's `$…`). */
export function faultsOfError(error: unknown): EditorFault[] {
  if (!(error instanceof ApiClientError) || error.key !== 'validation') return [];
  return Object.entries(error.fields ?? {}).map(([path, message]) => ({ path: documentPath(path.replace(/^\$\.data(?=$|[.[])/, '$')), message }));
}

/** The path inside the document: `$.doc.lines[0].item.price` and `$.lines[0].item.price` alike. */
export const documentPath = (path: string): string => path.replace(/^\$\.doc(?=$|[.[])/, '$');

const PARTY_FIELDS: Array<[RegExp, string]> = [
  [/^\.tax_id\.country/, 'tax_country'],
  [/^\.tax_id/, 'tax_code'],
  [/^\.addresses\[\d+\]\.(?:street|num)/, 'street'],
  [/^\.addresses\[\d+\]\.code/, 'code'],
  [/^\.addresses\[\d+\]\.locality/, 'locality'],
  [/^\.addresses\[\d+\]\.country/, 'country'],
  [/^\.emails/, 'email'],
  [/^/, 'name'],
];

const LINE_FIELDS: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^\.item\.price/, () => 'price'],
  [/^\.item/, () => 'name'],
  [/^\.quantity/, () => 'quantity'],
  [/^\.discounts/, () => 'discount'],
  [/^\.taxes\[(\d+)\]/, (m) => `taxes.${m[1]}`],
  [/^\.taxes/, () => 'taxes.0'],
  [/^/, () => 'name'],
];

/** The form field a document path names ("lines.0.price", "supplier.tax_code"), or undefined. */
export function fieldOfPath(path: string): string | undefined {
  const p = documentPath(path);
  const party = /^\$\.(supplier|customer)(.*)$/.exec(p);
  if (party) return `${party[1]}.${PARTY_FIELDS.find(([re]) => re.test(party[2]))![1]}`;
  const line = /^\$\.lines\[(\d+)\](.*)$/.exec(p);
  if (line) {
    for (const [re, name] of LINE_FIELDS) {
      const m = re.exec(line[2]);
      if (m) return `lines.${line[1]}.${name(m)}`;
    }
  }
  const discount = /^\$\.discounts\[(\d+)\]/.exec(p);
  if (discount) return `discounts.${discount[1]}`;
  const top = /^\$\.(issue_date|currency|code|series|notes|lines|type)(?:$|[.[])/.exec(p);
  return top ? top[1] : undefined;
}

/** The faults by the field they are shown beside; those no field shows, apart. */
export function faultsByField(faults: EditorFault[]): { byField: Map<string, EditorFault[]>; elsewhere: EditorFault[] } {
  const byField = new Map<string, EditorFault[]>();
  const elsewhere: EditorFault[] = [];
  for (const fault of faults) {
    const field = fieldOfPath(fault.path);
    if (field === undefined) elsewhere.push(fault);
    else byField.set(field, [...(byField.get(field) ?? []), fault]);
  }
  return { byField, elsewhere };
}
