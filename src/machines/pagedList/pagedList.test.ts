import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { ApiFailure } from '../../api/errors';
import { notProvidedActor } from '../notProvided';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ModelStep } from '../testing';
import { appendNew, pagedList, selectEmpty, selectError, selectFirstLoad, selectHasMore, selectLoadingMore, selectMoreError, type PagedContext, type PagedEvent, type PageInput } from './pagedList.machine';

// The paged list on its own, with the smallest page and item there are: whatever list is built on
// it (members, news, the dataset feed's Load More) keeps these rules.

type Row = { readonly id: string };
type Page = { readonly _embedded?: { readonly rows: readonly Row[] }; readonly _links?: { readonly self: { readonly href: string }; readonly next?: { readonly href: string } } };
type Input = { readonly q: string };
type Context = PagedContext<Page, Row> & { readonly q: string };

const API = 'http://api.test/api';
const page = (ids: string[], next: number | null): Page => ({
  _embedded: { rows: ids.map((id) => ({ id })) },
  _links: { self: { href: `${API}/rows` }, ...(next === null ? {} : { next: { href: `${API}/rows?page=${next}` } }) },
});
const rowsOf = (p: Page): readonly Row[] => p._embedded?.rows ?? [];

const machine = setup({
  types: { context: {} as Context, events: {} as PagedEvent, input: {} as Input },
  actors: { loadFirst: notProvidedActor<Page, Input>('loadFirst'), loadNext: notProvidedActor<Page, PageInput<Page>>('loadNext') },
}).createMachine({
  id: 'paged',
  context: ({ input }) => ({ q: input.q, items: [], lastPage: null, error: null, moreError: null }),
  ...pagedList<Context, PagedEvent, Input, Page, Page, Row>({ inputOf: (context) => ({ q: context.q }), pageOf: (first) => first, itemsOf: rowsOf, reload: true }),
});

const FIRST = page(['a', 'b'], 1);
// Nothing listed and no next link: no Load More.
const EMPTY: Page = { _links: { self: { href: `${API}/rows` } } };
// Something was added meanwhile: 'b' comes again (listed once), and there is more.
const SECOND = page(['b', 'c'], 2);
const LAST = page(['d'], null);
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const input = { q: 'kpi' };
const events = {
  'xstate.done.actor.loadFirst': [{ output: FIRST }, { output: EMPTY }],
  'xstate.error.actor.loadFirst': [{ error: offline }],
  'xstate.done.actor.loadNext': [{ output: SECOND }, { output: LAST }],
  'xstate.error.actor.loadNext': [{ error: offline }],
};
const options = { input, events };
const paths = modelPaths(machine, options);

const ids = (context: Context) => context.items.map((item) => item.id);
const hasNext = (p: Page | null) => p?._links?.next !== undefined;
type Snapshot = Parameters<typeof selectHasMore>[0];

/** The rules, checked between every two steps of every path. */
function checkStep(before: ModelStep, after: ModelStep): void {
  const was = before.state.context as Context;
  const now = after.state.context as Context;
  const s = after.state as unknown as Snapshot;
  // every item once; Load More exactly while the last page has a next link; one spinner, one error
  expect(new Set(ids(now)).size).toBe(now.items.length);
  expect(selectHasMore(s)).toBe((after.state.matches('ready') || after.state.matches('loadingMore')) && hasNext(now.lastPage));
  expect(after.state.can({ type: 'user.loadMore' })).toBe(after.state.matches('ready') && hasNext(now.lastPage));
  expect(selectFirstLoad(s)).toBe(after.state.matches('loading') && now.items.length === 0);
  expect(selectError(s) !== null).toBe(after.state.matches('failed'));
  expect(selectLoadingMore(s)).toBe(after.state.matches('loadingMore'));
  switch (after.event.type) {
    case 'xstate.done.actor.loadFirst': {
      const output = (after.event as unknown as { output: Page }).output;
      // a first page replaces the list (a reload too)
      expect(ids(now)).toEqual(rowsOf(output).map((r) => r.id));
      expect(now.lastPage).toBe(output);
      expect(now.moreError).toBeNull();
      expect(selectEmpty(s)).toBe(rowsOf(output).length === 0);
      break;
    }
    case 'xstate.error.actor.loadFirst':
      expect(after.state.matches('failed')).toBe(true);
      expect(now.items).toEqual([]);
      expect(now.error).toBe('We were unable to connect.');
      break;
    case 'user.retry':
      expect(after.state.matches('loading')).toBe(true);
      expect(now.error).toBeNull();
      break;
    case 'user.loadMore':
      expect(hasNext(was.lastPage)).toBe(true);
      expect(now.items).toEqual(was.items);
      expect(now.moreError).toBeNull();
      break;
    case 'xstate.done.actor.loadNext': {
      const output = (after.event as unknown as { output: Page }).output;
      // appended after what was listed; an id listed on an earlier page is listed once
      const added = rowsOf(output).map((r) => r.id).filter((id) => !ids(was).includes(id));
      expect(ids(now)).toEqual([...ids(was), ...added]);
      expect(now.lastPage).toBe(output);
      expect(selectHasMore(s)).toBe(hasNext(output));
      break;
    }
    case 'xstate.error.actor.loadNext':
      // a failed Load More keeps the list and the page to ask again, and says why
      expect(now.items).toEqual(was.items);
      expect(now.lastPage).toBe(was.lastPage);
      expect(now.moreError).toBe('We were unable to connect.');
      expect(selectHasMore(s)).toBe(true);
      break;
    case 'user.reload':
      // the list stays on screen until the fresh first page replaces it
      expect(now.items).toEqual(was.items);
      expect(now.moreError).toBeNull();
      break;
  }
}

describe('paged list (model-based)', () => {
  it('reaches every state and walks every transition', () => {
    expect(unvisitedStates(machine, paths)).toEqual([]);
    expect(unwalkedTransitions(machine, paths, options)).toEqual([]);
  });

  it('reaches the situations the rules are about', () => {
    const after = (type: string, check: (c: Context) => boolean) => paths.some((p) => p.steps.some((step) => step.event.type === type && check(step.state.context as Context)));
    expect(after('xstate.error.actor.loadNext', (c) => c.items.length > 0)).toBe(true);
    expect(after('xstate.done.actor.loadNext', (c) => c.lastPage === SECOND && ids(c).join() === 'a,b,c')).toBe(true);
    expect(after('xstate.done.actor.loadFirst', (c) => c.lastPage === EMPTY)).toBe(true);
    expect(after('xstate.done.actor.loadNext', (c) => c.lastPage === LAST)).toBe(true);
  });

  it('keeps the rules on every step', () => {
    for (const path of paths) {
      for (let i = 1; i < path.steps.length; i += 1) checkStep(path.steps[i - 1]!, path.steps[i]!);
    }
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(machine, path, {
      input,
      states: {
        loading: (_s, { invocations }) => expect(invocations.at(-1)).toEqual({ id: 'loadFirst', src: 'loadFirst', input }),
        // it follows the last page read, never a page it built itself
        loadingMore: (s, { invocations }) => expect(invocations.at(-1)).toEqual({ id: 'loadNext', src: 'loadNext', input: { page: (s.context as Context).lastPage } }),
      },
    });
  });
});

describe('appendNew', () => {
  const idList = fc.array(fc.oneof(fc.constantFrom('a', 'b', '__proto__', 'constructor', ''), fc.string()), { maxLength: 20 });

  it('keeps the listed items in order, adds each new id once where first seen, and never drops a new one', () => {
    fc.assert(
      fc.property(idList, idList, (listed, more) => {
        const unique = [...new Set(listed)].map((id) => ({ id }));
        const result = appendNew(unique, more.map((id) => ({ id }))).map((r) => r.id);
        expect(result.slice(0, unique.length)).toEqual(unique.map((r) => r.id));
        expect(new Set(result).size).toBe(result.length);
        // each new id where it is first seen, after what was listed
        expect(result).toEqual([...new Set([...unique.map((r) => r.id), ...more])]);
      }),
    );
  });
});

describe('selectMoreError, checked by hand', () => {
  it('is the reason the last Load More failed, whatever the state', () => {
    const snapshot = (moreError: string | null) => ({ context: { items: [], lastPage: null, error: null, moreError }, matches: () => false });
    expect(selectMoreError(snapshot('We were unable to connect.'))).toBe('We were unable to connect.');
    expect(selectMoreError(snapshot(null))).toBeNull();
  });
});
