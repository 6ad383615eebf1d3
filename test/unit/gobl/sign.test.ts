import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InstanceKeys } from '../../../src-main/core/keys/instance-keys.ts';
import { canSign, signEnvelope, signingFaults, verifyEnvelopeSigs } from '../../../src-main/core/gobl/sign/index.ts';
import type { VerifyingJwk } from '../../../src-main/core/gobl/sign/index.ts';
import { BuildError } from '../../../src-main/core/gobl/engine/types.ts';
import type { Node } from '../../../src-main/core/gobl/engine/types.ts';

const example = (name: string): Node =>
  JSON.parse(readFileSync(new URL(`../../fixtures/gobl/examples/out/${name}.json`, import.meta.url), 'utf8'));

function newKey(kid: string): { kid: string; privateKey: KeyObject; jwk: VerifyingJwk } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid } as VerifyingJwk };
}

const part = (jws: string, i: number): Node => JSON.parse(Buffer.from(jws.split('.')[i], 'base64url').toString('utf8'));
const NOW = new Date('2026-07-10T12:00:00Z');

// GOBL's own test key and a signature go-jose made with it (dsig/signature_test.go, v0.502.1).
const GOBL_KID = '3500bbee-966c-4b7a-8fbc-c763ae2aec62';
const GOBL_JWK = { kty: 'EC', crv: 'P-256', kid: GOBL_KID, use: 'sig', x: 'Fd4a9pj2gtDLnW3GX30S06qXHrkBrAsmg3aHb4kOCL4', y: '_I4ZuddZtZ86kDBvGKcsOPbU0gWh13Kt6R2m6bfWAK4' };
const GOBL_D = 'oJM3Ogl9uYUpSbc4oHV25DpFs_gOGP5nHJcLAtQxL6U';
const GOBL_SIG = 'eyJhbGciOiJFUzI1NiIsImtpZCI6IjM1MDBiYmVlLTk2NmMtNGI3YS04ZmJjLWM3NjNhZTJhZWM2MiJ9.eyJmb28iOiJmb28iLCJiYXIiOjEyMzR9.96eDPg1RJ4EXMXnCYYTbC3mIGU_DaKnULUdx6LxDeLh6kp-7G8V1CEr1Lwc-tqZ29iq6fwi0Pte-bnkBO0xh9w';

describe('signEnvelope', () => {
  it('appends a compact ES256 JWS over the head uuid and digest, in GOBL\'s form', () => {
    const env = example('es-invoice-es-es');
    const key = newKey('0190a63a-1a80-7e1e-a868-08c7859b6470');
    const signed = signEnvelope(env, key, { now: NOW });

    expect(signed.sigs).toHaveLength(1);
    const jws: string = signed.sigs[0];
    expect(jws.split('.')).toHaveLength(3);
    // The protected header go-jose writes: alg and kid, nothing else, in this order.
    expect(Buffer.from(jws.split('.')[0], 'base64url').toString()).toBe(`{"alg":"ES256","kid":"${key.kid}"}`);
    // The payload is head.SigningPayload: uuid, dig, iat (seconds) — not the whole head.
    expect(Buffer.from(jws.split('.')[1], 'base64url').toString())
      .toBe(`{"uuid":"${env.head.uuid}","dig":{"alg":"sha256","val":"${env.head.dig.val}"},"iat":${NOW.getTime() / 1000}}`);
    expect(signed.head).toEqual(env.head);
    expect(signed.doc).toEqual(env.doc);
    expect(env.sigs).toBeUndefined();
  });

  it('writes the same header bytes as GOBL for GOBL\'s test key, and adds optional claims', () => {
    const privateKey = createPrivateKey({ key: { ...GOBL_JWK, d: GOBL_D }, format: 'jwk' });
    const signed = signEnvelope(example('es-invoice-es-es'), { kid: GOBL_KID, privateKey }, { now: NOW, iss: 'gobl:acme.example.com', scope: 'registered' });
    expect(signed.sigs[0].split('.')[0]).toBe(GOBL_SIG.split('.')[0]);
    expect(Object.keys(part(signed.sigs[0], 1))).toEqual(['uuid', 'dig', 'iss', 'iat', 'scope']);
    expect(verifyEnvelopeSigs(signed, [GOBL_JWK]).valid).toBe(true);
  });

  it('countersigns: a second signature is appended', () => {
    const a = newKey('0190a63a-1a80-7e1e-a868-08c7859b6471');
    const b = newKey('0190a63a-1a80-7e1e-a868-08c7859b6472');
    const signed = signEnvelope(signEnvelope(example('es-invoice-es-es'), a), b);
    expect(signed.sigs.map((s: string) => part(s, 0).kid)).toEqual([a.kid, b.kid]);
    expect(verifyEnvelopeSigs(signed, [a.jwk, b.jwk]).valid).toBe(true);
    // Only one of the two signers known: the other signature does not verify.
    expect(verifyEnvelopeSigs(signed, [a.jwk]).sigs.map((s) => s.problem)).toEqual([undefined, 'no-matching-key']);
  });

  it('signs with the instance key (InstanceKeys) and verifies against its JWKS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gobl-sign-'));
    try {
      const keys = await InstanceKeys.load(dir);
      const signed = signEnvelope(example('de-invoice-de-de-stnr'), keys, { now: NOW });
      expect(part(signed.sigs[0], 0)).toEqual({ alg: 'ES256', kid: keys.kid });
      const report = verifyEnvelopeSigs(signed, keys.jwks());
      expect(report).toMatchObject({ valid: true, digestMatches: true, sigs: [{ index: 0, kid: keys.kid, valid: true }] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses what GOBL refuses to sign: no code, a stale digest, a head without a timed uuid', () => {
    const key = newKey('0190a63a-1a80-7e1e-a868-08c7859b6473');
    const codes = (env: Node): string[] => {
      try {
        signEnvelope(env, key);
      } catch (error) {
        if (error instanceof BuildError) return error.faults.map((f) => f.code);
        throw error;
      }
      return [];
    };
    const env = example('es-invoice-es-es');
    expect(canSign(env)).toBe(true);

    const noCode = structuredClone(env);
    delete noCode.doc.code;
    expect(codes(noCode)).toContain('GOBL-ENVELOPE-13');

    const edited = structuredClone(env);
    edited.doc.lines[0].quantity = '99';
    expect(codes(edited)).toEqual(['GOBL-ENVELOPE-11']);
    // A digest the caller already worked out from the document stands in for the one worked out here.
    expect(signingFaults(edited, env.head.dig).map((f) => f.code)).toEqual([]);
    expect(signingFaults(env, { alg: 'sha256', val: '0'.repeat(64) }).map((f) => f.code)).toEqual(['GOBL-ENVELOPE-11']);
    expect(() => signEnvelope(env, key, { docDigest: { alg: 'sha256', val: '0'.repeat(64) } })).toThrow(BuildError);

    const v4 = structuredClone(env);
    v4.head.uuid = '3aea7b56-59d8-4beb-90bd-f8f280d852a0';
    expect(codes(v4)).toEqual(['GOBL-HEAD-HEADER-01']);

    // A status needs an issue date as well as a code; a note has no such needs.
    const status = example('es-status-update');
    const undated = structuredClone(status);
    delete undated.doc.issue_date;
    expect(signingFaults(undated).map((f) => f.code)).toContain('GOBL-ENVELOPE-13');
    expect(canSign(example('note-message'))).toBe(true);
  });

  it('lets the caller add GOBL\'s full validation before a signature is kept', () => {
    const key = newKey('0190a63a-1a80-7e1e-a868-08c7859b6474');
    const fault = { code: 'GOBL-BILL-INVOICE-01', message: 'invalid', paths: ['$.doc'] };
    expect(() => signEnvelope(example('es-invoice-es-es'), key, { validate: () => [fault] })).toThrow(BuildError);
  });
});

describe('verifyEnvelopeSigs', () => {
  it('fails a signature once the document changes, and one whose head was changed', () => {
    const key = newKey('0190a63a-1a80-7e1e-a868-08c7859b6475');
    const signed = signEnvelope(example('es-invoice-es-es'), key);
    expect(verifyEnvelopeSigs(signed, { keys: [key.jwk] }).valid).toBe(true);

    const changedDoc = structuredClone(signed);
    changedDoc.doc.lines[0].item.price = '1.00';
    const report = verifyEnvelopeSigs(changedDoc, [key.jwk]);
    expect(report.valid).toBe(false);
    expect(report.digestMatches).toBe(false);
    expect(report.sigs[0].problem).toBe('doc-changed');

    // Re-digesting the changed doc into the head does not help: the signature names the old digest.
    const rehashed = structuredClone(changedDoc);
    rehashed.head.dig.val = 'f'.repeat(64);
    expect(verifyEnvelopeSigs(rehashed, [key.jwk]).sigs[0].problem).toBe('head-mismatch');
  });

  it('rejects a forged signature, malformed ones, and a key used outside its validity', () => {
    const key = newKey('0190a63a-1a80-7e1e-a868-08c7859b6476');
    const signed = signEnvelope(example('es-invoice-es-es'), key, { now: NOW });
    const [h, p, s] = (signed.sigs[0] as string).split('.');
    const forged = `${h}.${p}.${Buffer.from(s, 'base64url').fill(1, 0, 4).toString('base64url')}`;
    const other = { ...signed, sigs: [forged, 'not-a-jws', 42] };
    expect(verifyEnvelopeSigs(other, [key.jwk]).sigs.map((x) => x.problem)).toEqual(['no-matching-key', 'malformed', 'malformed']);

    const expired = { ...key.jwk, valid_until: '2026-01-01T00:00:00Z' };
    expect(verifyEnvelopeSigs(signed, [expired]).sigs[0].problem).toBe('outside-key-window');
    expect(verifyEnvelopeSigs({ ...signed, sigs: [] }, [key.jwk]).valid).toBe(false);
  });

  it('verifies a signature made by GOBL itself (go-jose) with GOBL\'s public key', () => {
    // GOBL's test signature signs {"foo","bar"}, not a head: the crypto verifies, the payload does not match.
    const env = { ...example('note-message'), sigs: [GOBL_SIG] };
    const report = verifyEnvelopeSigs(env, [GOBL_JWK]);
    expect(report.sigs[0]).toMatchObject({ kid: GOBL_KID, problem: 'head-mismatch', payload: { foo: 'foo', bar: 1234 } });
    const wrongKey = newKey(GOBL_KID).jwk;
    expect(verifyEnvelopeSigs(env, [wrongKey]).sigs[0].problem).toBe('no-matching-key');
  });
});
