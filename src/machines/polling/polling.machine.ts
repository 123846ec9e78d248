import { assign, setup } from 'xstate';
import type { ApiError } from '../../api/errors';
import { NOTIFICATION_POLL_MS } from '../../domain/constants';
import { showTasksEntry } from '../../domain/permissions';
import { hasLink, type HalLike } from '../../domain/hal';
import { isActiveJob } from '../../domain/jobs';
import type { Job } from '../../domain/resources';
import { REL } from '../../domain/relations';
import { apiErrorOf } from '../apiError';
import { notProvidedActor } from '../notProvided';

// One polling statechart for every "fetch, wait, fetch again" of the product, specialised by
// injection: the fetch actor, the named delay 'pollInterval' and whether failures are shown.

export type PollingConfig = {
  /** The machine id; also the middle part of its delayed events (xstate.after.pollInterval.<id>.waiting). */
  readonly id: string;
  /** The default 'pollInterval'; `.provide({ delays: { pollInterval } })` can change it. */
  readonly delayMs: number;
  /** Keep the last value and go on waiting when a fetch fails, instead of entering 'error'. */
  readonly silenceErrors: boolean;
};

/** A poll that ends: once a fetched value says there is nothing more to wait for, it stops. */
export type EndingPollingConfig<TValue> = PollingConfig & { readonly settled: (value: TValue) => boolean };

export type PollingInput<TParams> = {
  /** Handed to the fetch actor as its input on every fetch. */
  readonly params: TParams;
  /** Start in 'stopped' (until poll.start). */
  readonly paused?: boolean | undefined;
};

/** The fetch actor's input: the machine's params, wrapped so a generic TParams stays an object. */
export type PollingFetchInput<TParams> = { readonly params: TParams };

export type PollingEvent = { readonly type: 'user.refresh' } | { readonly type: 'poll.stop' } | { readonly type: 'poll.start' };

export type PollingContext<TValue, TParams> = {
  readonly params: TParams;
  readonly paused: boolean;
  /** The last value fetched; kept across failures and stops. */
  readonly value: TValue | undefined;
  /** The last failure, only when errors are not silenced; cleared by the next success. */
  readonly error: ApiError | undefined;
};

export function createPollingMachine<TValue, TParams = null>(config: PollingConfig | EndingPollingConfig<TValue>) {
  const settled = 'settled' in config ? config.settled : undefined;
  return setup({
    types: {
      context: {} as PollingContext<TValue, TParams>,
      events: {} as PollingEvent,
      input: {} as PollingInput<TParams>,
    },
    actors: {
      fetch: notProvidedActor<TValue, PollingFetchInput<TParams>>('fetch'),
    },
    delays: {
      pollInterval: config.delayMs,
    },
    guards: {
      silenceErrors: () => config.silenceErrors,
      startsPaused: ({ context }) => context.paused,
    },
  }).createMachine({
    id: config.id,
    initial: 'starting',
    context: ({ input }) => ({ params: input.params, paused: input.paused === true, value: undefined, error: undefined }),
    on: {
      'poll.stop': '.stopped',
    },
    states: {
      starting: {
        always: [{ guard: 'startsPaused', target: 'stopped' }, { target: 'fetching' }],
      },
      fetching: {
        invoke: {
          id: 'fetch',
          src: 'fetch',
          input: ({ context }) => ({ params: context.params }),
          // An ending poll has one more way out; the others keep a single one (every transition walked).
          onDone: settled
            ? [
                { guard: ({ event }) => settled(event.output), target: 'stopped', actions: assign({ value: ({ event }) => event.output, error: undefined }) },
                { target: 'waiting', actions: assign({ value: ({ event }) => event.output, error: undefined }) },
              ]
            : { target: 'waiting', actions: assign({ value: ({ event }) => event.output, error: undefined }) },
          onError: [
            { guard: 'silenceErrors', target: 'waiting' },
            { target: 'error', actions: assign({ error: ({ event }) => apiErrorOf(event.error) }) },
          ],
        },
      },
      waiting: {
        after: { pollInterval: 'fetching' },
        on: { 'user.refresh': 'fetching' },
      },
      error: {
        // A transient failure heals on its own at the next interval; the view may offer refresh.
        after: { pollInterval: 'fetching' },
        on: { 'user.refresh': 'fetching' },
      },
      stopped: {
        on: { 'poll.start': 'fetching' },
      },
    },
  });
}

/** The bell's unread count (spec 000 section 7): every 90 seconds, errors silenced. */
export const notificationCountMachine = createPollingMachine<number>({
  id: 'notificationCount',
  delayMs: NOTIFICATION_POLL_MS,
  silenceErrors: true,
});

/**
 * The spec gives no interval for the sidebar's Tasks count. 30 s keeps a started job visible soon
 * without a jobs request every few seconds; pages that start a job send user.refresh.
 */
export const TASK_COUNT_POLL_MS = 30_000;

/** The workspace whose 'jobs' link is asked. */
export type TaskCountParams = { readonly workspace: HalLike & { readonly id: string } };

/** The sidebar's Tasks count: running or queued jobs of the workspace, errors silenced like the bell. */
export const taskCountMachine = createPollingMachine<number, TaskCountParams>({
  id: 'taskCount',
  delayMs: TASK_COUNT_POLL_MS,
  silenceErrors: true,
});

/**
 * The Tasks entry is for workspace admins only, and the count needs the workspace's 'jobs' link:
 * without either the count never polls.
 */
export function taskCountInput(workspace: HalLike & { readonly id: string }): PollingInput<TaskCountParams> {
  return { params: { workspace }, paused: !showTasksEntry(workspace) || !hasLink(workspace, REL.jobs) };
}

export const notificationCountInput: PollingInput<null> = { params: null };

/** A deployment fetches, checks and applies in seconds: the settings page follows it closely. */
export const DEPLOYMENT_POLL_MS = 2_000;

/** The workspace whose 'jobs' link is asked for its newest deployment. */
export type LatestDeploymentParams = { readonly workspace: HalLike };

/**
 * The workspace settings page's last deployment (null before the first). It stops once there is
 * none or it has ended; the page starts it again when a deployment is started.
 */
export const latestDeploymentMachine = createPollingMachine<Job | null, LatestDeploymentParams>({
  id: 'latestDeployment',
  delayMs: DEPLOYMENT_POLL_MS,
  silenceErrors: true,
  settled: (job) => job === null || !isActiveJob(job),
});
