import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { firstMembersPage, nextMembersPage } from '../../api/workspaces';
import { MEMBERS_PAGE_SIZE } from '../../domain/members';
import type { MembersCollection } from '../../domain/resources';
import type { PageInput } from '../pagedList/pagedList.machine';
import type { MembersInput } from './members.machine';

/** `membersMachine.provide({ actors: membersActors(client) })`. */
export function membersActors(client: ApiClient) {
  return {
    loadFirst: fromPromise<MembersCollection, MembersInput>(({ input, signal }) => firstMembersPage(client, input.workspace, MEMBERS_PAGE_SIZE, { signal })),
    loadNext: fromPromise<MembersCollection, PageInput<MembersCollection>>(({ input, signal }) => nextMembersPage(client, input.page, { signal })),
  };
}
