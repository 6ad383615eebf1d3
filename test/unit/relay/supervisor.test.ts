import { describe, expect, it } from 'vitest';
import { ServiceSupervisor, type ServiceProcessLike } from '../../../src-main/desktop/service-supervisor.ts';
import { serveRelay, type RelayHandler } from '../../../src-main/service-process/relay.ts';
import { memoryPortPair } from './memory-ports.ts';

const DESKTOP = { kind: 'desktop' } as const;
const config = async () => ({ dataDir: '/nowhere', keys: [], localApi: { enabled: false, port: 4100 } });

/** A pretend service process: serves the relay with `handler`, dies on `exit(code)`, counts kills. */
function fakeProcess(handler: () => Promise<RelayHandler>) {
  const [shellEnd, serviceEnd] = memoryPortPair();
  const exitListeners: Array<(code: number | null) => void> = [];
  const proc = {
    kills: 0,
    alive: true,
    exit(code: number | null) {
      if (!proc.alive) return;
      proc.alive = false;
      setImmediate(() => exitListeners.forEach((l) => l(code)));
    },
    handle: { port: shellEnd, onExit: (l: (code: number | null) => void) => void exitListeners.push(l), kill: () => (proc.kills++, proc.exit(null)) },
  };
  serveRelay(serviceEnd, handler, { onClosed: (code) => proc.exit(code) });
  return proc;
}

const echo = (tag: string): (() => Promise<RelayHandler>) => async () => ({ call: async () => tag, close: async () => undefined });

describe('the service supervisor', () => {
  it('starts the process again when it dies, and relays to the new one', async () => {
    const procs: Array<ReturnType<typeof fakeProcess>> = [];
    const supervisor = new ServiceSupervisor({
      fork: (): ServiceProcessLike => {
        const p = fakeProcess(echo(`run ${procs.length + 1}`));
        procs.push(p);
        return p.handle;
      },
      config,
      onGiveUp: () => expect.fail('gave up'),
    });
    await supervisor.start();
    expect(await supervisor.call('ping', {}, DESKTOP)).toEqual({ ok: true, data: 'run 1' });
    procs[0].exit(137);
    await new Promise((r) => setTimeout(r, 20));
    expect(await supervisor.call('ping', {}, DESKTOP)).toEqual({ ok: true, data: 'run 2' });
  });

  it('gives up (and says why) when the process keeps dying', async () => {
    const why: string[] = [];
    const procs: Array<ReturnType<typeof fakeProcess>> = [];
    const supervisor = new ServiceSupervisor({
      fork: () => {
        const p = fakeProcess(echo('x'));
        procs.push(p);
        return p.handle;
      },
      config,
      onGiveUp: (reason) => why.push(reason),
      maxRestarts: 2,
      now: () => 1_000,
    });
    await supervisor.start();
    for (let i = 0; i < 3; i++) {
      procs.at(-1)!.exit(1);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(procs).toHaveLength(3);
    expect(why).toEqual(['the service process stopped unexpectedly (exit code 1), again and again']);
    expect(await supervisor.call('ping', {}, DESKTOP)).toMatchObject({ ok: false, error: { key: 'unavailable' } });
  });

  it('fails start with the service\'s reason, and leaves no process behind', async () => {
    const procs: Array<ReturnType<typeof fakeProcess>> = [];
    const supervisor = new ServiceSupervisor({
      fork: () => {
        const p = fakeProcess(async () => {
          throw new Error('the database is from a newer Silodesk');
        });
        procs.push(p);
        return p.handle;
      },
      config,
      onGiveUp: () => expect.fail('a failed start is its caller\'s to report'),
    });
    await expect(supervisor.start()).rejects.toThrow('the database is from a newer Silodesk');
    await new Promise((r) => setTimeout(r, 20));
    expect(procs).toHaveLength(1);
    expect(procs[0].alive).toBe(false);
  });

  it('kills a service that does not close within the stop timeout', async () => {
    let proc!: ReturnType<typeof fakeProcess>;
    const supervisor = new ServiceSupervisor({
      fork: () => {
        proc = fakeProcess(async () => ({ call: async () => 'x', close: () => new Promise<void>(() => undefined) }));
        return proc.handle;
      },
      config,
      onGiveUp: () => expect.fail('a stop is not a crash'),
      stopTimeoutMs: 50,
    });
    await supervisor.start();
    await supervisor.stop();
    expect(proc.kills).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(await supervisor.call('ping', {}, DESKTOP)).toMatchObject({ ok: false, error: { key: 'unavailable' } });
  });
});
