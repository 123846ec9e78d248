import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { StoreTable, StoreTableSample, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { storeBrowserActors } from './storeBrowser.actors';
import { selectVisibleTables, storeBrowserMachine, type StoreBrowserInput, type StoreBrowserSnapshot } from './storeBrowser.machine';

const BASE = 'http://api.test/api';
const workspace: Workspace = { id: 'w1', name: 'Acme', _links: { self: { href: `${BASE}/workspaces/w1` }, tables: { href: `${BASE}/workspaces/w1/tables` } } };
const table = (name: string, columns: string[]): StoreTable => ({
  name,
  columns: columns.map((c) => ({ name: c, type: 'text' })),
  rows: 3,
  rowsAtLeast: false,
  lastLoad: null,
  _links: { self: { href: `${BASE}/workspaces/w1/tables/${name}` } },
});
const orders = table('orders', ['id', 'customer_id']);
const customers = table('customers', ['id', 'country']);
const sample: StoreTableSample = { name: 'orders', columns: orders.columns, rows: [{ id: 'o1', customer_id: 1 }], truncated: false };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.list': [{ output: [orders, customers] }, { output: [customers] }],
  'xstate.error.actor.list': [{ error: offline }],
  'xstate.done.actor.sample': [{ output: sample }],
  'xstate.error.actor.sample': [{ error: offline }],
  'user.open': [{ table: orders }],
  'user.filter': [{ text: 'country' }],
  // the open table's lineage as a list or a graph (issue 41)
  'user.lineageView': [{ view: 'list' as const }],
};

const visible = (s: unknown) => selectVisibleTables(s as StoreBrowserSnapshot).map((t) => t.name);

// opened from the store's page, and from a run's 'View tables' naming the table to open (issue 38)
const INPUTS: readonly StoreBrowserInput[] = [{ owner: workspace }, { owner: workspace, table: 'orders' }];

describe.each(INPUTS.map((input) => [input.table ?? 'no table', input] as const))('the store browser (model-based), opened on %s', (_name, input) => {
  const options = { input, events };
  const paths = modelPaths(storeBrowserMachine, options);

  it('reaches every state but the one of a caller without the link, and walks every transition', () => {
    expect(unvisitedStates(storeBrowserMachine, paths)).toEqual(['storeBrowser.unavailable']);
    expect(unwalkedTransitions(storeBrowserMachine, paths, options)).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    // the lineage view is the last one picked, or none yet (the screen's width decides)
    const picked = path.steps.map((step) => step.event).filter((e) => e.type === 'user.lineageView');
    expect((path.state as StoreBrowserSnapshot).context.lineageView).toBe(picked.length === 0 ? null : (picked.at(-1) as unknown as { view: string }).view);
    await replayPath(storeBrowserMachine, path, {
      input,
      states: {
        failed: (s) => expect((s as StoreBrowserSnapshot).context.error).toBe('We were unable to connect.'),
        ready: (s) => {
          const { context } = s as StoreBrowserSnapshot;
          expect(context.tables).not.toBeNull();
          // the filter keeps what matches it, in order
          expect(visible(s)).toEqual(context.filter === 'country' ? context.tables!.filter((t) => t.name === 'customers').map((t) => t.name) : context.tables!.map((t) => t.name));
        },
        'ready.closed': (s) => expect((s as StoreBrowserSnapshot).context.open).toBeNull(),
        // the table asked for is wanted only until the list is first read
        loading: (s) => {
          const { context } = s as StoreBrowserSnapshot;
          expect(context.wanted).toBe(context.tables === null ? (input.table ?? null) : null);
        },
        // the sample asked for is the open table's, and the open table is one the list has
        'ready.sampling': (s, log: ReplayLog) => {
          const { context } = s as StoreBrowserSnapshot;
          expect((log.invocations.at(-1)?.input as { table: StoreTable }).table.name).toBe(context.open?.name);
          expect(context.tables?.map((t) => t.name)).toContain(context.open?.name);
        },
        'ready.shown': (s) => expect((s as StoreBrowserSnapshot).context.sample).toEqual(sample),
        'ready.sampleFailed': (s) => expect((s as StoreBrowserSnapshot).context.sampleError).toBe('We were unable to connect.'),
      },
    });
  });
});

describe('store browser scenarios', () => {
  it('asks for nothing when the owner offers no tables link (a member)', async () => {
    const member: Workspace = { id: 'w1', name: 'Acme', _links: { self: { href: `${BASE}/workspaces/w1` } } };
    const path = pathOf(storeBrowserMachine, [], { input: { owner: member } });
    expect(path.state.matches('unavailable')).toBe(true);
    const log = await replayPath(storeBrowserMachine, path, { input: { owner: member } });
    expect(log.invocations).toEqual([]);
  });

  it('keeps the open table open across a refresh while the store still has it, and closes it once it is gone', () => {
    const kept = pathOf(storeBrowserMachine, [{ type: 'xstate.done.actor.list', output: [orders, customers] }, { type: 'user.open', table: orders }, { type: 'xstate.done.actor.sample', output: sample }, { type: 'user.refresh' }, { type: 'xstate.done.actor.list', output: [orders] }], { input: { owner: workspace } });
    expect(kept.state.matches({ ready: 'sampling' })).toBe(true);
    const gone = pathOf(storeBrowserMachine, [{ type: 'xstate.done.actor.list', output: [orders, customers] }, { type: 'user.open', table: orders }, { type: 'user.refresh' }, { type: 'xstate.done.actor.list', output: [customers] }], { input: { owner: workspace } });
    expect(gone.state.matches({ ready: 'closed' })).toBe(true);
    expect((gone.state as StoreBrowserSnapshot).context.open).toBeNull();
  });

  it("a run's 'View tables' opens the table it names on its first rows at once, and one the store lacks opens nothing", () => {
    const input = { owner: workspace, table: 'orders' };
    const opened = pathOf(storeBrowserMachine, [{ type: 'xstate.done.actor.list', output: [customers, orders] }], { input });
    expect(opened.state.matches({ ready: 'sampling' })).toBe(true);
    expect((opened.state as StoreBrowserSnapshot).context.open?.name).toBe('orders');
    const missing = pathOf(storeBrowserMachine, [{ type: 'xstate.done.actor.list', output: [customers] }], { input });
    expect(missing.state.matches({ ready: 'closed' })).toBe(true);
    // a stream's name behind the pipeline's table prefix (as a run's rows name it) opens its table
    const prefixed = table('first_import_orders', ['id']);
    const behindPrefix = pathOf(storeBrowserMachine, [{ type: 'xstate.done.actor.list', output: [customers, prefixed] }], { input });
    expect((behindPrefix.state as StoreBrowserSnapshot).context.open?.name).toBe('first_import_orders');
    // once read, a refresh does not reopen a table the person closed
    const closed = pathOf(storeBrowserMachine, [{ type: 'xstate.done.actor.list', output: [orders] }, { type: 'user.close' }, { type: 'user.refresh' }, { type: 'xstate.done.actor.list', output: [orders] }], { input });
    expect(closed.state.matches({ ready: 'closed' })).toBe(true);
  });

  it("keeps the person's pick of the lineage view (graph or list) across tables, refreshes and a failed list; none until they pick", () => {
    const start = pathOf(storeBrowserMachine, [{ type: 'xstate.done.actor.list', output: [orders, customers] }], { input: { owner: workspace } });
    expect((start.state as StoreBrowserSnapshot).context.lineageView).toBeNull();
    const picked = pathOf(
      storeBrowserMachine,
      [
        { type: 'xstate.done.actor.list', output: [orders, customers] },
        { type: 'user.open', table: orders },
        { type: 'user.lineageView', view: 'list' },
        { type: 'user.open', table: customers },
        { type: 'user.refresh' },
        { type: 'xstate.error.actor.list', error: offline },
        { type: 'user.retry' },
        { type: 'xstate.done.actor.list', output: [orders, customers] },
        { type: 'user.lineageView', view: 'graph' },
        { type: 'user.close' },
      ],
      { input: { owner: workspace } },
    );
    expect((picked.state as StoreBrowserSnapshot).context.lineageView).toBe('graph');
  });

  it('the real actors: GETs the tables link, then the open table\'s self link', async () => {
    const fake = fakeFetch({ body: { tables: [orders, customers], _links: { self: { href: `${BASE}/workspaces/w1/tables` } } } }, { body: sample });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(storeBrowserMachine.provide({ actors: storeBrowserActors(client) }), { input: { owner: workspace } }).start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.open', table: orders });
    await waitFor(actor, (s) => s.matches({ ready: 'shown' }));
    expect(actor.getSnapshot().context.sample?.rows).toEqual([{ id: 'o1', customer_id: 1 }]);
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`GET ${BASE}/workspaces/w1/tables`, `GET ${BASE}/workspaces/w1/tables/orders`]);
    actor.stop();
  });
});
