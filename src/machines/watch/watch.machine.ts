import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { hasLink } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { Pipeline, SubscriptionType } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// Watch and Unwatch of a pipeline (spec 001 §4 "Watch"): Watch opens the 'Watch for...' modal,
// whose choice (Errors → ALERTS, All activity → ALL) POSTs 'add subscription'; Unwatch DELETEs
// 'delete subscription'. The pipeline's links say which one applies; it is re-read after each.

export type WatchContext = { readonly pipeline: Pipeline; readonly error: string | null };
export type WatchEvent =
  | { readonly type: 'user.watch' }
  | { readonly type: 'user.choose'; readonly subscription: SubscriptionType }
  | { readonly type: 'user.cancel' }
  | { readonly type: 'user.unwatch' };
export type WatchInput = { readonly pipeline: Pipeline };
export type SubscribeInput = { readonly pipeline: Pipeline; readonly subscription: SubscriptionType };

export function isWatching(pipeline: Pipeline): boolean {
  return hasLink(pipeline, REL.deleteSubscription);
}

export const watchMachine = setup({
  types: { context: {} as WatchContext, events: {} as WatchEvent, input: {} as WatchInput },
  actors: {
    subscribe: notProvidedActor<unknown, SubscribeInput>('subscribe'),
    unsubscribe: notProvidedActor<unknown, WatchInput>('unsubscribe'),
    refresh: notProvidedActor<Pipeline, WatchInput>('refresh'),
  },
  guards: {
    watching: ({ context }) => isWatching(context.pipeline),
    canWatch: ({ context }) => hasLink(context.pipeline, REL.addSubscription),
  },
}).createMachine({
  id: 'watch',
  context: ({ input }) => ({ pipeline: input.pipeline, error: null }),
  initial: 'checking',
  states: {
    checking: { always: [{ guard: 'watching', target: 'watching' }, { target: 'notWatching' }] },
    notWatching: { on: { 'user.watch': { guard: 'canWatch', target: 'choosing', actions: assign({ error: null }) } } },
    choosing: {
      on: {
        'user.choose': { target: 'subscribing', actions: assign({ error: null }) },
        'user.cancel': 'notWatching',
      },
    },
    subscribing: {
      invoke: {
        id: 'subscribe',
        src: 'subscribe',
        input: ({ context, event }) => ({ pipeline: context.pipeline, subscription: (event as Extract<WatchEvent, { type: 'user.choose' }>).subscription }),
        onDone: 'refreshing',
        onError: { target: 'choosing', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    watching: { on: { 'user.unwatch': { target: 'unsubscribing', actions: assign({ error: null }) } } },
    unsubscribing: {
      invoke: {
        id: 'unsubscribe',
        src: 'unsubscribe',
        input: ({ context }) => ({ pipeline: context.pipeline }),
        onDone: 'refreshing',
        onError: { target: 'watching', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    refreshing: {
      invoke: {
        id: 'refresh',
        src: 'refresh',
        input: ({ context }) => ({ pipeline: context.pipeline }),
        onDone: { target: 'checking', actions: assign({ pipeline: ({ event }) => event.output }) },
        onError: { target: 'checking', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
  },
});

export type WatchSnapshot = SnapshotFrom<typeof watchMachine>;

export function selectModalOpen(snapshot: WatchSnapshot): boolean {
  return snapshot.matches('choosing') || snapshot.matches('subscribing');
}
