import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v1 as uuidv1, v4 as uuidv4, v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase } from '../support/pg-database.ts';
import { startPgServe, type PgServe } from './pg-serve-process.ts';
import { laptopSnapshot, remoteSnapshot } from './pg-remote-snapshot.ts';
import {
  attach, createSeries, invoiceDoc, issue, patch, putEntry, startInstance, sync, verifySeries, type Instance,
} from './sync-helpers.ts';

/**
 * Issue 14's acceptance: the firm's remote as two `serve` processes on one PostgreSQL
 * database (and one shared data dir), and twenty laptops (SQLite, in this process),
 * half syncing through each process, all at once: concurrent edits of shared entries,
 * new entries with files, numbers from the firm's series and from laptops' own series,
 * and workflow jobs queued through both processes. Then everything converges, nothing
 * is lost, every series is gapless and verifies, and every job ran exactly once.
 */
const LAPTOPS = 20;
const SHARED = 4;
const OWN_ENTRIES = 2;
/** laptops that also issue numbers in a series of their own (single writer), offline, then push them */
const SERIES_LAPTOPS = 4;
const OWN_NUMBERS = 5;
/** numbers each laptop takes from the firm's series, online, through its server */
const FIRM_NUMBERS = 1;
const JOBS = 10;

let database: Awaited<ReturnType<typeof freshDatabase>>;
let dataDir: string;
let servers: PgServe[] = [];
let laptops: Instance[] = [];
let receiver: Server | undefined;
/** the job id of each webhook delivery */
const deliveries: string[] = [];

beforeAll(async () => {
  database = await freshDatabase(inject('pgUrl'));
  dataDir = mkdtempSync(join(tmpdir(), 'silodesk-pg-remote-'));
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      deliveries.push(JSON.parse(body).transform_job_id);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', r));
  servers = await Promise.all([startPgServe(dataDir, database.url), startPgServe(dataDir, database.url)]);
  laptops = await Promise.all(Array.from({ length: LAPTOPS }, () => startInstance()));
}, 60_000);

afterAll(async () => {
  await Promise.all(laptops.map((t) => t.close()));
  await Promise.all(servers.map((s) => s.stop()));
  receiver?.close();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The server laptop i syncs through: half go to each process. */
const serverOf = (i: number) => servers[i % 2];

async function ok(res: Promise<{ status: number; body: any }>) {
  const { status, body } = await res;
  // The processes' output names an internal error's cause.
  expect(status, `${JSON.stringify(body)}\n${servers.map((s) => s.output()).join('\n')}`).toBe(200);
  return body;
}

/** Every laptop syncs, all at once. */
const syncAll = () => Promise.all(laptops.map((t) => sync(t)));

/** A job as it ends, asked of either process (the one that runs it may be the other). */
async function finished(server: PgServe, id: string): Promise<any> {
  for (;;) {
    const job = await ok(server.call('GET', `/transform/v1/jobs/${id}?wait=2`));
    if (job.status === 'OK' || job.status === 'KO') return job;
  }
}

describe('two serve processes on one PostgreSQL database, twenty laptops', () => {
  it('converge under concurrent edits, numbering and jobs: nothing lost, series gapless and verified, each job run once', async () => {
    const [a, b] = servers;
    for (const [i, t] of laptops.entries()) {
      await t.api.putSyncSettings({ body: { remote_url: serverOf(i).url, token: serverOf(i).token, interval_minutes: 0 } });
    }

    // The firm's series (issued by the remote, whichever process) and a workflow that numbers from it and calls out.
    const firmSeries = uuidv4();
    await ok(a.call('PUT', `/sequence/v1/series/${firmSeries}`, { name: 'Firm', code: 'FIRM', prefix: 'FIRM-', padding: 5 }));
    const hook = `http://127.0.0.1:${(receiver!.address() as AddressInfo).port}/hook`;
    const workflow = await ok(
      b.call('PUT', `/transform/v1/workflows/${uuidv7()}`, {
        name: 'number and notify',
        steps: [
          { provider: 'sequence.enumerate', config: { series_id: firmSeries } },
          { provider: 'webhook', config: { url: hook } },
        ],
      }),
    );

    // Shared entries, made on one laptop and pulled by all.
    const shared: string[] = [];
    for (let n = 0; n < SHARED; n++) shared.push((await putEntry(laptops[0])).id);
    await sync(laptops[0]);
    await syncAll();
    for (const t of laptops) expect((await t.api.listEntries({ query: { limit: 100 } })).list.map((e: any) => e.id).sort()).toEqual([...shared].sort());

    // ── all at once: every laptop works and syncs while jobs run on both processes
    const made: string[][] = laptops.map(() => []);
    const ownSeries: string[] = [];
    const firmNumbers: string[] = [];
    const laptopWork = laptops.map(async (t, i) => {
      // Five laptops edit each shared entry, all from the same version: one wins, the others' edits become conflict copies.
      await patch(t, shared[i % SHARED], { tags: [`edit-${i}`] });
      for (let n = 0; n < OWN_ENTRIES; n++) made[i].push((await putEntry(t, { tags: [`laptop-${i}`] })).id);
      await attach(t, made[i][0], 'scan', randomBytes(3_000 + i));
      if (i < SERIES_LAPTOPS) {
        const series = await createSeries(t, `L${i}`);
        ownSeries.push(series.id);
        for (let n = 0; n < OWN_NUMBERS; n++) await issue(t, series.id, { n: String(n) });
      }
      for (let n = 0; n < FIRM_NUMBERS; n++) {
        const id = uuidv4();
        await ok(serverOf(i).call('PUT', `/sequence/v1/series/${firmSeries}/entries/${id}`, { meta: { laptop: String(i) } }));
        firmNumbers.push(id);
      }
      await patch(t, shared[(i + 1) % SHARED], { state: 'sent' });
      await sync(t);
    });
    const jobs: Array<{ id: string; via: PgServe }> = Array.from({ length: JOBS }, (_, n) => ({ id: uuidv1(), via: servers[n % 2] }));
    const jobWork = jobs.map(({ id, via }, n) =>
      ok(via.call('PUT', `/transform/v1/jobs/${id}`, { workflow_id: workflow.id, data: invoiceDoc(`JOB-${n}`) })),
    );
    await Promise.all([...laptopWork, ...jobWork]);

    // Every job ends well, asked of the process that did not queue it.
    const ended = await Promise.all(jobs.map(({ id, via }) => finished(via === a ? b : a, id)));
    for (const job of ended) {
      expect(job.status, JSON.stringify(job.intents)).toBe('OK');
      for (const intent of job.intents) {
        expect(intent.events.filter((e: any) => e.status !== 'RUN'), JSON.stringify(intent)).toEqual([expect.objectContaining({ status: 'OK' })]);
      }
    }
    // Each job called out exactly once: no job was run by both processes.
    expect([...deliveries].sort()).toEqual(jobs.map((j) => j.id).sort());

    // The final round, twice: a conflict copy made on one laptop's pull is pushed on its next sync, and pulled by the others on the one after.
    for (let round = 0; round < 2; round++) await syncAll();

    // ── converged: every laptop holds what the remote holds
    const remote = await remoteSnapshot(database.url, dataDir);
    for (const [i, t] of laptops.entries()) {
      const { companyId: _remoteCompany, ...expected } = remote;
      expect(await laptopSnapshot(t), `laptop ${i}`).toEqual(expected);
    }

    // Nothing lost: the shared entries, every laptop's own, and one entry per job.
    const remoteIds = new Set(remote.allEntries.map((e: any) => e.id));
    for (const id of [...shared, ...made.flat(), ...ended.map((j) => j.silo_entry_id)]) expect(remoteIds.has(id), id).toBe(true);
    // Each shared entry ends as one laptop's version; the losers wait as conflict copies, never dropped:
    // the laptops editing one entry all started from the same version, so all but one of them made a copy.
    for (const id of shared) {
      const entry = remote.entries.find((e: any) => e.id === id);
      expect(JSON.parse(entry!.tags)[0]?.startsWith('edit-') || entry!.state === 'sent', JSON.stringify(entry)).toBe(true);
    }
    const copies = remote.allEntries.filter((e: any) => e.folder === 'conflicts');
    expect(copies.length).toBeGreaterThanOrEqual(LAPTOPS - SHARED);

    // Series: gapless from 1, each verifying on the remote (through both processes) and on a laptop.
    const firm = remote.seriesEntries.filter((e: any) => e.series_id === firmSeries);
    expect(firm.map((e: any) => e.idx)).toEqual(Array.from({ length: LAPTOPS * FIRM_NUMBERS + JOBS }, (_, n) => n + 1));
    expect(firm.map((e: any) => e.id)).toEqual(expect.arrayContaining(firmNumbers));
    // one number per job, taken by the job itself
    expect(firm.map((e: any) => JSON.parse(e.meta).job_id).filter(Boolean).sort()).toEqual(jobs.map((j) => j.id).sort());
    for (const id of ownSeries) {
      expect(remote.seriesEntries.filter((e: any) => e.series_id === id).map((e: any) => e.idx)).toEqual([1, 2, 3, 4, 5]);
    }
    for (const id of [firmSeries, ...ownSeries]) {
      for (const server of servers) {
        expect(await ok(server.call('GET', `/sequence/v1/series/${id}/verify`))).toMatchObject({ valid: true });
      }
      expect(await verifySeries(laptops[LAPTOPS - 1], id)).toMatchObject({ valid: true });
    }
    // Twenty laptops share this one process: room for a busy machine (this is a limit, not a measure; speed lives in the bench).
  }, 120_000);
});
