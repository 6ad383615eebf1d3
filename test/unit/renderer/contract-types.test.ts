import { describe, expectTypeOf, it } from 'vitest';
import type { EntrySort } from '../../../src-main/core/api/contract/silo.ts';
import type { HashedBytes } from '../../../src-main/core/files/hashed-bytes.ts';
import type { IssueInput } from '../../../src-main/core/sequence/issue.ts';
import type { SeriesInput, SeriesPatch } from '../../../src-main/core/sequence/series.ts';
import type { FileInput } from '../../../src-main/core/silo/attachments.ts';
import type { CreateEntryInput } from '../../../src-main/core/silo/entries.ts';
import type { EntryFilter } from '../../../src-main/core/silo/entry-filters.ts';
import type { ImportItem } from '../../../src-main/core/silo/import.ts';
import type { ListQuery, RelatedQuery } from '../../../src-main/core/silo/list.ts';
import type { PutMetaInput } from '../../../src-main/core/silo/meta.ts';
import type { PatchEntryInput } from '../../../src-main/core/silo/patch.ts';
import type { SearchQuery } from '../../../src-main/core/silo/search.ts';
import type { ConflictResolution, EntryPatch, ExportSelection, ImportEntry } from '../../../src-renderer/src/api/types.ts';

/*
 * The areas' and the renderer's input types are derived from the contract's zod
 * schemas (z.output for what a handler receives, z.input for what a client sends).
 * These checks are made by the type checker (`npm run typecheck`): each derived type
 * against the shape that used to be written out by hand, so a derivation that
 * widened, narrowed or dropped a member fails to compile.
 */

type JsonObject = Record<string, unknown>;
/** One object type out of an intersection (the type comparison tells `A & B` from its flattened form). */
type Flat<T> = { [K in keyof T]: T[K] };
type PatchContentType = 'application/json' | 'application/merge-patch+json' | 'application/json-patch+json';
/** The contract names a JSON patch's operations (the hand-written type took any `op` string). */
type JsonPatchOperation = { op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test'; path: string; from?: string; value?: unknown };

describe('input types derived from the contract', () => {
  it('the silo areas take exactly what their handlers are given', () => {
    expectTypeOf<CreateEntryInput>().toEqualTypeOf<{
      data?: JsonObject | JsonPatchOperation[];
      key?: string;
      folder?: string;
      tags?: string[];
      state?: string;
      allow_invalid?: boolean;
      content_type?: PatchContentType;
      previous_id?: string;
      correct?: JsonObject;
      sign?: boolean;
    }>();
    expectTypeOf<Flat<ImportItem>>().toEqualTypeOf<Flat<CreateEntryInput & { id?: string }>>();
    // Parsed: content_type has its default.
    expectTypeOf<PatchEntryInput>().toEqualTypeOf<{
      content_type: PatchContentType;
      data?: JsonObject | JsonPatchOperation[];
      folder?: string;
      tags?: string[];
      state?: string;
      allow_invalid?: boolean;
      sign?: boolean;
    }>();
    expectTypeOf<PutMetaInput>().toEqualTypeOf<{ src: string; ref: string; value: unknown; shared: boolean; link_scope: string; link_url: string }>();
    expectTypeOf<FileInput>().toEqualTypeOf<{
      name: string;
      desc?: string;
      mime?: string;
      meta?: Record<string, string>;
      key?: string;
      category?: string;
      embeddable?: boolean;
      private?: boolean;
      sha256?: string;
      hash?: string;
      size?: number;
      /** a large one arrives decoded already (bytes-members.ts) */
      data?: string | HashedBytes;
    }>();
    type Filters = { folder?: string; state?: string; tag?: string; date_from?: string; date_to?: string };
    type Page = { created_at?: string; cursor?: string; limit: number; ascending: boolean };
    expectTypeOf<Flat<EntryFilter>>().toEqualTypeOf<Flat<Filters & { doc_uuid?: string }>>();
    // Parsed: sort has its default, so it is always there.
    expectTypeOf<Flat<ListQuery>>().toEqualTypeOf<Flat<Filters & Page & { doc_uuid?: string; sort: EntrySort }>>();
    expectTypeOf<Flat<RelatedQuery>>().toEqualTypeOf<Flat<Page & { uuid?: string; context?: string }>>();
    expectTypeOf<Flat<SearchQuery>>().toEqualTypeOf<Flat<Filters & { q: string; limit: number; offset: number }>>();
  });

  it('the sequence area takes exactly what its handlers are given', () => {
    expectTypeOf<SeriesInput>().toEqualTypeOf<{
      id?: string;
      name: string;
      description: string;
      code: string;
      prefix: string;
      padding: number;
      suffix: string;
      start: number;
      sig?: string;
    }>();
    expectTypeOf<SeriesPatch>().toEqualTypeOf<Partial<Omit<SeriesInput, 'id' | 'sig'>>>();
    expectTypeOf<IssueInput>().toEqualTypeOf<{ id?: string; meta?: Record<string, string>; sig?: string }>();
  });

  it('the renderer sends what the contract takes', () => {
    expectTypeOf<Pick<EntryPatch, 'state' | 'folder' | 'tags'>>().toEqualTypeOf<{ state?: string; folder?: string; tags?: string[] }>();
    // As sent: content_type may be left out (the service defaults it).
    expectTypeOf<EntryPatch['content_type']>().toEqualTypeOf<PatchContentType | undefined>();
    expectTypeOf<{ keep: 'remote' }>().toExtend<ConflictResolution>();
    expectTypeOf<{ rename: { which: 'theirs'; key: string } }>().toExtend<ConflictResolution>();
    expectTypeOf<{ ids: string[] }>().toExtend<ExportSelection>();
    expectTypeOf<{ folder: string; date_from: string }>().toExtend<ExportSelection>();
    expectTypeOf<{ keep: 'both' }>().not.toExtend<ConflictResolution>();
    expectTypeOf<{ data: JsonObject; id: string; state: string }>().toExtend<ImportEntry>();
  });
});
