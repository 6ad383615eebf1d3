import { compactVerify, createLocalJWKSet } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf } from '../../src-main/core/gobl/index.ts';
import { loadEnvelope } from '../fixtures/gobl/load.ts';
import { startTestServer, type TestServer } from './harness.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

/** A fresh invoice entry and a one-step workflow run over it. */
async function runOne(provider: string, config: unknown, mutate?: (doc: any) => void) {
  const doc = loadEnvelope('es-invoice-es-es.json').doc;
  doc.uuid = uuidv7();
  mutate?.(doc);
  const entry = await t.call('POST', '/silo/v1/entries', { data: doc, allow_invalid: true });
  expect(entry.status, JSON.stringify(entry.body)).toBe(200);
  const wf = await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: provider, steps: [{ provider, config }] });
  expect(wf.status, JSON.stringify(wf.body)).toBe(200);
  const job = await t.call('POST', '/transform/v1/jobs?wait=10', { workflow_id: wf.body.id, silo_entry_id: entry.body.id });
  const after = await t.call('GET', `/silo/v1/entries/${entry.body.id}`);
  return { job: job.body, entry: after.body, before: entry.body, outcome: job.body.intents[0].events.at(-1) };
}

describe('silo providers', () => {
  it('silo.state sets the state, and SKIPs when it is already set', async () => {
    const { entry, outcome } = await runOne('silo.state', { state: 'sent' });
    expect(outcome).toMatchObject({ status: 'OK', code: 'sent' });
    expect(entry.state).toBe('sent');
    const again = await runOne('silo.state', { state: 'draft' });
    expect(again.outcome).toMatchObject({ status: 'SKIP', code: 'unchanged' });
  });

  it('silo.folder moves the entry', async () => {
    const { entry, job } = await runOne('silo.folder', { folder: 'to-review' });
    expect(job.status).toBe('OK');
    expect(entry.folder).toBe('to-review');
  });

  it('silo.tags adds and removes', async () => {
    const { entry } = await runOne('silo.tags', { add: ['a', 'b'], remove: ['b'] });
    expect(entry.tags).toEqual(['a']);
  });

  it('silo.modify applies a merge patch and recomputes the digest', async () => {
    const { entry, before, job } = await runOne('silo.modify', { merge_patch: { doc: { notes: null, code: 'MOD-1' } } });
    expect(job.status).toBe('OK');
    expect(entry.data.doc.code).toBe('MOD-1');
    expect(entry.data.doc.notes).toBeUndefined();
    expect(entry.digest.val).not.toBe(before.digest.val);
    expect(entry.digest.val).toBe(digestOf(entry.data.doc).val);
    expect(entry.data.head.dig.val).toBe(entry.digest.val);
  });

  it('silo.modify applies a JSON patch, and a failing one is KO with the document unchanged', async () => {
    const ok = await runOne('silo.modify', { json_patch: [{ op: 'replace', path: '/doc/code', value: 'JP-1' }] });
    expect(ok.entry.data.doc.code).toBe('JP-1');
    const ko = await runOne('silo.modify', { json_patch: [{ op: 'remove', path: '/doc/nothing-here' }] });
    expect(ko.outcome).toMatchObject({ status: 'KO', code: 'patch-failed' });
    expect(ko.entry.digest).toEqual(ko.before.digest);
  });

  it('silo.if answers true/false for equals and exists', async () => {
    expect((await runOne('silo.if', { path: 'doc.currency', equals: 'EUR' })).outcome.code).toBe('true');
    expect((await runOne('silo.if', { path: 'doc.currency', equals: 'USD' })).outcome.code).toBe('false');
    expect((await runOne('silo.if', { path: 'doc.preceding', exists: true })).outcome.code).toBe('false');
    expect((await runOne('silo.if', { path: 'doc.lines.0.item.name', exists: true })).outcome.code).toBe('true');
  });

  it('silo.close signs {uuid, dig, iat} with ES256 as GOBL does, verifiable with the served JWKS, and seals the document', async () => {
    const { entry, job } = await runOne('silo.close', {});
    expect(job.status).toBe('OK');
    expect(entry.signed).toBe(true);
    expect(entry.draft).toBe(false);
    expect(entry.data.sigs).toHaveLength(1);

    const jwks = await (await fetch(`${t.url}/sequence/v1/keys`)).json();
    const { payload, protectedHeader } = await compactVerify(entry.data.sigs[0], createLocalJWKSet(jwks));
    expect(protectedHeader.alg).toBe('ES256');
    const claims = JSON.parse(new TextDecoder().decode(payload));
    expect(claims).toEqual({ uuid: entry.id, dig: entry.data.head.dig, iat: expect.any(Number) });
    expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(60);
    expect(entry.data.head.dig).toEqual(digestOf(entry.data.doc));

    const change = await t.call('PATCH', `/silo/v1/entries/${entry.id}`, { content_type: 'application/merge-patch+json', data: { doc: { code: 'X' } } });
    expect(change.status).toBe(409);
    const modify = await t.call('POST', '/transform/v1/jobs?wait=5', {
      workflow_id: (await t.call('PUT', `/transform/v1/workflows/${uuidv7()}`, { name: 'm', steps: [{ provider: 'silo.modify', config: { merge_patch: { doc: { code: 'Y' } } } }] })).body.id,
      silo_entry_id: entry.id,
    });
    expect(modify.body.intents[0].events.at(-1)).toMatchObject({ status: 'KO', code: 'signed' });
  });

  it('silo.close refuses an invoice without a code, and an invalid document', async () => {
    const noCode = await runOne('silo.close', {}, (doc) => {
      delete doc.code;
      delete doc.series;
    });
    expect(noCode.outcome).toMatchObject({ status: 'KO', code: 'no-code' });
    expect(noCode.entry.signed).toBe(false);
    const invalid = await runOne('silo.close', {}, (doc) => {
      doc.currency = 'euro';
    });
    expect(invalid.outcome).toMatchObject({ status: 'KO', code: 'invalid' });
    expect(invalid.job.faults.flatMap((f: any) => f.paths)).toContain('$.doc.currency');
  });
});
