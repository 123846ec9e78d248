import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { feed, search } from '../../api/datasets';
import { datasetsCollectionSchema, type DatasetsCollection } from '../../domain/resources';
import { NEXT, type LoadFirstInput, type LoadNextInput } from './feed.machine';

export type { FeedSource } from './feed.machine';

/** `feedMachine.provide({ actors: feedActors(client) })`; which list comes with the machine's input. */
export function feedActors(client: ApiClient) {
  return {
    loadFirst: fromPromise<DatasetsCollection, LoadFirstInput>(({ input: { source }, signal }) =>
      source.kind === 'feed' ? feed(client, source.workspaceId, 0, { signal }) : search(client, source.workspaceId, { q: source.q }, { signal }),
    ),
    // The server's next link keeps the query and page size of the first request.
    loadNext: fromPromise<DatasetsCollection, LoadNextInput>(({ input, signal }) =>
      client.follow(input.page, NEXT, { schema: datasetsCollectionSchema, signal }),
    ),
  };
}
