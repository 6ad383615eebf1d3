import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalApiControl, type RunningApi } from '../../../src-main/desktop/local-api-control.ts';
import { readDesktopSettings, writeDesktopSettings } from '../../../src-main/desktop/settings-file.ts';
import { restoreBounds } from '../../../src-main/desktop/window-bounds.ts';

describe('desktop settings file', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'silodesk-desk-'));

  it('defaults to the localhost API off, and round-trips what is saved', () => {
    const file = join(dir(), 'settings.json');
    expect(readDesktopSettings(file)).toEqual({ localApi: { enabled: false, port: 4100 } });
    const saved = { window: { x: 10, y: 20, width: 900, height: 700, maximized: true }, localApi: { enabled: true, port: 4555 } };
    writeDesktopSettings(file, saved);
    expect(readDesktopSettings(file)).toEqual(saved);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('survives a broken file, keeping the parts that are still valid', () => {
    const file = join(dir(), 'settings.json');
    writeFileSync(file, '{not json');
    expect(readDesktopSettings(file).localApi.enabled).toBe(false);
    writeFileSync(file, JSON.stringify({ window: { x: 'left' }, localApi: { enabled: true, port: 4200 } }));
    expect(readDesktopSettings(file)).toEqual({ localApi: { enabled: true, port: 4200 } });
    expect(JSON.parse(readFileSync(file, 'utf8')).window.x).toBe('left'); // reading never rewrites
  });
});

describe('window bounds', () => {
  const display = { x: 0, y: 0, width: 1920, height: 1080 };
  it.each([
    ['no saved bounds: centred', undefined, [display], { x: 320, y: 140, width: 1280, height: 800 }],
    ['saved on screen: kept', { x: 100, y: 50, width: 800, height: 600 }, [display], { x: 100, y: 50, width: 800, height: 600 }],
    ['on an unplugged second monitor: moved back', { x: 2500, y: 100, width: 800, height: 600 }, [display], { x: 560, y: 240, width: 800, height: 600 }],
    ['bigger than the screen: shrunk', undefined, [{ x: 0, y: 0, width: 1024, height: 700 }], { x: 0, y: 0, width: 1024, height: 700 }],
    ['mostly visible on the second display: kept', { x: 1800, y: 0, width: 800, height: 600 }, [display, { x: 1920, y: 0, width: 1920, height: 1080 }], { x: 1800, y: 0, width: 800, height: 600 }],
  ])('%s', (_, saved, displays, expected) => {
    expect(restoreBounds(saved, displays, { width: 1280, height: 800 })).toEqual(expected);
  });
});

describe('localhost API switch', () => {
  function fakes(failPort?: number) {
    const events: string[] = [];
    const saved: Array<{ enabled: boolean; port: number }> = [];
    const start = async (port: number): Promise<RunningApi> => {
      if (port === failPort) throw new Error('EADDRINUSE');
      events.push(`start ${port}`);
      return { url: `http://127.0.0.1:${port}`, port, close: async () => void events.push(`stop ${port}`) };
    };
    return { events, saved, start, save: (s: { enabled: boolean; port: number }) => void saved.push(s) };
  }

  it('is off by default and starts nothing', async () => {
    const f = fakes();
    const control = createLocalApiControl({ initial: { enabled: false, port: 4100 }, ...f });
    expect(await control.apply()).toMatchObject({ enabled: false, running: false, configurable: true });
    expect(f.events).toEqual([]);
  });

  it('switches on, moves port (stopping first), and off, saving each setting', async () => {
    const f = fakes();
    const control = createLocalApiControl({ initial: { enabled: false, port: 4100 }, ...f });
    expect(await control.set(true, 4100)).toMatchObject({ running: true, url: 'http://127.0.0.1:4100' });
    await control.set(true, 4200);
    await control.set(false, 4200);
    expect(f.events).toEqual(['start 4100', 'stop 4100', 'start 4200', 'stop 4200']);
    expect(f.saved).toEqual([{ enabled: true, port: 4100 }, { enabled: true, port: 4200 }, { enabled: false, port: 4200 }]);
    expect(control.get().running).toBe(false);
  });

  it('keeps the working setting when the new port is taken, and says why', async () => {
    const f = fakes(4300);
    const control = createLocalApiControl({ initial: { enabled: true, port: 4100 }, ...f });
    await control.apply();
    await expect(control.set(true, 4300)).rejects.toMatchObject({ key: 'conflict' });
    expect(control.get()).toMatchObject({ enabled: true, port: 4100, running: true });
    expect(f.saved).toEqual([]);
  });
});

describe('desktop caller', () => {
  it('acts as owner of the chosen company, the first by default, and refuses an unknown one', async () => {
    const { openService } = await import('../../../src-main/core/service.ts');
    const { createCompany } = await import('../../../src-main/core/access/companies.ts');
    const { desktopCaller } = await import('../../../src-main/desktop/desktop-caller.ts');
    const service = await openService(mkdtempSync(join(tmpdir(), 'silodesk-caller-')), { runJobs: false });
    const a = await createCompany(service.db, 'A');
    const b = await createCompany(service.db, 'B');
    expect(await desktopCaller(service.db, a)).toEqual({ companyKey: a.key, companyId: a.id, kind: 'owner', install: true });
    expect(await desktopCaller(service.db, a, b.id)).toEqual({ companyKey: b.key, companyId: b.id, kind: 'owner', install: true });
    await expect(desktopCaller(service.db, a, '0190c1a0-0000-7000-8000-00000000dead')).rejects.toThrow(/not found/);
    await service.close();
  });
});
