import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { feed, search } from '../../api/datasets';
import { channelDatasets, liked } from '../../api/library';
import { datasetsCollectionSchema, type DatasetsCollection } from '../../domain/resources';
import { NEXT } from '../pagedList/pagedList.machine';
import type { FirstPage, LoadFirstInput, LoadNextInput } from './feed.machine';

export type { FeedSource } from './feed.machine';

/** The first page of the list, timed from request to parsed answer. */
async function timedFirstPage(client: ApiClient, { source }: LoadFirstInput, signal: AbortSignal): Promise<FirstPage> {
  const started = performance.now();
  return { page: await firstPage(client, source, signal), fetchMs: performance.now() - started };
}

function firstPage(client: ApiClient, source: LoadFirstInput['source'], signal: AbortSignal): Promise<DatasetsCollection> {
  switch (source.kind) {
    case 'feed':
      return feed(client, source.workspaceId, 0, { signal });
    case 'search':
      return search(client, source.workspaceId, { q: source.q }, { signal });
    case 'liked':
      return liked(client, source.workspaceId, { signal });
    case 'channel':
      return channelDatasets(client, source.channel, { signal });
  }
}

/** `feedMachine.provide({ actors: feedActors(client) })`; which list comes with the machine's input. */
export function feedActors(client: ApiClient) {
  return {
    loadFirst: fromPromise<FirstPage, LoadFirstInput>(({ input, signal }) => timedFirstPage(client, input, signal)),
    checkNew: fromPromise<FirstPage, LoadFirstInput>(({ input, signal }) => timedFirstPage(client, input, signal)),
    // The server's next link keeps the query and page size of the first request.
    loadNext: fromPromise<DatasetsCollection, LoadNextInput>(({ input, signal }) =>
      client.follow(input.page, NEXT, { schema: datasetsCollectionSchema, signal }),
    ),
  };
}
