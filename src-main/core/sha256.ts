import { createHash } from 'node:crypto';

/** SHA-256 as lower-case hex: what files are named by, series chains link by, and tokens and requests are kept as. */
export const sha256Hex = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');
