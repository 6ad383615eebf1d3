import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v4 as uuidv4 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { ensureDefaultCompany } from '../../../src-main/core/access/bootstrap.ts';
import { migrations } from '../../../src-main/core/db/migrations.ts';
import { issueEntry } from '../../../src-main/core/sequence/issue.ts';
import { putSeries } from '../../../src-main/core/sequence/series.ts';
import { openService } from '../../../src-main/core/service.ts';
import { hashBytes } from '../../../src-main/core/files/hashed-bytes.ts';
import { storeAttachment } from '../../../src-main/core/silo/attachments.ts';
import { createEntry } from '../../../src-main/core/silo/entries.ts';
import { putMeta } from '../../../src-main/core/silo/meta.ts';
import { putWorkflow } from '../../../src-main/core/transform/workflows.ts';
import { loadEnvelope } from '../../fixtures/gobl/load.ts';

describe('migration 0006_sync', () => {
  it('puts everything stored before sync existed into the outbox, parents first and chains in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'silodesk-backfill-'));
    const service = await openService(dir, { runJobs: false, autoSync: false });
    const company = await ensureDefaultCompany(service.db);
    const ctx = { service, caller: { companyKey: company.key, companyId: company.id, kind: 'owner' as const } };
    const series = await putSeries(ctx, uuidv4(), { name: 'S', description: '', code: 'S', prefix: 'S-', padding: 3, suffix: '', start: 1 });
    const issued: string[] = [];
    for (let i = 0; i < 3; i++) issued.push((await issueEntry(ctx, series.id, uuidv4(), {})).id);
    const wf = await putWorkflow(ctx, uuidv4(), { name: 'w', steps: [{ provider: 'silo.state', config: { state: 'x' } }] });
    const entry = await createEntry(ctx, undefined, { data: loadEnvelope('es-invoice-es-es.json').doc });
    await storeAttachment(ctx, entry.id, { id: 'f', name: 'f.txt' }, hashBytes(randomBytes(10)));
    await putMeta(ctx, entry.id, 'k', { src: 'erp', ref: '', value: 1, shared: false, link_scope: '', link_url: '' });

    // the same database as it was before 0006
    const sqlite = service.db.sqlite!;
    for (const table of ['sync_changes', 'sync_config', 'sync_conflicts', 'sync_parked', 'sync_seen', 'sync_local_only', 'sync_peer_keys']) {
      sqlite.exec(`DROP TABLE ${table}`);
    }
    sqlite.exec(`DELETE FROM sqlite_sequence WHERE name = 'sync_changes'`);
    // later migrations stay applied (Kysely refuses to run one out of order), so 0006 runs on its own
    await migrations['0006_sync'].up(service.db.q);

    const rows = sqlite.prepare('SELECT kind, record_id, version, origin FROM sync_changes ORDER BY seq').all();
    expect(rows).toEqual([
      { kind: 'series', record_id: series.id, version: 1, origin: 'local' },
      ...issued.map((id) => ({ kind: 'series_entry', record_id: id, version: 1, origin: 'local' })),
      { kind: 'workflow', record_id: wf.id, version: 1, origin: 'local' },
      { kind: 'entry', record_id: entry.id, version: 1, origin: 'local' },
      { kind: 'attachment', record_id: `${entry.id}:f`, version: 1, origin: 'local' },
      { kind: 'meta', record_id: `${entry.id}:erp:k`, version: 1, origin: 'local' },
    ]);
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
