// Transform benchmark: jobs per second for a three-step workflow (state →
// gobl.validate → silo.close) over 2,000 stored invoices, run by the real engine,
// and the engine's own cost per step beside the time the providers themselves
// take (measured by timing every provider call, run and apply, in the same run).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { v7 as uuidv7 } from 'uuid';
import { ensureDefaultCompany } from '../src-main/core/access/bootstrap.ts';
import type { Ctx } from '../src-main/core/api/handler.ts';
import { openService } from '../src-main/core/service.ts';
import { importEntries } from '../src-main/core/silo/import.ts';
import { createJob } from '../src-main/core/transform/jobs.ts';
import type { Provider } from '../src-main/core/transform/provider.ts';
import { providers as builtins } from '../src-main/core/transform/providers/index.ts';
import { putWorkflow } from '../src-main/core/transform/workflows.ts';
import { loadEnvelopes } from '../test/fixtures/gobl/load.ts';
import type { Benchmark, BenchOutput } from './lib/report.ts';

const JOBS = intEnv('BENCH_TRANSFORM_JOBS', 2_000);
const STEPS = ['silo.state', 'gobl.validate', 'silo.close'];

const benchmark: Benchmark = {
  name: 'transform',
  title: `jobs per second, ${STEPS.join(' → ')}`,
  run,
};
export default benchmark;

/** The built-in providers, each wrapped to add up the time spent inside it. */
function timedProviders(spent: Map<string, number>): Provider<any>[] {
  const add = (id: string, ms: number) => spent.set(id, (spent.get(id) ?? 0) + ms);
  return builtins
    .filter((p) => STEPS.includes(p.id))
    .map((p) => ({
      ...p,
      // These providers answer synchronously; timing the call itself keeps other jobs'
      // work (interleaved at awaits) out of the figure.
      run: (ctx, config) => {
        const t0 = performance.now();
        const result = p.run(ctx, config);
        if (result instanceof Promise) throw new Error(`${p.id} is asynchronous; time it differently`);
        add(p.id, performance.now() - t0);
        const apply = result.apply;
        if (!apply) return result;
        return {
          ...result,
          apply: () => {
            const t1 = performance.now();
            apply();
            add(p.id, performance.now() - t1);
          },
        };
      },
    }));
}

async function run(): Promise<BenchOutput> {
  const dataDir = mkdtempSync(join(tmpdir(), 'silodesk-bench-transform-'));
  const spent = new Map<string, number>();
  const service = await openService(dataDir, { extraProviders: timedProviders(spent) });
  try {
    const company = ensureDefaultCompany(service.store);
    const ctx: Ctx = { service, caller: { companyId: company.id, kind: 'owner' } };

    // Invoices only: each gets its own uuid and code, so close signs a valid, numbered document.
    const invoices = loadEnvelopes().filter((f) => f.envelope.doc.$schema.endsWith('/bill/invoice'));
    const ids: string[] = [];
    for (let done = 0; done < JOBS; done += 500) {
      const batch = Array.from({ length: Math.min(500, JOBS - done) }, (_, i) => {
        const doc = structuredClone(invoices[(done + i) % invoices.length].envelope.doc);
        doc.uuid = uuidv7();
        doc.code = `B-${done + i}`;
        return { id: uuidv7(), data: doc };
      });
      const result = importEntries(ctx, batch);
      ids.push(...result.results.map((r) => r.id!));
    }
    const workflow = putWorkflow(ctx, uuidv7(), {
      name: 'register, check, close',
      steps: [
        { provider: 'silo.state', config: { state: 'registered' } },
        { provider: 'gobl.validate', config: {} },
        { provider: 'silo.close', config: {} },
      ],
    });

    const t0 = performance.now();
    const jobIds: string[] = [];
    for (const id of ids) jobIds.push((await createJob(ctx, undefined, { workflow_id: workflow.id, silo_entry_id: id })).id);
    const queuedMs = performance.now() - t0;
    for (const id of jobIds) await service.jobs.waitFor(id, 120_000);
    const totalMs = performance.now() - t0;

    const statuses = service.store.sqlite.prepare('SELECT status, count(*) AS n FROM jobs GROUP BY status').all() as Array<{ status: string; n: number }>;
    const ok = statuses.find((s) => s.status === 'OK')?.n ?? 0;
    const providerMs = [...spent.values()].reduce((a, b) => a + b, 0);
    const steps = JOBS * STEPS.length;
    const engineMsPerStep = (totalMs - providerMs) / steps;
    const providerMsPerStep = providerMs / steps;

    return {
      figures: [
        { group: 'jobs', name: `jobs completed OK (of ${JOBS})`, value: ok, unit: 'jobs' },
        { group: 'jobs', name: 'jobs per second (queue + run)', value: JOBS / (totalMs / 1000), unit: 'jobs/s' },
        { group: 'jobs', name: 'steps per second', value: steps / (totalMs / 1000), unit: 'steps/s' },
        { group: 'per step', name: 'providers’ own time', value: providerMsPerStep * 1000, unit: 'µs/step' },
        ...STEPS.map((id) => ({ group: 'per step', name: `  ${id}`, value: ((spent.get(id) ?? 0) / JOBS) * 1000, unit: 'µs/step' })),
        {
          group: 'per step',
          name: 'engine overhead (queue, intents, events, routing, commits)',
          value: engineMsPerStep * 1000,
          unit: 'µs/step',
          ratio: engineMsPerStep / providerMsPerStep,
          ratioOf: 'providers',
        },
      ],
      notes: [
        `queueing ${JOBS} jobs took ${Math.round(queuedMs)} ms of the ${Math.round(totalMs)} ms (the runner works while jobs are queued)`,
        'engine overhead = (wall time − time inside providers) / steps; the providers run inside the engine on the same thread',
        `job statuses: ${statuses.map((s) => `${s.status} ${s.n}`).join(', ')}`,
      ],
      setup: { jobs: JOBS, steps: STEPS, concurrency: 4 },
    };
  } finally {
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function intEnv(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
}
