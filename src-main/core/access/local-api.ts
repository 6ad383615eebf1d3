import { ApiError } from '../api/errors.ts';
import type { Service } from '../service.ts';

export interface LocalApiState {
  enabled: boolean;
  port: number;
  running: boolean;
  url?: string;
  configurable: boolean;
}

/**
 * The localhost HTTP API as the embedding process runs it: the desktop app can
 * switch it on and off; `serve` is the API, its port fixed on the command line.
 */
export interface LocalApiControl {
  get(): LocalApiState;
  set(enabled: boolean, port: number): Promise<LocalApiState>;
}

const controls = new WeakMap<Service, LocalApiControl>();

export function setLocalApiControl(service: Service, control: LocalApiControl): void {
  controls.set(service, control);
}

function control(service: Service): LocalApiControl {
  const found = controls.get(service);
  if (!found) throw new ApiError('conflict', 'this process has no localhost API to manage');
  return found;
}

export const getLocalApi = (service: Service) => control(service).get();

export async function setLocalApi(service: Service, enabled: boolean, port: number): Promise<LocalApiState> {
  const c = control(service);
  if (!c.get().configurable) throw new ApiError('conflict', "serve's address is fixed by its --port and --host options");
  return c.set(enabled, port);
}
