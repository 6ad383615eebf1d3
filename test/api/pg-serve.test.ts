import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase } from '../support/pg-database.ts';
import { serveThatFails, startPgServe, type PgServe } from './pg-serve-process.ts';
import { invoiceDoc } from './sync-helpers.ts';

/**
 * `serve --db postgres://…`: the firm's remote as several processes on one PostgreSQL
 * database and one shared data dir (listed in the postgres project only).
 */
let database: Awaited<ReturnType<typeof freshDatabase>>;
/** the database's URL with a password in it: what no output may ever show */
let urlWithPassword: string;
let password: string;
const dirs: string[] = [];
const processes: PgServe[] = [];

beforeAll(async () => {
  database = await freshDatabase(inject('pgUrl'));
  const url = new URL(database.url);
  // The test cluster trusts loopback, so a made-up password is accepted; a server that asks for one has it in its URL already.
  if (!url.password) url.password = `pw-${randomBytes(8).toString('hex')}`;
  password = decodeURIComponent(url.password);
  urlWithPassword = url.toString();
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await database?.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-pg-serve-'));
  dirs.push(dir);
  return dir;
}

/** The answer's body, once it is a 200; else the failure shows what the processes printed (an internal error's cause). */
async function ok(res: Promise<{ status: number; body: any }>) {
  const { status, body } = await res;
  expect(status, `${JSON.stringify(body)}\n${processes.map((p) => p.output()).join('\n')}`).toBe(200);
  return body;
}

describe('serve on PostgreSQL', () => {
  it('runs as two processes on one database and one data dir: what one writes, the other reads; the password is never printed', async () => {
    const dataDir = tempDir();
    // Both start at once on an empty database and data dir: one company, one api-token, one set of keys between them.
    const [a, b] = await Promise.all([startPgServe(dataDir, urlWithPassword), startPgServe(dataDir, urlWithPassword, { viaEnv: true })]);
    processes.push(a, b);
    expect(a.token).toBe(b.token);
    const companiesA = await ok(a.call('GET', '/access/v1/companies'));
    expect(companiesA.list).toHaveLength(1);
    expect(await ok(b.call('GET', '/access/v1/companies'))).toEqual(companiesA);

    const id = uuidv7();
    await ok(a.call('PUT', `/silo/v1/entries/${id}`, { data: invoiceDoc('PG-SERVE-1'), tags: ['shared'] }));
    const bytes = randomBytes(2_000);
    await ok(a.call('PUT', `/silo/v1/entries/${id}/files/scan`, { name: 'scan.bin', data: bytes.toString('base64') }));
    const read = await ok(b.call('GET', `/silo/v1/entries/${id}`));
    expect(read).toMatchObject({ id, tags: ['shared'], data: { doc: { code: 'PG-SERVE-1' } } });
    // The attachment's bytes went to the shared data dir's files/: the other process serves them.
    const file = await fetch(`${b.url}/silo/v1/entries/${id}/files/scan`, { headers: { authorization: `Bearer ${b.token}` } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(bytes);

    // An edit through the second is seen by the first.
    await ok(b.call('PATCH', `/silo/v1/entries/${id}`, { content_type: 'application/merge-patch+json', data: { doc: { code: 'PG-SERVE-2' } } }));
    expect((await ok(a.call('GET', `/silo/v1/entries/${id}`))).data.doc.code).toBe('PG-SERVE-2');

    // Signatures made by one verify on the other: both loaded the same keys from the shared keys/.
    expect(await ok(a.call('GET', '/sequence/v1/keys'))).toEqual(await ok(b.call('GET', '/sequence/v1/keys')));

    // A token revoked through one process is refused by the other at once, though that one had just used it.
    const user = await ok(a.call('POST', '/access/v1/tokens', { name: 'bookkeeper' }));
    expect((await b.call('GET', `/silo/v1/entries/${id}`, undefined, user.token)).status).toBe(200);
    await ok(a.call('DELETE', `/access/v1/tokens/${user.id}`));
    expect((await b.call('GET', `/silo/v1/entries/${id}`, undefined, user.token)).status).toBe(401);

    await Promise.all([a.stop(), b.stop()]);
    const url = new URL(urlWithPassword);
    const where = `${url.hostname}:${url.port || '5432'}${url.pathname}`;
    for (const p of [a, b]) {
      expect(p.output()).toContain(`records on PostgreSQL at ${where}`);
      expect(p.output()).not.toContain(password);
      expect(p.output()).not.toContain(encodeURIComponent(password));
    }
  });

  it('stops with one line and exit code 1 when the server cannot be reached, making nothing in the data dir', async () => {
    const dataDir = join(tempDir(), 'never-made');
    const down = new URL(urlWithPassword);
    down.port = '1';
    const { code, output } = await serveThatFails(dataDir, down.toString());
    expect(code).toBe(1);
    const [line, ...more] = output.trim().split('\n');
    expect(more).toEqual([]);
    expect(line.startsWith(`silodesk: cannot reach the database at ${down.hostname}:1${down.pathname}: `), line).toBe(true);
    expect(output).not.toContain(password);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('stops with one line when the database does not exist, and with exit code 2 on a URL that is not postgres://', async () => {
    const dataDir = join(tempDir(), 'never-made');
    const missing = new URL(urlWithPassword);
    missing.pathname = '/no_such_database';
    const gone = await serveThatFails(dataDir, missing.toString());
    expect(gone.code).toBe(1);
    expect(gone.output.trim().split('\n')).toEqual([expect.stringContaining('no_such_database')]);
    expect(gone.output).not.toContain(password);

    const wrong = await serveThatFails(dataDir, `mysql://user:${password}@localhost/db`);
    expect(wrong.code).toBe(2);
    expect(wrong.output.trim().split('\n')).toEqual([expect.stringContaining('must be a postgres://')]);
    expect(wrong.output).not.toContain(password);
    expect(existsSync(dataDir)).toBe(false);
  });
});
