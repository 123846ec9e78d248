import { assign, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { hasLink, type HalLike } from '../../domain/hal';
import { REL } from '../../domain/relations';
import type { StoreTable, StoreTableSample } from '../../domain/resources';
import { tableNamed } from '../../domain/loadedData';
import type { LineageViewMode } from '../../domain/lineageGraph';
import { tablesMatching } from '../../domain/storeTables';
import { failureText } from '../failureText';
import { notProvidedActor } from '../notProvided';

// The store browser (issue 20), on the embedded store's page and beside a dataset's SQL: the
// tables of the 'tables' link of `owner` (a workspace or its store), filtered as the person types,
// and one table at a time opened on its columns and first rows. Re-reading the list keeps the
// open table open when it is still there. A table named in the input (a link to 'View tables' of a
// run, issue 38) is opened once the list first shows it. The open table's lineage (issue 41) shows
// as a graph or a list: the person's pick, kept across tables; null until they pick (the screen's
// width decides, domain/lineageGraph.ts defaultLineageView).

export type StoreBrowserInput = { readonly owner: HalLike; readonly table?: string | null };
export type StoreBrowserContext = {
  readonly owner: HalLike;
  /** the table to open when the list is first read (then forgotten) */
  readonly wanted: string | null;
  readonly tables: readonly StoreTable[] | null;
  readonly error: string | null;
  readonly filter: string;
  readonly open: StoreTable | null;
  readonly sample: StoreTableSample | null;
  readonly sampleError: string | null;
  readonly lineageView: LineageViewMode | null;
};
export type StoreBrowserEvent =
  | { readonly type: 'user.retry' }
  | { readonly type: 'user.refresh' }
  | { readonly type: 'user.filter'; readonly text: string }
  | { readonly type: 'user.open'; readonly table: StoreTable }
  | { readonly type: 'user.close' }
  | { readonly type: 'user.lineageView'; readonly view: LineageViewMode };
export type OwnerInput = { readonly owner: HalLike };
export type TableInput = { readonly table: StoreTable };

export const storeBrowserMachine = setup({
  types: { context: {} as StoreBrowserContext, events: {} as StoreBrowserEvent, input: {} as StoreBrowserInput },
  actors: {
    list: notProvidedActor<StoreTable[], OwnerInput>('list'),
    sample: notProvidedActor<StoreTableSample, TableInput>('sample'),
  },
  guards: {
    offered: ({ context }) => hasLink(context.owner, REL.tables),
    wantedListed: ({ context, event }) => {
      const tables = (event as { output?: StoreTable[] }).output ?? [];
      return context.wanted !== null && tableNamed(tables, context.wanted) !== undefined;
    },
    listed: ({ context, event }) => event.type === 'user.open' && (context.tables ?? []).some((t) => t.name === event.table.name),
    stillListed: ({ context, event }) => {
      const tables = (event as { output?: StoreTable[] }).output ?? [];
      return context.open !== null && tables.some((t) => t.name === context.open?.name);
    },
  },
}).createMachine({
  id: 'storeBrowser',
  context: ({ input }) => ({ owner: input.owner, wanted: input.table ?? null, tables: null, error: null, filter: '', open: null, sample: null, sampleError: null, lineageView: null }),
  initial: 'starting',
  on: {
    'user.filter': { actions: assign({ filter: ({ event }) => event.text }) },
    'user.lineageView': { actions: assign({ lineageView: ({ event }) => event.view }) },
  },
  states: {
    // a caller without the link (a member) has nothing to browse, and nothing is asked for
    starting: { always: [{ guard: 'offered', target: 'loading' }, { target: 'unavailable' }] },
    unavailable: {},
    loading: {
      invoke: {
        id: 'list',
        src: 'list',
        input: ({ context }) => ({ owner: context.owner }),
        onDone: [
          {
            guard: 'wantedListed',
            target: 'ready.sampling',
            actions: assign(({ context, event }) => ({ tables: event.output, error: null, open: context.wanted === null ? null : (tableNamed(event.output, context.wanted) ?? null), wanted: null, sample: null, sampleError: null })),
          },
          // the open table's link may have changed with the list: its sample is read again
          {
            guard: 'stillListed',
            target: 'ready.sampling',
            actions: assign(({ context, event }) => ({ tables: event.output, error: null, wanted: null, open: event.output.find((t) => t.name === context.open?.name) ?? null })),
          },
          { target: 'ready', actions: assign({ tables: ({ event }) => event.output, error: null, wanted: null, open: null, sample: null, sampleError: null }) },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    failed: { on: { 'user.retry': 'loading' } },
    ready: {
      initial: 'closed',
      on: {
        'user.refresh': 'loading',
        'user.open': { guard: 'listed', target: '.sampling', actions: assign({ open: ({ event }) => event.table, sample: null, sampleError: null }) },
      },
      states: {
        closed: {},
        sampling: {
          invoke: {
            id: 'sample',
            src: 'sample',
            input: ({ context }) => ({ table: context.open! }),
            onDone: { target: 'shown', actions: assign({ sample: ({ event }) => event.output }) },
            onError: { target: 'sampleFailed', actions: assign({ sampleError: ({ event }) => failureText(event.error) }) },
          },
          on: { 'user.close': { target: 'closed', actions: assign({ open: null }) } },
        },
        shown: { on: { 'user.close': { target: 'closed', actions: assign({ open: null, sample: null }) } } },
        sampleFailed: {
          on: {
            'user.retry': { target: 'sampling', actions: assign({ sampleError: null }) },
            'user.close': { target: 'closed', actions: assign({ open: null, sampleError: null }) },
          },
        },
      },
    },
  },
});

export type StoreBrowserSnapshot = SnapshotFrom<typeof storeBrowserMachine>;

/** The tables the filter keeps (by table or column name), in the list's order. */
export const selectVisibleTables = (snapshot: StoreBrowserSnapshot): readonly StoreTable[] => tablesMatching(snapshot.context.tables ?? [], snapshot.context.filter);
