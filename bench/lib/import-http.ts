// Bulk import over HTTP, as a local tool does it: POST /silo/v1/import with a thousand
// entries a request, one request at a time, on a fresh data dir or a dataset's copy. Meanwhile a second
// client keeps reading the first list page: its slowest answer tells how long an
// import holds other requests up (the import works in slices and yields between them).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import { openService } from '../../src-main/core/service.ts';
import { loadEnvelopes } from '../../test/fixtures/gobl/load.ts';
import { EntryFactory } from './entries.ts';
import { timedFetch } from './http.ts';
import { startServers } from './servers.ts';
import { median, spreadOf } from './stats.ts';

export interface HttpImport {
  /** entries per second of wall time, per round */
  rates: number[];
  /** entries per second of the server thread's busy time, per round */
  busyRates: number[];
  /** the slowest list page read while imports ran, ms */
  slowestRead: number;
  reads: number;
  /** the longest the server's event loop was held during the imports, ms */
  longestBlock: number;
  /** the same on an idle thread meanwhile (the machine's share) */
  controlBlock: number;
  /** 429 answers (the owner's own tool must never get one) */
  throttled: number;
}

/** Imports into `into` (a data dir with its api-token: a copy of a dataset), or into a fresh data dir. */
export async function httpImport(rounds: number, batches: number, batchSize = 1000, into?: string): Promise<HttpImport> {
  const dataDir = into ?? mkdtempSync(join(tmpdir(), 'silodesk-bench-import-'));
  try {
    if (!into) {
      const setup = await openService(dataDir, { runJobs: false, autoSync: false });
      await ensureOwnerTokenFile(setup.db, await ensureDefaultCompany(setup.db), join(dataDir, 'api-token'));
      await setup.close();
    }
    const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
    const servers = await startServers(dataDir, { runJobs: false });
    const auth = { authorization: `Bearer ${token}` };
    const factory = new EntryFactory(loadEnvelopes(), { seed: 99 });
    const out: HttpImport = { rates: [], busyRates: [], slowestRead: 0, reads: 0, longestBlock: 0, controlBlock: 0, throttled: 0 };
    try {
      // A warm-up batch: the first request compiles what GOBL needs. A thousand entries, so that every
      // kind of fixture comes by (a document kind seen for the first time costs tens of milliseconds once).
      await post(servers.apiUrl, auth, bodyOf(Array.from({ length: 1000 }, () => factory.next())));
      await servers.loopDelay();
      for (let round = 0; round < rounds; round++) {
        // Serialised before the clock starts: a megabyte stringified on this thread would hold up the reader beside it.
        const bodies = Array.from({ length: batches }, () => bodyOf(Array.from({ length: batchSize }, () => factory.next())));
        let importing = true;
        const reader = (async () => {
          while (importing) {
            const r = await timedFetch(`${servers.apiUrl}/silo/v1/entries?limit=20`, { headers: auth });
            if (r.status === 429) out.throttled++;
            out.slowestRead = Math.max(out.slowestRead, r.ms);
            out.reads++;
          }
        })();
        const elu0 = servers.serverUtilization();
        const t0 = performance.now();
        for (const body of bodies) {
          const status = await post(servers.apiUrl, auth, body);
          if (status === 429) out.throttled++;
        }
        const ms = performance.now() - t0;
        const busy = servers.serverUtilization(elu0);
        importing = false;
        await reader;
        out.rates.push((batches * batchSize) / (ms / 1000));
        out.busyRates.push((batches * batchSize) / ((busy.active || ms) / 1000));
        const block = await servers.loopDelay();
        out.longestBlock = Math.max(out.longestBlock, block.max);
        out.controlBlock = Math.max(out.controlBlock, block.control ?? 0);
      }
    } finally {
      await servers.close();
    }
    return out;
  } finally {
    if (!into) rmSync(dataDir, { recursive: true, force: true });
  }
}

interface ImportBody {
  text: string;
  entries: number;
}

function bodyOf(entries: Array<{ id: string; data: unknown }>): ImportBody {
  return { text: JSON.stringify({ entries: entries.map((e) => ({ id: e.id, data: e.data })) }), entries: entries.length };
}

async function post(apiUrl: string, auth: Record<string, string>, body: ImportBody): Promise<number> {
  const r = await timedFetch(`${apiUrl}/silo/v1/import`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: body.text,
  });
  if (r.status !== 200) return r.status;
  const result = JSON.parse(r.text);
  if (result.created !== body.entries) throw new Error(`import stored ${result.created} of ${body.entries}: ${JSON.stringify(result.results.find((x: any) => x.error))}`);
  return r.status;
}

export const summaryOf = (values: number[]) => ({ median: median(values), spread: spreadOf(values) });
