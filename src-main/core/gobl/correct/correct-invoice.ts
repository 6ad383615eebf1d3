// GOBL's invoice correction: the original becomes `preceding[0]` of a new credit note, debit note
// or corrective invoice that keeps everything else (parties, lines, positive amounts, payment).
// The result is not calculated: the build pipeline calculates and normalises it next, as GOBL's
// Correct ends with a Calculate.
import { v7 as uuidv7 } from 'uuid';
import { BuildError } from '../engine/types.ts';
import type { EngineFault, Node } from '../engine/types.ts';
import { correctionRulesFor, isInvoice, settingOf } from './definition.ts';
import type { CorrectionRules } from './definition.ts';
import { documentOf, headStampsOf } from './input.ts';
import { applyCorrectionHooks } from './normalizers.ts';
import { parseCorrectionOptions } from './options.ts';
import type { CorrectionOptions } from './options.ts';
import { requiredPrecedingExt } from './required-ext.ts';

function refuse(code: string, message: string, path: string): never {
  throw new BuildError([{ code, message, paths: [path] }]);
}

function precedingOf(original: Node, options: CorrectionOptions, rules: CorrectionRules): Node {
  const ref: Node = {};
  if (original.uuid) ref.uuid = original.uuid;
  if (original.type) ref.type = original.type;
  if (original.issue_date) ref.issue_date = original.issue_date;
  if (original.series) ref.series = original.series;
  ref.code = original.code;
  if (options.reason) ref.reason = options.reason;
  // Only the stamps the regime asks for, in its order.
  const stamps = rules.stamps.map((prv) => options.stamps.find((s) => s.prv === prv)).filter((s) => s !== undefined);
  if (stamps.length > 0) ref.stamps = stamps.map((s) => ({ ...s }));
  if (options.copyTax && original.totals?.taxes) ref.tax = structuredClone(original.totals.taxes);
  if (Object.keys(options.ext).length > 0) ref.ext = { ...options.ext };
  return ref;
}

/** What GOBL refuses before it changes anything, in its order: stamps, type, reason. */
function checkOptions(options: CorrectionOptions, rules: CorrectionRules): EngineFault[] {
  const faults: EngineFault[] = [];
  for (const prv of rules.stamps) {
    if (!options.stamps.some((s) => s.prv === prv)) {
      faults.push({ code: 'correction-stamp-required', message: `missing stamp: ${prv}`, paths: ['$.options.stamps'] });
    }
  }
  if (rules.types.length > 0 && !rules.types.includes(options.type)) {
    faults.push({
      code: 'correction-type-not-allowed',
      message: `invalid correction type: ${options.type} (allowed: ${rules.types.join(', ')})`,
      paths: ['$.options.type'],
    });
  }
  if (rules.reasonRequired && !options.reason) {
    faults.push({ code: 'correction-reason-required', message: 'missing corrective reason', paths: ['$.options.reason'] });
  }
  return faults;
}

function utcDate(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The corrective document for an invoice, or for the envelope holding it (whose head stamps are
 * then offered to the options). Throws BuildError for a document GOBL cannot correct or options
 * GOBL refuses.
 */
export function correctInvoice(input: Node, rawOptions: unknown, now: Date): Node {
  const original = documentOf(input);
  if (!isInvoice(original)) refuse('not-correctable', 'document cannot be corrected: only invoices can', '$.doc.$schema');
  const options = parseCorrectionOptions(rawOptions, headStampsOf(input));
  if (typeof original.code !== 'string' || original.code.trim() === '') {
    refuse('correction-code-required', 'cannot correct an invoice without a code', '$.doc.code');
  }
  const setting = settingOf(original);
  const rules = correctionRulesFor(setting);
  const faults = checkOptions(options, rules);
  if (faults.length > 0) throw new BuildError(faults);

  const doc: Node = structuredClone(original);
  doc.preceding = [precedingOf(original, options, rules)];
  doc.uuid = uuidv7({ msecs: now.getTime() });
  doc.type = options.type;
  if (options.series) doc.series = options.series;
  delete doc.code;
  doc.issue_date = options.issueDate ?? utcDate(now);
  applyCorrectionHooks(doc, options, setting.addons.map((a) => a.key));
  // Recalculated by the build; stale figures must not survive into it.
  delete doc.totals;

  const ext: Node = doc.preceding[0].ext ?? {};
  const missing = requiredPrecedingExt({ regime: setting.regime?.country, addons: setting.addons.map((a) => a.key), type: doc.type })
    .filter((r) => !ext[r.key]);
  if (missing.length > 0) {
    throw new BuildError(missing.map((r) => ({ code: r.ruleId, message: `${r.desc}: give it in the options' ext`, paths: [`$.options.ext.${r.key}`] })));
  }
  return doc;
}
