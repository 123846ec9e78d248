import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { ApiFailure } from '../../api/errors';
import type { QueryEdit, QueryMode } from '../../domain/queryBuilderEdit';
import { readQuery } from '../../domain/queryBuilderRead';
import type { Dataset, DatasetPreview } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import { datasetEditorMachine, PREVIEW_DEBOUNCE_MS, selectPreviewState, selectQueryMode, type DatasetEditorContext, type DatasetEditorInput, type LoadedEditor } from './datasetEditor.machine';

// Questions without SQL (issue 38): the dataset editor's query builder. Picks are user.buildQuery
// edits of the SQL, previewed like typing; SQL the builder cannot read is left exactly as it is
// and asks for no preview; the query opens in the builder when the builder reads it. Paths are
// generated on the real machine; each step is checked against what the pick should have done,
// read back from the SQL, not against the function that wrote it.

const link = (href: string) => ({ href: `http://api.test/api${href}` });
const WORKSPACE = { _links: { 'publish dataset': link('/workspaces/w1/datasets'), 'preview dataset': link('/workspaces/w1/datasets/preview') } };

const BUILT = 'SELECT "status", count(*) AS "orders"\nFROM "orders"\nGROUP BY "status"';
const OWN_SQL = 'select month, revenue from demo.orders';
const dataset = (query: string): Dataset => ({ id: 'd1', title: 'Revenue', query, _links: { 'edit dataset': link('/datasets/d1') } });
const PREVIEW: DatasetPreview = { columns: ['status', 'orders'], rows: [{ status: 'paid', orders: 3 }], truncated: false };
const refused = new ApiFailure({ kind: 'response', status: 400, message: '[400] …', body: { timestamp: 't', status: 400, error: 'Bad Request', path: '/x', message: 'x', errors: [{ field: 'query', objectName: 'dataset', defaultMessage: 'Only a read-only query can be previewed' }] } });

const STATUS = { table: 'orders', column: 'status' };
/**
 * The picks tried on every path (two, so the graph stays small; the targeted tests below try
 * more): each says what the SQL must read as afterwards.
 */
const PICKS: readonly { readonly edit: QueryEdit; readonly check: (after: NonNullable<ReturnType<typeof stateRead>>, before: ReturnType<typeof stateRead>) => void }[] = [
  {
    edit: { type: 'table', table: 'orders' },
    check: (after, before) => {
      expect(after.table).toBe('orders');
      // the same table keeps the query; a new one starts on its rows, 100 at a time
      if (before?.table === 'orders') expect(after).toEqual(before);
      else expect(after).toMatchObject({ columns: [], groupBy: [], aggregates: [], limit: 100 });
    },
  },
  {
    edit: { type: 'aggregate', index: 0, aggregate: { fn: 'count', column: null, alias: '' } },
    check: (after, before) => {
      expect(after.aggregates[0]?.fn).toBe('count');
      // a name the analyst gave stays; a new count is named for what it counts
      if (before?.aggregates[0] === undefined) expect(after.aggregates[0]?.alias).toBe('row_count');
      expect(after.groupBy).toEqual(before?.groupBy);
    },
  },
];

function stateRead(sql: string) {
  const read = readQuery(sql);
  return read.ok ? read.state : undefined;
}

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as DatasetEditorContext;
const previewRegion = (snapshot: AnyMachineSnapshot) => (snapshot.matches('ready') ? JSON.stringify((snapshot.value as { ready: { preview: unknown } }).ready.preview) : null);

const events = (load: LoadedEditor) => ({
  'xstate.done.actor.loadEditor': [{ output: load }],
  'xstate.error.actor.loadEditor': [{ error: new ApiFailure({ kind: 'server', status: 503, message: 'Down' }) }],
  'xstate.done.actor.previewQuery': [{ output: PREVIEW }],
  'xstate.error.actor.previewQuery': [{ error: refused }],
  'xstate.done.actor.saveDataset': [{ output: dataset(BUILT) }],
  'xstate.error.actor.saveDataset': [{ error: new ApiFailure({ kind: 'server', status: 503, message: 'Down' }) }],
  // the SQL typed into something the builder cannot read, once, from a query it reads
  'user.change': (snapshot: AnyMachineSnapshot) => (stateRead(ctx(snapshot).values.query) ? [{ field: 'query', value: 'select 1' }] : []),
  'user.buildQuery': PICKS.map(({ edit }) => ({ edit })),
  // switching back and forth on the loaded query (and no other, so the graph stays small); the
  // rules below check that nothing else ever switches it
  'user.queryMode': (snapshot: AnyMachineSnapshot) => (ctx(snapshot).values.query === (load.dataset?.query ?? '') ? [{ mode: ctx(snapshot).queryMode === 'build' ? 'sql' : 'build' }] : []),
  'user.build': [],
  // Cancel and its question have paths of their own (datasetEditor.test.ts)
  'user.cancel': [],
  'user.discard': [],
  'user.keepEditing': [],
});

const cases: [string, DatasetEditorInput, LoadedEditor, QueryMode][] = [
  ['a new dataset', { workspace: WORKSPACE, datasetId: null }, { dataset: null, channels: [] }, 'sql'],
  ['a dataset the builder wrote', { workspace: WORKSPACE, datasetId: 'd1' }, { dataset: dataset(BUILT), channels: [] }, 'build'],
  ['a dataset with SQL of its own', { workspace: WORKSPACE, datasetId: 'd1' }, { dataset: dataset(OWN_SQL), channels: [] }, 'sql'],
];

describe.each(cases)('datasetEditor machine, the query builder on %s, generated paths', (_name, input, load, opensIn) => {
  const cases = events(load);
  // past a save the form's own paths (datasetEditor.test.ts) take over
  const stopWhen = (snapshot: AnyMachineSnapshot) => snapshot.matches({ ready: { form: 'saving' } }) || snapshot.matches('saved');
  const paths = modelPaths(datasetEditorMachine, { input, events: cases, stopWhen });

  it('walks every transition', () => {
    expect(unwalkedTransitions(datasetEditorMachine, paths, { input, events: cases, stopWhen })).toEqual([]);
    // saved and a failed save lie past a save, where the paths stop; a new dataset has no title to
    // save; a loaded query is previewed at once; the builder never changes SQL it cannot read
    const expected =
      load.dataset === null
        ? ['datasetEditor.ready.form.saving']
        : load.dataset.query === OWN_SQL
          ? ['datasetEditor.ready.preview.idle', 'datasetEditor.ready.preview.debouncing']
          : ['datasetEditor.ready.preview.idle'];
    expect(unvisitedStates(datasetEditorMachine, paths).filter((id) => !/saved$|form\.failed$|closed$|confirmingDiscard$/.test(id)).sort()).toEqual(expected.sort());
  });

  it('keeps the query builder rules on every step', () => {
    for (const path of paths) {
      for (const [i, step] of path.steps.entries()) {
        const before = i > 0 ? path.steps[i - 1]!.state : undefined;
        const now = ctx(step.state);
        const event = step.event as { type: string; edit?: QueryEdit; mode?: QueryMode };
        // the query opens in the builder when the builder reads it, else as SQL
        if (event.type === 'xstate.done.actor.loadEditor') expect(now.queryMode).toBe(opensIn);
        if (before === undefined) continue;
        const was = ctx(before);
        if (event.type === 'user.queryMode') {
          expect(now.queryMode).toBe(event.mode);
          expect(now.values).toEqual(was.values);
          expect(previewRegion(step.state)).toBe(previewRegion(before));
        } else if (event.type !== 'xstate.done.actor.loadEditor') {
          expect(selectQueryMode(step.state as never)).toBe(was.queryMode);
        }
        if (event.type === 'user.buildQuery') {
          const pick = PICKS.find((p) => JSON.stringify(p.edit) === JSON.stringify(event.edit))!;
          const old = stateRead(was.values.query);
          if (old === undefined || (old === null && event.edit?.type !== 'table')) {
            // SQL the builder cannot read (or no table yet) is left exactly as it is, and not previewed again
            expect(now.values.query).toBe(was.values.query);
            expect(previewRegion(step.state)).toBe(previewRegion(before));
          } else {
            const after = stateRead(now.values.query);
            expect(after).toBeTruthy();
            pick.check(after!, old);
            // a pick that changed the SQL is previewed as typing is: after the wait
            if (now.values.query !== was.values.query) expect(selectPreviewState(step.state as never)).toBe('waiting');
            else expect(previewRegion(step.state)).toBe(previewRegion(before));
          }
          expect(now.errors.query).toBeUndefined();
          expect(step.state.matches({ ready: { form: 'editing' } })).toBe(true);
        }
        // whatever the mode, the SQL is what is previewed and saved
        if (step.state.matches({ ready: { preview: 'previewing' } })) expect(now.values.query.trim()).not.toBe('');
      }
    }
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(datasetEditorMachine, path, {
      input,
      states: {
        'ready.preview.previewing': (snapshot, { invocations }) => {
          const preview = invocations.filter((call) => call.id === 'previewQuery').at(-1) as { input: { query: string } } | undefined;
          expect(preview?.input.query).toBe(ctx(snapshot).values.query);
        },
        'ready.form.saving': (snapshot, { invocations }) => {
          const save = invocations.filter((call) => call.id === 'saveDataset').at(-1) as { input: { body: { query?: string } } } | undefined;
          expect(save?.input.body.query).toBe(ctx(snapshot).values.query);
        },
      },
    });
  });
});

describe('datasetEditor machine, the query builder, targeted', () => {
  const input: DatasetEditorInput = { workspace: WORKSPACE, datasetId: null };
  const loaded = { type: 'xstate.done.actor.loadEditor', output: { dataset: null, channels: [] } };

  it('builds a grouped count from no SQL, previewed once 600 ms after the last pick', async () => {
    const picks = [
      { type: 'user.queryMode', mode: 'build' },
      { type: 'user.buildQuery', edit: { type: 'table', table: 'orders' } },
      { type: 'user.buildQuery', edit: { type: 'groupBy', columns: [STATUS] } },
      { type: 'user.buildQuery', edit: { type: 'aggregate', index: 0, aggregate: { fn: 'count', column: null, alias: '' } } },
      { type: 'user.buildQuery', edit: { type: 'sort', index: 0, sort: { key: { kind: 'aggregate', index: 0 }, direction: 'desc' } } },
    ];
    const path = pathOf(datasetEditorMachine, [loaded, ...picks, { type: 'xstate.after.previewDelay.datasetEditor.ready.preview.debouncing' }], { input });
    const log = await replayPath(datasetEditorMachine, path, { input });
    const query = 'SELECT "status", count(*) AS "row_count"\nFROM "orders"\nGROUP BY "status"\nORDER BY "row_count" DESC\nLIMIT 100';
    expect(ctx(path.state).values.query).toBe(query);
    expect(log.clock.now()).toBe(PREVIEW_DEBOUNCE_MS);
    expect(log.invocations.filter((call) => call.id === 'previewQuery').map((call) => (call.input as { query: string }).query)).toEqual([query]);
  });

  it('a pick is not taken while the form saves, and a mode that is not one is refused', () => {
    const existing = { ...loaded, output: { dataset: dataset(BUILT), channels: [] } };
    const saving = pathOf(datasetEditorMachine, [existing, { type: 'user.save' }], { input: { ...input, datasetId: 'd1' } }).state;
    expect(saving.matches({ ready: { form: 'saving' } })).toBe(true);
    expect(saving.can({ type: 'user.buildQuery', edit: { type: 'limit', limit: 5 } })).toBe(false);
    const ready = pathOf(datasetEditorMachine, [loaded], { input }).state;
    expect(ready.can({ type: 'user.queryMode', mode: 'chart' })).toBe(false);
  });

  it("'Build your first chart' opens in the builder, and its first preview still draws the chart", async () => {
    const onTable: DatasetEditorInput = { workspace: WORKSPACE, datasetId: null, table: 'web_sessions' };
    const table = { name: 'web_sessions', columns: [{ name: 'source', type: 'text' }] };
    const path = pathOf(
      datasetEditorMachine,
      [
        { ...loaded, output: { dataset: null, channels: [], table } },
        { type: 'user.buildQuery', edit: { type: 'limit', limit: 5 } },
        { type: 'xstate.after.previewDelay.datasetEditor.ready.preview.debouncing' },
        { type: 'xstate.done.actor.previewQuery', output: { columns: ['source', 'row_count'], rows: [{ source: 'email', row_count: 2 }], truncated: false } },
      ],
      { input: onTable },
    );
    await replayPath(datasetEditorMachine, path, { input: onTable });
    const now = ctx(path.state);
    expect(now.queryMode).toBe('build');
    expect(now.values.query).toBe('SELECT "source", count(*) AS "row_count"\nFROM "web_sessions"\nGROUP BY "source"\nORDER BY "row_count" DESC, "source" ASC\nLIMIT 5');
    expect(JSON.parse(now.values.visualisation)).toEqual({ 'chartjs-chart': { chartType: 'bar' } });
  });
});
