import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { p1363OfDer, signCompactEs256, verifyEs256 } from '../../../src-main/core/keys/jws.ts';

const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

describe('an ECDSA signature from DER to the form JWS writes (P1363)', () => {
  it('is what node:crypto writes itself, for signatures of every length of r and s', () => {
    const lengths = new Set<number>();
    for (let i = 0; i < 400; i++) {
      const data = Buffer.from(`payload ${i}`);
      const der = sign('sha256', data, privateKey);
      lengths.add(der.length);
      const ours = p1363OfDer(der);
      expect(ours).toHaveLength(64);
      expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, ours)).toBe(true);
      // The same r and s, back to DER by node:crypto's own reading of P1363.
      expect(verify('sha256', data, publicKey, der)).toBe(true);
    }
    // r or s with a leading zero byte (high bit set) and shorter ones both turned up.
    expect(Math.max(...lengths)).toBeGreaterThan(70);
    expect(Math.min(...lengths)).toBeLessThan(71);
  });

  it('pads a short integer and drops the zero that keeps a high one positive', () => {
    const r = [0x00, 0x80, ...Array(31).fill(1)];
    const s = Array(31).fill(2);
    const der = Uint8Array.from([0x30, 4 + r.length + s.length, 0x02, r.length, ...r, 0x02, s.length, ...s]);
    expect([...p1363OfDer(der)]).toEqual([0x80, ...Array(31).fill(1), 0, ...Array(31).fill(2)]);
  });

  it('refuses what is not a DER signature of the size asked', () => {
    const good = sign('sha256', Buffer.from('x'), privateKey);
    expect(() => p1363OfDer(good.subarray(0, good.length - 1))).toThrow(/DER/);
    expect(() => p1363OfDer(Uint8Array.from([0x31, 0]))).toThrow(/DER/);
    expect(() => p1363OfDer(Uint8Array.from([0x30, 6, 0x02, 1, 5, 0x02, 1, 7, 9]))).toThrow(/DER/);
    expect(() => p1363OfDer(Uint8Array.from([0x30, 38, 0x02, 33, ...Array(33).fill(1), 0x02, 1, 7]))).toThrow(/DER/);
  });

  it('makes compact JWS that verify as before', () => {
    const jws = signCompactEs256(privateKey, 'k1', { uuid: 'u', n: 1 });
    expect(Buffer.from(jws.split('.')[2], 'base64url')).toHaveLength(64);
    expect(verifyEs256(jws, (kid) => (kid === 'k1' ? publicKey : undefined), 'test')).toEqual({ uuid: 'u', n: 1 });
  });
});
