import { ApiError, type ErrorBody } from '../api/errors.ts';
import type { Fault } from '../gobl/fault.ts';

/** A 422 body that also lists the document's faults, each with its code, paths and figures. */
export interface FaultsErrorBody extends ErrorBody {
  faults: Fault[];
}

/**
 * A document refused for its faults: `validation` (422) with `fields` keyed by the JSON
 * path of the request member at fault, as every 422 has, and `faults[]` as GOBL found them
 * (paths from the envelope root, stated and calculated figures).
 */
export class FaultsError extends ApiError {
  readonly faults: Fault[];

  constructor(message: string, fields: Record<string, string>, faults: Fault[]) {
    super('validation', message, fields);
    this.faults = faults;
  }

  override toBody(): FaultsErrorBody {
    return { ...super.toBody(), faults: this.faults };
  }
}

/**
 * Where a fault path (from the envelope root) is in the request: the document's
 * paths sit under `$.data`, correction options under the member that carried them.
 */
export type RequestPathOf = (faultPath: string) => string;

export const underData: RequestPathOf = (path) => path.replace(/^\$/, '$.data');

/**
 * The request paths of faults about `data`: a bare document was sent as `data` itself, so a fault
 * at the envelope's `$.doc.lines[0]` is at the request's `$.data.lines[0]`.
 */
export function pathsFor(data: unknown, requestPath: RequestPathOf = underData): RequestPathOf {
  if (isEnvelopeInput(data)) return requestPath;
  return (path) => requestPath(path.replace(/^\$\.doc(?=$|[.[])/, '$'));
}

function isEnvelopeInput(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const d = data as Record<string, unknown>;
  return d.$schema === 'https://gobl.org/draft-0/envelope' || (d.$schema === undefined && typeof d.doc === 'object' && d.doc !== null);
}

/** `$.options…` → `$.<member>…`, everything else under `$.data`. */
export function optionsAt(member: string): RequestPathOf {
  return (path) => (/^\$\.options(?:$|[.[])/.test(path) ? path.replace(/^\$\.options/, `$.${member}`) : underData(path));
}

/** Refuses a document for its faults (422); throws. */
export function refuseFaults(faults: Fault[], requestPath: RequestPathOf = underData, what = 'the document is not valid'): never {
  const fields: Record<string, string> = {};
  for (const f of faults) {
    for (const path of f.paths.length > 0 ? f.paths : ['$']) {
      const at = requestPath(path);
      if (!(at in fields)) fields[at] = f.message;
    }
  }
  const count = `${faults.length} fault${faults.length === 1 ? '' : 's'}`;
  throw new FaultsError(`${what} (${count}; first: ${faults[0]?.message ?? 'unknown'})`, fields, faults);
}
