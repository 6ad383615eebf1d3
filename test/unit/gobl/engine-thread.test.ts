// The GOBL engine on a thread of its own gives every document the verdict it gets inline, with
// the stored envelope's text and derived parts worked out there too, and leaves the event loop
// free meanwhile; a thread that dies fails only the jobs it held.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BuildError } from '../../../src-main/core/gobl/engine/index.ts';
import { derivedPartsOf } from '../../../src-main/core/gobl/engine-thread/ahead.ts';
import { runEngineJob, type EngineJob } from '../../../src-main/core/gobl/engine-thread/jobs.ts';
import { EngineThread, EngineThreadUnavailable } from '../../../src-main/core/gobl/engine-thread/thread.ts';
import { runOn } from '../../../src-main/core/gobl/engine-thread/index.ts';
import { outweighs } from '../../../src-main/core/gobl/engine-thread/weight.ts';
import { parseJsonText } from '../../../src-main/core/gobl/shape/parse.ts';
import { RawNumber } from '../../../src-main/core/gobl/shape/raw-number.ts';
import { loadEnvelope, loadEnvelopes } from '../../fixtures/gobl/load.ts';
import { turnsDuring } from '../../support/event-loop-turns.ts';

const EXAMPLES = fileURLToPath(new URL('../../fixtures/gobl/examples/in/', import.meta.url));
const NOW = new Date('2026-03-01T10:00:00Z');
const HEAD = '0190d7e6-0000-7000-8000-000000000001';

const thread = new EngineThread();
afterAll(() => thread.stop());

/** What a job gives, or the faults of GOBL's refusal, as plain JSON (as stored). */
async function outcome(work: () => unknown): Promise<unknown> {
  try {
    return JSON.parse(JSON.stringify(await work()));
  } catch (error) {
    if (error instanceof BuildError) return { refused: error.faults };
    throw error;
  }
}

function invoiceWithLines(lines: number) {
  const envelope = loadEnvelope('es-invoice-es-es.json');
  delete envelope.doc.totals;
  envelope.doc.lines = Array.from({ length: lines }, (_, i) => ({ ...structuredClone(envelope.doc.lines[0]), i: i + 1 }));
  return envelope;
}

describe('outweighs', () => {
  it('weighs values and text, and stops counting at the limit', () => {
    expect(outweighs({ a: [1, 2, 3] }, 5)).toBe(false);
    expect(outweighs({ a: [1, 2, 3, 4, 5] }, 5)).toBe(true);
    // 512 characters weigh one more value.
    expect(outweighs({ note: 'x'.repeat(512 * 10) }, 10)).toBe(true);
    expect(outweighs({ note: 'x'.repeat(512 * 7) }, 10)).toBe(false);
    expect(outweighs(invoiceWithLines(100), 1_500)).toBe(true);
    expect(outweighs(loadEnvelope('es-invoice-es-es.json'), 1_500)).toBe(false);
    // A wide array is known heavy without a walk over it.
    let reads = 0;
    const wide = new Proxy(new Array(5_000_000).fill(0), {
      get: (target, key) => {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key);
      },
    });
    expect(outweighs(wide, 1_000)).toBe(true);
    expect(reads).toBeLessThanOrEqual(1_000);
  });
});

describe('the engine thread', () => {
  it('builds, examines and checks every fixture and example as the engine does inline', async () => {
    const jobs: EngineJob[] = [];
    for (const { envelope } of loadEnvelopes()) {
      jobs.push({ op: 'check', data: envelope });
      jobs.push({ op: 'examine', data: envelope, headUuid: HEAD, now: NOW, givenDigest: 'not-the-same' });
    }
    for (const name of readdirSync(EXAMPLES).filter((file) => file.endsWith('.json')).slice(0, 40)) {
      // Numbers as written (10.50, 1e5) are kept: RawNumbers must cross the thread as they are.
      jobs.push({ op: 'build', data: parseJsonText(readFileSync(`${EXAMPLES}${name}`, 'utf8')), headUuid: HEAD, now: NOW });
    }
    expect(jobs.length).toBeGreaterThan(150);
    for (const job of jobs) {
      const inline = await outcome(() => runEngineJob(job));
      const onThread = await outcome(async () => (await thread.run(job)).outcome);
      expect(onThread).toEqual(inline);
    }
  });

  it('works out the parts the silo derives from a stored envelope, as derivedPartsOf does inline', async () => {
    const texts = [...loadEnvelopes().map(({ envelope }) => JSON.stringify(envelope)), JSON.stringify(invoiceWithLines(500))];
    for (const text of texts) {
      const inline = derivedPartsOf(JSON.parse(text));
      expect(runEngineJob({ op: 'parts', data: text })).toEqual(inline);
      expect((await thread.run({ op: 'parts', data: text })).outcome).toEqual(inline);
    }
    expect(derivedPartsOf(JSON.parse(texts.at(-1)!)).searchText).not.toBe('');
  });

  it('corrects invoices as GOBL does inline, refusing what it refuses with the same faults', async () => {
    const invoices = loadEnvelopes().filter(({ envelope }) => String(envelope.doc.$schema).endsWith('/bill/invoice')).map(({ envelope }) => envelope);
    expect(invoices.length).toBeGreaterThan(10);
    const options = [{ credit: true, reason: 'Returned' }, { type: 'credit-note' }, { debit: true }, { type: 'no-such-type' }];
    let refused = 0;
    for (const data of [...invoices, invoiceWithLines(500)]) {
      for (const option of options) {
        const job: EngineJob = { op: 'correct', data, options: option, now: NOW };
        // A correction is a new document: a uuid of its own each time, made of `now` (its first 48 bits).
        const fresh = (corrected: unknown) => {
          const { uuid, ...rest } = corrected as { uuid?: string };
          return uuid === undefined ? rest : { ...rest, uuid: uuid.slice(0, 13) };
        };
        const inline = fresh(await outcome(() => runEngineJob(job)));
        expect(fresh(await outcome(async () => (await thread.run(job)).outcome))).toEqual(inline);
        if ((inline as { refused?: unknown }).refused) refused++;
      }
    }
    // Some corrections GOBL makes, some it refuses: both ways are compared.
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan((invoices.length + 1) * options.length);
  });

  it('refuses what GOBL refuses with the same faults', async () => {
    const envelope = loadEnvelope('es-invoice-es-es.json');
    envelope.doc.lines[0].taxes[0].rate = 'no-such-rate';
    delete envelope.doc.totals;
    const job: EngineJob = { op: 'build', data: envelope, now: NOW };
    const inline = await outcome(() => runEngineJob(job));
    expect(inline).toHaveProperty('refused');
    expect(await outcome(() => thread.run(job))).toEqual(inline);
  });

  it('hands back the stored envelope as text, with its derived parts', async () => {
    const data = invoiceWithLines(50);
    data.doc.lines[0].quantity = new RawNumber('2.50');
    const { outcome: built, ahead } = await thread.run({ op: 'build', data, headUuid: HEAD, now: NOW });
    expect(ahead).toBeDefined();
    expect(ahead!.text).toBe(JSON.stringify(built.envelope));
    expect(ahead!.parts).toEqual(derivedPartsOf(built.envelope));
    const checked = await thread.run({ op: 'check', data: built.envelope });
    expect(checked.ahead!.text).toBe(ahead!.text);
    // A document with faults stores as given: no rebuild is handed back as what to store.
    const faulty = loadEnvelope('es-invoice-es-es.json');
    faulty.doc.totals.payable = '1.00';
    const examined = await thread.run({ op: 'examine', data: faulty, headUuid: HEAD, now: NOW });
    expect(examined.outcome.faults.length).toBeGreaterThan(0);
    expect(examined.ahead).toBeUndefined();
  });

  it('leaves the event loop free while it builds a large document', async () => {
    const data = invoiceWithLines(2_000);
    await thread.run({ op: 'check', data: loadEnvelope('es-invoice-es-es.json') });
    const inline = await turnsDuring(async () => runEngineJob({ op: 'build', data: structuredClone(data), headUuid: HEAD, now: NOW }));
    const onThread = await turnsDuring(() => thread.run({ op: 'build', data, headUuid: HEAD, now: NOW }));
    expect(inline.turns).toBeLessThanOrEqual(2);
    // Hundreds of milliseconds of building, others let in all along.
    expect(onThread.turns).toBeGreaterThan(50);
    expect(JSON.stringify(onThread.result.outcome.envelope.doc)).toBe(JSON.stringify(inline.result.envelope.doc));
  });

  it('fails the jobs a dying thread held, and starts another for the next', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-thread-'));
    const dies = join(dir, 'dies.mjs');
    writeFileSync(dies, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\nparentPort.postMessage('ready');\n");
    const dying = new EngineThread({ file: dies });
    const job: EngineJob = { op: 'check', data: loadEnvelope('es-invoice-es-es.json') };
    await expect(dying.run(job)).rejects.toThrow(/GOBL engine thread stopped \(exit code 3\)/);
    expect(dying.running).toBe(false);
    expect(dying.pending).toBe(0);
    await expect(dying.run(job)).rejects.toThrow(/exit code 3/);
    expect(dying.available).toBe(true);
  });

  it('leaves its jobs to be run inline when it cannot start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-thread-'));
    const broken = join(dir, 'broken.mjs');
    writeFileSync(broken, "import './no-such-module.mjs';\n");
    const thread = new EngineThread({ file: broken });
    const data = invoiceWithLines(100);
    await expect(thread.run({ op: 'check', data })).rejects.toBeInstanceOf(EngineThreadUnavailable);
    expect(thread.available).toBe(false);
    const inline = await outcome(() => runEngineJob({ op: 'build', data, headUuid: HEAD, now: NOW }));
    const { outcome: fallen } = await runOn(thread, { op: 'build', data, headUuid: HEAD, now: NOW });
    expect(JSON.parse(JSON.stringify(fallen))).toEqual(inline);
  });

  it('stops when idle, and starts again for the next job', async () => {
    const idle = new EngineThread({ idleMs: 20 });
    const job: EngineJob = { op: 'check', data: loadEnvelope('es-invoice-es-es.json') };
    expect((await idle.run(job)).outcome).toEqual([]);
    await vi.waitFor(() => expect(idle.running).toBe(false), { timeout: 5_000 });
    expect((await idle.run(job)).outcome).toEqual([]);
    await idle.stop();
  });
});
