import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { workspaceTagList } from '../../api/datasets';
import type { Tag } from '../../domain/resources';
import type { TagChipsInput } from './tagChips.machine';

export function tagChipsActors(client: ApiClient) {
  return {
    loadTags: fromPromise<readonly Tag[], TagChipsInput>(({ input, signal }) => workspaceTagList(client, input.workspaceId, { signal })),
  };
}
