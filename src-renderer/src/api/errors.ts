/** An error answer of the service, the same whether it came over HTTP or IPC. */
export { ApiClientError } from '../../../src-main/core/api/client/errors.ts';
