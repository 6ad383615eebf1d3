import { formatCount, plural } from '../../format/count.ts';
import type { ImportedFile } from './importer.ts';

export interface ImportCounts {
  /** stored and complete (a draft with its file attached) */
  added: number;
  existing: number;
  /** waiting for the one decision */
  duplicates: number;
  skipped: number;
  clashes: number;
  failed: number;
}

export function importCounts(files: readonly ImportedFile[]): ImportCounts {
  const sum = (of: (f: ImportedFile) => number) => files.reduce((n, f) => n + of(f), 0);
  return {
    added: sum((f) => f.created.length + f.copies.length),
    existing: sum((f) => f.existing.length),
    duplicates: sum((f) => f.duplicates.filter((d) => !d.skipped).length),
    skipped: sum((f) => f.duplicates.filter((d) => d.skipped).length),
    clashes: sum((f) => f.clashes.length),
    failed: sum((f) => f.errors.length),
  };
}

/**
 * The finished import in a line: "3 entries added · 1 already there · 2 already stored,
 * waiting for your decision · 1 failed". A file that failed (a draft whose file could not
 * be attached) is never counted as added.
 */
export function importSummary(files: readonly ImportedFile[]): string {
  const c = importCounts(files);
  return [
    `${plural(c.added, 'entry', 'entries')} added`,
    c.existing ? `${formatCount(c.existing)} already there` : '',
    c.duplicates ? `${formatCount(c.duplicates)} already stored` : '',
    c.skipped ? `${formatCount(c.skipped)} duplicate${c.skipped === 1 ? '' : 's'} skipped` : '',
    c.clashes ? `${formatCount(c.clashes)} with a taken id` : '',
    c.failed ? `${formatCount(c.failed)} failed` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}
