// GOBL engine benchmark: how many invoices a second one core builds (partial client input →
// complete envelope) and checks (schemas + GOBL rules + every figure), over GOBL's own example
// inputs, beside bulk import of the same invoices in the same run.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { v7 as uuidv7 } from 'uuid';
import { ensureDefaultCompany } from '../src-main/core/access/bootstrap.ts';
import type { Ctx } from '../src-main/core/api/handler.ts';
import { buildDocument, checkDocument } from '../src-main/core/gobl/engine/index.ts';
import { parseJsonText } from '../src-main/core/gobl/shape/parse.ts';
import { openService } from '../src-main/core/service.ts';
import { importEntries } from '../src-main/core/silo/import.ts';
import type { Benchmark, BenchOutput } from './lib/report.ts';
import { median } from './lib/stats.ts';

const ROUNDS = 7;
const PER_ROUND = 2_000;
const EXAMPLES = fileURLToPath(new URL('../test/fixtures/gobl/examples/', import.meta.url));

const benchmark: Benchmark = { name: 'gobl', title: 'GOBL engine: build and check, invoices per second on one core', run };
export default benchmark;

function loadInvoices(): { inputs: unknown[]; outputs: unknown[] } {
  const inputs: unknown[] = [];
  const outputs: unknown[] = [];
  for (const file of readdirSync(`${EXAMPLES}in`).sort()) {
    const input = parseJsonText(readFileSync(`${EXAMPLES}in/${file}`, 'utf8')) as any;
    if (input?.$schema !== 'https://gobl.org/draft-0/bill/invoice') continue;
    try {
      buildDocument(input); // only inputs the engine builds take part
    } catch {
      continue;
    }
    inputs.push(input);
    outputs.push(JSON.parse(readFileSync(`${EXAMPLES}out/${file}`, 'utf8')));
  }
  return { inputs, outputs };
}

/** Median rate over ROUNDS rounds of PER_ROUND calls cycling through the examples. */
function rate(items: unknown[], work: (item: unknown) => void): { perSecond: number; spread: [number, number] } {
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    for (let i = 0; i < PER_ROUND; i++) work(items[i % items.length]);
    rates.push(PER_ROUND / ((performance.now() - t0) / 1000));
  }
  const sorted = [...rates].sort((a, b) => a - b);
  return { perSecond: median(rates), spread: [sorted[0], sorted[sorted.length - 1]] };
}

async function run(): Promise<BenchOutput> {
  const { inputs, outputs } = loadInvoices();
  rate(inputs, (x) => buildDocument(x)); // warm up the JIT and the lazily compiled schemas
  const build = rate(inputs, (x) => buildDocument(x));
  const check = rate(outputs, (x) => checkDocument(x));

  const dataDir = mkdtempSync(join(tmpdir(), 'silodesk-bench-gobl-'));
  const service = await openService(dataDir);
  let imported: { perSecond: number; spread: [number, number] };
  try {
    const company = await ensureDefaultCompany(service.db);
    const ctx: Ctx = { service, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' } };
    let n = 0;
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const batch = Array.from({ length: 500 }, () => {
        const doc = structuredClone(inputs[n++ % inputs.length]) as any;
        doc.uuid = uuidv7();
        doc.code = `BENCH-${n}`;
        return { id: uuidv7(), data: doc };
      });
      const t0 = performance.now();
      await importEntries(ctx, batch);
      rates.push(batch.length / ((performance.now() - t0) / 1000));
    }
    const sorted = [...rates].sort((a, b) => a - b);
    imported = { perSecond: median(rates), spread: [sorted[0], sorted[sorted.length - 1]] };
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }

  const spread = (r: { spread: [number, number] }) => ({ min: Math.round(r.spread[0]), max: Math.round(r.spread[1]) });
  return {
    figures: [
      { group: 'one core', name: 'build + validate (partial input → checked envelope)', value: build.perSecond, unit: 'invoices/s', aim: { op: '>=', value: 5_000, on: 'figure' }, detail: spread(build) },
      { group: 'one core', name: 'check a complete invoice (schemas, rules, figures)', value: check.perSecond, unit: 'invoices/s', detail: spread(check) },
      { group: 'beside', name: 'bulk import of the same partial invoices (build, check, store, index)', value: imported.perSecond, unit: 'invoices/s', ratio: imported.perSecond / build.perSecond, ratioOf: 'build + validate', detail: spread(imported) },
    ],
    notes: [
      `${inputs.length} of GOBL's example invoices (those the engine builds), cycled; medians of ${ROUNDS} rounds of ${PER_ROUND} (import: ${ROUNDS} batches of 500)`,
      'build + validate = buildDocument: parse, normalise, calculate, scenarios, conform, digest, then schema + rule validation',
      'check = checkDocument on GOBL\'s own outputs: validation plus a rebuild to compare every figure',
    ],
    setup: { rounds: ROUNDS, per_round: PER_ROUND, invoices: inputs.length },
  };
}
