// Credit notes, debit notes and corrective invoices from an invoice, as GOBL's `correct` makes them.
export { correctInvoice } from './correct-invoice.ts';
export { correctionOptionsSchema } from './options-schema.ts';
export { correctionRulesFor, settingOf } from './definition.ts';
export type { CorrectionRules } from './definition.ts';
export type { CorrectionOptions } from './options.ts';
