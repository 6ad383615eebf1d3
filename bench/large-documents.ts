// One large GOBL document through the served instance (a worker thread, as its own process
// would be): an invoice of BENCH_LINES lines (13,000 by default, a 4.4 MB body under the 5 MiB
// an entry may be) created as partial data (GOBL builds it), created complete (GOBL examines
// it), read back with its data, patched (one line's item renamed: examined again), compared
// with its first version, retagged, trashed and restored, exported, credited and signed. The
// server's longest event-loop block during each (the goal: none over 50 ms at any size; GOBL
// works on such a document for half a second), how long each request took, and the slowest of
// the list pages another client read meanwhile (the goal: no request waits more than 50 ms; a
// transaction that holds the database while GOBL works would keep them all waiting). Last, a job
// checks the document (gobl.validate), as a workflow run on it would, and a laptop's sync pushes
// a copy of it (POST /sync/v1/records, as its sync client sends one).
//
//   BENCH_LINES=4000 node bench/index.ts large-documents     a smaller invoice
import { v7 as uuidv7 } from 'uuid';
import { loadEnvelope } from '../test/fixtures/gobl/load.ts';
import { timedFetch } from './lib/http.ts';
import { freshInstance } from './lib/instance.ts';
import type { Benchmark, BenchOptions, BenchOutput, Figure } from './lib/report.ts';
import { median, spreadOf } from './lib/stats.ts';

const LINES = Number(process.env.BENCH_LINES ?? 13_000);
const BLOCK_AIM = { op: '<=' as const, value: 50, on: 'figure' as const, goal: 'no operation blocks the event loop for more than 50 ms' };
const WAIT_AIM = { op: '<=' as const, value: 50, on: 'figure' as const, goal: 'long work yields: no request waits more than 50 ms' };

const benchmark: Benchmark = {
  name: 'large-documents',
  title: `one invoice of ${LINES.toLocaleString('en')} lines created, read and patched: the server's longest block`,
  run,
};
export default benchmark;

type Way =
  | 'POST partial data (GOBL builds it)'
  | 'POST complete (GOBL examines it)'
  | 'GET with its data'
  | 'PATCH a line (examined again)'
  | 'a diff of the two versions'
  | 'PATCH its tags (search row made again)'
  | 'DELETE (to the trash)'
  | 'restored from the trash'
  | 'exported to a ZIP'
  | 'a credit note of it (previous_id)'
  | 'a job checks it (gobl.validate)'
  | 'a sync push of a copy (checked there)'
  | 'PATCH sign (sealed)';
const WAYS: Way[] = [
  'POST partial data (GOBL builds it)',
  'POST complete (GOBL examines it)',
  'GET with its data',
  'PATCH a line (examined again)',
  'a diff of the two versions',
  'PATCH its tags (search row made again)',
  'DELETE (to the trash)',
  'restored from the trash',
  'exported to a ZIP',
  'a credit note of it (previous_id)',
  'a job checks it (gobl.validate)',
  'a sync push of a copy (checked there)',
  'PATCH sign (sealed)',
];

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
    const servers = await instance.serve({ runJobs: true });
    const auth = { authorization: `Bearer ${instance.token}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const blocks = new Map<Way, number[]>(WAYS.map((w) => [w, []]));
    const times = new Map<Way, number[]>(WAYS.map((w) => [w, []]));
    const waits = new Map<Way, number[]>(WAYS.map((w) => [w, []]));
    const controls: number[] = [];
    let bodyBytes = 0;
    /**
     * One request, timed, with the server's longest block while it ran and the slowest list page
     * another client read meanwhile (one after another, as a window paging would); its answer read whole.
     */
    const measured = async (way: Way, path: string, init: RequestInit): Promise<any> => {
      await servers.loopDelay();
      let running = true;
      let slowestRead = 0;
      const reader = (async () => {
        while (running) {
          const read = await timedFetch(`${servers.apiUrl}/silo/v1/entries?limit=20`, { headers: auth });
          if (read.status !== 200) throw new Error(`a list page read meanwhile: ${read.status}`);
          slowestRead = Math.max(slowestRead, read.ms);
        }
      })();
      const t0 = performance.now();
      const res = await fetch(`${servers.apiUrl}${path}`, init);
      const text = await res.text();
      const ms = performance.now() - t0;
      running = false;
      await reader;
      const delay = await servers.loopDelay();
      if (!res.ok) throw new Error(`${way}: ${res.status} ${text.slice(0, 300)}`);
      blocks.get(way)!.push(delay.max);
      times.get(way)!.push(ms);
      waits.get(way)!.push(slowestRead);
      if (delay.control !== undefined) controls.push(delay.control);
      return res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
    };
    // The instance a laptop's sync would name as the origin of what it pushes.
    const laptopId = uuidv7();
    const workflow = await measured('a job checks it (gobl.validate)', `/transform/v1/workflows/${uuidv7()}`, {
      method: 'PUT', headers: json, body: JSON.stringify({ name: 'check', steps: [{ provider: 'gobl.validate', config: {} }] }),
    });
    try {
      // The first large document starts the engine's thread: not measured.
      await measured('POST partial data (GOBL builds it)', '/silo/v1/entries', { method: 'POST', headers: json, body: JSON.stringify({ data: partialInvoice() }) });
      for (const figures of [blocks, times, waits]) for (const way of WAYS) figures.get(way)!.length = 0;
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
        await measured('a diff of the two versions', `/silo/v1/entries/${created.id}/versions/2/diff?from=1`, { headers: auth });
        await measured('PATCH its tags (search row made again)', `/silo/v1/entries/${created.id}`, { method: 'PATCH', headers: json, body: JSON.stringify({ tags: [`run-${r}`] }) });
        await measured('DELETE (to the trash)', `/silo/v1/entries/${created.id}`, { method: 'DELETE', headers: auth });
        await measured('restored from the trash', `/silo/v1/entries/${created.id}/restore`, { method: 'POST', headers: auth });
        await measured('exported to a ZIP', '/silo/v1/exports/zip', { method: 'POST', headers: json, body: JSON.stringify({ ids: [created.id] }) });
        const correct = { type: 'credit-note', reason: 'Returned', ext: { 'es-facturae-correction': '01' } };
        await measured('a credit note of it (previous_id)', '/silo/v1/entries', { method: 'POST', headers: json, body: JSON.stringify({ previous_id: created.id, correct }) });
        const job = await measured('a job checks it (gobl.validate)', '/transform/v1/jobs?wait=60', {
          method: 'POST', headers: json, body: JSON.stringify({ workflow_id: workflow.id, silo_entry_id: created.id }),
        });
        if (job.status !== 'OK') throw new Error(`the job ended ${job.status}: ${JSON.stringify(job.intents).slice(0, 300)}`);
        const copyId = uuidv7();
        const record = {
          id: copyId, folder: read.folder, state: read.state, tags: read.tags, created_at: new Date().toISOString(),
          data: { ...read.data, head: { ...read.data.head, uuid: copyId, dig: undefined }, doc: { ...read.data.doc, uuid: uuidv7() } },
        };
        const pushed = await measured('a sync push of a copy (checked there)', '/sync/v1/records', {
          method: 'POST', headers: json, body: JSON.stringify({ origin: laptopId, changes: [{ kind: 'entry', id: copyId, base_version: null, record }] }),
        });
        if (pushed.results[0]?.status !== 'applied') throw new Error(`the push: ${JSON.stringify(pushed.results).slice(0, 300)}`);
        await measured('PATCH sign (sealed)', `/silo/v1/entries/${created.id}`, { method: 'PATCH', headers: json, body: JSON.stringify({ sign: true }) });
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
        { group, name: `${way}: the slowest list page read meanwhile`, value: median(waits.get(way)!), unit: 'ms', spread: spreadOf(waits.get(way)!), aim: WAIT_AIM },
      );
    }
    figures.push({ group, name: 'an idle thread meanwhile (the machine’s own share)', value: median(controls), unit: 'ms', spread: spreadOf(controls) });
    return {
      figures,
      notes: [
        'ms from the request sent to the answer read whole; the block is the server thread’s, from its own event-loop monitor',
        'meanwhile another client reads the first list page (20) over and over, one read after another',
        'GOBL builds and checks a document of more than about 65 lines on its own thread (core/gobl/engine-thread); smaller ones inline',
      ],
      setup: { lines: LINES, body_bytes: bodyBytes, runs: options.runs },
    };
  } finally {
    await instance.remove();
  }
}
