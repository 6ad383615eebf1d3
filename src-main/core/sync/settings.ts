import type { Selectable } from 'kysely';
import { validationError } from '../api/errors.ts';
import { nowIso } from '../clock.ts';
import type { Db } from '../db/engine.ts';
import type { SyncConfigTable } from '../db/tables.ts';
import { normalizeRemoteUrl } from './remote-url.ts';
import { LOCAL } from '../db/write-scopes.ts';
import type { CompanyKey } from '../access/company-key.ts';

export type SyncConfigRow = Selectable<SyncConfigTable>;

export interface SettingsInput {
  remote_url: string;
  token?: string;
  interval_minutes: number;
  paused: boolean;
}

export async function loadConfig(db: Db, companyKey: CompanyKey): Promise<SyncConfigRow | undefined> {
  return db.first(db.q.selectFrom('sync_config').selectAll().where('company_id', '=', companyKey));
}

/** What any answer may show of the settings: never the token. */
export function settingsView(row: SyncConfigRow | undefined) {
  if (!row) return { configured: false, remote_url: '', has_token: false, interval_minutes: 0, paused: false };
  return {
    configured: true,
    remote_url: row.remote_url,
    has_token: row.token !== '',
    interval_minutes: row.interval_minutes,
    paused: row.paused === 1,
    ...(row.remote_instance_id ? { remote_instance_id: row.remote_instance_id } : {}),
  };
}

/**
 * Stores where and how this company syncs. The cursors stay: pointing at another
 * remote is noticed at the next sync (its instance id differs) and handled there.
 */
export async function saveSettings(db: Db, companyKey: CompanyKey, input: SettingsInput): Promise<SyncConfigRow> {
  const remoteUrl = normalizeRemoteUrl(input.remote_url);
  const token = input.token?.trim();
  return db.tx(async () => {
    const existing = await loadConfig(db, companyKey);
    if (!token && !existing) throw validationError('a token is needed to reach the remote', { '$.token': 'required the first time' });
    const values = {
      remote_url: remoteUrl,
      token: token || existing!.token,
      interval_minutes: input.interval_minutes,
      paused: input.paused ? 1 : 0,
      updated_at: nowIso(),
    };
    if (existing) await db.run(db.q.updateTable('sync_config').set(values).where('company_id', '=', companyKey));
    else await db.run(db.q.insertInto('sync_config').values({ company_id: companyKey, ...values }));
    return (await loadConfig(db, companyKey))!;
  }, { origin: LOCAL });
}

export async function forgetSettings(db: Db, companyKey: CompanyKey): Promise<void> {
  await db.run(db.q.deleteFrom('sync_config').where('company_id', '=', companyKey));
}

export async function saveOutcome(
  db: Db,
  companyKey: CompanyKey,
  outcome: { attemptAt: string; successAt?: string; error?: { kind: string; message: string } },
): Promise<void> {
  await db.run(
    db.q
      .updateTable('sync_config')
      .set({
        last_attempt_at: outcome.attemptAt,
        ...(outcome.successAt ? { last_success_at: outcome.successAt } : {}),
        last_error: outcome.error?.message ?? null,
        last_error_kind: outcome.error?.kind ?? null,
        last_error_at: outcome.error ? nowIso() : null,
      })
      .where('company_id', '=', companyKey),
  );
}
