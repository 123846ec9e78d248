import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import type { Tag } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// Explore's tag chips (spec 002 Explore): the workspace's tags, most used first, loaded once;
// a failure leaves the page usable and says so, with a retry.

export type TagChipsInput = { readonly workspaceId: string };
export type TagChipsContext = { readonly workspaceId: string; readonly tags: readonly Tag[]; readonly error: string | null };
export type TagChipsEvent = { readonly type: 'user.retry' };

export const tagChipsMachine = setup({
  types: { context: {} as TagChipsContext, events: {} as TagChipsEvent, input: {} as TagChipsInput },
  actors: { loadTags: notProvidedActor<readonly Tag[], TagChipsInput>('loadTags') },
}).createMachine({
  id: 'tagChips',
  context: ({ input }) => ({ workspaceId: input.workspaceId, tags: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadTags',
        src: 'loadTags',
        input: ({ context }) => ({ workspaceId: context.workspaceId }),
        onDone: { target: 'ready', actions: assign({ tags: ({ event }) => event.output.filter((tag) => tag.name.trim() !== ''), error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    ready: {},
    failed: { on: { 'user.retry': 'loading' } },
  },
});

export type TagChipsSnapshot = SnapshotFrom<typeof tagChipsMachine>;
