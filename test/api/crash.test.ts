import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { v1 as uuidv1, v7 as uuidv7 } from 'uuid';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startServe, type ServeProcess } from './serve-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'silodesk-crash-'));
let serve: ServeProcess | undefined;
let receiver: Server | undefined;
afterAll(async () => {
  await serve?.kill();
  receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A webhook receiver that takes its time, so a kill lands while jobs are mid-way. */
async function slowReceiver(deliveries: Array<{ id: string; job: string }>): Promise<string> {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const parsed = JSON.parse(body);
      deliveries.push({ id: parsed.id, job: parsed.transform_job_id });
      setTimeout(() => res.writeHead(200).end('{}'), 40);
    });
  });
  await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(receiver!.address() as AddressInfo).port}/hook`;
}

describe('crash safety', () => {
  it('loses no job to a SIGKILL: after a restart all 50 complete, each step finished once', async () => {
    const deliveries: Array<{ id: string; job: string }> = [];
    const hook = await slowReceiver(deliveries);
    serve = await startServe(dataDir);

    const wf = await serve.call('PUT', `/transform/v1/workflows/${uuidv7()}`, {
      name: 'register, notify, tag',
      steps: [
        { provider: 'silo.state', config: { state: 'registered' } },
        { provider: 'webhook', config: { url: hook } },
        { provider: 'silo.tags', config: { add: ['notified'] } },
      ],
    });
    expect(wf.status, JSON.stringify(wf.body)).toBe(200);

    const jobIds: string[] = [];
    for (let i = 0; i < 50; i++) {
      const doc = loadEnvelope('es-invoice-es-es.json').doc;
      doc.uuid = uuidv7();
      doc.code = `CRASH-${i}`;
      const id = uuidv1();
      const res = await serve.call('PUT', `/transform/v1/jobs/${id}`, { workflow_id: wf.body.id, data: doc });
      expect(res.status).toBe(200);
      jobIds.push(id);
    }

    // Kill it hard once some, but not all, jobs are done.
    let done = 0;
    for (let i = 0; i < 400 && done < 8; i++) {
      await new Promise((r) => setTimeout(r, 25));
      done = (await serve.call('GET', '/transform/v1/jobs?status=OK&limit=100')).body.list.length;
    }
    await serve.kill('SIGKILL');
    const db = new Database(join(dataDir, 'silodesk.db'), { readonly: true });
    const finishedAtKill = db.prepare('SELECT count(*) FROM jobs WHERE completed_at IS NOT NULL').pluck().get() as number;
    db.close();
    expect(finishedAtKill).toBeGreaterThan(0);
    expect(finishedAtKill).toBeLessThan(50);

    serve = await startServe(dataDir);
    const finals = [];
    for (const id of jobIds) finals.push((await serve.call('GET', `/transform/v1/jobs/${id}?wait=30`)).body);

    for (const job of finals) {
      expect(job.status, JSON.stringify(job.faults)).toBe('OK');
      expect(job.intents.map((i: any) => i.provider)).toEqual(['silo.state', 'webhook', 'silo.tags']);
      for (const intent of job.intents) {
        const outcomes = intent.events.filter((e: any) => e.status !== 'RUN');
        expect(outcomes).toEqual([expect.objectContaining({ status: 'OK' })]);
        expect(intent.events.map((e: any) => e.index)).toEqual(intent.events.map((_: any, i: number) => i + 1));
      }
      const entry = (await serve.call('GET', `/silo/v1/entries/${job.silo_entry_id}`)).body;
      expect(entry.state).toBe('registered');
      expect(entry.tags).toEqual(['notified']);
    }
    // one entry per job: the stored documents were not duplicated by the restart
    const entries = (await serve.call('GET', '/silo/v1/entries?limit=100')).body.list;
    expect(entries).toHaveLength(50);
    // every job notified; a step cut off by the kill may deliver twice, with the same id
    expect(new Set(deliveries.map((d) => d.job)).size).toBe(50);
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(50);

    await serve.kill('SIGTERM');
    const check = new Database(join(dataDir, 'silodesk.db'));
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
  }, 120_000);
});
