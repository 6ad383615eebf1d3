import type { RelayPort } from './relay.ts';

/**
 * Adapters from the message channels the service process can be reached by to the
 * relay's port: Electron's (the shell forks it with `utilityProcess`) and Node's
 * (`child_process.fork` with `serialization: 'advanced'`, which clones messages
 * the same structured way, so a test runs the very entry the shell runs).
 */

/** A port the entry can wait on before it exits, so its last message (`closed`) is not lost. */
export interface FlushablePort extends RelayPort {
  flushed(): Promise<void>;
}

/** `process.parentPort` inside an Electron utility process: messages arrive as events carrying `data`. */
export interface ParentPortLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}

export function fromParentPort(port: ParentPortLike): FlushablePort {
  return {
    postMessage: (message) => port.postMessage(message),
    onMessage: (listener) => void port.on('message', (event) => listener(event.data)),
    // posted messages are handed to Electron at once; one turn lets them leave
    flushed: () => new Promise((resolve) => setImmediate(resolve)),
  };
}

/** A Node IPC channel, either end: `process` in a forked child, or the ChildProcess in its parent. */
export interface ProcessChannelLike {
  send?(message: unknown, handle: undefined, options: object, callback: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export function fromProcessChannel(channel: ProcessChannelLike): FlushablePort {
  let last: Promise<void> = Promise.resolve();
  return {
    postMessage(message) {
      if (!channel.send) throw new Error('this process has no IPC channel');
      // The callback takes a closed channel's error, which would otherwise be thrown as an 'error' event.
      last = new Promise((resolve) => channel.send!(message, undefined, {}, () => resolve()));
    },
    onMessage: (listener) => void channel.on('message', listener),
    flushed: () => last,
  };
}

/** Electron's UtilityProcess as its parent sees it: messages arrive bare. */
export interface UtilityProcessLike {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

export function fromUtilityProcess(child: UtilityProcessLike): RelayPort {
  return {
    postMessage: (message) => child.postMessage(message),
    onMessage: (listener) => void child.on('message', listener),
  };
}
