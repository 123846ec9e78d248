import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import type { HalLike } from '../../domain/hal';
import { selectedChannel, toggledSearch } from '../../domain/library';
import type { Channel } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvided, notProvidedActor } from '../notProvided';

// The channels page's selection (spec 002 §2 Channels, §4): none or one channel, and the search
// follows it. Clicking a channel navigates to the page with `in:{name}`; clicking the selected one
// again navigates to the page without a search. The URL stays the truth: the page reports each
// search it shows (route.changed), and a search starting with in: pre-selects that channel.

export type ChannelSelectionInput = { readonly workspace: HalLike & { readonly id: string }; readonly search: string };

export type ChannelSelectionContext = {
  readonly workspace: HalLike & { readonly id: string };
  readonly search: string;
  readonly channels: readonly Channel[];
  readonly error: string | null;
};

export type ChannelSelectionEvent =
  | { readonly type: 'user.select'; readonly name: string }
  | { readonly type: 'route.changed'; readonly search: string }
  | { readonly type: 'user.retry' };

export type LoadChannelsInput = { readonly workspace: HalLike };
export type ShowSearchParams = { readonly workspaceId: string; readonly search: string };

export const channelSelectionMachine = setup({
  types: {
    context: {} as ChannelSelectionContext,
    events: {} as ChannelSelectionEvent,
    input: {} as ChannelSelectionInput,
  },
  actors: {
    loadChannels: notProvidedActor<Channel[], LoadChannelsInput>('loadChannels'),
  },
  actions: {
    /** Navigate to the channels page with this search ('' for none). */
    showSearch: (_: unknown, _params: ShowSearchParams): void => notProvided('showSearch')(),
  },
  guards: {
    known: ({ context, event }) => event.type === 'user.select' && context.channels.some((c) => c.name === event.name),
  },
}).createMachine({
  id: 'channelSelection',
  context: ({ input }) => ({ workspace: input.workspace, search: input.search, channels: [], error: null }),
  initial: 'loading',
  on: {
    'route.changed': { actions: assign({ search: ({ event }) => event.search }) },
  },
  states: {
    loading: {
      invoke: {
        id: 'loadChannels',
        src: 'loadChannels',
        input: ({ context }) => ({ workspace: context.workspace }),
        onDone: { target: 'ready', actions: assign({ channels: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: { on: { 'user.retry': 'loading' } },
    ready: {
      on: {
        'user.select': {
          guard: 'known',
          actions: [
            assign({ search: ({ context, event }) => toggledSearch(context.search, context.channels, event.name) }),
            { type: 'showSearch', params: ({ context }) => ({ workspaceId: context.workspace.id, search: context.search }) },
          ],
        },
      },
    },
  },
});

export type ChannelSelectionSnapshot = SnapshotFrom<typeof channelSelectionMachine>;

/** The selected channel: the one the search's in: names (others are dimmed). */
export function selectSelected(snapshot: ChannelSelectionSnapshot): Channel | undefined {
  return selectedChannel(snapshot.context.search, snapshot.context.channels);
}
