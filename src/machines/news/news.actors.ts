import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { news, newsChannels } from '../../api/library';
import { newsCollectionSchema, type NewsCollection } from '../../domain/library';
import { NEXT, type PageInput } from '../pagedList/pagedList.machine';
import type { NewsFirst, NewsInput } from './news.machine';

export function newsActors(client: ApiClient) {
  return {
    loadFirst: fromPromise<NewsFirst, NewsInput>(async ({ input, signal }) => {
      const [page, channels] = await Promise.all([news(client, input.workspaceId, input.q, { signal }), newsChannels(client, input.workspaceId, { signal })]);
      return { page, channels };
    }),
    loadNext: fromPromise<NewsCollection, PageInput<NewsCollection>>(({ input, signal }) => client.follow(input.page, NEXT, { schema: newsCollectionSchema, signal })),
  };
}
