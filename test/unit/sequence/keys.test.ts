import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { InstanceKeys } from '../../../src-main/core/keys/instance-keys.ts';
import { SignatureError } from '../../../src-main/core/keys/jws.ts';
import { openService } from '../../../src-main/core/service.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'silodesk-keys-'));

describe('instance keys', () => {
  it('makes a P-256 key on first start, private key file mode 0600, and the same kid after a restart', async () => {
    const dataDir = tempDir();
    const service = await openService(dataDir);
    const kid = service.keys.kid;
    const jws = service.keys.sign({ uuid: 'u', dig: 'd' });
    await service.close();

    const file = join(dataDir, 'keys', `${kid}.jwk`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'keys')).mode & 0o777).toBe(0o700);
    const jwk = JSON.parse(readFileSync(file, 'utf8'));
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', kid, alg: 'ES256' });
    expect(typeof jwk.d).toBe('string');
    expect(readdirSync(join(dataDir, 'keys')).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const reopened = await openService(dataDir);
    expect(reopened.keys.kid).toBe(kid);
    expect(reopened.keys.jwks().keys).toHaveLength(1);
    expect(await reopened.keys.verify(jws)).toEqual({ uuid: 'u', dig: 'd' });
    await reopened.close();
  });

  it('signs compact JWS with header {alg, kid} that jose verifies with the JWKS', async () => {
    const keys = await InstanceKeys.load(tempDir());
    const jws = keys.sign({ uuid: 'abc', dig: 'f00' });
    expect(jws.split('.')).toHaveLength(3);
    expect(decodeProtectedHeader(jws)).toEqual({ alg: 'ES256', kid: keys.kid });
    const { payload } = await compactVerify(jws, createLocalJWKSet(keys.jwks()));
    expect(JSON.parse(Buffer.from(payload).toString())).toEqual({ uuid: 'abc', dig: 'f00' });
    for (const key of keys.jwks().keys) expect(key).not.toHaveProperty('d');
  });

  it('keeps old keys after a rotation, across restarts, and signs with the new one', async () => {
    const dir = tempDir();
    const keys = await InstanceKeys.load(dir);
    const before = keys.sign({ n: 1 });
    const first = keys.kid;
    const second = await keys.rotate();
    expect(second).not.toBe(first);
    expect(keys.kid).toBe(second);
    const after = keys.sign({ n: 2 });
    expect(decodeProtectedHeader(after).kid).toBe(second);

    const reloaded = await InstanceKeys.load(dir);
    expect(reloaded.kid).toBe(second);
    expect(reloaded.jwks().keys.map((k) => k.kid)).toEqual([second, first]);
    expect(await reloaded.verify(before)).toEqual({ n: 1 });
    expect(await reloaded.verify(after)).toEqual({ n: 2 });
  });

  it('refuses a bad signature, an unknown kid and garbage, each with its reason', async () => {
    const keys = await InstanceKeys.load(tempDir());
    const stranger = await InstanceKeys.load(tempDir());
    const good = keys.sign({ a: 1 });
    const [h, p, s] = good.split('.');
    const tamperedPayload = `${h}.${Buffer.from('{"a":2}').toString('base64url')}.${s}`;
    const cases: Array<[string, string]> = [
      [tamperedPayload, 'bad-signature'],
      [`${h}.${p}.${stranger.sign({ a: 1 }).split('.')[2]}`, 'bad-signature'],
      [stranger.sign({ a: 1 }), 'unknown-kid'],
      ['not a jws', 'malformed'],
      [`${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.${s}`, 'malformed'],
    ];
    for (const [jws, problem] of cases) {
      const err = await keys.verify(jws).then(() => undefined, (e: unknown) => e);
      expect(err, jws).toBeInstanceOf(SignatureError);
      expect((err as SignatureError).problem, jws).toBe(problem);
    }
  });

  it('seals key files with the given protector, and will not start without it', async () => {
    const dir = tempDir();
    const sealer = {
      encrypt: (b: Buffer) => Buffer.concat([Buffer.from('SEALED:'), Buffer.from(b.map((x) => x ^ 0x5a))]),
      decrypt: (b: Buffer) => Buffer.from(b.subarray(7).map((x) => x ^ 0x5a)),
    };
    const keys = await InstanceKeys.load(dir, sealer);
    const file = join(dir, `${keys.kid}.jwk.sealed`);
    const raw = readFileSync(file);
    expect(raw.subarray(0, 7).toString()).toBe('SEALED:');
    expect(raw.toString()).not.toContain('"d"');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    expect((await InstanceKeys.load(dir, sealer)).kid).toBe(keys.kid);
    await expect(InstanceKeys.load(dir)).rejects.toThrow(/encrypted by the desktop app/);
  });

  it('passes the protector through openService', async () => {
    const dataDir = tempDir();
    const calls: string[] = [];
    const protectKey = {
      encrypt: (b: Buffer) => (calls.push('encrypt'), Buffer.from(b)),
      decrypt: (b: Buffer) => (calls.push('decrypt'), Buffer.from(b)),
    };
    const service = await openService(dataDir, { protectKey });
    expect(readdirSync(join(dataDir, 'keys'))).toContain(`${service.keys.kid}.jwk.sealed`);
    await service.close();
    const again = await openService(dataDir, { protectKey });
    await again.close();
    expect(calls).toEqual(['encrypt', 'decrypt']);
  });

  it('refuses a key file that does not hold the key it is named after', async () => {
    const dir = tempDir();
    const keys = await InstanceKeys.load(dir);
    const file = join(dir, `${keys.kid}.jwk`);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), kid: 'someone-else' }));
    await expect(InstanceKeys.load(dir)).rejects.toThrow(/does not hold/);
  });
});
