import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const E2E_PORT = '4199';
export const e2eDataDir = (port = E2E_PORT) => resolve('test-results', `e2e-data-${port}`);
export const e2eToken = (port = E2E_PORT) => readFileSync(join(e2eDataDir(port), 'api-token'), 'utf8').trim();
