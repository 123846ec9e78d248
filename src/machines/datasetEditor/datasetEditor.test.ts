import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyMachineSnapshot } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { readChartBuilder, type ChartEdit } from '../../domain/chartBuilder';
import { changedFields, DATASET_FORM_TEXTS } from '../../domain/datasetEditor';
import type { QueryMode } from '../../domain/queryBuilderEdit';
import { parseVisualisation } from '../../domain/visualisation/spec';
import type { Dataset, DatasetPreview } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import { datasetEditorActors } from './datasetEditor.actors';
import { heldActors } from '../testing/deferred.fixture';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import {
  datasetEditorMachine,
  PREVIEW_DEBOUNCE_MS,
  previewFailure,
  saveFailure,
  selectBusy,
  selectConfirmingDiscard,
  selectPreviewState,
  selectQueryMode,
  type DatasetEditorContext,
  type DatasetEditorInput,
  type LoadedEditor,
  type PreviewInput,
  type SaveDatasetInput,
} from './datasetEditor.machine';

const link = (href: string) => ({ href: `http://api.test/api${href}` });
const WORKSPACE = {
  _links: { 'publish dataset': link('/workspaces/w1/datasets'), 'preview dataset': link('/workspaces/w1/datasets/preview'), channels: link('/workspaces/w1/channels') },
};
const NO_PREVIEW_WORKSPACE = { _links: { 'publish dataset': link('/workspaces/w1/datasets') } };

const EXISTING: Dataset = {
  id: 'd1',
  title: 'Revenue',
  alias: 'sales/revenue',
  query: 'select month, revenue from demo.orders',
  tags: [{ name: 'sales' }],
  _embedded: { source: { id: 'c1', name: 'Sales' } },
  _links: { 'edit dataset': link('/datasets/d1'), 'delete dataset': link('/datasets/d1') },
};
const CHANNELS = [{ id: 'c1', name: 'Sales' }];
const PREVIEW: DatasetPreview = { columns: ['month', 'revenue'], rows: [{ month: '2024-01', revenue: 10 }], truncated: true };

const errorBody = (field: string, defaultMessage: string) => ({
  timestamp: 't',
  status: 400,
  error: 'Bad Request',
  message: 'Validation failed',
  path: '/x',
  errors: [{ field, objectName: 'dataset', defaultMessage }],
});
const badRequest = new ApiFailure({ kind: 'response', status: 400, message: '[400] …', body: errorBody('alias', 'Alias is taken') });
const refused = new ApiFailure({ kind: 'response', status: 400, message: '[400] …', body: errorBody('query', 'Only a read-only query can be previewed') });
const serverDown = new ApiFailure({ kind: 'server', status: 503, message: 'Down for maintenance' });

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as DatasetEditorContext;

const eventsFor = (load: LoadedEditor) => ({
  'xstate.done.actor.loadEditor': [{ output: load }],
  'xstate.error.actor.loadEditor': [{ error: serverDown }],
  'xstate.done.actor.saveDataset': (snapshot: AnyMachineSnapshot) => [{ output: { ...EXISTING, title: ctx(snapshot).values.title } }],
  'xstate.error.actor.saveDataset': [{ error: badRequest }, { error: serverDown }],
  'xstate.done.actor.previewQuery': [{ output: PREVIEW }],
  'xstate.error.actor.previewQuery': [{ error: refused }],
  // A few values only: every distinct text is a new context, and the graph must stay finite.
  'user.change': [
    { field: 'title', value: 'Orders' },
    { field: 'query', value: 'select 1' },
  ],
  // The chart builder, offered once the title has changed; stopWhen ends the path there, so
  // the graph does not grow a copy of every state with a chart (the targeted test tries more edits).
  'user.build': (snapshot: AnyMachineSnapshot) => (ctx(snapshot).values.title === 'Orders' ? [{ edit: { type: 'kind', kind: 'bar' } }] : []),
  // the query builder has paths of its own (below): here the form's rules without it
  'user.buildQuery': [],
  'user.queryMode': [],
  // Cancel (issue 38): asks only with unsaved changes; the question is answered either way
  'user.cancel': [{}],
  'user.discard': [{}],
  'user.keepEditing': [{}],
});

/** The mode each case opens its query in: the builder reads the table's first rows, not the rest. */
const OPENS_IN: Readonly<Record<string, QueryMode>> = {
  'a new dataset': 'sql',
  'an existing dataset with a query': 'sql',
  'a workspace that offers no preview': 'sql',
  'a new dataset on a table': 'build',
};

const cases: [string, DatasetEditorInput, LoadedEditor][] = [
  ['a new dataset', { workspace: WORKSPACE, datasetId: null }, { dataset: null, channels: CHANNELS }],
  ['an existing dataset with a query', { workspace: WORKSPACE, datasetId: 'd1' }, { dataset: EXISTING, channels: CHANNELS }],
  ['a workspace that offers no preview', { workspace: NO_PREVIEW_WORKSPACE, datasetId: 'd1' }, { dataset: EXISTING, channels: [] }],
  // 'Build your first chart' (issue 38): a new dataset started on a store table
  ['a new dataset on a table', { workspace: WORKSPACE, datasetId: null, table: 'web_sessions' }, { dataset: null, channels: CHANNELS }],
];

describe.each(cases)('datasetEditor machine for %s, generated paths', (name, input, load) => {
  const events = eventsFor(load);
  // a form started on a table draws its first chart itself: its paths go on until the builder is used too
  const stopWhen = input.table
    ? (snapshot: AnyMachineSnapshot) => ctx(snapshot).values.visualisation !== '' && ctx(snapshot).values.title === 'Orders'
    : (snapshot: AnyMachineSnapshot) => ctx(snapshot).values.visualisation !== '';
  const paths = modelPaths(datasetEditorMachine, { input, events, stopWhen });

  it('visits every state and walks every transition', () => {
    const unvisited = unvisitedStates(datasetEditorMachine, paths);
    // Without 'preview dataset' nothing is previewed; a loaded query is previewed at once, and
    // the graph's changes never empty it (the targeted test below does).
    const expected =
      name === 'a workspace that offers no preview'
        ? ['datasetEditor.ready.preview.previewing', 'datasetEditor.ready.preview.previewed', 'datasetEditor.ready.preview.previewFailed']
        : name === 'an existing dataset with a query' || name === 'a new dataset on a table'
          ? ['datasetEditor.ready.preview.idle']
          : [];
    expect(unvisited.sort()).toEqual(expected.sort());
    expect(unwalkedTransitions(datasetEditorMachine, paths, { input, events, stopWhen })).toEqual([]);
  });

  it('keeps the editor rules on every step', () => {
    for (const path of paths) {
      for (const [i, step] of path.steps.entries()) {
        const before = i > 0 ? path.steps[i - 1]!.state : undefined;
        const now = ctx(step.state);
        const event = step.event as { type: string; error?: unknown; field?: string };
        if (event.type === 'xstate.done.actor.loadEditor') {
          expect(now.values.title).toBe(load.dataset?.title ?? (input.table ? 'Web sessions' : ''));
          expect(now.queryMode).toBe(OPENS_IN[name]);
          // a table's first rows are the query, previewed at once
          if (input.table) expect([now.values.query, step.state.matches({ ready: { preview: 'previewing' } })]).toEqual(['SELECT * FROM web_sessions LIMIT 100', true]);
        }
        if (event.type === 'xstate.error.actor.loadEditor') expect(now.loadError).toBe('Down for maintenance');
        // Save without a title or a query stays in editing with the field messages.
        if (event.type === 'user.save' && !step.state.matches({ ready: { form: 'saving' } })) {
          expect(Object.keys(now.errors).length).toBeGreaterThan(0);
          if (now.values.title.trim() === '') expect(now.errors.title).toBe(DATASET_FORM_TEXTS.titleRequired);
          if (now.values.query.trim() === '') expect(now.errors.query).toBe(DATASET_FORM_TEXTS.dataRequired);
        }
        if (event.type === 'xstate.error.actor.saveDataset') {
          expect(step.state.matches({ ready: { form: 'failed' } })).toBe(true);
          if (event.error === badRequest) expect([now.errors, now.banner]).toEqual([{ alias: 'Alias is taken' }, null]);
          else expect([now.errors, now.banner]).toEqual([{}, 'Down for maintenance']);
        }
        if (event.type === 'xstate.error.actor.previewQuery') expect(now.previewError).toBe('Only a read-only query can be previewed');
        // 'Build your first chart': the first rows previewed arrive drawn as a bar chart of the builder's suggestion, once
        if (event.type === 'xstate.done.actor.previewQuery' && before !== undefined) {
          const first = input.table != null && ctx(before).firstChart && ctx(before).values.visualisation === '' && ctx(before).values.metadata === '';
          if (first) expect(parseVisualisation(now.values.visualisation)).toMatchObject({ kind: 'chart', chartType: 'bar' });
          else expect(now.values.visualisation).toBe(ctx(before).values.visualisation);
          expect(now.firstChart).toBe(false);
        }
        // a builder edit lands in both JSON fields at once, in the shapes the renderers read
        if (event.type === 'user.build' && before !== undefined && step.state.matches('ready')) {
          const { edit } = event as unknown as { edit: ChartEdit };
          const read = readChartBuilder(now.values);
          expect(read.ok).toBe(true);
          if (edit.type === 'kind') expect(parseVisualisation(now.values.visualisation)).toMatchObject({ kind: 'chart', chartType: 'bar' });
          if (edit.type === 'valueColumns') expect(read.ok && read.state.values.map((v) => v.name)).toEqual(['revenue']);
          expect([now.errors.visualisation, now.errors.metadata]).toEqual([undefined, undefined]);
          expect(step.state.matches({ ready: { form: 'editing' } }) || step.state.matches({ ready: { form: 'saving' } })).toBe(true);
        }
        // a change to a field clears that field's message
        if (event.type === 'user.change' && before !== undefined && step.state.matches('ready') && !before.matches({ ready: { form: 'confirmingDiscard' } })) expect(now.errors[event.field as 'title']).toBeUndefined();
        // Cancel throws no work away unasked: with changes it asks, without them it closes
        if (event.type === 'user.cancel' && before !== undefined && before.matches('ready')) {
          const unsaved = changedFields(ctx(before).values, ctx(before).baseline).length > 0;
          if (before.matches({ ready: { form: 'saving' } })) expect(step.state.matches({ ready: { form: 'saving' } })).toBe(true);
          else if (before.matches({ ready: { form: 'confirmingDiscard' } })) expect(step.state.matches({ ready: { form: 'confirmingDiscard' } })).toBe(true);
          else if (unsaved) expect(step.state.matches({ ready: { form: 'confirmingDiscard' } })).toBe(true);
          else expect(step.state.matches('closed')).toBe(true);
          expect(now.values).toEqual(ctx(before).values);
        }
        if (event.type === 'user.cancel' && before !== undefined && !before.matches('ready')) expect(step.state.matches('closed')).toBe(true);
        if (step.state.matches({ ready: { form: 'confirmingDiscard' } })) expect(changedFields(now.values, now.baseline)).not.toEqual([]);
        // the editor is closed only by Cancel (at once, or confirmed by Discard)
        if (step.state.matches('closed')) expect(['user.cancel', 'user.discard']).toContain(event.type);
        if (event.type === 'user.keepEditing' && before !== undefined && before.matches({ ready: { form: 'confirmingDiscard' } })) {
          expect(step.state.matches({ ready: { form: 'editing' } })).toBe(true);
          expect(now.values).toEqual(ctx(before).values);
        }
        // the editor's own first chart is not the person's change
        if (event.type === 'xstate.done.actor.previewQuery' && before !== undefined && ctx(before).firstChart) {
          expect(changedFields(now.values, now.baseline)).toEqual(changedFields(ctx(before).values, ctx(before).baseline));
        }
        // the preview is never asked for an empty query
        if (step.state.matches({ ready: { preview: 'previewing' } })) expect(now.values.query.trim()).not.toBe('');
        expect(selectBusy(step.state as never)).toBe(step.state.matches('loading') || step.state.matches({ ready: { form: 'saving' } }) || step.state.matches('saved'));
      }
    }
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(datasetEditorMachine, path, {
      input,
      states: {
        loading: (_s, { invocations }) => expect(invocations.at(-1)).toMatchObject({ id: 'loadEditor', input }),
        'ready.form.saving': (snapshot, { invocations }) => {
          const save = invocations.filter((call) => call.id === 'saveDataset').at(-1);
          expect(save).toMatchObject({ input: { dataset: ctx(snapshot).dataset, body: { title: ctx(snapshot).values.title.trim() } } });
        },
        'ready.preview.previewing': (snapshot, { invocations }) => {
          // asked with the query as it stood when the wait ended (the form may have moved on since)
          const preview = invocations.filter((call) => call.id === 'previewQuery').at(-1) as { input: { query: string } } | undefined;
          expect(preview?.input.query.trim()).toBeTruthy();
          expect(ctx(snapshot).values.query.trim()).not.toBe('');
        },
      },
    });
  });
});

describe('datasetEditor machine, targeted', () => {
  const input: DatasetEditorInput = { workspace: WORKSPACE, datasetId: 'd1' };

  it('previews 600 ms after the query stops changing, not before', async () => {
    const loaded = { type: 'xstate.done.actor.loadEditor', output: { dataset: { ...EXISTING, query: null }, channels: [] } };
    const path = pathOf(
      datasetEditorMachine,
      [loaded, { type: 'user.change', field: 'query', value: 'select 1' }, { type: 'user.change', field: 'query', value: 'select 12' }, { type: 'xstate.after.previewDelay.datasetEditor.ready.preview.debouncing' }],
      { input },
    );
    const log = await replayPath(datasetEditorMachine, path, { input });
    expect(log.clock.now()).toBe(PREVIEW_DEBOUNCE_MS);
    expect(log.invocations.filter((call) => call.id === 'previewQuery')).toEqual([expect.objectContaining({ input: { workspace: WORKSPACE, query: 'select 12' } })]);
    expect(selectPreviewState(path.state as never)).toBe('previewing');
  });

  it('an emptied query clears the preview once the wait ends', async () => {
    const loaded = { type: 'xstate.done.actor.loadEditor', output: { dataset: EXISTING, channels: [] } };
    const path = pathOf(
      datasetEditorMachine,
      [loaded, { type: 'xstate.done.actor.previewQuery', output: PREVIEW }, { type: 'user.change', field: 'query', value: '  ' }, { type: 'xstate.after.previewDelay.datasetEditor.ready.preview.debouncing' }],
      { input },
    );
    await replayPath(datasetEditorMachine, path, { input });
    expect(selectPreviewState(path.state as never)).toBe('idle');
    expect(ctx(path.state).preview).toBeNull();
  });

  it('a builder edit picks from the preview, and leaves JSON it cannot read alone', async () => {
    const loaded = { type: 'xstate.done.actor.loadEditor', output: { dataset: EXISTING, channels: [] } };
    const bar = pathOf(datasetEditorMachine, [loaded, { type: 'xstate.done.actor.previewQuery', output: PREVIEW }, { type: 'user.build', edit: { type: 'kind', kind: 'bar' } }], { input });
    await replayPath(datasetEditorMachine, bar, { input });
    expect(JSON.parse(ctx(bar.state).values.metadata)).toEqual({ related_table: { columns: [{ name: 'month', label: 'Month' }], aggregates: [{ name: 'revenue', label: 'Revenue' }] } });

    const google = { ...EXISTING, visualisation: '{"google-chart":{"chartType":"BarChart"}}', metadata: '{"x":1}' };
    const alone = pathOf(datasetEditorMachine, [{ ...loaded, output: { dataset: google, channels: [] } }, { type: 'user.build', edit: { type: 'kind', kind: 'pie' } }], { input });
    await replayPath(datasetEditorMachine, alone, { input });
    expect([ctx(alone.state).values.visualisation, ctx(alone.state).values.metadata]).toEqual([google.visualisation, google.metadata]);

    // without a query the builder picks from the raw data's rows
    const raw = { ...EXISTING, query: null, rawData: '[{"country":"UK","total":3}]' };
    const rawPath = pathOf(datasetEditorMachine, [{ ...loaded, output: { dataset: raw, channels: [] } }, { type: 'user.build', edit: { type: 'kind', kind: 'doughnut' } }], { input });
    await replayPath(datasetEditorMachine, rawPath, { input });
    expect(JSON.parse(ctx(rawPath.state).values.metadata)).toMatchObject({ related_table: { columns: [{ name: 'country' }], aggregates: [{ name: 'total' }] } });
  });

  it('emits the saved dataset for the toast', async () => {
    const saved = { ...EXISTING, title: 'Revenue' };
    const actor = createActor(
      datasetEditorMachine.provide({
        actors: {
          loadEditor: fromPromise<LoadedEditor, DatasetEditorInput>(() => Promise.resolve({ dataset: EXISTING, channels: CHANNELS })),
          previewQuery: fromPromise<DatasetPreview, PreviewInput>(() => Promise.resolve(PREVIEW)),
          saveDataset: fromPromise<Dataset, SaveDatasetInput>(() => Promise.resolve(saved)),
        },
      }),
      { input },
    );
    const emitted: unknown[] = [];
    actor.on('dataset.saved', (event) => emitted.push(event.dataset));
    actor.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'user.save' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().status).toBe('done');
    expect(emitted).toEqual([saved]);
  });

  it('emits dataset.closed when Cancel closes, at once or after Discard, and never with unsaved work unasked', async () => {
    const start = () => {
      const actor = createActor(
        datasetEditorMachine.provide({
          actors: {
            loadEditor: fromPromise<LoadedEditor, DatasetEditorInput>(() => Promise.resolve({ dataset: EXISTING, channels: CHANNELS })),
            previewQuery: fromPromise<DatasetPreview, PreviewInput>(() => new Promise<DatasetPreview>(() => undefined)),
            saveDataset: fromPromise<Dataset, SaveDatasetInput>(() => Promise.reject(serverDown)),
          },
        }),
        { input },
      );
      const emitted: string[] = [];
      actor.on('dataset.closed', (event) => emitted.push(event.type));
      actor.start();
      return { actor, emitted };
    };
    const clean = start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    clean.actor.send({ type: 'user.cancel' });
    expect([clean.actor.getSnapshot().status, clean.emitted]).toEqual(['done', ['dataset.closed']]);

    const dirty = start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    dirty.actor.send({ type: 'user.change', field: 'title', value: 'Orders' });
    dirty.actor.send({ type: 'user.cancel' });
    expect([dirty.actor.getSnapshot().value, dirty.emitted]).toEqual([{ ready: { form: 'confirmingDiscard', preview: 'previewing' } }, []]);
    dirty.actor.send({ type: 'user.keepEditing' });
    expect(dirty.actor.getSnapshot().context.values.title).toBe('Orders');
    // typed back as it was: nothing to lose, nothing asked
    dirty.actor.send({ type: 'user.change', field: 'title', value: EXISTING.title });
    dirty.actor.send({ type: 'user.cancel' });
    expect(dirty.emitted).toEqual(['dataset.closed']);

    const failed = start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    failed.actor.send({ type: 'user.change', field: 'title', value: 'Orders' });
    failed.actor.send({ type: 'user.save' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    failed.actor.send({ type: 'user.cancel' });
    failed.actor.send({ type: 'user.discard' });
    expect([failed.actor.getSnapshot().status, failed.emitted]).toEqual(['done', ['dataset.closed']]);
  });

  it('maps failures: unplaced fields to the banner, other responses by their message', () => {
    const other = new ApiFailure({ kind: 'response', status: 400, message: '[400] …', body: errorBody('colour', 'No colours') });
    expect(saveFailure(other)).toEqual({ banner: 'No colours', errors: {} });
    const conflict = new ApiFailure({ kind: 'response', status: 409, message: '[409] …', body: { ...errorBody('x', 'y'), message: 'Alias in use', errors: [] } });
    expect(saveFailure(conflict)).toEqual({ banner: 'Alias in use', errors: {} });
    expect(saveFailure(new Error('boom'))).toEqual({ banner: 'boom', errors: {} });
    expect(previewFailure(serverDown)).toBe('Down for maintenance');
    expect(previewFailure(refused)).toBe('Only a read-only query can be previewed');
  });
});

describe('datasetEditor actors against a scripted server', () => {
  it('publishes a new dataset through the workspace link and edits an existing one through its own', async () => {
    const fake = fakeFetch({ status: 201, body: { ...EXISTING, id: 'd9' } }, { status: 200, body: EXISTING });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actors = datasetEditorActors(client);
    const body = { title: 'Revenue', query: 'select 1' };
    const run = (dataset: Dataset | null) =>
      new Promise((resolve, reject) => {
        const actor = createActor(actors.saveDataset, { input: { workspace: WORKSPACE, dataset, body } });
        actor.subscribe({ complete: () => resolve(actor.getSnapshot().output), error: reject });
        actor.start();
      });
    await expect(run(null)).resolves.toMatchObject({ id: 'd9' });
    await expect(run(EXISTING)).resolves.toMatchObject({ id: 'd1' });
    expect(fake.calls.map((call) => [call.method, call.url, call.body])).toEqual([
      ['POST', 'http://api.test/api/workspaces/w1/datasets', body],
      ['PATCH', 'http://api.test/api/datasets/d1', body],
    ]);
  });
});

describe('datasetEditor, checked by hand', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function start(input: DatasetEditorInput = { workspace: WORKSPACE, datasetId: 'd1' }) {
    const { calls, pending, held } = heldActors();
    const closed: string[] = [];
    const saved: Dataset[] = [];
    const machine = datasetEditorMachine.provide({
      actors: {
        loadEditor: held<DatasetEditorInput, LoadedEditor>('loadEditor', (i) => `${i.datasetId ?? 'new'} ${i.table ?? '-'}`),
        saveDataset: held<SaveDatasetInput, Dataset>('saveDataset', (i) => `${i.dataset?.id ?? 'new'} ${JSON.stringify(i.body)}`),
        previewQuery: held<PreviewInput, DatasetPreview>('previewQuery', (i) => i.query),
      },
    });
    const actor = createActor(machine, { input });
    actor.on('dataset.closed', (e) => void closed.push(e.type));
    actor.on('dataset.saved', (e) => void saved.push(e.dataset));
    actor.start();
    const answer = (id: string) => pending[id]!.at(-1)!;
    const context = () => actor.getSnapshot().context;
    const snap = () => actor.getSnapshot();
    return { actor, calls, closed, saved, answer, context, snap };
  }
  const flush = () => vi.advanceTimersByTimeAsync(0);
  /** The editor on the stored dataset, loaded, in a workspace that cannot preview. */
  const openedOnExisting = async () => {
    const m = start({ workspace: NO_PREVIEW_WORKSPACE, datasetId: 'd1' });
    m.answer('loadEditor').resolve({ dataset: EXISTING, channels: CHANNELS });
    await flush();
    return m;
  };
  const formOf = (s: { value: unknown }) => (s.value as { ready: { form: string } }).ready.form;

  it('loads by its input, busy meanwhile; a failed load says why, retry asks again, cancel closes at once', async () => {
    vi.useFakeTimers();
    const m = start();
    expect(m.context()).toMatchObject({ dataset: null, channels: [], errors: {}, banner: null, loadError: null, preview: null, previewError: null, firstChart: false, queryMode: 'sql' });
    expect(m.calls).toEqual(['loadEditor d1 -']);
    expect(selectBusy(m.snap())).toBe(true);
    m.answer('loadEditor').reject(serverDown);
    await flush();
    expect(m.snap().value).toBe('loadFailed');
    expect(selectBusy(m.snap())).toBe(false);
    expect(m.context().loadError).toBe('Down for maintenance');
    m.actor.send({ type: 'user.retry' });
    expect(m.snap().value).toBe('loading');
    m.answer('loadEditor').resolve({ dataset: EXISTING, channels: CHANNELS });
    await flush();
    expect(m.context()).toMatchObject({ dataset: EXISTING, channels: CHANNELS, loadError: null });
    expect(m.context().values.title).toBe('Revenue');
    expect(m.context().baseline).toEqual(m.context().values);
    m.actor.stop();
    for (const failFirst of [false, true]) {
      const c = start({ workspace: WORKSPACE, datasetId: null, table: 'web_sessions' });
      expect(c.context().firstChart).toBe(true);
      if (failFirst) {
        c.answer('loadEditor').reject(serverDown);
        await flush();
      }
      c.actor.send({ type: 'user.cancel' });
      expect(c.snap().status).toBe('done');
      expect(c.closed).toEqual(['dataset.closed']);
    }
  });

  it('an invalid form is not saved: its errors show, the banner goes; a change clears its field error', async () => {
    vi.useFakeTimers();
    const m = start({ workspace: NO_PREVIEW_WORKSPACE, datasetId: null });
    m.answer('loadEditor').resolve({ dataset: null, channels: [] });
    await flush();
    m.actor.send({ type: 'user.save' });
    expect(formOf(m.snap())).toBe('editing');
    expect(m.context().errors).toMatchObject({ title: DATASET_FORM_TEXTS.titleRequired });
    expect(m.calls).toEqual(['loadEditor new -']);
    m.actor.send({ type: 'user.change', field: 'title', value: 'Orders' });
    expect(m.context().errors.title).toBeUndefined();
    expect(Object.keys(m.context().errors).length).toBeGreaterThan(0);
    m.actor.send({ type: 'user.change', field: 'query', value: 'select 1' });
    m.actor.send({ type: 'user.save' });
    expect(formOf(m.snap())).toBe('saving');
    expect(selectBusy(m.snap())).toBe(true);
    expect(m.context()).toMatchObject({ errors: {}, banner: null });
    expect(m.calls.at(-1)).toMatch(/^saveDataset new \{"title":"Orders".*"query":"select 1"/);
    m.actor.stop();
  });

  it('a failed save: a 400 puts its reasons by the fields, another failure is a banner; a change goes back to editing', async () => {
    vi.useFakeTimers();
    const m = await openedOnExisting();
    m.actor.send({ type: 'user.save' });
    m.answer('saveDataset').reject(badRequest);
    await flush();
    expect(formOf(m.snap())).toBe('failed');
    expect(m.context()).toMatchObject({ errors: { alias: 'Alias is taken' }, banner: null });
    m.actor.send({ type: 'user.save' });
    m.answer('saveDataset').reject(serverDown);
    await flush();
    expect(m.context()).toMatchObject({ errors: {}, banner: 'Down for maintenance' });
    // a cancel from the failure with nothing changed closes
    m.actor.send({ type: 'user.change', field: 'alias', value: 'sales/other' });
    expect(formOf(m.snap())).toBe('editing');
    expect(m.context().values.alias).toBe('sales/other');
    m.actor.send({ type: 'user.save' });
    m.answer('saveDataset').resolve({ ...EXISTING, alias: 'sales/other' });
    await flush();
    expect(m.snap().value).toBe('saved');
    expect(selectBusy(m.snap())).toBe(true);
    expect(m.context().dataset?.alias).toBe('sales/other');
    expect(m.saved.map((d) => d.alias)).toEqual(['sales/other']);
    // the chart builder and the query builder leave the failure for the form too
    for (const event of [{ type: 'user.build', edit: { type: 'kind', kind: 'bar' } }, { type: 'user.buildQuery', edit: { type: 'table', table: 'demo.orders' } }]) {
      const f = await openedOnExisting();
      f.actor.send({ type: 'user.save' });
      f.answer('saveDataset').reject(serverDown);
      await flush();
      f.actor.send(event as never);
      expect(formOf(f.snap())).toBe('editing');
      f.actor.stop();
    }
  });

  it('Cancel with changes asks; the form takes nothing else meanwhile; Keep editing goes back, Discard closes', async () => {
    vi.useFakeTimers();
    const m = await openedOnExisting();
    m.actor.send({ type: 'user.change', field: 'title', value: 'Other' });
    m.actor.send({ type: 'user.cancel' });
    expect(selectConfirmingDiscard(m.snap())).toBe(true);
    m.actor.send({ type: 'user.change', field: 'title', value: 'Ignored' });
    m.actor.send({ type: 'user.save' });
    expect(m.context().values.title).toBe('Other');
    expect(selectConfirmingDiscard(m.snap())).toBe(true);
    m.actor.send({ type: 'user.keepEditing' });
    expect(formOf(m.snap())).toBe('editing');
    expect(selectConfirmingDiscard(m.snap())).toBe(false);
    m.actor.send({ type: 'user.save' });
    m.answer('saveDataset').reject(serverDown);
    await flush();
    m.actor.send({ type: 'user.cancel' });
    expect(selectConfirmingDiscard(m.snap())).toBe(true);
    m.actor.send({ type: 'user.discard' });
    expect(m.snap().status).toBe('done');
    expect(m.closed).toEqual(['dataset.closed']);
    // a failed save with nothing changed closes at once
    const c = await openedOnExisting();
    c.actor.send({ type: 'user.save' });
    c.answer('saveDataset').reject(serverDown);
    await flush();
    c.actor.send({ type: 'user.cancel' });
    expect(c.closed).toEqual(['dataset.closed']);
  });

  it('the preview: asked at load for a query, says why it failed, asked again on demand, not without the link or a query', async () => {
    vi.useFakeTimers();
    const m = start();
    m.answer('loadEditor').resolve({ dataset: EXISTING, channels: CHANNELS });
    await flush();
    expect(selectPreviewState(m.snap())).toBe('previewing');
    expect(m.calls.at(-1)).toBe(`previewQuery ${EXISTING.query ?? ''}`);
    m.answer('previewQuery').reject(refused);
    await flush();
    expect(selectPreviewState(m.snap())).toBe('failed');
    expect(m.context()).toMatchObject({ preview: null, previewError: 'Only a read-only query can be previewed' });
    m.actor.send({ type: 'user.preview' });
    expect(selectPreviewState(m.snap())).toBe('previewing');
    m.answer('previewQuery').resolve(PREVIEW);
    await flush();
    expect(selectPreviewState(m.snap())).toBe('previewed');
    expect(m.context()).toMatchObject({ preview: PREVIEW, previewError: null, firstChart: false });
    m.actor.send({ type: 'user.preview' });
    expect(selectPreviewState(m.snap())).toBe('previewing');
    m.answer('previewQuery').reject(serverDown);
    await flush();
    expect(m.context().previewError).toBe('Down for maintenance');
    // a change while the form saves starts no preview
    m.actor.send({ type: 'user.save' });
    m.actor.send({ type: 'user.change', field: 'query', value: 'select 2' });
    expect(selectPreviewState(m.snap())).toBe('failed');
    m.actor.stop();
    const none = await openedOnExisting();
    expect(selectPreviewState(none.snap())).toBe('idle');
    none.actor.send({ type: 'user.preview' });
    expect(selectPreviewState(none.snap())).toBe('idle');
    none.actor.send({ type: 'user.change', field: 'query', value: 'select 3' });
    expect(selectPreviewState(none.snap())).toBe('waiting');
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS);
    expect(selectPreviewState(none.snap())).toBe('idle');
    expect(none.calls.some((c) => c.startsWith('previewQuery'))).toBe(false);
    none.actor.stop();
    const empty = start({ workspace: WORKSPACE, datasetId: null });
    empty.answer('loadEditor').resolve({ dataset: null, channels: [] });
    await flush();
    expect(selectPreviewState(empty.snap())).toBe('idle');
    empty.actor.send({ type: 'user.preview' });
    expect(selectPreviewState(empty.snap())).toBe('idle');
    // a change of another field restarts no wait
    empty.actor.send({ type: 'user.change', field: 'title', value: 'T' });
    expect(selectPreviewState(empty.snap())).toBe('idle');
    empty.actor.stop();
  });

  it('the failure texts: a 400 with no fields says the server\'s message, or the failure\'s; only a 400 is read as fields', () => {
    const response = (status: number, body?: object) => new ApiFailure({ kind: 'response', status, message: `[${String(status)}] …`, ...(body === undefined ? {} : { body: body as never }) });
    expect(saveFailure(response(400, { message: 'Bad query', errors: [] }))).toEqual({ banner: 'Bad query', errors: {} });
    expect(saveFailure(response(400))).toEqual({ banner: '[400] …', errors: {} });
    expect(saveFailure(response(400, { message: 'Validation failed', errors: [{ field: 'title', defaultMessage: 'Too long' }] }))).toEqual({ banner: null, errors: { title: 'Too long' } });
    // a conflict that lists fields is still one message, not field errors
    const conflict = response(409, { message: 'Alias in use', errors: [{ field: 'title', defaultMessage: 'Taken' }, { field: 'query', defaultMessage: 'Refused' }] });
    expect(saveFailure(conflict)).toEqual({ banner: 'Alias in use', errors: {} });
    expect(previewFailure(conflict)).toBe('Alias in use');
    for (const bodiless of [response(409), response(500)]) {
      const banner = saveFailure(bodiless).banner;
      expect(typeof banner).toBe('string');
      expect(banner).not.toBe('');
      expect(typeof previewFailure(bodiless)).toBe('string');
    }
    expect(previewFailure(response(400, { message: 'No such table', errors: [] }))).toBe('No such table');
    // reasons the form has no place for are all in the banner, a space apart
    const unplaced = response(400, { message: 'Validation failed', errors: [{ field: 'workspace', defaultMessage: 'Workspace is read-only.' }, { field: 'owner', defaultMessage: 'Owner is gone.' }] });
    expect(saveFailure(unplaced)).toEqual({ banner: 'Workspace is read-only. Owner is gone.', errors: {} });
    expect(previewFailure(response(400))).toBe('[400] …');
  });

  it('the real load: a new dataset on a table reads the store\'s tables through their link and keeps the one named; an existing dataset reads none', async () => {
    const withTables = { _links: { ...WORKSPACE._links, tables: link('/workspaces/w1/tables') } };
    const sessions = { name: 'web_sessions', columns: [{ name: 'id', type: 'text' }], rows: 3, rowsAtLeast: false, lastLoad: null, _links: {} };
    const other = { ...sessions, name: 'orders' };
    const load = async (input: DatasetEditorInput, ...responses: Parameters<typeof fakeFetch>) => {
      const fake = fakeFetch(...responses);
      const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
      const output = await new Promise<LoadedEditor>((resolve, reject) => {
        const actor = createActor(datasetEditorActors(client).loadEditor, { input });
        actor.subscribe({ complete: () => resolve(actor.getSnapshot().output as LoadedEditor), error: reject });
        actor.start();
      });
      return { output, urls: fake.calls.map((c) => c.url.replace(/\?.*$/, '')) };
    };
    const channels = { body: { _embedded: { channels: [] } } };
    const tables = { body: { tables: [other, sessions], _links: {} } };
    const onTable = await load({ workspace: withTables, datasetId: null, table: 'web_sessions' }, channels, tables);
    expect(onTable.output.table).toEqual(sessions);
    expect(onTable.urls.sort()).toEqual(['http://api.test/api/workspaces/w1/channels', 'http://api.test/api/workspaces/w1/tables']);
    const missing = await load({ workspace: withTables, datasetId: null, table: 'nowhere' }, channels, tables);
    expect(missing.output.table).toBeNull();
    const failing = await load({ workspace: withTables, datasetId: null, table: 'web_sessions' }, channels, { status: 403, body: { status: 403, message: 'no' } });
    expect(failing.output.table).toBeNull();
    const noLink = await load({ workspace: WORKSPACE, datasetId: null, table: 'web_sessions' }, channels);
    expect(noLink.output.table).toBeNull();
    expect(noLink.urls).toEqual(['http://api.test/api/workspaces/w1/channels']);
    const plain = await load({ workspace: withTables, datasetId: null }, channels);
    expect(plain.output.table).toBeNull();
    expect(plain.urls).toEqual(['http://api.test/api/workspaces/w1/channels']);
    const existing = await load({ workspace: withTables, datasetId: 'd1', table: 'web_sessions' }, { body: EXISTING }, channels);
    expect(existing.output).toMatchObject({ dataset: { id: 'd1' }, table: null });
    expect(existing.urls.some((u) => u.endsWith('/tables'))).toBe(false);
  });

  it('each change of the query restarts the 600 ms wait', async () => {
    vi.useFakeTimers();
    const m = start({ workspace: WORKSPACE, datasetId: null });
    m.answer('loadEditor').resolve({ dataset: null, channels: [] });
    await flush();
    m.actor.send({ type: 'user.change', field: 'query', value: 'select 1' });
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS - 100);
    m.actor.send({ type: 'user.change', field: 'query', value: 'select * from demo.orders' });
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS - 100);
    m.actor.send({ type: 'user.change', field: 'query', value: 'select 3' });
    const picked = m.context().values.query;
    await vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS - 1);
    expect(m.calls.filter((c) => c.startsWith('previewQuery'))).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(m.calls.filter((c) => c.startsWith('previewQuery'))).toEqual([`previewQuery ${picked}`]);
    m.actor.stop();
  });

  it('the query mode: only a mode there is is taken', async () => {
    vi.useFakeTimers();
    const m = await openedOnExisting();
    expect(selectQueryMode(m.snap())).toBe('sql');
    m.actor.send({ type: 'user.queryMode', mode: 'build' });
    expect(selectQueryMode(m.snap())).toBe('build');
    m.actor.send({ type: 'user.queryMode', mode: 'bogus' as never });
    expect(selectQueryMode(m.snap())).toBe('build');
    m.actor.send({ type: 'user.queryMode', mode: 'sql' });
    expect(selectQueryMode(m.snap())).toBe('sql');
  });

  it('the real actors: a new dataset reads the channels only with their link, and the table it starts on; leaving cancels the requests', async () => {
    const fake = fakeFetch({ body: { _embedded: { channels: [{ id: 'c1', name: 'Sales', _links: {} }] } } });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const load = (input: DatasetEditorInput) =>
      new Promise<LoadedEditor>((resolve, reject) => {
        const actor = createActor(datasetEditorActors(client).loadEditor, { input });
        actor.subscribe({ complete: () => resolve(actor.getSnapshot().output as LoadedEditor), error: reject });
        actor.start();
      });
    expect(await load({ workspace: NO_PREVIEW_WORKSPACE, datasetId: null })).toEqual({ dataset: null, channels: [], table: null });
    expect(fake.calls).toEqual([]);
    expect(await load({ workspace: WORKSPACE, datasetId: null })).toEqual({ dataset: null, channels: CHANNELS, table: null });
    expect(fake.calls.map((c) => c.url)).toEqual(['http://api.test/api/workspaces/w1/channels?size=99']);
    expect(
      await requestsCancelledOnStop(datasetEditorActors, {
        loadEditor: { workspace: WORKSPACE, datasetId: 'd1' },
        saveDataset: { workspace: WORKSPACE, dataset: EXISTING, body: { title: 'Revenue', query: 'select 1' } },
        previewQuery: { workspace: WORKSPACE, query: 'select 1' },
      }),
    ).toEqual({ loadEditor: true, saveDataset: true, previewQuery: true });
    // the other branch of each: a new dataset on a table (channels and tables at once), a publish
    const withTables = { _links: { ...WORKSPACE._links, tables: link('/workspaces/w1/tables') } };
    expect(
      await requestsCancelledOnStop(datasetEditorActors, {
        loadEditor: { workspace: withTables, datasetId: null, table: 'web_sessions' },
        saveDataset: { workspace: WORKSPACE, dataset: null, body: { title: 'Revenue', query: 'select 1' } },
      }),
    ).toEqual({ loadEditor: true, saveDataset: true });
  });

  it('a second save clears the last failure\'s field errors and banner while it runs', async () => {
    vi.useFakeTimers();
    const m = await openedOnExisting();
    m.actor.send({ type: 'user.save' });
    m.answer('saveDataset').reject(badRequest);
    await flush();
    expect([m.context().errors, m.context().banner]).toEqual([{ alias: 'Alias is taken' }, null]);
    m.actor.send({ type: 'user.save' });
    expect(formOf(m.snap())).toBe('saving');
    expect([m.context().errors, m.context().banner]).toEqual([{}, null]);
    m.answer('saveDataset').reject(serverDown);
    await flush();
    expect([m.context().errors, m.context().banner]).toEqual([{}, 'Down for maintenance']);
    m.actor.send({ type: 'user.save' });
    expect([m.context().errors, m.context().banner]).toEqual([{}, null]);
    m.actor.stop();
  });

  it('a chart builder edit clears the visualisation\'s and the metadata\'s reasons, and no other', async () => {
    vi.useFakeTimers();
    const m = await openedOnExisting();
    m.actor.send({ type: 'user.save' });
    const fields = [
      { field: 'visualisation', objectName: 'dataset', defaultMessage: 'Not a chart' },
      { field: 'metadata', objectName: 'dataset', defaultMessage: 'Not metadata' },
      { field: 'alias', objectName: 'dataset', defaultMessage: 'Alias is taken' },
    ];
    m.answer('saveDataset').reject(new ApiFailure({ kind: 'response', status: 400, message: '[400] …', body: { ...errorBody('x', 'y'), errors: fields } }));
    await flush();
    expect(m.context().errors).toEqual({ visualisation: 'Not a chart', metadata: 'Not metadata', alias: 'Alias is taken' });
    m.actor.send({ type: 'user.build', edit: { type: 'kind', kind: 'bar' } });
    expect(m.context().errors).toEqual({ alias: 'Alias is taken' });
    m.actor.stop();
  });

  it('the first chart is drawn only on a blank visualisation and blank metadata (spaces are blank), and leaves the preview shown', async () => {
    vi.useFakeTimers();
    const typed = async (field: 'visualisation' | 'metadata' | null, value: string) => {
      const m = start({ workspace: WORKSPACE, datasetId: null, table: 'web_sessions' });
      m.answer('loadEditor').resolve({ dataset: null, channels: [] });
      await flush();
      expect(selectPreviewState(m.snap())).toBe('previewing');
      if (field !== null) m.actor.send({ type: 'user.change', field, value });
      m.answer('previewQuery').resolve(PREVIEW);
      await flush();
      expect(selectPreviewState(m.snap())).toBe('previewed');
      expect(m.context().firstChart).toBe(false);
      const values = m.context().values;
      m.actor.stop();
      return values;
    };
    const drawn = (values: { visualisation: string }) => parseVisualisation(values.visualisation);
    expect(drawn(await typed(null, ''))).toMatchObject({ kind: 'chart', chartType: 'bar' });
    expect(drawn(await typed('visualisation', '   '))).toMatchObject({ kind: 'chart', chartType: 'bar' });
    expect(drawn(await typed('metadata', ' \n '))).toMatchObject({ kind: 'chart', chartType: 'bar' });
    expect((await typed('visualisation', '{"html-table":{}}')).visualisation).toBe('{"html-table":{}}');
    const kept = await typed('metadata', '{"name":"kept"}');
    expect([kept.metadata, kept.visualisation]).toEqual(['{"name":"kept"}', '']);
  });
});
