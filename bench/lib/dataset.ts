// The databases the benchmarks read: N entries made by EntryFactory, stored through
// the service's own bulk import (GOBL check, derived rows, change log: what an
// accountant's import does), so every row and index is what the product writes.
// Built once and kept under bench/.cache/, keyed by the schema (the last migration
// and the page size) and this file's dataset version; a million entries take a
// quarter of an hour to build and are then reused by every run. A build goes to a
// `.partial` folder renamed when complete, so an interrupted one is never taken.
import { closeSync, copyFileSync, cpSync, fdatasyncSync, openSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { ensureDefaultCompany, ensureOwnerTokenFile } from '../../src-main/core/access/bootstrap.ts';
import { resolveToken } from '../../src-main/core/access/tokens.ts';
import { withCall } from '../../src-main/core/silo/audit-actor.ts';
import type { Ctx } from '../../src-main/core/api/handler.ts';
import { PAGE_SIZE } from '../../src-main/core/db/connection.ts';
import { migrations } from '../../src-main/core/db/migrations.ts';
import { PACKED_FORMAT } from '../../src-main/core/silo/packed-document.ts';
import { openService } from '../../src-main/core/service.ts';
import { importEntries } from '../../src-main/core/silo/import.ts';
import { companyFtsQuery } from '../../src-main/core/silo/search.ts';
import { loadEnvelopes } from '../../test/fixtures/gobl/load.ts';
import { EntryFactory } from './entries.ts';

/**
 * Bump when EntryFactory or what is stored here changes, so old caches are not read as new.
 * 2: documents stored packed (migration 0022). Migrations leave the rows stored before as
 * text, so a dataset brought up from 1 would measure the old form, not what an import stores.
 * 3: seven sort indexes without created_at and id (migration 0023). Dropping them leaves their
 * pages free inside the file, so a dataset brought up from 2 is no smaller on disk than before.
 * 4: no first state or first version stored, no identities' uuid index, the search index by
 * column (migrations 0024–0027): the same, rows and an index deleted leave their pages free.
 * 5: snippets stored packed (migration 0029): rows stored before keep the object.
 * 6: request hashes, audit links and GOBL's schemas stored short, no uuid in identities, the
 * digest index on its first 16 digits (migration 0030): rows stored before keep their form.
 * 7: imported as a local tool imports over HTTP, as the owner's token and the import
 * operation: every audit row names them (75 bytes an entry, where the nameless in-process
 * caller of 1–6 wrote 24 and was put down to a workflow, flattering the size on disk).
 * 8: audit rows name their actor by key (migration 0038): rows stored before keep its texts.
 */
const DATASET_VERSION = 8;
const BATCH = 1000;

export const CACHE_DIR = fileURLToPath(new URL('../.cache/', import.meta.url));

export interface Dataset {
  dataDir: string;
  dbFile: string;
  token: string;
  companyId: string;
  entries: number;
  /** invoices with three or more credit notes naming them */
  hubs: string[];
  /** an entry id in the middle, for GET one entry */
  sampleIds: string[];
  search: { rare: string; medium: string; common: string; hits: Record<string, number> };
  built_at: string;
  build_seconds: number;
  /** the schema it holds */
  schema: string;
  /** the cache it was migrated from, when it was built under an older schema */
  upgraded_from?: string;
}

/** The key the dataset's company's rows are stored under (access/company-key.ts), for the raw statements of a yardstick or a case. */
export function companyKeyIn(db: Database.Database, ds: Pick<Dataset, 'companyId'>): string {
  return (db.prepare('SELECT id FROM companies WHERE uuid = ?').get(ds.companyId) as { id: string }).id;
}

// The page size and the packing of documents are part of it: a database built under others
// keeps them (migrations change neither), and its size on disk would not be this build's.
export const schemaKey = (): string => `${Object.keys(migrations).sort().at(-1)}-p${PAGE_SIZE}-f${PACKED_FORMAT}`;

const sizeLabel = (entries: number) => (entries >= 1e6 && entries % 1e6 === 0 ? `${entries / 1e6}m` : entries >= 1000 ? `${entries / 1000}k` : String(entries));

/**
 * The dataset of `entries` entries: the cached one; else a cached one of an older
 * schema, brought up to date by the service's own migrations (what an accountant's
 * database goes through, and minutes instead of a rebuild); else a new build.
 */
export async function dataset(entries: number, options: { rebuild?: boolean; log?: (line: string) => void } = {}): Promise<Dataset & { cached: boolean }> {
  const log = options.log ?? (() => {});
  const prefix = `silo-${sizeLabel(entries)}-`;
  const suffix = `-p${PAGE_SIZE}-f${PACKED_FORMAT}-d${DATASET_VERSION}`;
  const dir = join(CACHE_DIR, `${prefix}${schemaKey()}-d${DATASET_VERSION}`);
  const manifest = join(dir, 'dataset.json');
  if (!options.rebuild && existsSync(manifest)) {
    return { ...(JSON.parse(readFileSync(manifest, 'utf8')) as Dataset), dataDir: dir, dbFile: join(dir, 'silodesk.db'), cached: true };
  }
  const older = options.rebuild || !existsSync(CACHE_DIR)
    ? undefined
    : readdirSync(CACHE_DIR).filter((name) => name.startsWith(prefix) && name.endsWith(suffix) && existsSync(join(CACHE_DIR, name, 'dataset.json'))).sort().at(-1);
  if (older) {
    log(`  dataset: bringing ${older} up to the current schema (${schemaKey()})`);
    const from = join(CACHE_DIR, older);
    const service = await openService(from, { runJobs: false, autoSync: false });
    await service.close();
    rmSync(join(from, 'backups'), { recursive: true, force: true });
    const upgraded = { ...(JSON.parse(readFileSync(join(from, 'dataset.json'), 'utf8')) as Dataset), schema: schemaKey(), upgraded_from: older };
    renameSync(from, dir);
    writeFileSync(manifest, `${JSON.stringify(upgraded, null, 2)}\n`);
    return { ...upgraded, dataDir: dir, dbFile: join(dir, 'silodesk.db'), cached: true };
  }
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const built = await build(partial, entries, log);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  writeFileSync(manifest, `${JSON.stringify(built, null, 2)}\n`);
  return { ...built, dataDir: dir, dbFile: join(dir, 'silodesk.db'), cached: false };
}

/** At most `n` items, taken evenly from the whole list. */
function spread<T>(list: T[], n: number): T[] {
  const step = Math.max(1, Math.floor(list.length / n));
  return list.filter((_, i) => i % step === 0).slice(0, n);
}

async function build(dataDir: string, entries: number, log: (line: string) => void): Promise<Dataset> {
  const started = performance.now();
  const service = await openService(dataDir, { runJobs: false, autoSync: false });
  const company = await ensureDefaultCompany(service.db);
  await ensureOwnerTokenFile(service.db, company, join(dataDir, 'api-token'));
  // The caller the HTTP API makes of the owner's token, and the operation it names: what an import over HTTP stores.
  const caller = await resolveToken(service.db, readFileSync(join(dataDir, 'api-token'), 'utf8').trim());
  if (!caller) throw new Error('dataset: the owner token written does not resolve');
  const ctx: Ctx = { service, caller };
  const factory = new EntryFactory(loadEnvelopes());
  const sampleIds: string[] = [];
  let rare = '';
  try {
    for (let done = 0; done < entries; done += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, entries - done) }, () => factory.next());
      const result = await withCall(service.db, caller, 'importEntries', () => importEntries(ctx, batch.map((e) => ({ id: e.id, data: e.data }))));
      if (result.failed > 0) throw new Error(`${result.failed} dataset entries failed: ${JSON.stringify(result.results.find((r) => r.error))}`);
      if (done % Math.max(BATCH, Math.floor(entries / 10 / BATCH) * BATCH) === 0) sampleIds.push(batch[0].id);
      if (!rare && done >= entries / 2) {
        const doc = batch.find((e) => typeof e.data.doc.code === 'string' && e.data.doc.series)?.data.doc;
        if (doc) rare = `${doc.series}-${doc.code}`;
      }
      if ((done / BATCH) % 50 === 49) {
        const seconds = (performance.now() - started) / 1000;
        log(`  dataset: ${(done + BATCH).toLocaleString('en-US')} of ${entries.toLocaleString('en-US')} entries, ${Math.round((done + BATCH) / seconds)}/s`);
      }
    }
  } finally {
    await service.close();
  }
  const suppliers = [...factory.suppliers].sort((a, b) => b[1] - a[1]);
  const medium = suppliers[Math.floor(suppliers.length / 2)][0];
  const common = 'invoice';
  const db = new Database(join(dataDir, 'silodesk.db'), { readonly: true });
  const hits: Record<string, number> = {};
  for (const term of [rare, medium, common]) {
    hits[term] = (db.prepare('SELECT count(*) AS n FROM entries_fts WHERE entries_fts MATCH ?').get(companyFtsQuery(company.id, term)) as { n: number }).n;
  }
  db.close();
  return {
    dataDir,
    dbFile: join(dataDir, 'silodesk.db'),
    token: readFileSync(join(dataDir, 'api-token'), 'utf8').trim(),
    companyId: company.id,
    entries,
    hubs: spread(factory.hubs(3), 200),
    sampleIds,
    search: { rare, medium, common, hits },
    built_at: new Date().toISOString(),
    build_seconds: (performance.now() - started) / 1000,
    schema: schemaKey(),
  };
}

/**
 * A copy of a dataset's data dir to write into (benchmarks that import must not change
 * the cached one): the database (checkpointed first, so the copy is one file), keys
 * and token. The caller removes it.
 */
export function workingCopy(ds: Dataset): string {
  const dir = mkdtempSync(join(tmpdir(), 'silodesk-bench-copy-'));
  const db = new Database(ds.dbFile);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  copyFileSync(ds.dbFile, join(dir, 'silodesk.db'));
  // On disk before anything is timed: the kernel writing back 7 GB of a fresh copy meanwhile made cold
  // starts read 441-508 ms against 177-326 ms a minute later.
  const copied = openSync(join(dir, 'silodesk.db'), 'r+');
  try {
    fdatasyncSync(copied);
  } finally {
    closeSync(copied);
  }
  cpSync(join(ds.dataDir, 'keys'), join(dir, 'keys'), { recursive: true });
  copyFileSync(join(ds.dataDir, 'api-token'), join(dir, 'api-token'));
  return dir;
}
