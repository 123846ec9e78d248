import { assign } from 'xstate';
import type { DoneActorEvent, ErrorActorEvent, EventObject } from 'xstate';
import { hasLink, type HalLike } from '../../domain/hal';
import { failureText } from '../failureText';

// A paged list (issue 18: one place for each rule). The first page, then Load More following the
// last page's `next` link until there is none. A page may repeat an item an earlier page listed
// (something was added meanwhile and shifted the pages): it is listed once, where first seen. A
// failed first page can be retried; a failed later page keeps what is listed and says why beside
// Load More, and Load More asks for the same page again.
//
// `pagedList` is the whole list (members, news); `loadMoreRule` is the Load More part on its own,
// for a list with more states of its own around it (the dataset feed). `pagedList` is built from
// `loadMoreRule`, so the rule is written once.

/** Spring HAL paging relation. */
export const NEXT = 'next';

export type PagedItem = { readonly id: string };

/** What every paged list holds. */
export type PagedContext<TPage, TItem> = {
  readonly items: readonly TItem[];
  /** The last page read: its `next` link is the way to more. */
  readonly lastPage: TPage | null;
  /** Why the first page failed; the list is replaced by the message. */
  readonly error: string | null;
  /** Why a further page failed; the list already shown stays. */
  readonly moreError: string | null;
};

export type PagedEvent = { readonly type: 'user.loadMore' } | { readonly type: 'user.retry' } | { readonly type: 'user.reload' };

/** The loadNext actor's input: the page whose `next` link it follows. */
export type PageInput<TPage> = { readonly page: TPage };

/** `items` and then each item of `more` whose id is not listed yet, in order. */
export function appendNew<T extends PagedItem>(items: readonly T[], more: readonly T[]): T[] {
  const seen = new Set(items.map((item) => item.id));
  const added: T[] = [];
  for (const item of more) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    added.push(item);
  }
  return [...items, ...added];
}

/** The list a first page starts (a reload replaces what was listed). */
export function firstPageContext<TPage, TItem extends PagedItem>(page: TPage, itemsOf: (page: TPage) => readonly TItem[]): Pick<PagedContext<TPage, TItem>, 'items' | 'lastPage' | 'error' | 'moreError'> {
  return { items: appendNew([], itemsOf(page)), lastPage: page, error: null, moreError: null };
}

/** A failed first page: nothing is listed, the message says why. */
export function failedFirstContext(error: unknown): { readonly items: readonly never[]; readonly lastPage: null; readonly error: string } {
  return { items: [], lastPage: null, error: failureText(error) };
}

// A machine's context is invariant in XState's types, so the pieces below are typed by the full
// context of the machine they go into; this is the one place that says a paged patch fits it.
const patch = <TContext>(value: Partial<PagedContext<unknown, unknown>>): Partial<TContext> => value as Partial<TContext>;

/**
 * The Load More rule for a machine whose context is a PagedContext, with a 'ready' state and an
 * actor 'loadNext' (input PageInput<TPage>): put `transition` on ready's 'user.loadMore' and
 * `state` as the 'loadingMore' state.
 */
export function loadMoreRule<TContext extends PagedContext<TPage, TItem>, TEvent extends EventObject, TPage extends HalLike, TItem extends PagedItem>(
  itemsOf: (page: TPage) => readonly TItem[],
) {
  return {
    transition: {
      guard: ({ context }: { context: TContext }) => hasLink(context.lastPage, NEXT),
      target: 'loadingMore',
      actions: assign<TContext, TEvent, undefined, TEvent, never>(() => patch<TContext>({ moreError: null })),
    },
    state: {
      invoke: {
        id: 'loadNext',
        src: 'loadNext',
        input: ({ context }: { context: TContext }): PageInput<TPage> => {
          // Entered only while the last page has a next link, so a page is there.
          if (context.lastPage === null) throw new Error('loadNext without a page');
          return { page: context.lastPage };
        },
        onDone: {
          target: 'ready',
          actions: assign<TContext, DoneActorEvent<TPage>, undefined, TEvent, never>(({ context, event }) =>
            patch<TContext>({ items: appendNew(context.items, itemsOf(event.output)), lastPage: event.output }),
          ),
        },
        // lastPage is kept, so Load More asks for the same page again.
        onError: { target: 'ready', actions: assign<TContext, ErrorActorEvent, undefined, TEvent, never>(({ event }) => patch<TContext>({ moreError: failureText(event.error) })) },
      },
    },
  } as const;
}

export type PagedListOptions<TContext, TFirstInput, TFirst, TPage, TItem> = {
  /** What loadFirst is asked for, from the machine's context. */
  readonly inputOf: (context: TContext) => TFirstInput;
  /** The first page in what loadFirst answers. */
  readonly pageOf: (first: TFirst) => TPage;
  /** The items a page lists (the news drops items without their dataset). */
  readonly itemsOf: (page: TPage) => readonly TItem[];
  /** What else the first answer brings into the context (the news' channel chips). */
  readonly withFirst?: (first: TFirst) => Partial<TContext>;
  /** Offer 'user.reload' on a listed page: the list stays until the fresh first page replaces it. */
  readonly reload: boolean;
};

/**
 * A whole paged list, `loading → ready ⇄ loadingMore`, `loading → failed → (retry) loading`, as the
 * states of a machine whose setup declares the actors 'loadFirst' (TFirstInput → TFirst) and
 * 'loadNext' (PageInput<TPage> → TPage): `setup({...}).createMachine({ id, context, ...pagedList(options) })`.
 * (Generic actors inside `setup` leave XState's invoke types unresolved, so each list keeps its
 * own concretely typed setup and takes its states from here.)
 */
export function pagedList<TContext extends PagedContext<TPage, TItem>, TEvent extends EventObject, TFirstInput, TFirst, TPage extends HalLike, TItem extends PagedItem>(
  options: PagedListOptions<TContext, TFirstInput, TFirst, TPage, TItem>,
) {
  const rule = loadMoreRule<TContext, TEvent, TPage, TItem>(options.itemsOf);
  const reload = { target: 'loading', actions: assign<TContext, TEvent, undefined, TEvent, never>(() => patch<TContext>({ moreError: null })) } as const;
  return {
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          id: 'loadFirst',
          src: 'loadFirst',
          input: ({ context }: { context: TContext }) => options.inputOf(context),
          onDone: {
            target: 'ready',
            actions: assign<TContext, DoneActorEvent<TFirst>, undefined, TEvent, never>(({ event }) => ({
              ...patch<TContext>(firstPageContext(options.pageOf(event.output), options.itemsOf)),
              ...options.withFirst?.(event.output),
            })),
          },
          onError: { target: 'failed', actions: assign<TContext, ErrorActorEvent, undefined, TEvent, never>(({ event }) => patch<TContext>(failedFirstContext(event.error))) },
        },
      },
      failed: { on: { 'user.retry': { target: 'loading', actions: assign<TContext, TEvent, undefined, TEvent, never>(() => patch<TContext>({ error: null })) } } },
      ready: { on: options.reload ? { 'user.loadMore': rule.transition, 'user.reload': reload } : { 'user.loadMore': rule.transition } },
      loadingMore: rule.state,
    },
  } as const;
}

/** Any paged list's snapshot, as the selectors read it. */
export type PagedSnapshot = {
  readonly context: PagedContext<HalLike, PagedItem>;
  matches(state: 'loading' | 'failed' | 'ready' | 'loadingMore'): boolean;
};

/** Load More shows while the last page read has a next link (and the first page has arrived). */
export const selectHasMore = (s: PagedSnapshot): boolean => (s.matches('ready') || s.matches('loadingMore')) && hasLink(s.context.lastPage, NEXT);
export const selectLoadingMore = (s: PagedSnapshot): boolean => s.matches('loadingMore');
/** An answered list with nothing in it: the view's empty state. */
export const selectEmpty = (s: PagedSnapshot): boolean => s.matches('ready') && s.context.items.length === 0;
/** Nothing to show yet: the first page is on its way and no earlier list is on screen. */
export const selectFirstLoad = (s: PagedSnapshot): boolean => s.matches('loading') && s.context.items.length === 0;
/** Why the first page failed, while it has. */
export const selectError = (s: PagedSnapshot): string | null => (s.matches('failed') ? s.context.error : null);
/** Why the last Load More failed; the list stays. */
export const selectMoreError = (s: PagedSnapshot): string | null => s.context.moreError;
