import { resolve } from 'node:path';
import { ApiError, notFound, validationError } from '../api/errors.ts';
import type { Ctx, HandlersOf } from '../api/handler.ts';
import type { exportOperations } from '../api/contract/exports.ts';
import { listBackups } from './backup-list.ts';
import { destinationProblem } from './destination.ts';
import { backupScheduler } from './scheduler.ts';
import { readBackupSettings, readLastOutcome, writeBackupSettings, type BackupSettings } from './settings.ts';

type BackupOperations = Pick<typeof exportOperations, 'getBackup' | 'putBackupSettings' | 'runBackup'>;

/**
 * The data folder holds every company: only the install's owner (the desktop window, serve's
 * api-token) backs it up. To a company's own owner the install's backups are not found, as
 * another company is (their existence is not that owner's business).
 */
function requireInstallOwner(ctx: Ctx): void {
  if (!ctx.caller.install) throw notFound("the install's backups (managed by the desktop app, or the token in serve's api-token file)");
}

async function status(ctx: Ctx) {
  const { db } = ctx.service;
  const settings = await readBackupSettings(db);
  const scheduler = backupScheduler(ctx.service);
  const last = await readLastOutcome(db);
  const nextAt = scheduler.nextAt;
  return {
    settings,
    running: scheduler.running,
    ...(nextAt !== undefined ? { next_at: new Date(nextAt).toISOString() } : {}),
    ...(last ? { last } : {}),
    backups: listBackups(settings.folder),
  };
}

export const backupHandlers: HandlersOf<BackupOperations> = {
  getBackup: (ctx) => {
    requireInstallOwner(ctx);
    return status(ctx);
  },
  putBackupSettings: async (ctx, { body }) => {
    requireInstallOwner(ctx);
    const folder = body.folder.trim() === '' ? '' : resolve(body.folder.trim());
    if (folder !== '' || body.enabled) {
      const problem = destinationProblem(body.folder.trim(), ctx.service.dataDir);
      if (problem) throw validationError(`the backup folder ${problem}`, { '$.folder': problem });
    }
    const settings: BackupSettings = { folder, every_hours: body.every_hours, keep: body.keep, enabled: body.enabled };
    await writeBackupSettings(ctx.service.db, settings);
    await backupScheduler(ctx.service).replan();
    return status(ctx);
  },
  runBackup: async (ctx) => {
    requireInstallOwner(ctx);
    const settings = await readBackupSettings(ctx.service.db);
    if (settings.folder === '') throw validationError('set a backup folder first', { '$.folder': 'must be set before a backup' });
    const outcome = await backupScheduler(ctx.service).run();
    if (!outcome.ok) throw new ApiError('conflict', `the backup failed: ${outcome.error}`);
    return status(ctx);
  },
};
