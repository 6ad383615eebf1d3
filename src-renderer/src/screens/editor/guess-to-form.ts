// A form pre-filled from what the PDF's text says: only what was found is set, the rest stays
// for the user. Amounts go in as the PDF prints them: one line per tax rate with its base, or,
// with only a total and a rate, the total as a price that includes the tax, so GOBL splits it.
import { emptyLine, type InvoiceForm } from './invoice-form.ts';
import type { InvoiceGuess } from './invoice-guess.ts';
import { choiceForPercent, type Regime } from './regime-taxes.ts';

/** The fields a guess filled, for the form to say "read from the PDF". */
export type Filled = Set<string>;

export function applyGuess(form: InvoiceForm, guess: InvoiceGuess, regime: Regime | undefined): { form: InvoiceForm; filled: Filled } {
  const filled: Filled = new Set();
  const next: InvoiceForm = { ...form, supplier: { ...form.supplier } };
  const set = <K extends 'code' | 'issue_date' | 'currency'>(key: K, value: string | undefined) => {
    if (value === undefined) return;
    next[key] = value;
    filled.add(key);
  };
  set('code', guess.code?.value);
  set('issue_date', guess.issue_date?.value);
  set('currency', guess.currency?.value);
  if (guess.supplier_name) {
    next.supplier.name = guess.supplier_name.value;
    filled.add('supplier.name');
  }
  if (guess.supplier_tax_id) {
    next.supplier.tax_country = guess.supplier_tax_id.value.country;
    next.supplier.tax_code = guess.supplier_tax_id.value.code;
    filled.add('supplier.tax_code');
  }
  const vat = regime?.categories.find((c) => !c.retained);
  const cat = vat?.code ?? 'VAT';
  const rates = guess.rates.filter((r) => r.value.percent);
  if (guess.net && rates.length <= 1) {
    const line = emptyLine(cat, rates[0] ? choiceForPercent(vat, rates[0].value.percent) : choiceForPercent(vat, '0'));
    next.lines = [{ ...line, name: 'As per the attached invoice', price: guess.net.value }];
    filled.add('lines');
  } else if (guess.total && rates.length === 1) {
    const line = emptyLine(cat, choiceForPercent(vat, rates[0].value.percent));
    next.lines = [{ ...line, name: 'As per the attached invoice', price: guess.total.value }];
    next.prices_include = cat;
    filled.add('lines');
  }
  return { form: next, filled };
}
