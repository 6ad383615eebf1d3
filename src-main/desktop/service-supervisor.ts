import type { IpcAnswer } from '../core/api/client/ipc-answer.ts';
import type { ServiceNotice, ServiceStartConfig } from '../service-process/host.ts';
import { createRelayClient, type RelayCaller, type RelayClient, type RelayInput, type RelayPort } from '../service-process/relay.ts';

/** A started service process, whatever started it (Electron's utilityProcess, or child_process in tests). */
export interface ServiceProcessLike {
  port: RelayPort;
  onExit(listener: (code: number | null) => void): void;
  kill(): void;
}

export interface SupervisorDeps {
  /** starts the process running src-main/service-process/entry.ts */
  fork(): ServiceProcessLike;
  /** the start message, made afresh for each start (the keys are unsealed then, and not kept) */
  config(): Promise<ServiceStartConfig>;
  onNotice?(notice: ServiceNotice): void;
  /** the service stopped, and restarting it did not help: the app says so and quits */
  onGiveUp(why: string): void;
  log?(line: string): void;
  /** how long the service may take to finish its calls and close before it is killed (default 15 s) */
  stopTimeoutMs?: number;
  /** unexpected exits within a minute that are restarted before giving up (default 3) */
  maxRestarts?: number;
  now?(): number;
}

/**
 * The shell's hold on the service process: starts it, relays calls to it, restarts
 * it when it dies (a crash loses no data: SQLite and the job queue pick up where
 * they were) and stops it on quit, killing it only if it does not close in time.
 */
export class ServiceSupervisor {
  readonly #deps: SupervisorDeps;
  #relay: RelayClient<ServiceStartConfig> | undefined;
  #child: ServiceProcessLike | undefined;
  #stopping: Promise<void> | undefined;
  #exits: number[] = [];

  constructor(deps: SupervisorDeps) {
    this.#deps = deps;
  }

  /** Starts the service; rejects with why it could not start (the message is for the person at the screen). */
  async start(): Promise<void> {
    const child = this.#deps.fork();
    const relay = createRelayClient<ServiceStartConfig, ServiceNotice>(child.port, { onNotice: this.#deps.onNotice, log: this.#deps.log });
    this.#child = child;
    this.#relay = relay;
    let ready = false;
    child.onExit((code) => {
      relay.lost(`the service process stopped (exit code ${code ?? 'none'})`);
      if (this.#child !== child) return;
      this.#child = undefined;
      // One that dies before it is ready fails its start(), whose caller decides.
      if (ready && !this.#stopping) this.#restart(code);
    });
    try {
      await relay.start(await this.#deps.config());
      ready = true;
    } catch (err) {
      // it said why, or it died: either way it is not to be left running
      if (this.#child === child) this.#child = undefined;
      child.kill();
      throw err;
    }
  }

  /** One call through the relay; answered `unavailable` while there is no service. */
  call(name: string, input: RelayInput, caller: RelayCaller): Promise<IpcAnswer> {
    if (!this.#relay || this.#stopping) {
      return Promise.resolve({ ok: false, error: { key: 'unavailable', code: 'unavailable', message: 'the service is not running' } });
    }
    return this.#relay.call(name, input, caller);
  }

  /** Asks the service to finish its calls and close; kills it if it has not within the timeout. */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop();
    return this.#stopping;
  }

  async #stop(): Promise<void> {
    const child = this.#child;
    const relay = this.#relay;
    if (!child || !relay) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.#deps.stopTimeoutMs ?? 15_000);
    });
    const outcome = await Promise.race([relay.shutdown().then(() => 'closed' as const), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.#deps.log?.('silodesk: the service did not close in time and was stopped');
      child.kill();
    }
  }

  #restart(code: number | null): void {
    const now = (this.#deps.now ?? Date.now)();
    this.#exits = [...this.#exits.filter((at) => now - at < 60_000), now];
    const why = `the service process stopped unexpectedly (exit code ${code ?? 'none'})`;
    if (this.#exits.length > (this.#deps.maxRestarts ?? 3)) {
      this.#relay = undefined;
      this.#deps.onGiveUp(`${why}, again and again`);
      return;
    }
    this.#deps.log?.(`silodesk: ${why}; starting it again`);
    this.start().catch((err: unknown) => {
      this.#relay = undefined;
      this.#deps.onGiveUp(`${why}, and could not start again: ${(err as Error)?.message ?? err}`);
    });
  }
}
