/** How the renderer reaches the service: IPC in the desktop app, HTTP in the browser (both shared with main-side code). */
export type { CallInput, Transport } from '../../../src-main/core/api/client/client.ts';
export { ApiClientError } from '../../../src-main/core/api/client/errors.ts';
export { httpTransport, type HttpTransportOptions } from '../../../src-main/core/api/client/http-transport.ts';
export { ipcTransport, type IpcTransportOptions } from '../../../src-main/core/api/client/ipc-transport.ts';
export { requestPath } from '../../../src-main/core/api/client/request-path.ts';
