// GOBL's payment calculation (bill/payment.go, bill/payment_line.go): each line's document tax
// is recalculated, converted into the payment currency and scaled to the share paid; the due
// amount follows from payable, advances and amount; `total` sums the lines (refunds negative);
// method percents apply to the total, and a lone method without amount gets the total.
import { BuildError } from '../engine/types.ts';
import type { BuildContext, Node } from '../engine/types.ts';
import type { Amount } from '../num/index.ts';
import { calcEnv } from './env.ts';
import type { CalcEnv } from './env.ts';
import { convert, findRate, missingRate, readExchangeRates } from './exchange.ts';
import type { ExchangeRate } from './exchange.ts';
import { isNode, listOf, nonEmptyString, readAmount, readAmountOrZero, takePercent } from './fields.ts';
import { applyIssueDefaults } from './issue-date.ts';
import { calculateTaxSums, readTaxTotal, roundTaxTotal, taxTotalNode } from './tax-total.ts';
import type { TaxTotal } from './tax-total.ts';

/** GOBL's Total.Clone, which does not carry the informative flag over. */
function cloneForLine(t: TaxTotal): TaxTotal {
  return {
    categories: t.categories.map((c) => ({
      ...c,
      informative: false,
      rates: c.rates.map((r) => ({ ...r, surcharge: r.surcharge ? { ...r.surcharge } : undefined })),
    })),
    sum: t.sum,
    retained: t.retained,
  };
}

function recalculated(node: Node, path: string, env: CalcEnv): TaxTotal {
  const t = readTaxTotal(node, path);
  calculateTaxSums(t, env);
  return t;
}

/** One payment line; returns its amount. */
function calculatePaymentLine(line: Node, path: string, env: CalcEnv, rates: ExchangeRate[]): Amount {
  let lineTax: TaxTotal | undefined;
  const document = isNode(line.document) ? line.document : undefined;
  if (document) {
    const docPath = `${path}.document`;
    let rate: ExchangeRate | undefined;
    const dc = nonEmptyString(document.currency);
    if (dc !== '') {
      rate = findRate(rates, dc, env.currency);
      if (!rate) throw missingRate(dc, env.currency, `${docPath}.currency`);
    }
    if (isNode(document.tax)) {
      const t = recalculated(document.tax, `${docPath}.tax`, env);
      roundTaxTotal(t, env.exp);
      document.tax = taxTotalNode(t);
      lineTax = cloneForLine(t);
      if (rate) {
        for (const c of lineTax.categories) for (const r of c.rates) r.base = convert(rate, r.base);
        calculateTaxSums(lineTax, calcEnv(rate.to, env.precise ? 'precise' : 'currency'));
      }
    }
    const docPayable = readAmount(document, 'payable', docPath);
    if (docPayable) {
      document.payable = docPayable.toString();
      line.payable = (rate ? convert(rate, docPayable) : docPayable).toString();
    }
  }

  const amount = readAmountOrZero(line, 'amount', path);
  line.amount = amount.toString();
  const payable = readAmount(line, 'payable', path);
  if (payable) {
    line.payable = payable.toString();
    if (lineTax) {
      const factor = amount.upscale(2).divide(payable);
      if (!factor.isZero()) {
        for (const c of lineTax.categories) for (const r of c.rates) r.base = r.base.multiply(factor);
        calculateTaxSums(lineTax, env);
      }
      line.tax = taxTotalNode(lineTax);
    } else if (isNode(line.tax)) {
      line.tax = taxTotalNode(recalculated(line.tax, `${path}.tax`, env));
    }
    const advances = readAmount(line, 'advances', path);
    let due = payable;
    if (advances) {
      line.advances = advances.toString();
      due = due.subtract(advances);
    }
    line.due = due.subtract(amount).toString();
  } else if (isNode(line.tax)) {
    line.tax = taxTotalNode(recalculated(line.tax, `${path}.tax`, env));
  }
  return amount;
}

export function calculatePayment(doc: Node, ctx: BuildContext): void {
  const regime = ctx.regime;
  const rule = regime?.calculator_rounding_rule || 'precise';
  applyIssueDefaults(doc, regime, ctx.now);
  let currency = nonEmptyString(doc.currency);
  if (currency === '' && regime) currency = doc.currency = regime.currency;
  if (currency === '') {
    throw new BuildError([{ code: 'invalid-currency', message: 'currency: required, unable to determine', paths: ['$.currency'] }]);
  }
  const env = calcEnv(currency, rule);
  const rates = readExchangeRates(doc);

  let total: Amount | undefined;
  listOf(doc, 'lines').forEach((line, i) => {
    if (!isNode(line)) return;
    line.i = i + 1;
    let a = calculatePaymentLine(line, `$.lines[${i}]`, env, rates);
    if (line.refund === true) a = a.negate();
    total = total ? total.add(a) : a;
  });
  if (total) doc.total = total.toString();
  const paid = total ?? readAmountOrZero(doc, 'total', '$');

  const methods = listOf(doc, 'methods');
  methods.forEach((m, i) => {
    if (!isNode(m)) return;
    const percent = takePercent(m, 'percent', `$.methods[${i}]`);
    if (percent) m.amount = percent.of(paid).toString();
  });
  if (methods.length === 1 && isNode(methods[0])) {
    const m = methods[0];
    const amount = readAmountOrZero(m, 'amount', '$.methods[0]');
    if (amount.isZero() && nonEmptyString(m.currency) === '') m.amount = paid.toString();
  }
}

