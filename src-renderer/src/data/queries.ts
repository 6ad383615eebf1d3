import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient, type InfiniteData, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { OperationName, Operations } from '../../../src-main/core/api/contract/index.ts';
import type { AnswerOf, ApiClient, ClientInput } from '../api/client.ts';
import { useApi } from '../app/ApiContext.tsx';
import { apiKey } from './keys.ts';

/** What a call of the operation takes: the contract's input, with the parts that need nothing optional. */
export type InputOf<K extends OperationName> = ClientInput<Operations[K]>;

/** Calls one operation by name (the client's methods are typed one by one; here the name is a variable). */
export function callOperation<K extends OperationName>(api: ApiClient, name: K, input?: InputOf<K>): Promise<AnswerOf<K>> {
  return (api[name] as unknown as (input?: InputOf<K>) => Promise<AnswerOf<K>>)(input);
}

type ReadOptions<T, D> = Omit<UseQueryOptions<T, Error, D>, 'queryKey' | 'queryFn'>;

/**
 * One read through the window's cache: the same operation with the same input shares
 * one request and one answer wherever it is shown, the answer shown stays while it is
 * fetched again, and the writes that affect it (invalidation.ts) fetch it again.
 */
export function useApiQuery<K extends OperationName, D = AnswerOf<K>>(name: K, input?: InputOf<K>, options?: ReadOptions<AnswerOf<K>, D>) {
  const api = useApi();
  return useQuery({ ...options, queryKey: apiKey(name, input), queryFn: () => callOperation(api, name, input) });
}

/**
 * Shows the answer a write gave (the new state of what this read reads) at once, as
 * the read's own; the refetch the write's invalidation starts then finds it unchanged.
 */
export function useShowAnswer<K extends OperationName>(name: K, input?: InputOf<K>): (answer: AnswerOf<K>) => void {
  const queryClient = useQueryClient();
  return (answer) => queryClient.setQueryData(apiKey(name, input), answer);
}

/**
 * A paged read: its cache key, the first page's position, how to fetch the page at a
 * position, and the next position a page names (none: it was the last).
 */
export interface PagedRead<TPage, TParam> {
  key: QueryKey;
  first: TParam;
  fetch(api: ApiClient, param: TParam): Promise<TPage>;
  next(page: TPage, param: TParam): TParam | undefined;
}

/** The operations whose answer carries `field` (the position of their next page). */
type PagedBy<F extends string> = { [K in OperationName]: F extends keyof AnswerOf<K> ? K : never }[OperationName];

function withQuery<K extends OperationName>(input: InputOf<K>, position: Record<string, unknown>): InputOf<K> {
  const base = input as { query?: Record<string, unknown> };
  return { ...base, query: { ...base.query, ...position } } as unknown as InputOf<K>;
}

/** Keyset pages: `next_cursor` goes back as `cursor` (entries, jobs, series entries, related). */
export function cursorPages<K extends PagedBy<'next_cursor'>>(name: K, input: InputOf<K>): PagedRead<AnswerOf<K>, string | undefined> {
  return {
    key: apiKey(name, input, 'pages'),
    first: undefined,
    fetch: (api, cursor) => callOperation(api, name, withQuery(input, { cursor })),
    next: (page) => (page as { next_cursor?: string }).next_cursor || undefined,
  };
}

/** Workflows page as the hosted API pages them: `next_created_at` goes back as `created_at`. */
export function createdAtPages<K extends PagedBy<'next_created_at'>>(name: K, input: InputOf<K>): PagedRead<AnswerOf<K>, string | undefined> {
  return {
    key: apiKey(name, input, 'pages'),
    first: undefined,
    fetch: (api, createdAt) => callOperation(api, name, withQuery(input, { created_at: createdAt })),
    next: (page) => (page as { next_created_at?: string }).next_created_at || undefined,
  };
}

/** Search pages by offset into one ranked order: `next_offset` goes back as `offset` (only forwards: a stuck offset ends the list). */
export function offsetPages<K extends PagedBy<'next_offset'>>(name: K, input: InputOf<K>): PagedRead<AnswerOf<K>, number> {
  return {
    key: apiKey(name, input, 'pages'),
    first: 0,
    fetch: (api, offset) => callOperation(api, name, withQuery(input, { offset })),
    next: (page, offset) => {
      const next = (page as { next_offset?: number }).next_offset;
      return next !== undefined && next > offset ? next : undefined;
    },
  };
}

/** The same pages, each changed before it is kept (`shape` names the change in the cache key). */
export function mapPages<P, Q, TParam>(read: PagedRead<P, TParam>, shape: string, change: (page: P) => Q): PagedRead<Q, TParam> {
  return {
    key: [...read.key, shape],
    first: read.first,
    fetch: async (api, param) => change(await read.fetch(api, param)),
    next: (page, param) => read.next(page as unknown as P, param),
  };
}

export interface PagesOptions<TPage, TParam> {
  enabled?: boolean;
  /** while the first page for a new key loads, keep showing the pages of the previous one */
  keepShown?: boolean;
  /** fetch the loaded pages again this often (ms), e.g. while something shown is still running */
  refetchInterval?: (data: InfiniteData<TPage, TParam> | undefined) => number | false;
}

/**
 * A list a page at a time (TanStack's infinite query): `fetchNextPage` brings the next
 * one, a second call while it is on its way does nothing, and a write that affects the
 * list fetches every loaded page again in order, so rows and scroll stay.
 */
export function usePages<TPage, TParam>(read: PagedRead<TPage, TParam>, options: PagesOptions<TPage, TParam> = {}) {
  const api = useApi();
  const { refetchInterval } = options;
  return useInfiniteQuery({
    queryKey: read.key,
    queryFn: ({ pageParam }) => read.fetch(api, pageParam as TParam),
    initialPageParam: read.first,
    getNextPageParam: (last: TPage, _all: TPage[], param: TParam) => read.next(last, param),
    enabled: options.enabled,
    placeholderData: options.keepShown ? keepPreviousData : undefined,
    refetchInterval: refetchInterval ? (query) => refetchInterval(query.state.data) : undefined,
  });
}

/** Every page, fetched one after the other up to `cap` rows (a list small enough to hold whole, such as workflows). */
export function useEveryPage<TPage extends { list: unknown[] }, TParam>(read: PagedRead<TPage, TParam>, cap: number) {
  const pages = usePages(read);
  const { data, hasNextPage, isFetching, isError, fetchNextPage } = pages;
  const count = data?.pages.reduce((sum, page) => sum + page.list.length, 0) ?? 0;
  useEffect(() => {
    if (hasNextPage && !isFetching && !isError && count < cap) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetching, isError, count, cap, fetchNextPage]);
  return pages;
}

/** The rows of every loaded page, in order. */
export const rowsOf = <T,>(data: InfiniteData<{ list: T[] }, unknown> | undefined): T[] => data?.pages.flatMap((page) => page.list) ?? [];
