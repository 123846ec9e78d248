import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, SimulatedClock, toPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Dataset, DatasetsCollection } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ModelStep } from '../testing';
import { heldActors, settled } from '../testing/deferred.fixture';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { feedActors } from './feed.actors';
import {
  feedMachine,
  fetchTimeText,
  hasNewInsights,
  selectNewInsights,
  type FirstPage,
  selectEmpty,
  selectError,
  selectFirstLoad,
  selectHasMore,
  selectMoreError,
  selectSlow,
  selectTotal,
  type FeedContext,
  type FeedInput,
  type FeedSource,
  type FeedSnapshot,
  type LoadFirstInput,
  type LoadNextInput,
} from './feed.machine';

const API = 'http://api.test/api';
const dataset = (id: string): Dataset => ({ id, title: `Dataset ${id}`, alias: `alias/${id}` });
const page = (ids: string[], next: string | null, total: number): DatasetsCollection => ({
  _embedded: { datasets: ids.map(dataset) },
  _links: { self: { href: `${API}/self` }, ...(next === null ? {} : { next: { href: next } }) },
  page: { size: 10, totalElements: total, totalPages: Math.ceil(total / 10), number: 0 },
});

const FIRST = page(['a', 'b'], `${API}/workspaces/w/feed?page=1&size=10`, 4);
const ONLY = page(['a'], null, 1);
// Spring leaves _embedded out of an empty page.
const EMPTY: DatasetsCollection = { _links: { self: { href: `${API}/self` } }, page: { size: 10, totalElements: 0, totalPages: 0, number: 0 } };
// Repeats 'b': a dataset published meanwhile shifted the pages.
const SECOND = page(['b', 'c', 'd'], null, 4);
const boom = new Error('[500] boom');

// A page leading with a dataset the list has not shown: something new was published.
const NEWER = page(['z', 'a'], null, 5);

const input = { source: { kind: 'feed', workspaceId: 'w' }, loadTimeoutMs: 8_000, minimumLoadMs: 300, newInsightsPollMs: 60_000 } as const;
const events = {
  // fast answers wait out the placeholder's minimum; a slow one shows at once
  'xstate.done.actor.loadFirst': [{ output: { page: FIRST, fetchMs: 40 } }, { output: { page: ONLY, fetchMs: 2_500 } }, { output: { page: EMPTY, fetchMs: 40 } }],
  'xstate.error.actor.loadFirst': [{ error: boom }],
  'xstate.done.actor.loadNext': [{ output: SECOND }],
  'xstate.error.actor.loadNext': [{ error: boom }],
  'xstate.done.actor.checkNew': [{ output: { page: NEWER, fetchMs: 40 } }, { output: { page: FIRST, fetchMs: 40 } }],
  'xstate.error.actor.checkNew': [{ error: boom }],
};
const paths = modelPaths(feedMachine, { input, events });

const ids = (context: FeedContext) => context.items.map((item) => item.id);

/** The paging rules, checked on every step of every generated path. */
function checkStep(before: ModelStep, after: ModelStep): void {
  const was = before.state.context as FeedContext;
  const now = after.state.context as FeedContext;
  expect(new Set(ids(now)).size).toBe(now.items.length);
  switch (after.event.type) {
    case 'xstate.done.actor.loadFirst': {
      const output = (after.event as unknown as { output: FirstPage }).output;
      if (output.fetchMs < input.minimumLoadMs) {
        // held back: the placeholder (or the list being reloaded) stays
        expect(after.state.matches('settling')).toBe(true);
        expect(now.items).toEqual(was.items);
        expect(now.pending).toEqual(output);
      } else {
        expect(ids(now)).toEqual((output.page._embedded?.datasets ?? []).map((d) => d.id));
        expect(now.fetchMs).toBe(output.fetchMs);
        expect(selectEmpty(after.state as FeedSnapshot)).toBe(now.items.length === 0);
        expect(now.newInsights).toBe(false);
      }
      break;
    }
    case 'xstate.after.minimumLeft.feed.settling':
      expect(ids(now)).toEqual((was.pending?.page._embedded?.datasets ?? []).map((d) => d.id));
      expect(now.pending).toBeNull();
      expect(now.newInsights).toBe(false);
      expect(fetchTimeText(now.fetchMs)).toBe('less than one second');
      break;
    case 'xstate.done.actor.checkNew': {
      const output = (after.event as unknown as { output: FirstPage }).output;
      // the list on screen never changes by itself; the banner tells
      expect(now.items).toEqual(was.items);
      expect(now.newInsights).toBe(hasNewInsights(was.items, output.page));
      expect(selectNewInsights(after.state as FeedSnapshot)).toBe(now.newInsights);
      break;
    }
    case 'xstate.error.actor.checkNew':
      expect(now.items).toEqual(was.items);
      expect(now.newInsights).toBe(false);
      break;
    case 'xstate.done.actor.loadNext':
      expect(ids(now)).toEqual(['a', 'b', 'c', 'd']);
      expect(ids(now).slice(0, was.items.length)).toEqual(ids(was));
      expect(selectHasMore(after.state as FeedSnapshot)).toBe(false);
      break;
    case 'xstate.error.actor.loadNext':
      expect(now.items).toEqual(was.items);
      expect(now.lastPage).toEqual(was.lastPage);
      expect(now.moreError).toBe(boom.message);
      expect(selectHasMore(after.state as FeedSnapshot)).toBe(true);
      break;
    case 'xstate.error.actor.loadFirst':
      expect(after.state.matches('failed')).toBe(true);
      expect(now.items).toEqual([]);
      expect(now.error).toBe(boom.message);
      break;
    case 'user.loadMore':
      expect(selectHasMore(before.state as FeedSnapshot)).toBe(true);
      break;
    case 'user.reload':
      // The list on screen stays while the fresh first page loads.
      expect(now.items).toEqual(was.items);
      expect(selectFirstLoad(after.state as FeedSnapshot)).toBe(was.items.length === 0);
      break;
  }
}

describe('feed machine, generated paths', () => {
  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(feedMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(feedMachine, paths, { input, events })).toEqual([]);
  });

  it('reaches the situations the pages show', () => {
    const types = new Set(paths.flatMap((p) => p.steps.map((s) => s.event.type)));
    for (const type of ['user.loadMore', 'user.reload', 'user.retry', 'xstate.after.loadTimeout.feed.loading.waiting', 'xstate.after.minimumLeft.feed.settling', 'xstate.done.actor.checkNew']) {
      expect(types).toContain(type);
    }
    expect(paths.some((p) => p.state.matches({ ready: 'noticed' }))).toBe(true);
  });

  it('keeps the rules on every step', () => {
    for (const path of paths) {
      for (let i = 1; i < path.steps.length; i += 1) checkStep(path.steps[i - 1]!, path.steps[i]!);
    }
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(feedMachine, path, {
      input,
      states: {
        loading: (_s, { invocations }) => expect(invocations.at(-1)).toEqual({ id: 'loadFirst', src: 'loadFirst', input: { source: input.source } }),
        'loading.slow': (snapshot, { clock }) => {
          expect(selectSlow(snapshot as FeedSnapshot)).toBe(true);
          expect(clock.now()).toBeGreaterThanOrEqual(input.loadTimeoutMs);
        },
        loadingMore: (snapshot, { invocations }) => {
          const context = snapshot.context as FeedContext;
          expect(invocations.at(-1)).toEqual({ id: 'loadNext', src: 'loadNext', input: { page: context.lastPage } });
        },
        'ready.checking': (_s, { invocations }) => expect(invocations.at(-1)).toEqual({ id: 'checkNew', src: 'checkNew', input: { source: input.source } }),
        ready: (snapshot) => {
          const context = snapshot.context as FeedContext;
          expect(selectTotal(snapshot as FeedSnapshot)).toBe(context.lastPage?.page?.totalElements);
          expect(selectFirstLoad(snapshot as FeedSnapshot)).toBe(false);
        },
      },
    });
  });
});

describe('fetchTimeText', () => {
  it('says less than one second up to 1000 ms, then whole seconds', () => {
    expect(fetchTimeText(0)).toBe('less than one second');
    expect(fetchTimeText(1000)).toBe('less than one second');
    expect(fetchTimeText(1001)).toBe('1 second');
    expect(fetchTimeText(2600)).toBe('3 seconds');
    expect(fetchTimeText(null)).toBeNull();
    expect(fetchTimeText(Number.NaN)).toBeNull();
    expect(fetchTimeText(-1)).toBeNull();
  });
});

describe('hasNewInsights', () => {
  it('is true exactly when the fresh page leads with an id the list lacks', () => {
    const idList = fc.array(fc.constantFrom('a', 'b', 'c', '__proto__', ''), { maxLength: 6 });
    fc.assert(
      fc.property(idList, idList, (shown, fresh) => {
        const answer = hasNewInsights(shown.map(dataset), page(fresh, null, fresh.length));
        expect(answer).toBe(fresh.length > 0 && !shown.includes(fresh[0]!));
      }),
    );
  });
});

describe('feed actors against the real client', () => {
  const run = async (source: FeedSource, replies: Parameters<typeof fakeFetch>) => {
    const fake = fakeFetch(...replies);
    const client = createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(feedMachine.provide({ actors: feedActors(client) }), { input: { ...input, source } }).start();
    await waitFor(actor, (s) => s.matches('ready') || s.matches('failed'));
    return { fake, actor };
  };

  it('loads the feed with page 0 and size 10, then follows the next link', async () => {
    const { fake, actor } = await run({ kind: 'feed', workspaceId: 'w 1' }, [{ body: FIRST }, { body: SECOND }]);
    expect(selectHasMore(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'user.loadMore' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(fake.calls.map((c) => c.url)).toEqual([`${API}/workspaces/w%201/feed?page=0&size=10`, `${API}/workspaces/w/feed?page=1&size=10`]);
    expect(ids(actor.getSnapshot().context)).toEqual(['a', 'b', 'c', 'd']);
    expect(selectTotal(actor.getSnapshot())).toBe(4);
    actor.stop();
  });

  it('searches with the quotes stripped', async () => {
    const { fake, actor } = await run({ kind: 'search', workspaceId: 'w', q: '"tag:kpi"' }, [{ body: EMPTY }]);
    expect(new URL(fake.calls[0]!.url).searchParams.get('q')).toBe('tag:kpi');
    expect(selectEmpty(actor.getSnapshot())).toBe(true);
    actor.stop();
  });

  it('shows the mapped failure and loads again on retry', async () => {
    const { actor } = await run({ kind: 'feed', workspaceId: 'w' }, [{ status: 404, body: 'gone' }, { body: ONLY }]);
    expect(actor.getSnapshot().context.error).toBe('[404] gone');
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(ids(actor.getSnapshot().context)).toEqual(['a']);
    actor.stop();
  });
});

describe('feed, checked by hand', () => {
  const UNABLE = 'We were unable to connect.';
  const offline = new ApiFailure({ kind: 'network', message: UNABLE });

  /** The machine with actors the test answers (held until it settles them) on a clock it moves. */
  function start(feedInput: FeedInput = input) {
    const { calls, held, answer, fail } = heldActors();
    const actors = {
      loadFirst: held<LoadFirstInput, FirstPage>('loadFirst', ({ source }) => source.kind),
      loadNext: held<LoadNextInput, DatasetsCollection>('loadNext', ({ page: p }) => (p === FIRST ? 'after FIRST' : 'after another page')),
      checkNew: held<LoadFirstInput, FirstPage>('checkNew', ({ source }) => source.kind),
    };
    const clock = new SimulatedClock();
    const actor = createActor(feedMachine.provide({ actors }), { input: feedInput, clock }).start();
    return { actor, calls, clock, answer, fail };
  }

  it('on its way: the placeholder shows, no total and no banner; after the timeout it says loading is slow', () => {
    const { actor, calls, clock } = start();
    expect(calls).toEqual(['loadFirst feed']);
    expect(selectFirstLoad(actor.getSnapshot())).toBe(true);
    expect(selectTotal(actor.getSnapshot())).toBe(0);
    expect(selectNewInsights(actor.getSnapshot())).toBe(false);
    clock.increment(input.loadTimeoutMs - 1);
    expect(selectSlow(actor.getSnapshot())).toBe(false);
    clock.increment(1);
    expect(selectSlow(actor.getSnapshot())).toBe(true);
    expect(selectFirstLoad(actor.getSnapshot())).toBe(true);
    actor.stop();
  });

  it('a first page faster than the minimum is held for the rest of it (300 - 40 ms), the placeholder still up', async () => {
    const { actor, clock, answer } = start();
    await answer('loadFirst', 0, { page: FIRST, fetchMs: 40 });
    expect(actor.getSnapshot().value).toBe('settling');
    expect(selectFirstLoad(actor.getSnapshot())).toBe(true);
    expect(selectNewInsights(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context.items).toEqual([]);
    clock.increment(259);
    expect(actor.getSnapshot().value).toBe('settling');
    clock.increment(1);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(ids(actor.getSnapshot().context)).toEqual(['a', 'b']);
    expect(actor.getSnapshot().context.fetchMs).toBe(40);
    actor.stop();
  });

  it('a first page taking the minimum or longer shows at once', async () => {
    for (const fetchMs of [300, 2_500]) {
      const { actor, answer } = start();
      await answer('loadFirst', 0, { page: FIRST, fetchMs });
      expect(actor.getSnapshot().matches('ready')).toBe(true);
      expect(ids(actor.getSnapshot().context)).toEqual(['a', 'b']);
      expect(selectFirstLoad(actor.getSnapshot())).toBe(false);
      expect(selectTotal(actor.getSnapshot())).toBe(4);
      actor.stop();
    }
  });

  it('a failed first page says why, with no banner; Retry asks again with the message gone', async () => {
    const { actor, calls, fail, answer } = start();
    await fail('loadFirst', 0, offline);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(selectError(actor.getSnapshot())).toBe(UNABLE);
    expect(selectNewInsights(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'user.retry' });
    expect(calls).toEqual(['loadFirst feed', 'loadFirst feed']);
    expect(actor.getSnapshot().context.error).toBeNull();
    await answer('loadFirst', 1, { page: ONLY, fetchMs: 2_500 });
    expect(ids(actor.getSnapshot().context)).toEqual(['a']);
    actor.stop();
  });

  it('a failed Load More says why beside the list; Reload takes the message away at once, the list staying', async () => {
    const { actor, calls, answer, fail } = start();
    await answer('loadFirst', 0, { page: FIRST, fetchMs: 2_500 });
    actor.send({ type: 'user.loadMore' });
    expect(calls).toEqual(['loadFirst feed', 'loadNext after FIRST']);
    await fail('loadNext', 0, offline);
    expect(selectMoreError(actor.getSnapshot())).toBe(UNABLE);
    expect(ids(actor.getSnapshot().context)).toEqual(['a', 'b']);
    actor.send({ type: 'user.reload' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(selectMoreError(actor.getSnapshot())).toBeNull();
    expect(ids(actor.getSnapshot().context)).toEqual(['a', 'b']);
    actor.stop();
  });

  it('with no poll time set, never checks for new datasets', async () => {
    const { newInsightsPollMs: _unset, ...noPolls } = input;
    const { actor, calls, clock, answer } = start(noPolls);
    await answer('loadFirst', 0, { page: FIRST, fetchMs: 2_500 });
    clock.increment(3_600_000);
    await settled();
    expect(calls).toEqual(['loadFirst feed']);
    expect(actor.getSnapshot().value).toEqual({ ready: 'watching' });
    actor.stop();
  });

  it('checks again a poll later after a check that found nothing new, and after a failed one', async () => {
    const { actor, calls, clock, answer, fail } = start();
    await answer('loadFirst', 0, { page: FIRST, fetchMs: 2_500 });
    clock.increment(input.newInsightsPollMs);
    expect(calls).toEqual(['loadFirst feed', 'checkNew feed']);
    await answer('checkNew', 0, { page: FIRST, fetchMs: 40 });
    expect(actor.getSnapshot().value).toEqual({ ready: 'watching' });
    clock.increment(input.newInsightsPollMs);
    expect(calls).toEqual(['loadFirst feed', 'checkNew feed', 'checkNew feed']);
    await fail('checkNew', 1, offline);
    expect(actor.getSnapshot().value).toEqual({ ready: 'watching' });
    expect(selectNewInsights(actor.getSnapshot())).toBe(false);
    clock.increment(input.newInsightsPollMs);
    expect(calls).toEqual(['loadFirst feed', 'checkNew feed', 'checkNew feed', 'checkNew feed']);
    actor.stop();
  });

  it('the banner shows once a check finds a newer dataset, no more checks, and goes as soon as the user reloads', async () => {
    const { actor, calls, clock, answer } = start();
    await answer('loadFirst', 0, { page: FIRST, fetchMs: 2_500 });
    clock.increment(input.newInsightsPollMs);
    await answer('checkNew', 0, { page: NEWER, fetchMs: 40 });
    expect(selectNewInsights(actor.getSnapshot())).toBe(true);
    expect(ids(actor.getSnapshot().context)).toEqual(['a', 'b']);
    clock.increment(input.newInsightsPollMs * 3);
    expect(calls.filter((c) => c.startsWith('checkNew'))).toHaveLength(1);
    actor.send({ type: 'user.reload' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(selectNewInsights(actor.getSnapshot())).toBe(false);
    // the list stays on screen: not the first-load placeholder, before the answer or while it is held
    expect(selectFirstLoad(actor.getSnapshot())).toBe(false);
    await answer('loadFirst', 1, { page: NEWER, fetchMs: 40 });
    expect(actor.getSnapshot().value).toBe('settling');
    expect(selectFirstLoad(actor.getSnapshot())).toBe(false);
    clock.increment(260);
    expect(ids(actor.getSnapshot().context)).toEqual(['z', 'a']);
    expect(selectNewInsights(actor.getSnapshot())).toBe(false);
    actor.stop();
  });

  it('the total is the server count, or the items listed when the answer has no page', async () => {
    const { actor, answer } = start();
    const { page: _omit, ...noPage } = page(['a', 'b', 'c'], null, 3);
    await answer('loadFirst', 0, { page: noPage, fetchMs: 2_500 });
    expect(selectTotal(actor.getSnapshot())).toBe(3);
    actor.stop();
  });

  describe('the actors', () => {
    afterEach(() => vi.restoreAllMocks());
    const clientOf = (fake: ReturnType<typeof fakeFetch>) => createApiClient({ baseURL: API, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const channel = { _links: { self: { href: `${API}/channels/c1` }, datasets: { href: `${API}/channels/c1/datasets` } } };

    it("reads the starred datasets and a channel's by its 'datasets' link, page 0 of 10", async () => {
      const fake = fakeFetch({ body: ONLY }, { body: ONLY });
      const actors = feedActors(clientOf(fake));
      const liked = await toPromise(createActor(actors.loadFirst, { input: { source: { kind: 'liked', workspaceId: 'w 1' } } }).start());
      const ofChannel = await toPromise(createActor(actors.loadFirst, { input: { source: { kind: 'channel', channel } } }).start());
      expect(fake.calls.map((c) => c.url)).toEqual([`${API}/workspaces/w%201/liked?page=0&size=10`, `${API}/channels/c1/datasets?page=0&size=10`]);
      expect(liked.page._embedded?.datasets?.map((d) => d.id)).toEqual(['a']);
      expect(ofChannel.page._embedded?.datasets?.map((d) => d.id)).toEqual(['a']);
    });

    it('the check for new datasets reads the same first page, timed from request to answer', async () => {
      let now = 1_000;
      vi.spyOn(performance, 'now').mockImplementation(() => {
        const at = now;
        now = 1_250;
        return at;
      });
      const fake = fakeFetch({ body: NEWER }, { body: FIRST });
      const actors = feedActors(clientOf(fake));
      const checked = await toPromise(createActor(actors.checkNew, { input: { source: { kind: 'search', workspaceId: 'w', q: 'kpi' } } }).start());
      expect(checked.page._embedded?.datasets?.map((d) => d.id)).toEqual(['z', 'a']);
      expect(checked.fetchMs).toBe(250);
      now = 1_000;
      const first = await toPromise(createActor(actors.loadFirst, { input: { source: { kind: 'feed', workspaceId: 'w' } } }).start());
      expect(first.fetchMs).toBe(250);
      expect(fake.calls.map((c) => new URL(c.url).pathname)).toEqual(['/api/workspaces/w/search', '/api/workspaces/w/feed']);
    });

    it('cancels a request when the list is left before it answers, whichever list it is', async () => {
      const sources: FeedSource[] = [
        { kind: 'feed', workspaceId: 'w' },
        { kind: 'search', workspaceId: 'w', q: 'kpi' },
        { kind: 'liked', workspaceId: 'w' },
        { kind: 'channel', channel },
      ];
      for (const source of sources) {
        expect(await requestsCancelledOnStop(feedActors, { loadFirst: { source }, checkNew: { source } })).toEqual({ loadFirst: true, checkNew: true });
      }
      expect(await requestsCancelledOnStop(feedActors, { loadNext: { page: FIRST } })).toEqual({ loadNext: true });
    });
  });
});
