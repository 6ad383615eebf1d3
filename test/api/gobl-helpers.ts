import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestServer } from './harness.ts';

const EXAMPLES = fileURLToPath(new URL('../fixtures/gobl/examples/', import.meta.url));

/** A GOBL example pair member, parsed fresh: `in` is what a client sends, `out` the envelope GOBL builds. */
export function example(side: 'in' | 'out', file: string): any {
  return JSON.parse(readFileSync(`${EXAMPLES}${side}/${file}`, 'utf8'));
}

/**
 * An invoice as a simple invoicing app (Midday and the like) sends it: parties,
 * lines with quantity, price and a tax rate, a discount percent, and no figure
 * GOBL calculates (no line sums, no totals, no tax percents).
 */
export function partialInvoice(overrides: Record<string, unknown> = {}): any {
  return {
    $schema: 'https://gobl.org/draft-0/bill/invoice',
    currency: 'EUR',
    issue_date: '2026-03-02',
    series: 'INV',
    code: '0042',
    supplier: {
      name: 'Provide One S.L.',
      tax_id: { country: 'ES', code: 'B98602642' },
      emails: [{ addr: 'billing@example.com' }],
    },
    customer: { name: 'Sample Consumer', tax_id: { country: 'ES', code: '54387763P' } },
    lines: [
      { quantity: '10', item: { name: 'Design work', price: '100.00' }, taxes: [{ cat: 'VAT', rate: 'general' }] },
      {
        quantity: '2',
        item: { name: 'Hosting', price: '50.00' },
        discounts: [{ percent: '10%', reason: 'Loyalty' }],
        taxes: [{ cat: 'VAT', rate: 'general' }],
      },
    ],
    ...overrides,
  };
}

/** One line of 10 × 100.00 at 21%: payable 1210.00. */
export function oneLineInvoice(code: string, overrides: Record<string, unknown> = {}): any {
  return partialInvoice({
    code,
    lines: [{ quantity: '10', item: { name: 'Consulting', price: '100.00' }, taxes: [{ cat: 'VAT', rate: 'general' }] }],
    ...overrides,
  });
}

/** fetch as another token (another company's owner) */
export async function callAs(t: TestServer, token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(t.url + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The ids of an entry's related entries (first page of 100), with their contexts. */
export async function related(t: TestServer, id: string, query = ''): Promise<Array<{ id: string; context: string }>> {
  const res = await t.call('GET', `/silo/v1/entries/${id}/related?limit=100${query}`);
  if (res.status !== 200) throw new Error(`related ${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.list.map((e: any) => ({ id: e.id, context: e.context }));
}
