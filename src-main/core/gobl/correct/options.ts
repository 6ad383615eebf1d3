// Correction options as GOBL's `bill.CorrectionOptions` reads them from JSON: unknown fields are
// ignored, a field of the wrong JSON type is an error, `type` is required.
import { BuildError } from '../engine/types.ts';
import type { EngineFault, Node } from '../engine/types.ts';
import { isStamp } from './input.ts';
import type { Stamp } from './input.ts';

export interface CorrectionOptions {
  type: string;
  issueDate?: string;
  series?: string;
  /** The stamps offered for `preceding[0].stamps` (only those the regime lists are copied). */
  stamps: Stamp[];
  reason?: string;
  ext: Record<string, string>;
  copyTax: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/**
 * Before GOBL v0.67 (Feb 2024) the options had `credit` / `debit` flags instead of `type`, and the
 * Invopop API still documents `{"credit": true}`. GOBL v0.502 ignores them (and then refuses for
 * the missing type); Silodesk reads them as the type they meant when no `type` is given.
 */
function legacyType(options: Node): string | undefined {
  if (options.credit === true) return 'credit-note';
  if (options.debit === true) return 'debit-note';
  return undefined;
}

/**
 * Reads the options. `headStamps` are the original envelope's stamps: GOBL offers them unless the
 * options bring their own `stamps` list, which replaces them (JSON decoding overwrites the list).
 */
export function parseCorrectionOptions(input: unknown, headStamps: Stamp[]): CorrectionOptions {
  const faults: EngineFault[] = [];
  const fault = (field: string, message: string): void => {
    faults.push({ code: 'invalid-correction-options', message, paths: [`$.options${field ? `.${field}` : ''}`] });
  };
  const options: Node = input === undefined || input === null ? {} : input as Node;
  if (typeof options !== 'object' || Array.isArray(options)) {
    fault('', 'correction options must be a JSON object');
    throw new BuildError(faults);
  }
  const text = (field: string): string | undefined => {
    const value = options[field];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') {
      fault(field, `${field} must be a string`);
      return undefined;
    }
    return value;
  };

  const out: CorrectionOptions = { type: '', stamps: headStamps, ext: {}, copyTax: false };
  out.type = text('type') || legacyType(options) || '';
  const issueDate = text('issue_date');
  if (issueDate !== undefined) {
    if (isRealDate(issueDate)) out.issueDate = issueDate;
    else fault('issue_date', `issue_date '${issueDate}' is not a date (YYYY-MM-DD)`);
  }
  out.series = text('series') || undefined;
  out.reason = text('reason') || undefined;

  if (options.stamps !== undefined && options.stamps !== null) {
    if (!Array.isArray(options.stamps) || !options.stamps.every(isStamp)) {
      fault('stamps', 'stamps must be a list of {prv, val} objects');
    } else {
      out.stamps = options.stamps.map((s: Stamp) => ({ prv: s.prv, val: s.val }));
    }
  }
  if (options.ext !== undefined && options.ext !== null) {
    if (typeof options.ext !== 'object' || Array.isArray(options.ext)) {
      fault('ext', 'ext must be an object of extension codes');
    } else {
      for (const [key, value] of Object.entries(options.ext as Node)) {
        if (typeof value === 'string') out.ext[key] = value;
        else fault(`ext.${key}`, `ext '${key}' must be a string code`);
      }
    }
  }
  if (options.copy_tax !== undefined && options.copy_tax !== null) {
    if (typeof options.copy_tax === 'boolean') out.copyTax = options.copy_tax;
    else fault('copy_tax', 'copy_tax must be a boolean');
  }

  if (faults.length === 0 && out.type === '') {
    faults.push({ code: 'correction-type-required', message: 'missing correction type', paths: ['$.options.type'] });
  }
  if (faults.length > 0) throw new BuildError(faults);
  return out;
}
