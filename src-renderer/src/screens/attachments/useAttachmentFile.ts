import { useQuery } from '@tanstack/react-query';
import { downloadToBlob } from '../../api/binary.ts';
import type { Attachment } from '../../api/types.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { apiKey } from '../../data/keys.ts';

/** Files can be large: one not shown for a minute leaves the cache. */
const FILE_CACHE_MS = 60_000;

/**
 * An attachment's bytes as a Blob, fetched with the API client (never by URL, which
 * would need the token in it). A file never changes under its id, so it is fetched
 * once while shown or kept, and no write makes it stale (invalidation.ts).
 */
export function useAttachmentBlob(attachment: Attachment) {
  const api = useApi();
  const params = { entry_id: attachment.entry_id, id: attachment.id };
  return useQuery({
    queryKey: apiKey('getAttachment', { params }, `blob ${attachment.hash}`),
    queryFn: async () => downloadToBlob(await api.getAttachment({ params }), attachment.mime),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: FILE_CACHE_MS,
  });
}

/** The same file's bytes, for reading its text (a PDF's text layer). */
export function useAttachmentBytes(attachment: Attachment) {
  const api = useApi();
  const params = { entry_id: attachment.entry_id, id: attachment.id };
  return useQuery({
    queryKey: apiKey('getAttachment', { params }, `bytes ${attachment.hash}`),
    queryFn: async () => new Uint8Array(await downloadToBlob(await api.getAttachment({ params }), attachment.mime).arrayBuffer()),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: FILE_CACHE_MS,
  });
}
