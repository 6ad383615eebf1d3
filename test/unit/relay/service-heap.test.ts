import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { SERVICE_SEMI_SPACE_MB, SERVICE_V8_FLAGS, SERVICE_YOUNG_GENERATION_MB } from '../../../src-main/service-process/heap.ts';

// Fills the young generation with short-lived objects until V8 has grown it as far as it will, then prints its size in MiB.
const NEW_SPACE_MB = `
  const v8 = require('node:v8');
  const keep = [];
  for (let i = 0; i < 3e6; i++) { keep.push({ i }); if (keep.length > 2e5) keep.length = 0; }
  const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  console.log(space.space_size / 2 ** 20);`;

function newSpaceOfProcess(flags: readonly string[]): number {
  const run = spawnSync(process.execPath, [...flags, '-e', NEW_SPACE_MB], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return Number(run.stdout.trim());
}

function newSpaceOfWorker(youngGenerationMb: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(`${NEW_SPACE_MB.replace('console.log', "require('node:worker_threads').parentPort.postMessage")}`, {
      eval: true,
      resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe("the service's heap", () => {
  it('is started capped by npm run serve', () => {
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    expect(scripts.serve).toBe(`node ${SERVICE_V8_FLAGS.join(' ')} scripts/serve.mjs`);
  });

  it('has a young generation no larger than two semi-spaces of the cap', () => {
    // new space is the two semi-spaces; a flag Node did not take would fail the run instead
    expect(newSpaceOfProcess(SERVICE_V8_FLAGS)).toBeLessThanOrEqual(2 * SERVICE_SEMI_SPACE_MB);
  });

  it('is the same on a worker thread given SERVICE_YOUNG_GENERATION_MB, as the benchmarks run it', async () => {
    expect(await newSpaceOfWorker(SERVICE_YOUNG_GENERATION_MB)).toBe(newSpaceOfProcess(SERVICE_V8_FLAGS));
  });
});
