import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { linkHref } from '../../domain/hal';
import type { StoreTable, StoreTableSample, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ReplayLog } from '../testing';
import { storeBrowserActors } from './storeBrowser.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { deferred } from '../testing/deferred.fixture';
import { selectVisibleTables, storeBrowserMachine, type OwnerInput, type StoreBrowserInput, type StoreBrowserSnapshot, type TableInput } from './storeBrowser.machine';

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

describe('storeBrowser, checked by hand', () => {
  function start(input: StoreBrowserInput = { owner: workspace }) {
    const lists: ReturnType<typeof deferred<StoreTable[]>>[] = [];
    const samples: ReturnType<typeof deferred<StoreTableSample>>[] = [];
    const calls: string[] = [];
    const actors = {
      list: fromPromise<StoreTable[], OwnerInput>(({ input: asked }) => {
        calls.push(`list ${linkHref(asked.owner, 'self') ?? '?'}`);
        const next = deferred<StoreTable[]>();
        lists.push(next);
        return next.promise;
      }),
      sample: fromPromise<StoreTableSample, TableInput>(({ input: asked }) => {
        calls.push(`sample ${asked.table.name} ${asked.table.rows}`);
        const next = deferred<StoreTableSample>();
        samples.push(next);
        return next.promise;
      }),
    };
    const actor = createActor(storeBrowserMachine.provide({ actors }), { input }).start();
    const context = () => actor.getSnapshot().context;
    return { actor, lists, samples, calls, context };
  }
  const customersSample: StoreTableSample = { name: 'customers', columns: customers.columns, rows: [{ id: 'c1', country: 'NL' }], truncated: false };

  it('starts with the input owner, no table wanted but the named one, and nothing read', () => {
    const { actor, context, calls } = start({ owner: workspace, table: 'orders' });
    expect(context()).toEqual({ owner: workspace, wanted: 'orders', tables: null, error: null, filter: '', open: null, sample: null, sampleError: null, lineageView: null });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(calls).toEqual([`list ${BASE}/workspaces/w1`]);
    actor.stop();
    const member: Workspace = { id: 'w1', name: 'Acme', _links: { self: { href: `${BASE}/workspaces/w1` } } };
    const other = start({ owner: member });
    expect(other.actor.getSnapshot().matches('unavailable')).toBe(true);
    expect(other.context().wanted).toBeNull();
    expect(other.calls).toEqual([]);
    other.actor.stop();
  });

  it('says why the list failed, asks again on retry, and clears the message once the list is read', async () => {
    const { actor, lists, calls, context } = start();
    lists[0]!.reject(offline);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(context().error).toBe('We were unable to connect.');
    expect(context().tables).toBeNull();
    // only retry leaves the failure
    actor.send({ type: 'user.refresh' });
    actor.send({ type: 'user.open', table: orders });
    expect(actor.getSnapshot().matches('failed')).toBe(true);
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(calls).toEqual([`list ${BASE}/workspaces/w1`, `list ${BASE}/workspaces/w1`]);
    lists[1]!.resolve([orders, customers]);
    await waitFor(actor, (s) => s.matches({ ready: 'closed' }));
    expect(context().error).toBeNull();
    expect(context().tables).toEqual([orders, customers]);
    actor.stop();
  });

  it('an error that is no API failure reads as the unexpected error', async () => {
    const { actor, lists, context } = start();
    lists[0]!.reject('boom');
    await waitFor(actor, (s) => s.matches('failed'));
    expect(context().error).toBe('An unexpected error occurred.');
    actor.stop();
  });

  it('opens only a listed table, reads its sample, and closes it again', async () => {
    const { actor, lists, samples, calls, context } = start();
    lists[0]!.resolve([orders]);
    await waitFor(actor, (s) => s.matches({ ready: 'closed' }));
    // a table the list does not have is not opened
    actor.send({ type: 'user.open', table: customers });
    expect(actor.getSnapshot().matches({ ready: 'closed' })).toBe(true);
    expect(context().open).toBeNull();
    actor.send({ type: 'user.open', table: orders });
    expect(actor.getSnapshot().matches({ ready: 'sampling' })).toBe(true);
    expect(context().open).toEqual(orders);
    expect(calls).toEqual([`list ${BASE}/workspaces/w1`, 'sample orders 3']);
    samples[0]!.resolve(sample);
    await waitFor(actor, (s) => s.matches({ ready: 'shown' }));
    expect(context().sample).toEqual(sample);
    actor.send({ type: 'user.close' });
    expect(actor.getSnapshot().matches({ ready: 'closed' })).toBe(true);
    expect(context().open).toBeNull();
    expect(context().sample).toBeNull();
    actor.stop();
  });

  it('closing while the sample is read forgets the table', async () => {
    const { actor, lists, context } = start();
    lists[0]!.resolve([orders]);
    await waitFor(actor, (s) => s.matches({ ready: 'closed' }));
    actor.send({ type: 'user.open', table: orders });
    actor.send({ type: 'user.close' });
    expect(actor.getSnapshot().matches({ ready: 'closed' })).toBe(true);
    expect(context().open).toBeNull();
    actor.stop();
  });

  it('says why the sample failed, retries it clearing the message, and closing forgets both', async () => {
    const { actor, lists, samples, calls, context } = start();
    lists[0]!.resolve([orders, customers]);
    await waitFor(actor, (s) => s.matches({ ready: 'closed' }));
    actor.send({ type: 'user.open', table: customers });
    samples[0]!.reject(offline);
    await waitFor(actor, (s) => s.matches({ ready: 'sampleFailed' }));
    expect(context().sampleError).toBe('We were unable to connect.');
    expect(context().open).toEqual(customers);
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().matches({ ready: 'sampling' })).toBe(true);
    expect(context().sampleError).toBeNull();
    expect(calls).toEqual([`list ${BASE}/workspaces/w1`, 'sample customers 3', 'sample customers 3']);
    samples[1]!.reject(offline);
    await waitFor(actor, (s) => s.matches({ ready: 'sampleFailed' }));
    actor.send({ type: 'user.close' });
    expect(actor.getSnapshot().matches({ ready: 'closed' })).toBe(true);
    expect(context().open).toBeNull();
    expect(context().sampleError).toBeNull();
    // opening another table starts with no sample and no message
    actor.send({ type: 'user.open', table: orders });
    samples[2]!.reject(offline);
    await waitFor(actor, (s) => s.matches({ ready: 'sampleFailed' }));
    actor.send({ type: 'user.open', table: customers });
    expect(context().sampleError).toBeNull();
    expect(context().sample).toBeNull();
    expect(context().open).toEqual(customers);
    samples[3]!.resolve(customersSample);
    await waitFor(actor, (s) => s.matches({ ready: 'shown' }));
    actor.send({ type: 'user.open', table: orders });
    expect(context().sample).toBeNull();
    actor.stop();
  });

  it('a refresh keeps the open table (the new list\'s copy) and reads its sample again; a table gone closes with its sample and message', async () => {
    const { actor, lists, samples, calls, context } = start({ owner: workspace, table: null });
    lists[0]!.resolve([orders, customers]);
    await waitFor(actor, (s) => s.matches({ ready: 'closed' }));
    actor.send({ type: 'user.open', table: orders });
    samples[0]!.resolve(sample);
    await waitFor(actor, (s) => s.matches({ ready: 'shown' }));
    actor.send({ type: 'user.refresh' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    const grown = { ...orders, rows: 7 };
    lists[1]!.resolve([customers, grown]);
    await waitFor(actor, (s) => s.matches({ ready: 'sampling' }));
    expect(context().open).toEqual(grown);
    expect(context().tables).toEqual([customers, grown]);
    expect(calls.at(-1)).toBe('sample orders 7');
    samples[1]!.reject(offline);
    await waitFor(actor, (s) => s.matches({ ready: 'sampleFailed' }));
    actor.send({ type: 'user.refresh' });
    lists[2]!.resolve([customers]);
    await waitFor(actor, (s) => s.matches({ ready: 'closed' }));
    expect(context()).toMatchObject({ open: null, sample: null, sampleError: null, error: null, wanted: null, tables: [customers] });
    actor.stop();
  });

  it('opens the wanted table once, with no sample or message left, then forgets it', async () => {
    const { actor, lists, samples, calls, context } = start({ owner: workspace, table: 'orders' });
    lists[0]!.resolve([customers, orders]);
    await waitFor(actor, (s) => s.matches({ ready: 'sampling' }));
    expect(context()).toMatchObject({ open: orders, wanted: null, sample: null, sampleError: null, error: null, tables: [customers, orders] });
    expect(calls).toEqual([`list ${BASE}/workspaces/w1`, 'sample orders 3']);
    actor.send({ type: 'user.close' });
    actor.send({ type: 'user.refresh' });
    lists[1]!.resolve([customers, orders]);
    await waitFor(actor, (s) => s.matches({ ready: 'closed' }));
    expect(samples).toHaveLength(1);
    actor.stop();
  });

  it('a wanted table the list lacks opens nothing and is forgotten', async () => {
    const { actor, lists, context } = start({ owner: workspace, table: 'invoices' });
    lists[0]!.resolve([customers, orders]);
    await waitFor(actor, (s) => s.matches({ ready: 'closed' }));
    expect(context()).toMatchObject({ open: null, wanted: null });
    actor.stop();
  });

  it('the filter and the lineage view are kept in every state', async () => {
    const { actor, lists, context } = start();
    actor.send({ type: 'user.filter', text: 'cust' });
    actor.send({ type: 'user.lineageView', view: 'graph' });
    expect(context().filter).toBe('cust');
    expect(context().lineageView).toBe('graph');
    lists[0]!.resolve([orders, customers]);
    await waitFor(actor, (s) => s.matches({ ready: 'closed' }));
    // 'cust' is in customers' name and in orders' customer_id column
    expect(selectVisibleTables(actor.getSnapshot()).map((t) => t.name)).toEqual(['orders', 'customers']);
    actor.send({ type: 'user.filter', text: ' COUNTRY ' });
    expect(selectVisibleTables(actor.getSnapshot()).map((t) => t.name)).toEqual(['customers']);
    actor.stop();
  });

  it('the visible tables are those whose name or a column holds the filter, ignoring case and spaces around it', () => {
    const name = fc.stringMatching(/^[a-z_]{1,6}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.array(name, { maxLength: 3 })), { maxLength: 5 }), fc.string({ maxLength: 4 }), (specs, filter) => {
        const tables = specs.map(([n, cols]) => table(n, cols));
        const snapshot = storeBrowserMachine.resolveState({ value: { ready: 'closed' }, context: { owner: workspace, wanted: null, tables, error: null, filter, open: null, sample: null, sampleError: null, lineageView: null } });
        const needle = filter.trim().toLowerCase();
        const expected = tables.filter((t) => needle === '' || t.name.includes(needle) || t.columns.some((c) => c.name.includes(needle)));
        expect(selectVisibleTables(snapshot)).toEqual(expected);
      }),
    );
    const none = storeBrowserMachine.resolveState({ value: 'loading', context: { owner: workspace, wanted: null, tables: null, error: null, filter: '', open: null, sample: null, sampleError: null, lineageView: null } });
    expect(selectVisibleTables(none)).toEqual([]);
  });

  it('leaving the browser cancels its requests', async () => {
    expect(await requestsCancelledOnStop(storeBrowserActors, { list: { owner: workspace }, sample: { table: orders } })).toEqual({ list: true, sample: true });
  });
});
