import { validationError } from '../api/errors.ts';
import type { HandlersOf } from '../api/handler.ts';
import type { exportOperations } from '../api/contract/exports.ts';
import { backupHandlers } from '../backup/handlers.ts';
import { exportCsv } from './csv-export.ts';
import { exportZip } from './zip-export.ts';

export const exportHandlers: HandlersOf<typeof exportOperations> = {
  ...backupHandlers,
  exportZip: (ctx, { body }) => exportZip(ctx, body),
  exportCsv: (ctx, { body }) => {
    const { rows, delimiter, decimal, bom, ...selection } = body;
    // A decimal comma in comma-separated fields would quote every amount and confuse most imports.
    if (decimal === ',' && delimiter === ',') {
      throw validationError('a decimal comma needs another delimiter', { '$.delimiter': 'must be ; or a tab when decimal is ,' });
    }
    return exportCsv(ctx, selection, { rows, delimiter, decimal, bom });
  },
};
