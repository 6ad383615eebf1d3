import type { EngineFault } from './engine/types.ts';

/**
 * One problem with a document, as entries, jobs and webhooks carry it (the hosted
 * service's `SiloFault`). `paths` are JSON paths from the envelope root, e.g.
 * `$.doc.totals.payable`, and may be empty for a problem with no place (a cancelled
 * job); `provider` names who found it: `silo` when a document is stored, or the
 * workflow step (`gobl.validate`, `silo.modify`…). A figure GOBL calculates
 * differently carries what the document states and what GOBL calculates.
 */
export type Fault = {
  code: string;
  message: string;
  provider: string;
  paths: string[];
  stated?: string;
  calculated?: string;
};

/** The provider of faults found while the silo stores or changes a document. */
export const SILO_PROVIDER = 'silo';

/** An engine fault as Silodesk reports it. */
export function faultOf(fault: EngineFault, provider = SILO_PROVIDER): Fault {
  return {
    code: fault.code,
    message: fault.message,
    provider,
    paths: [...fault.paths],
    ...(fault.stated !== undefined ? { stated: fault.stated } : {}),
    ...(fault.calculated !== undefined ? { calculated: fault.calculated } : {}),
  };
}

/**
 * A fault read back from storage or another instance, in today's shape: faults
 * written before `paths` existed carried one optional `path`.
 */
export function normalizeFault(raw: unknown): Fault {
  const f = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const paths = Array.isArray(f.paths)
    ? f.paths.filter((p): p is string => typeof p === 'string')
    : typeof f.path === 'string' ? [f.path] : [];
  return {
    code: typeof f.code === 'string' ? f.code : 'unknown',
    message: typeof f.message === 'string' ? f.message : '',
    provider: typeof f.provider === 'string' ? f.provider : SILO_PROVIDER,
    paths,
    ...(typeof f.stated === 'string' ? { stated: f.stated } : {}),
    ...(typeof f.calculated === 'string' ? { calculated: f.calculated } : {}),
  };
}

/** The faults of a JSON column or payload, normalised; anything unreadable is no faults. */
export function parseFaults(json: string | null | undefined): Fault[] {
  if (!json) return [];
  try {
    const list = JSON.parse(json) as unknown;
    return Array.isArray(list) ? list.map(normalizeFault) : [];
  } catch {
    return [];
  }
}
