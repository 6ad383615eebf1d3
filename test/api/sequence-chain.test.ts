import { createHash } from 'node:crypto';
import { CompactSign, compactVerify, createLocalJWKSet, decodeProtectedHeader, generateKeyPair } from 'jose';
import { v4 as uuidv4 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.ts';
import { issue, seriesWithEntries, verify } from './sequence-helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

// Tampering behind the API: a write to a synced table still names its origin, or the database refuses it.
const sql = (text: string, ...args: unknown[]) => t.service.db.tx(() => t.service.db.sqlRun(text, args), { origin: 'local' });
const sigsOf = async (id: string): Promise<string[]> =>
  JSON.parse((await t.service.db.sqlFirst<{ sigs: string }>('SELECT sigs FROM series_entries WHERE id = ?', [id]))!.sigs);
const payloadBytes = (jws: string) => Buffer.from(jws.split('.')[1], 'base64url');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('signatures, checked with jose against the served JWKS only', () => {
  it('signs every entry and the series with ES256 keys the JWKS serves, and chains each entry to the one before by hash', async () => {
    const { series, entries } = await seriesWithEntries(t, 6, { code: 'INV', prefix: 'J-', padding: 3 });
    const res = await fetch(`${t.url}/sequence/v1/keys`);
    expect(res.status).toBe(200);
    const jwks = await res.json();
    expect(jwks.keys.length).toBeGreaterThanOrEqual(1);
    for (const key of jwks.keys) {
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      expect(key.kid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(key.d).toBeUndefined();
    }
    const keySet = createLocalJWKSet(jwks);

    const seriesSig = await compactVerify(series.sigs[0], keySet, { algorithms: ['ES256'] });
    expect(JSON.parse(Buffer.from(seriesSig.payload).toString())).toMatchObject({
      series_id: series.id, code: 'INV', prefix: 'J-', padding: 3, suffix: '', start: 1, iss: t.service.instanceId,
    });

    let previous: { id: string; bytes: Buffer } | undefined;
    for (const entry of entries) {
      const { payload, protectedHeader } = await compactVerify(entry.sigs[0], keySet, { algorithms: ['ES256'] });
      expect(protectedHeader).toEqual({ alg: 'ES256', kid: jwks.keys[0].kid });
      expect(Buffer.from(payload).equals(payloadBytes(entry.sigs[0]))).toBe(true);
      const signed = JSON.parse(Buffer.from(payload).toString());
      expect(signed).toMatchObject({
        series_id: series.id,
        id: entry.id,
        index: entry.index,
        code: entry.code,
        meta: entry.meta,
        at: entry.created_at,
        previous_id: previous?.id ?? null,
        prev: previous ? sha256(previous.bytes) : '',
      });
      previous = { id: entry.id, bytes: payloadBytes(entry.sigs[0]) };
    }
  });

  it('still verifies old entries after a key rotation, which keeps the old key in the JWKS', async () => {
    const { series, entries } = await seriesWithEntries(t, 2);
    const oldKid = decodeProtectedHeader(entries[0].sigs[0]).kid;
    const newKid = await t.service.keys.rotate();
    expect(newKid).not.toBe(oldKid);
    const later = await issue(t, series.id);
    expect(decodeProtectedHeader(later.sigs[0]).kid).toBe(newKid);

    const jwks = await (await fetch(`${t.url}/sequence/v1/keys`)).json();
    expect(jwks.keys.map((k: any) => k.kid)).toEqual(expect.arrayContaining([oldKid, newKid]));
    expect(jwks.keys[0].kid).toBe(newKid);
    const keySet = createLocalJWKSet(jwks);
    for (const entry of [...entries, later]) await compactVerify(entry.sigs[0], keySet);
    expect(await verify(t, series.id)).toEqual({ valid: true, count: 3 });
  });
});

describe('verify names the first broken entry', () => {
  it('finds nothing wrong with an untouched series, and nothing in an empty one', async () => {
    const { series } = await seriesWithEntries(t, 5);
    expect(await verify(t, series.id)).toEqual({ valid: true, count: 5 });
    const { series: empty } = await seriesWithEntries(t, 0);
    expect(await verify(t, empty.id)).toEqual({ valid: true, count: 0 });
  });

  it('an edited code, meta, previous_id or time', async () => {
    const edits: Array<[string, string, RegExp]> = [
      ['code', "code = 'FORGED'", /edited: code/],
      ['meta', `meta = '{"n":"99"}'`, /edited: meta/],
      ['previous_id', `previous_id = '${uuidv4()}'`, /edited: previous_id/],
      ['created_at', "created_at = '2020-01-01T00:00:00.000Z'", /edited: at/],
    ];
    for (const [what, set, reason] of edits) {
      const { series, entries } = await seriesWithEntries(t, 6);
      await sql(`UPDATE series_entries SET ${set} WHERE id = ?`, entries[3].id);
      const result = await verify(t, series.id);
      expect(result, what).toMatchObject({ valid: false, count: 3, broken: { id: entries[3].id } });
      expect(result.broken!.reason, what).toMatch(reason);
    }
  });

  it('the earliest of several edits', async () => {
    const { series, entries } = await seriesWithEntries(t, 8);
    await sql(`UPDATE series_entries SET meta = '{"n":"x"}' WHERE id = ?`, entries[6].id);
    await sql(`UPDATE series_entries SET code = 'X' WHERE id = ?`, entries[2].id);
    expect(await verify(t, series.id)).toMatchObject({ valid: false, count: 2, broken: { id: entries[2].id } });
  });

  it('a deleted entry: the one after the gap', async () => {
    const { series, entries } = await seriesWithEntries(t, 7);
    await sql('DELETE FROM series_entries WHERE id = ?', entries[4].id);
    const result = await verify(t, series.id);
    expect(result).toMatchObject({ valid: false, count: 4, broken: { id: entries[5].id } });
    expect(result.broken!.reason).toMatch(/gap: index 5 is missing/);
  });

  it('a deleted first entry, and a deleted last entry (named by the series head)', async () => {
    const a = await seriesWithEntries(t, 3);
    await sql('DELETE FROM series_entries WHERE id = ?', a.entries[0].id);
    expect(await verify(t, a.series.id)).toMatchObject({ valid: false, count: 0, broken: { id: a.entries[1].id } });

    const b = await seriesWithEntries(t, 4);
    await sql('DELETE FROM series_entries WHERE id = ?', b.entries[3].id);
    const result = await verify(t, b.series.id);
    expect(result).toMatchObject({ valid: false, count: 3, broken: { id: b.entries[3].id } });
    expect(result.broken!.reason).toMatch(/missing/);
  });

  it('a deleted entry whose successor was renumbered to close the gap', async () => {
    const { series, entries } = await seriesWithEntries(t, 5);
    await sql('DELETE FROM series_entries WHERE id = ?', entries[2].id);
    await sql('UPDATE series_entries SET idx = 3 WHERE id = ?', entries[3].id);
    expect(await verify(t, series.id)).toMatchObject({ valid: false, count: 2, broken: { id: entries[3].id } });
  });

  it('two swapped entries: the one now at the earlier place', async () => {
    const { series, entries } = await seriesWithEntries(t, 6);
    await sql('UPDATE series_entries SET idx = -1 WHERE id = ?', entries[2].id);
    await sql('UPDATE series_entries SET idx = 3 WHERE id = ?', entries[3].id);
    await sql('UPDATE series_entries SET idx = 4 WHERE id = ?', entries[2].id);
    const result = await verify(t, series.id);
    expect(result).toMatchObject({ valid: false, count: 2, broken: { id: entries[3].id } });
    expect(result.broken!.reason).toMatch(/index/);
  });

  it('two entries whose whole contents were swapped, signatures and all', async () => {
    const { series, entries } = await seriesWithEntries(t, 5);
    const read = (id: string) => t.service.db.sqlFirst<any>('SELECT code, meta, previous_id, sigs, created_at FROM series_entries WHERE id = ?', [id]);
    const [x, y] = [await read(entries[1].id), await read(entries[2].id)];
    const write = (id: string, r: any) =>
      sql('UPDATE series_entries SET code = ?, meta = ?, previous_id = ?, sigs = ?, created_at = ? WHERE id = ?', r.code, r.meta, r.previous_id, r.sigs, r.created_at, id);
    await write(entries[1].id, y);
    await write(entries[2].id, x);
    expect(await verify(t, series.id)).toMatchObject({ valid: false, count: 1, broken: { id: entries[1].id } });
  });

  it('a signature that does not match, and one made with a key the instance does not have', async () => {
    const a = await seriesWithEntries(t, 4);
    const own = (await sigsOf(a.entries[1].id))[0].split('.');
    const other = (await sigsOf(a.entries[2].id))[0].split('.');
    await sql('UPDATE series_entries SET sigs = ? WHERE id = ?', JSON.stringify([`${own[0]}.${own[1]}.${other[2]}`]), a.entries[1].id);
    const bad = await verify(t, a.series.id);
    expect(bad).toMatchObject({ valid: false, count: 1, broken: { id: a.entries[1].id } });
    expect(bad.broken!.reason).toMatch(/bad signature/);

    // A forger re-signs an edited payload with their own key under a made-up kid.
    const b = await seriesWithEntries(t, 3);
    const original = (await sigsOf(b.entries[1].id))[0];
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new CompactSign(payloadBytes(original)).setProtectedHeader({ alg: 'ES256', kid: uuidv4() }).sign(privateKey);
    await sql('UPDATE series_entries SET sigs = ? WHERE id = ?', JSON.stringify([forged]), b.entries[1].id);
    const unknown = await verify(t, b.series.id);
    expect(unknown).toMatchObject({ valid: false, count: 1, broken: { id: b.entries[1].id } });
    expect(unknown.broken!.reason).toMatch(/unknown key/);

    // Same forgery under the instance's own kid: the signature fails.
    const kid = decodeProtectedHeader(original).kid as string;
    const c = await seriesWithEntries(t, 3);
    const forgedKid = await new CompactSign(payloadBytes((await sigsOf(c.entries[0].id))[0])).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey);
    await sql('UPDATE series_entries SET sigs = ? WHERE id = ?', JSON.stringify([forgedKid]), c.entries[0].id);
    expect((await verify(t, c.series.id)).broken).toMatchObject({ id: c.entries[0].id, reason: expect.stringMatching(/bad signature/) });
  });

  it('a removed or replaced client signature', async () => {
    const { series } = await seriesWithEntries(t, 1);
    const entry = await issue(t, series.id, { sig: 'eyJhbGciOiJFUzI1NiJ9.eyJ4IjoxfQ.c2ln' });
    await sql('UPDATE series_entries SET sigs = ? WHERE id = ?', JSON.stringify([entry.sigs[0]]), entry.id);
    expect((await verify(t, series.id)).broken).toMatchObject({ id: entry.id, reason: expect.stringMatching(/csig/) });
  });

  it('edited numbering of the series itself', async () => {
    const { series } = await seriesWithEntries(t, 3, { prefix: 'P' });
    await sql("UPDATE series SET prefix = 'Q' WHERE id = ?", series.id);
    const result = await verify(t, series.id);
    expect(result).toMatchObject({ valid: false, count: 0, broken: { id: series.id } });
    expect(result.broken!.reason).toMatch(/prefix/);
  });
});
