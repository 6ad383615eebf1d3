import { createRequire } from 'node:module';

/**
 * Where better-sqlite3 is installed, for the threads that open connections of their own
 * (checkpoints, backups): their code is eval'd, so it cannot import the driver by name.
 */
export const sqliteDriverPath = (): string => createRequire(import.meta.url).resolve('better-sqlite3');
