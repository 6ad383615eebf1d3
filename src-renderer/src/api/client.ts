/**
 * The renderer's typed client is the shared one (src-main/core/api/client), which
 * sync and the tests use too; the renderer only picks a transport (transport.ts).
 */
export {
  createClient,
  type AnswerOf,
  type ApiClient,
  type BinaryDownload,
  type ClientInput,
  type ClientOutput,
} from '../../../src-main/core/api/client/client.ts';
