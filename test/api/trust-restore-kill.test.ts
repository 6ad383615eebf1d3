import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from './serve-process.ts';
import { startInstance, type Instance } from './sync-helpers.ts';

const dirs: string[] = [];
const children: ServeProcess[] = [];
let remote: Instance | undefined;
afterAll(async () => {
  for (const c of children) await c.kill();
  await remote?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `silodesk-${name}-`));
  dirs.push(dir);
  return dir;
};

async function syncNow(t: ServeProcess) {
  const res = await t.call('POST', '/sync/v1/run?wait=60');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('a laptop restored from a backup, as a real serve process killed with SIGKILL', () => {
  it('is re-identified at its next sync however often it is killed on the way, and never issues a number twice', async () => {
    remote = await startInstance({ remote: true });
    const laptopDir = tempDir('laptop');
    const tokenFile = join(tempDir('token'), 'remote-token');
    writeFileSync(tokenFile, remote.token, { mode: 0o600 });
    const args = ['--remote', remote.url, '--remote-token-file', tokenFile, '--sync-interval', '0'];
    const start = async () => {
      const child = await startServe(laptopDir, args);
      children.push(child);
      return child;
    };
    const issue = async (t: ServeProcess) => {
      const res = await t.call('PUT', `/sequence/v1/series/${seriesId}/entries/${uuidv4()}`, {});
      return res;
    };

    let laptop = await start();
    const seriesId = uuidv4();
    expect((await laptop.call('PUT', `/sequence/v1/series/${seriesId}`, { name: 'Sales', code: 'FA', prefix: 'FA-', padding: 4 })).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await issue(laptop)).status).toBe(200);
    expect(await syncNow(laptop)).toMatchObject({ state: 'synced' });
    await laptop.kill('SIGKILL');
    // the backup: the whole data folder, taken while the app is not running
    const backup = tempDir('backup');
    cpSync(laptopDir, backup, { recursive: true });

    laptop = await start();
    const oldId = (await laptop.call('GET', '/access/v1/session')).body.instance_id;
    expect((await issue(laptop)).body.code).toBe('FA-0004');
    expect(await syncNow(laptop)).toMatchObject({ state: 'synced' });
    await laptop.kill('SIGKILL');

    // the disk dies; the backup comes back
    rmSync(laptopDir, { recursive: true, force: true });
    cpSync(backup, laptopDir, { recursive: true });
    // killed at various points of the syncs that find it out
    for (const delay of [0, 5, 20, 60]) {
      laptop = await start();
      void laptop.call('POST', '/sync/v1/run').catch(() => undefined);
      await new Promise((r) => setTimeout(r, delay));
      await laptop.kill('SIGKILL');
    }
    laptop = await start();
    const status = await syncNow(laptop);
    expect(status).toMatchObject({ state: 'synced', parked: 0, forks: 0, held_series: 0 });
    expect((await laptop.call('GET', '/access/v1/session')).body.instance_id).not.toBe(oldId);
    const entries = (await laptop.call('GET', `/sequence/v1/series/${seriesId}/entries?ascending=true&limit=10`)).body.list;
    expect(entries.map((e: any) => e.code)).toEqual(['FA-0001', 'FA-0002', 'FA-0003', 'FA-0004']);
    expect((await issue(laptop)).body.code).toBe('FA-0005');
    expect(await syncNow(laptop)).toMatchObject({ state: 'synced' });
    expect((await remote.call('GET', `/sequence/v1/series/${seriesId}/verify`)).body).toEqual({ valid: true, count: 5 });
    await laptop.kill('SIGTERM');
  }, 120_000);
});
