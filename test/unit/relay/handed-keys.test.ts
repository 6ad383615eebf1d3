import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InstanceKeys } from '../../../src-main/core/keys/instance-keys.ts';
import type { KeySealer } from '../../../src-main/core/keys/key-files.ts';
import { handedOverSealer, unsealSigningKeys } from '../../../src-main/service-process/handed-keys.ts';

const keychain: KeySealer = {
  encrypt: (plain) => Buffer.concat([Buffer.from('K:'), Buffer.from(plain).reverse()]),
  decrypt: (sealed) => Buffer.from(sealed.subarray(2)).reverse(),
};

describe('signing keys handed from the shell to the service', () => {
  it('are made sealed on first start, and handed over unsealed in memory only', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'silodesk-handed-'));
    const first = await unsealSigningKeys(dataDir, keychain);
    expect(first).toHaveLength(1);
    const files = readdirSync(join(dataDir, 'keys')).filter((f) => f.endsWith('.jwk.sealed'));
    expect(files).toHaveLength(1);
    expect(readFileSync(join(dataDir, 'keys', files[0]), 'utf8')).not.toContain('"d":');
    expect(JSON.parse(Buffer.from(first[0].plain).toString('utf8')).d).toEqual(expect.any(String));

    // the next start unseals the same key, and makes none
    const again = await unsealSigningKeys(dataDir, keychain);
    expect(again).toEqual(first);
    expect(readdirSync(join(dataDir, 'keys')).filter((f) => f.endsWith('.jwk.sealed'))).toEqual(files);

    // the service opens them with what it was handed, and signs with the same key
    const keys = await InstanceKeys.load(join(dataDir, 'keys'), handedOverSealer(again));
    expect(`${keys.kid}.jwk.sealed`).toBe(files[0]);
  });

  it('the service side never writes a key, and refuses a key file it was not handed', async () => {
    const sealer = handedOverSealer([]);
    expect(() => sealer.encrypt(Buffer.from('{"d":"secret"}'))).toThrow(/made by the desktop app/);
    expect(() => sealer.decrypt(Buffer.from('K:something else'))).toThrow(/changed after the desktop app unsealed it/);
    // an empty data dir: the service would have to make a key, and refuses rather than write it unsealed
    const dataDir = mkdtempSync(join(tmpdir(), 'silodesk-handed-'));
    await expect(InstanceKeys.load(join(dataDir, 'keys'), sealer)).rejects.toThrow(/made by the desktop app/);
    expect(readdirSync(join(dataDir, 'keys')).filter((f) => f.includes('.jwk'))).toEqual([]);
  });
});
