import type { Formatter } from './formatter.ts';
import { documentNumber, humanize, humanizeKey, isSet, obj, objects, str, type Json } from './gobl-read.ts';

export interface TextBlockView {
  heading: string;
  lines: string[];
}

/** Payment terms, instructions and advances, each a block of lines. */
export function paymentBlocks(payment: Json, fmt: Formatter, money: (value: unknown) => string): TextBlockView[] {
  const blocks: TextBlockView[] = [];

  const terms = obj(payment.terms);
  if (terms) {
    const lines = [str(terms.key) && humanize(str(terms.key)!), str(terms.detail)].filter(isSet);
    for (const due of objects(terms.due_dates)) {
      const percent = str(due.percent) ? ` (${fmt.percent(due.percent)})` : '';
      lines.push(`Due ${fmt.date(due.date)}: ${money(due.amount)}${percent}`);
    }
    const notes = str(terms.notes);
    if (notes) lines.push(notes);
    if (lines.length > 0) blocks.push({ heading: 'Payment terms', lines });
  }

  const instructions = obj(payment.instructions);
  if (instructions) {
    const lines: string[] = [];
    const key = str(instructions.key);
    if (key) lines.push(`Method: ${humanizeKey(key)}`);
    const detail = str(instructions.detail);
    if (detail) lines.push(detail);
    const ref = str(instructions.ref);
    if (ref) lines.push(`Reference: ${ref}`);
    for (const account of objects(instructions.credit_transfer)) {
      const parts = [
        str(account.iban) && `IBAN ${str(account.iban)}`,
        str(account.number) && `Account ${str(account.number)}`,
        str(account.bic) && `BIC ${str(account.bic)}`,
        str(account.name),
      ].filter(isSet);
      if (parts.length > 0) lines.push(parts.join(' · '));
    }
    const card = obj(instructions.card);
    if (card) {
      const digits = [str(card.first6), str(card.last4)].filter(isSet).join('…');
      lines.push(['Card', digits, str(card.holder)].filter((p) => p).join(' '));
    }
    const debit = obj(instructions.direct_debit);
    if (debit) {
      const parts = [
        str(debit.ref) && `Mandate ${str(debit.ref)}`,
        str(debit.creditor) && `Creditor ${str(debit.creditor)}`,
        str(debit.account) && `Account ${str(debit.account)}`,
      ].filter(isSet);
      if (parts.length > 0) lines.push(parts.join(' · '));
    }
    for (const online of objects(instructions.online)) {
      const url = str(online.url);
      if (url) lines.push(str(online.label) ? `${str(online.label)}: ${url}` : url);
    }
    const notes = str(instructions.notes);
    if (notes) lines.push(notes);
    if (lines.length > 0) blocks.push({ heading: 'Payment instructions', lines });
  }

  const advances = objects(payment.advances).map((advance) => {
    const when = str(advance.date) ? `${fmt.date(advance.date)}: ` : '';
    const what = str(advance.description) ?? 'Advance';
    const percent = str(advance.percent) ? ` (${fmt.percent(advance.percent)})` : '';
    return `${when}${what} — ${money(advance.amount)}${percent}`;
  });
  if (advances.length > 0) blocks.push({ heading: 'Advances', lines: advances });
  return blocks;
}

/** The document's notes, its tax notes, and what it corrects. */
export function noteBlocks(doc: Json, fmt: Formatter): TextBlockView[] {
  const blocks: TextBlockView[] = [];
  const texts = (list: unknown) => objects(list).map((note) => str(note.text)).filter(isSet);

  const notes = texts(doc.notes);
  if (notes.length > 0) blocks.push({ heading: 'Notes', lines: notes });
  const taxNotes = texts(obj(doc.tax)?.notes);
  if (taxNotes.length > 0) blocks.push({ heading: 'Tax notes', lines: taxNotes });

  const corrections: string[] = [];
  for (const preceding of objects(doc.preceding)) {
    const parts = [documentNumber(preceding) || str(preceding.uuid)];
    if (str(preceding.issue_date)) parts.push(fmt.date(preceding.issue_date));
    if (str(preceding.reason)) parts.push(str(preceding.reason));
    for (const stamp of objects(preceding.stamps)) {
      if (str(stamp.val)) parts.push(`${str(stamp.prv) ?? 'stamp'}: ${str(stamp.val)}`);
    }
    corrections.push(parts.filter(isSet).join(' · '));
  }
  if (corrections.length > 0) blocks.push({ heading: 'Corrected documents', lines: corrections });
  return blocks;
}
