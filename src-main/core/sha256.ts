import { createHash } from 'node:crypto';

/** SHA-256 as lower-case hex: the name the content store keeps bytes under, and the hash a series chain links by. */
export const sha256Hex = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');
