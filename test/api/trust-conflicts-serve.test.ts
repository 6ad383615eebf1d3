import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from './serve-process.ts';
import { invoiceDoc, patch, snapshot, startInstance, type Instance } from './sync-helpers.ts';

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

async function ok(res: Promise<{ status: number; body: any }>) {
  const { status, body } = await res;
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

const syncNow = (t: ServeProcess) => ok(t.call('POST', '/sync/v1/run?wait=60'));

describe('a conflict copy on a laptop running as a real serve process', () => {
  it('is pushed when edited, and a resolution survives SIGKILL before it is synced: my version ends in the trash, not gone', async () => {
    remote = await startInstance({ remote: true });
    const laptopDir = tempDir('laptop');
    const tokenFile = join(tempDir('token'), 'remote-token');
    writeFileSync(tokenFile, remote.token, { mode: 0o600 });
    const start = async () => {
      const child = await startServe(laptopDir, ['--remote', remote!.url, '--remote-token-file', tokenFile, '--sync-interval', '0']);
      children.push(child);
      return child;
    };
    let laptop = await start();
    const id = uuidv7();
    await ok(laptop.call('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc('START-1') }));
    expect(await syncNow(laptop)).toMatchObject({ state: 'synced' });

    await patch(remote, id, { content_type: 'application/merge-patch+json', data: { doc: { code: 'THEIRS-1' } } });
    await ok(laptop.call('PATCH', `/silo/v1/entries/${id}`, { content_type: 'application/merge-patch+json', data: { doc: { code: 'MINE-1' } } }));
    expect(await syncNow(laptop)).toMatchObject({ state: 'conflicts', conflicts: 1, parked: 0 });
    const [conflict] = (await ok(laptop.call('GET', '/sync/v1/conflicts'))).list;
    const copyId = conflict.copy_entry_id;
    expect((await ok(remote.call('GET', `/silo/v1/entries/${copyId}`))).data.doc.code).toBe('MINE-1');

    await ok(laptop.call('PATCH', `/silo/v1/entries/${copyId}`, { content_type: 'application/merge-patch+json', data: { doc: { code: 'MINE-2' } } }));
    expect(await syncNow(laptop)).toMatchObject({ state: 'conflicts', pending: 0 });
    expect((await ok(remote.call('GET', `/silo/v1/entries/${copyId}`))).data.doc.code).toBe('MINE-2');

    await ok(laptop.call('POST', `/sync/v1/conflicts/${conflict.id}/resolve`, { keep: 'remote' }));
    await laptop.kill('SIGKILL');
    laptop = await start();
    expect(await syncNow(laptop)).toMatchObject({ state: 'synced', conflicts: 0, parked: 0 });
    const copy = await ok(remote.call('GET', `/silo/v1/trash/entries/${copyId}`));
    expect(copy).toMatchObject({ trashed_at: expect.any(String), data: { doc: { code: 'MINE-2' } } });
    expect((await ok(remote.call('GET', `/silo/v1/entries/${id}`))).data.doc.code).toBe('THEIRS-1');
    expect((await snapshot(remote)).entries.map((e: any) => e.id).sort()).toEqual([id, copyId].sort());
  });
});
