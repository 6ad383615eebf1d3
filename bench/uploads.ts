// Large files: a 50 MiB file sent to the served instance (a worker thread, as its own process
// would be) every way the API takes one, and read back (a download, and a sync read): the
// server's longest event-loop block while each is read, decoded, hashed and written (the goal:
// none over 50 ms at any size), and its speed beside the bare node:http server only reading the
// same bytes. Then a laptop (a service on this thread, as the desktop's service process is)
// syncs with it: it pulls the run's three new files and pushes one of its own, and its own
// longest block is measured. Each run sends new bytes, so nothing is found stored already;
// every stored file is checked by its hash.
//
//   BENCH_UPLOAD_MIB=10 node bench/index.ts uploads      a smaller file
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ensureDefaultCompany } from '../src-main/core/access/bootstrap.ts';
import type { Ctx } from '../src-main/core/api/handler.ts';
import { storeBlobs } from '../src-main/core/files/blob-writes.ts';
import { hashBytes } from '../src-main/core/files/hashed-bytes.ts';
import { openService, type Service } from '../src-main/core/service.ts';
import { storeAttachment } from '../src-main/core/silo/attachments.ts';
import { importEntries } from '../src-main/core/silo/import.ts';
import { loadEnvelopes } from '../test/fixtures/gobl/load.ts';
import { EntryFactory } from './lib/entries.ts';
import type { Benchmark, BenchOptions, BenchOutput, Figure } from './lib/report.ts';
import { freshInstance } from './lib/instance.ts';
import { median, spreadOf } from './lib/stats.ts';

const MIB = Number(process.env.BENCH_UPLOAD_MIB ?? 50);
// Under the 50 MiB an attachment may be, with room for a multipart form's own lines.
const FILE_BYTES = MIB * 1024 * 1024 - 4096;
const BLOCK_AIM = { op: '<=' as const, value: 50, on: 'figure' as const, goal: 'no operation blocks the event loop for more than 50 ms' };

const benchmark: Benchmark = {
  name: 'uploads',
  title: `a ${MIB} MiB file in every way the API takes one, and out again: the server's longest block`,
  run,
};
export default benchmark;

type Way = 'JSON (base64 data)' | 'multipart/form-data' | 'upload url (raw bytes)' | 'sync push (base64 blob)' | 'download' | 'sync read (base64 blob)';
const WAYS: Way[] = ['JSON (base64 data)', 'multipart/form-data', 'upload url (raw bytes)', 'sync push (base64 blob)', 'download', 'sync read (base64 blob)'];
type LaptopWay = 'laptop pulls the run’s 3 files (sync)' | 'laptop pushes a file of its own (sync)';
const LAPTOP_WAYS: LaptopWay[] = ['laptop pulls the run’s 3 files (sync)', 'laptop pushes a file of its own (sync)'];

async function run(options: BenchOptions): Promise<BenchOutput> {
  const instance = await freshInstance('sqlite');
  const laptopDir = mkdtempSync(join(tmpdir(), 'silodesk-bench-uploads-laptop-'));
  let laptop: Service | undefined;
  try {
    const { token } = instance;
    const servers = await instance.serve({ runJobs: true });
    const auth = { authorization: `Bearer ${token}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

    const blocks = new Map<Way | LaptopWay, number[]>([...WAYS, ...LAPTOP_WAYS].map((w) => [w, []]));
    const speeds = new Map<Way | LaptopWay, number[]>([...WAYS, ...LAPTOP_WAYS].map((w) => [w, []]));
    const controls: number[] = [];
    const bare: number[] = [];
    try {
      const envelope = loadEnvelopes()[0].envelope;
      const entry = await fetch(`${servers.apiUrl}/silo/v1/entries`, { method: 'POST', headers: json, body: JSON.stringify({ data: envelope }) });
      if (!entry.ok) throw new Error(`entry: ${entry.status} ${await entry.text()}`);
      const entryId = ((await entry.json()) as { id: string }).id;
      const files = `${servers.apiUrl}/silo/v1/entries/${entryId}/files`;

      // The laptop, connected to the served instance with its owner token, and an entry of its own.
      laptop = await openService(laptopDir, { runJobs: false, autoSync: false });
      const company = await ensureDefaultCompany(laptop.db);
      const ctx: Ctx = { service: laptop, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' } };
      const own = new EntryFactory(loadEnvelopes(), { seed: 11 }).next();
      await importEntries(ctx, [{ id: own.id, data: own.data, allow_invalid: true }]);
      await laptop.sync.configure(company.key, { remote_url: servers.apiUrl, token, interval_minutes: 0, paused: false });
      const laptopLoop = monitorEventLoopDelay({ resolution: 5 });
      /** One sync of the laptop, and what it cost the laptop: its longest block, and MB/s of the files moved. */
      const laptopSync = async (way: LaptopWay, bytes: number, held: () => Promise<boolean>) => {
        await servers.loopDelay();
        laptopLoop.reset();
        laptopLoop.enable();
        const t0 = performance.now();
        const status = await laptop!.sync.syncNow(company.key);
        const seconds = (performance.now() - t0) / 1000;
        laptopLoop.disable();
        const control = (await servers.loopDelay()).control;
        if (status.last_error) throw new Error(`${way}: ${JSON.stringify(status.last_error)}`);
        if (!(await held())) throw new Error(`${way}: the files did not arrive whole`);
        blocks.get(way)!.push(laptopLoop.max / 1e6);
        speeds.get(way)!.push(bytes / 1e6 / seconds);
        controls.push(control ?? NaN);
      };

      /** Sends one request, and what it cost the server: its longest block, and MB/s of the file. */
      const measure = async (way: Way, send: () => Promise<Response>, bytes: Uint8Array) => {
        await servers.loopDelay();
        const t0 = performance.now();
        const res = await send();
        const answer = way === 'download' ? Buffer.from(await res.arrayBuffer()) : await res.json();
        const seconds = (performance.now() - t0) / 1000;
        const delay = await servers.loopDelay();
        if (!res.ok) throw new Error(`${way}: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
        const held =
          way === 'download' ? sha256(answer as Buffer) === sha256(bytes)
          : way === 'sync push (base64 blob)' ? (answer as { stored: number }).stored === 1
          : way === 'sync read (base64 blob)' ? sha256(Buffer.from((answer as { blobs: Array<{ data: string }> }).blobs[0]?.data ?? '', 'base64')) === sha256(bytes)
          : (answer as { hash: string }).hash === sha256(bytes);
        if (!held) throw new Error(`${way}: the server did not store (or answer) the bytes sent`);
        blocks.get(way)!.push(delay.max);
        speeds.get(way)!.push(bytes.byteLength / 1e6 / seconds);
        controls.push(delay.control ?? NaN);
      };

      for (let r = 0; r < options.runs; r++) {
        const file = () => randomBytes(FILE_BYTES);
        const a = file();
        const body = JSON.stringify({ name: 'a.bin', data: a.toString('base64') });
        await measure('JSON (base64 data)', () => fetch(`${files}/json-${r}`, { method: 'PUT', headers: json, body }), a);

        const t0 = performance.now();
        const floor = await fetch(servers.bareUrl, { method: 'POST', headers: json, body });
        await floor.arrayBuffer();
        bare.push(a.byteLength / 1e6 / ((performance.now() - t0) / 1000));

        const b = file();
        const form = new FormData();
        form.append('data', new Blob([new Uint8Array(b)], { type: 'application/octet-stream' }), 'b.bin');
        await measure('multipart/form-data', () => fetch(`${files}/form-${r}`, { method: 'PUT', headers: auth, body: form }), b);

        const c = file();
        const announced = await fetch(`${files}/url-${r}`, { method: 'PUT', headers: json, body: JSON.stringify({ name: 'c.bin', sha256: sha256(c), size: c.byteLength, mime: 'application/octet-stream' }) });
        const { url } = (await announced.json()) as { url: string };
        await measure('upload url (raw bytes)', () => fetch(`${servers.apiUrl}${url}`, { method: 'PUT', body: new Uint8Array(c) }), c);

        const d = file();
        const push = JSON.stringify({ blobs: [{ hash: sha256(d), data: d.toString('base64') }] });
        await measure('sync push (base64 blob)', () => fetch(`${servers.apiUrl}/sync/v1/blobs`, { method: 'POST', headers: json, body: push }), d);

        await measure('download', () => fetch(`${files}/json-${r}`, { headers: auth }), a);
        const read = JSON.stringify({ hashes: [sha256(a)] });
        await measure('sync read (base64 blob)', () => fetch(`${servers.apiUrl}/sync/v1/blobs/read`, { method: 'POST', headers: json, body: read }), a);

        const laptopHolds = async (bytes: Uint8Array) => (await laptop!.blobs.holds(sha256(bytes))) && sha256(readFileSync(laptop!.blobs.pathOf(sha256(bytes)))) === sha256(bytes);
        await laptopSync('laptop pulls the run’s 3 files (sync)', 3 * FILE_BYTES, async () => (await Promise.all([a, b, c].map(laptopHolds))).every(Boolean));

        // Its own file, stored ahead (not timed), as the desk stores an upload.
        const e = hashBytes(file());
        await storeBlobs(laptop.blobs, [e]);
        await laptop.db.tx(() => storeAttachment(ctx, own.id, { id: `own-${r}`, name: 'own.bin', mime: 'application/octet-stream' }, e), { origin: 'local' });
        await laptopSync('laptop pushes a file of its own (sync)', FILE_BYTES, async () => {
          const res = await fetch(`${servers.apiUrl}/sync/v1/blobs/missing`, { method: 'POST', headers: json, body: JSON.stringify({ hashes: [e.hash] }) });
          return res.ok && ((await res.json()) as { missing: string[] }).missing.length === 0;
        });
      }
    } finally {
      await laptop?.close();
      await servers.close();
    }

    const group = `a ${MIB} MiB file (median of ${options.runs} runs)`;
    const floor = median(bare);
    const figures: Figure[] = [
      { group, name: 'floor: bare node:http reading the JSON body', value: floor, unit: 'MB/s', spread: spreadOf(bare) },
    ];
    for (const way of [...WAYS, ...LAPTOP_WAYS]) {
      const block = blocks.get(way)!;
      const speed = speeds.get(way)!;
      const whose = (LAPTOP_WAYS as string[]).includes(way) ? 'the laptop’s' : 'the server’s';
      figures.push(
        { group, name: way, value: median(speed), unit: 'MB/s', spread: spreadOf(speed), ratio: median(speed) / floor, ratioOf: 'floor' },
        { group, name: `${way}: ${whose} longest event-loop block`, value: median(block), unit: 'ms', spread: spreadOf(block), aim: BLOCK_AIM },
      );
    }
    figures.push({ group, name: 'an idle thread meanwhile (the machine’s own share)', value: median(controls), unit: 'ms', spread: spreadOf(controls) });
    return {
      figures,
      notes: [
        'MB/s of the file’s own bytes, from the request sent to the answer read; base64 in JSON sends a third more',
        'each upload sent new bytes and was checked by its hash; the download and the sync read were checked against what was sent',
        'the sync read’s MB/s includes this thread parsing the 67 MB answer, as the pulling instance does',
        'the laptop’s syncs: its own longest block (it runs on this thread, the server in its worker); MB/s of the files moved, requests and records included',
      ],
      setup: { file_bytes: FILE_BYTES, runs: options.runs },
    };
  } finally {
    await instance.remove();
    rmSync(laptopDir, { recursive: true, force: true });
  }
}
