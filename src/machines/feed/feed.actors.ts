import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { feed, search } from '../../api/datasets';
import { datasetsCollectionSchema, type DatasetsCollection } from '../../domain/resources';
import { NEXT, type LoadNextInput } from './feed.machine';

/** Which list: the workspace's feed, or a search of it (`q` as read from the URL; quotes are stripped by the API call). */
export type FeedSource =
  | { readonly kind: 'feed'; readonly workspaceId: string }
  | { readonly kind: 'search'; readonly workspaceId: string; readonly q: string };

/** `feedMachine.provide({ actors: feedActors(client, source) })`. */
export function feedActors(client: ApiClient, source: FeedSource) {
  return {
    loadFirst: fromPromise<DatasetsCollection>(({ signal }) =>
      source.kind === 'feed' ? feed(client, source.workspaceId, 0, { signal }) : search(client, source.workspaceId, { q: source.q }, { signal }),
    ),
    // The server's next link keeps the query and page size of the first request.
    loadNext: fromPromise<DatasetsCollection, LoadNextInput>(({ input, signal }) =>
      client.follow(input.page, NEXT, { schema: datasetsCollectionSchema, signal }),
    ),
  };
}
