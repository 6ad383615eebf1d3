import { openServiceHost, type ServiceNotice, type ServiceStartConfig } from './host.ts';
import { fromParentPort, fromProcessChannel, type FlushablePort, type ParentPortLike } from './ports.ts';
import { serveRelay } from './relay.ts';

/**
 * The service process, loaded by its entry (entry.ts). The desktop shell starts it with
 * Electron's `utilityProcess.fork` (messages on `process.parentPort`); tests start the same
 * entry with `child_process.fork` (messages on the IPC channel). Either way it
 * waits for `start`, then serves calls until `shutdown`.
 */
const log = (line: string) => console.error(line);
const parentPort = (process as { parentPort?: ParentPortLike }).parentPort;
const port = parentPort ? fromParentPort(parentPort) : process.send ? stopsWhenOrphaned(fromProcessChannel(process)) : undefined;

if (!port) {
  console.error('silodesk: this is the service process of the desktop app; run `npm start`, or `npm run serve` for the headless service');
  process.exit(2);
} else {
  serveRelay<ServiceStartConfig, ServiceNotice>(port, (config, notify) => openServiceHost(config, notify, log), {
    log,
    // the last message (`closed`) leaves before the process does
    onClosed: (code) => void port.flushed().then(() => process.exit(code)),
  });
}

/**
 * A parent that goes away without a word (it crashed, or was killed) counts as a
 * shutdown: the calls under way finish and the database is closed, not cut off.
 * (Electron ends its utility processes itself when the app goes.)
 */
function stopsWhenOrphaned(channel: FlushablePort): FlushablePort {
  return {
    ...channel,
    onMessage(listener) {
      channel.onMessage(listener);
      process.once('disconnect', () => listener({ type: 'shutdown' }));
    },
  };
}
