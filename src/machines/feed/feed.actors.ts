import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { feed, search } from '../../api/datasets';
import { channelDatasets, liked } from '../../api/library';
import { datasetsCollectionSchema, type DatasetsCollection } from '../../domain/resources';
import { NEXT, type LoadFirstInput, type LoadNextInput } from './feed.machine';

export type { FeedSource } from './feed.machine';

/** `feedMachine.provide({ actors: feedActors(client) })`; which list comes with the machine's input. */
export function feedActors(client: ApiClient) {
  return {
    loadFirst: fromPromise<DatasetsCollection, LoadFirstInput>(({ input: { source }, signal }) => {
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
    }),
    // The server's next link keeps the query and page size of the first request.
    loadNext: fromPromise<DatasetsCollection, LoadNextInput>(({ input, signal }) =>
      client.follow(input.page, NEXT, { schema: datasetsCollectionSchema, signal }),
    ),
  };
}
