import type { LocalApiControl, LocalApiState } from '../core/access/local-api.ts';
import { ApiError } from '../core/api/errors.ts';

export interface RunningApi {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The desktop app's switch for the localhost HTTP API: off by default, on a port
 * the user picks, always on 127.0.0.1. Starting and saving are injected, so the
 * logic (stop before restart, remember only what worked) is tested without Electron.
 */
export function createLocalApiControl(deps: {
  initial: { enabled: boolean; port: number };
  start(port: number): Promise<RunningApi>;
  save(setting: { enabled: boolean; port: number }): void;
}): LocalApiControl & { apply(): Promise<LocalApiState>; stop(): Promise<void> } {
  let setting = { ...deps.initial };
  let running: RunningApi | undefined;

  const state = (): LocalApiState => ({
    enabled: setting.enabled,
    port: setting.port,
    running: running !== undefined,
    ...(running ? { url: running.url } : {}),
    configurable: true,
  });

  async function stop(): Promise<void> {
    const current = running;
    running = undefined;
    await current?.close();
  }

  async function apply(): Promise<LocalApiState> {
    await stop();
    if (setting.enabled) running = await deps.start(setting.port);
    return state();
  }

  return {
    get: state,
    apply,
    stop,
    async set(enabled, port) {
      const previous = setting;
      setting = { enabled, port };
      try {
        await apply();
      } catch (err) {
        // The port may be taken: go back to what worked, and say why.
        setting = previous;
        await apply().catch(() => undefined);
        throw new ApiError('conflict', `could not listen on 127.0.0.1:${port}: ${(err as Error).message}`);
      }
      deps.save(setting);
      return state();
    },
  };
}
