// One large GOBL document through the served instance (a worker thread, as its own process
// would be): an invoice of BENCH_LINES lines (13,000 by default, a 4.4 MB body under the 5 MiB
// an entry may be) created as partial data (GOBL builds it), created complete (GOBL examines
// it), read back with its data, and patched (one line's item renamed: examined again). The
// server's longest event-loop block during each (the goal: none over 50 ms at any size; GOBL
// works on such a document for half a second), and how long each request took.
//
//   BENCH_LINES=4000 node bench/index.ts large-documents     a smaller invoice
import { v7 as uuidv7 } from 'uuid';
import { loadEnvelope } from '../test/fixtures/gobl/load.ts';
import { freshInstance } from './lib/instance.ts';
import type { Benchmark, BenchOptions, BenchOutput, Figure } from './lib/report.ts';
import { median, spreadOf } from './lib/stats.ts';

const LINES = Number(process.env.BENCH_LINES ?? 13_000);
const BLOCK_AIM = { op: '<=' as const, value: 50, on: 'figure' as const, goal: 'no operation blocks the event loop for more than 50 ms' };

const benchmark: Benchmark = {
  name: 'large-documents',
  title: `one invoice of ${LINES.toLocaleString('en')} lines created, read and patched: the server's longest block`,
  run,
};
export default benchmark;

type Way = 'POST partial data (GOBL builds it)' | 'POST complete (GOBL examines it)' | 'GET with its data' | 'PATCH a line (examined again)';
const WAYS: Way[] = ['POST partial data (GOBL builds it)', 'POST complete (GOBL examines it)', 'GET with its data', 'PATCH a line (examined again)'];

function partialInvoice(): Record<string, unknown> {
  const doc = loadEnvelope('es-invoice-es-es.json').doc;
  delete doc.totals;
  doc.uuid = uuidv7();
  doc.lines = Array.from({ length: LINES }, (_, i) => ({ ...structuredClone(doc.lines[0]), i: i + 1, item: { ...doc.lines[0].item, name: `Service ${i + 1}` } }));
  return doc;
}

async function run(options: BenchOptions): Promise<BenchOutput> {
  const instance = await freshInstance('sqlite');
  try {
    const servers = await instance.serve();
    const auth = { authorization: `Bearer ${instance.token}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const blocks = new Map<Way, number[]>(WAYS.map((w) => [w, []]));
    const times = new Map<Way, number[]>(WAYS.map((w) => [w, []]));
    const controls: number[] = [];
    let bodyBytes = 0;
    /** One request, timed, with the server's longest block while it ran; its answer read whole. */
    const measured = async (way: Way, path: string, init: RequestInit): Promise<any> => {
      await servers.loopDelay();
      const t0 = performance.now();
      const res = await fetch(`${servers.apiUrl}${path}`, init);
      const text = await res.text();
      const ms = performance.now() - t0;
      const delay = await servers.loopDelay();
      if (!res.ok) throw new Error(`${way}: ${res.status} ${text.slice(0, 300)}`);
      blocks.get(way)!.push(delay.max);
      times.get(way)!.push(ms);
      if (delay.control !== undefined) controls.push(delay.control);
      return JSON.parse(text);
    };
    try {
      // The first large document starts the engine's thread: not measured.
      await measured('POST partial data (GOBL builds it)', '/silo/v1/entries', { method: 'POST', headers: json, body: JSON.stringify({ data: partialInvoice() }) });
      blocks.get('POST partial data (GOBL builds it)')!.length = 0;
      times.get('POST partial data (GOBL builds it)')!.length = 0;
      for (let r = 0; r < options.runs; r++) {
        const body = JSON.stringify({ data: partialInvoice() });
        bodyBytes = Buffer.byteLength(body);
        const created = await measured('POST partial data (GOBL builds it)', '/silo/v1/entries', { method: 'POST', headers: json, body });
        const read = await measured('GET with its data', `/silo/v1/entries/${created.id}`, { headers: auth });
        const complete = { ...read.data.doc, uuid: uuidv7() };
        await measured('POST complete (GOBL examines it)', '/silo/v1/entries', { method: 'POST', headers: json, body: JSON.stringify({ data: complete }) });
        const patch = [{ op: 'replace', path: `/doc/lines/${LINES - 1}/item/name`, value: `Renamed ${r}` }];
        await measured('PATCH a line (examined again)', `/silo/v1/entries/${created.id}`, {
          method: 'PATCH', headers: json, body: JSON.stringify({ data: patch, content_type: 'application/json-patch+json' }),
        });
      }
    } finally {
      await servers.close();
    }
    const group = `an invoice of ${LINES.toLocaleString('en')} lines, ${(bodyBytes / 1e6).toFixed(1)} MB (median of ${options.runs} runs)`;
    const figures: Figure[] = [];
    for (const way of WAYS) {
      figures.push(
        { group, name: way, value: median(times.get(way)!), unit: 'ms', spread: spreadOf(times.get(way)!) },
        { group, name: `${way}: the server’s longest event-loop block`, value: median(blocks.get(way)!), unit: 'ms', spread: spreadOf(blocks.get(way)!), aim: BLOCK_AIM },
      );
    }
    figures.push({ group, name: 'an idle thread meanwhile (the machine’s own share)', value: median(controls), unit: 'ms', spread: spreadOf(controls) });
    return {
      figures,
      notes: [
        'ms from the request sent to the answer read whole; the block is the server thread’s, from its own event-loop monitor',
        'GOBL builds and checks a document of more than about 65 lines on its own thread (core/gobl/engine-thread); smaller ones inline',
      ],
      setup: { lines: LINES, body_bytes: bodyBytes, runs: options.runs },
    };
  } finally {
    await instance.remove();
  }
}
