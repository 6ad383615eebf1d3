import { describe, expect, it } from 'vitest';
import { forgetToken, initialToken, saveToken, storedToken, type TokenEnv } from '../../../src-renderer/src/api/token.ts';

function fakeEnv(url: string, stored?: string) {
  const parsed = new URL(url, 'http://127.0.0.1:4100');
  const items = new Map<string, string>(stored ? [['silodesk.token', stored]] : []);
  const replaced: string[] = [];
  const env: TokenEnv = {
    location: { pathname: parsed.pathname, search: parsed.search, hash: parsed.hash },
    history: { state: null, replaceState: (_data, _unused, next) => void replaced.push(next) },
    storage: {
      getItem: (key) => items.get(key) ?? null,
      setItem: (key, value) => void items.set(key, value),
      removeItem: (key) => void items.delete(key),
    },
  };
  return { env, items, replaced };
}

describe('API token in the browser', () => {
  it('tells which token the tab works with, so a late 401 for an earlier one signs nothing out', () => {
    const { env } = fakeEnv('/', 'sd_old');
    expect(storedToken(env)).toBe('sd_old');
    saveToken(env, 'sd_new');
    expect(storedToken(env)).toBe('sd_new');
    forgetToken(env);
    expect(storedToken(env)).toBeUndefined();
  });

  it('takes the token from the fragment, keeps it for the tab and removes it from the address bar', () => {
    const { env, items, replaced } = fakeEnv('/?x=1#token=sd_abc');
    expect(initialToken(env)).toBe('sd_abc');
    expect(items.get('silodesk.token')).toBe('sd_abc');
    expect(replaced).toEqual(['/?x=1']);
  });

  it('keeps other fragment parameters', () => {
    const { env, replaced } = fakeEnv('/#token=sd_abc&view=inbox');
    expect(initialToken(env)).toBe('sd_abc');
    expect(replaced).toEqual(['/#view=inbox']);
  });

  it('prefers a token in the URL over the stored one', () => {
    const { env, items } = fakeEnv('/#token=sd_new', 'sd_old');
    expect(initialToken(env)).toBe('sd_new');
    expect(items.get('silodesk.token')).toBe('sd_new');
  });

  it('falls back to the stored token and leaves the URL alone', () => {
    const { env, replaced } = fakeEnv('/#view=inbox', 'sd_old');
    expect(initialToken(env)).toBe('sd_old');
    expect(replaced).toEqual([]);
  });

  it('has no token without fragment or storage, and strips an empty one', () => {
    expect(initialToken(fakeEnv('/').env)).toBeUndefined();
    const { env, replaced } = fakeEnv('/#token=');
    expect(initialToken(env)).toBeUndefined();
    expect(replaced).toEqual(['/']);
  });

  it('saves and forgets', () => {
    const { env, items } = fakeEnv('/');
    saveToken(env, 'sd_typed');
    expect(initialToken(env)).toBe('sd_typed');
    forgetToken(env);
    expect(items.size).toBe(0);
    expect(initialToken(env)).toBeUndefined();
  });
});
