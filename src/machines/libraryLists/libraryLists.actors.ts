import { fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { channelsOfType, createLibraryList, deleteList, renameList, toggleScope } from '../../api/library';
import type { HalLike } from '../../domain/hal';
import { listName } from '../../domain/library';
import type { Channel } from '../../domain/resources';
import type { LibraryKind, SaveListInput } from './libraryLists.machine';

export function libraryListsActors(client: ApiClient) {
  return {
    loadChannels: fromPromise<Channel[], { readonly workspace: HalLike; readonly kind: LibraryKind }>(({ input, signal }) =>
      channelsOfType(client, input.workspace, input.kind, { signal }),
    ),
    saveList: fromPromise<Channel, SaveListInput>(({ input: { workspace, dialog }, signal }) => {
      const fields = { name: listName(dialog.name) ?? '', description: dialog.description.trim() };
      return dialog.mode === 'create' || dialog.channel === null ? createLibraryList(client, workspace, fields, { signal }) : renameList(client, dialog.channel, fields, { signal });
    }),
    deleteList: fromPromise<void, { readonly channel: Channel }>(({ input, signal }) => deleteList(client, input.channel, { signal })),
    toggleScope: fromPromise<Channel, { readonly channel: Channel }>(({ input, signal }) => toggleScope(client, input.channel, { signal })),
  };
}
