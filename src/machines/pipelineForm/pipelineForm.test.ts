import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AnyMachineSnapshot } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Pipeline, PipelineWrite } from '../../domain/resources';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import { TABLE_PREFIX_MESSAGES } from '../../domain/tableNamespace';
import { pipelineFormActors } from './pipelineForm.actors';
import { heldActors } from '../testing/deferred.fixture';
import type { PipelineLineage } from '../../domain/lineageResources';
import { pipelineBody, pipelineFormMachine, selectAutoSaving, selectBusy, selectImpactQuestion, selectShareQuestion, type EditorComponent, type LoadedForm, type PipelineFormContext, type PipelineFormInput, type SavePipelineInput } from './pipelineForm.machine';

const link = (href: string) => ({ href: href.startsWith('/') ? `http://api.test/api${href}` : href });
const WORKSPACE = { _links: { 'new pipeline': link('http://api.test/api/workspaces/w1/pipelines'), pipelines: link('http://api.test/api/workspaces/w1/pipelines'), dataplugins: link('http://api.test/api/workspaces/w1/dataplugins') } };

const NEW: Pipeline = {
  id: 'p1',
  name: null,
  status: 'DRAFT',
  draft: true,
  _links: { 'create pipeline': link('/pipelines/p1'), 'draft pipeline': link('/pipelines/p1/draft'), dataplugins: link('/dataplugins') },
};
const EXISTING: Pipeline = {
  id: 'p2',
  name: 'Orders',
  schedule: '0 0 0 * * *',
  script: 'echo hi',
  properties: { 'tap-demo.rows': 5, 'tap-gone.x': 1 },
  _links: { 'update pipeline': link('/pipelines/p2') },
};
// A saved pipeline that can say what its runs feed (issue 41): renaming it asks first.
const FEEDING: Pipeline = { ...EXISTING, id: 'p4', name: 'Shop', _links: { 'update pipeline': link('/pipelines/p4'), lineage: link('/pipelines/p4/lineage') } };
// what the form reads of an impact: the tables' streams and the datasets' and dashboards' titles
const IMPACT = {
  tables: [{ name: 'orders', stream: 'orders' }],
  datasets: [{ id: 'd1', title: 'Top customers', alias: null, status: 'fresh', tables: ['orders'] }],
  dashboards: [{ title: 'Dashboard', status: 'fresh', datasets: ['d1'] }],
} as unknown as PipelineLineage;
const NOTHING_DOWNSTREAM = { tables: [{ name: 'orders', stream: 'orders' }], datasets: [], dashboards: [] } as unknown as PipelineLineage;
const DEMO: EditorComponent = { ref: 'extractors/tap-demo--builtin', name: 'tap-demo', pluginType: 'EXTRACTOR', label: 'Demo data', settings: [{ name: 'rows', kind: 'INTEGER' }] };
const STORE: EditorComponent = { ref: 'target-store', name: 'target-store', pluginType: 'LOADER', label: 'Default store', settings: [] };

// another pipeline is called 'default STORE': a default name steers clear of it, case aside (issue 38)
const loaded = (pipeline: Pipeline, components: EditorComponent[] = []): LoadedForm => ({
  pipeline,
  components,
  triggers: [{ id: 'p2', name: 'Orders' }, { id: 'p9', name: 'Customers' }, { id: 'p8', name: 'default STORE' }],
});
/** The default name of a form whose first component has this label, beside the pipelines above. */
const defaultNameOf = (label: string | null | undefined): string => (label === 'Default store' ? 'Default store 2' : (label ?? ''));
const badRequest = new ApiFailure({
  kind: 'response',
  status: 400,
  message: '[400] …',
  body: { timestamp: 't', status: 400, error: 'Bad Request', message: 'Validation failed', path: '/pipelines/p1', errors: [{ field: 'name', objectName: 'pipeline', defaultMessage: 'Name is taken' }] },
});
const serverDown = new ApiFailure({ kind: 'server', status: 503, message: 'Down for maintenance' });
const SHARED = TABLE_PREFIX_MESSAGES.shared('Demo sales data', '');
const sharedTables = new ApiFailure({
  kind: 'response',
  status: 400,
  message: '[400] …',
  body: { timestamp: 't', status: 400, error: 'Bad Request', message: 'Validation failed', path: '/pipelines/p1', errors: [{ field: 'properties.target-store.table_prefix', objectName: 'pipeline', defaultMessage: SHARED }] },
});

// The server's answer to a save: the same pipeline, now with an id and the links of a saved one.
const savedFrom = (snapshot: AnyMachineSnapshot): Pipeline => {
  const { pipeline } = snapshot.context as PipelineFormContext;
  return { ...pipeline, id: pipeline?.id ?? 'p1', _links: { 'update pipeline': link('/pipelines/p1'), 'draft pipeline': link('/pipelines/p1/draft'), dataplugins: link('/dataplugins') } };
};

const eventsFor = (load: LoadedForm) => ({
  'xstate.done.actor.loadForm': [{ output: load }],
  'xstate.error.actor.loadForm': [{ error: serverDown }],
  'xstate.done.actor.savePipeline': (snapshot: AnyMachineSnapshot) => [{ output: savedFrom(snapshot) }],
  'xstate.error.actor.savePipeline': [{ error: badRequest }, { error: serverDown }, { error: sharedTables }],
  'xstate.done.actor.startJob': [{ output: { id: 'j1', status: 'QUEUED' } }],
  'xstate.error.actor.startJob': [{ error: serverDown }],
  'xstate.done.actor.loadImpact': [{ output: IMPACT }, { output: NOTHING_DOWNSTREAM }],
  'xstate.error.actor.loadImpact': [{ error: serverDown }],
  'user.addComponents': [{ components: [STORE] }],
  'user.removeComponent': [{ name: 'tap-demo' }],
});

// Value edits are the targeted tests' business: kept out of the graph, they would multiply its contexts.
const BARE = { 'user.change': [], 'user.setProperty': [], 'user.schedule': [], 'user.actionsMode': [], 'user.triggers': [] };

const cases: [string, PipelineFormInput, LoadedForm, Record<string, unknown>?][] = [
  ['a new pipeline from ?dataplugin', { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: null, dataPluginId: 'demo', validate: false }, loaded(NEW, [DEMO])],
  ['an existing pipeline with ?validate=true', { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: 'p2', dataPluginId: null, validate: true }, loaded(EXISTING, [DEMO])],
  ['a pipeline without save links', { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: 'p3', dataPluginId: null, validate: true }, loaded({ id: 'p3', name: 'Locked' }, [])],
  // one value edit in this graph: a new name, which reaches what the pipeline's tables feed
  ['a pipeline feeding datasets, renamed', { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: 'p4', dataPluginId: null, validate: false }, loaded(FEEDING, [DEMO, STORE]), { 'user.change': [{ field: 'name', value: 'Sales' }] }],
];

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as PipelineFormContext;

describe.each(cases)('pipelineForm machine for %s, generated paths', (_, input, load, edits = {}) => {
  const events = { ...eventsFor(load), ...BARE, ...edits };
  const paths = modelPaths(pipelineFormMachine, { input, events });

  it('visits every state and walks every transition', () => {
    const unvisited = unvisitedStates(pipelineFormMachine, paths);
    // Only a pipeline with save links can be saved; a locked one never leaves editing.
    // Only a pipeline that can say what it feeds asks about it, and only once renamed.
    const impact = input.pipelineId === 'p4' ? [] : ['pipelineForm.checkingImpact', 'pipelineForm.confirmingImpact'];
    const expected =
      input.pipelineId === 'p3'
        ? ['pipelineForm.validating', 'pipelineForm.autoSaving', 'pipelineForm.saving', 'pipelineForm.confirmingShare', 'pipelineForm.startingRun', 'pipelineForm.saved']
        : input.pipelineId === 'p4'
          ? ['pipelineForm.validating', 'pipelineForm.autoSaving']
          : input.validate
            ? []
            : ['pipelineForm.validating'];
    expect(unvisited.sort()).toEqual([...expected, ...impact].sort());
    expect(unwalkedTransitions(pipelineFormMachine, paths, { input, events })).toEqual([]);
  });

  it('keeps the rules of spec 001 §4 and §5 on every step', () => {
    for (const path of paths) {
      for (const [i, step] of path.steps.entries()) {
        const was = i > 0 ? ctx(path.steps[i - 1]!.state) : undefined;
        const now = ctx(step.state);
        const event = step.event as { type: string; mode?: string };
        // a pipeline never triggers itself
        expect(now.triggerOptions.some((o) => o.value === now.pipeline?.name && now.pipeline?.name)).toBe(false);
        expect(now.triggeredBy).not.toContain(now.pipeline?.name ?? '\u0000');
        if (event.type === 'user.actionsMode' && event.mode === 'default') expect(now.script).toBe('');
        // a save goes ahead, asks first what it reaches (issue 41), or says why not
        if (event.type === 'user.save' && !step.state.matches('saving') && !step.state.matches('checkingImpact')) {
          expect(Object.keys(now.fieldErrors).length > 0 || now.banner !== null).toBe(true);
          if (was?.name.trim() === '') expect(now.fieldErrors.name).toBe('Name is required');
        }
        if (event.type === 'xstate.error.actor.savePipeline') {
          const error = (step.event as unknown as { error: unknown }).error;
          expect(now.banner).toBe(error === serverDown ? 'Down for maintenance' : 'Validation failed');
          expect(now.fieldErrors).toEqual(error === badRequest ? { name: 'Name is taken' } : error === sharedTables ? { 'properties.target-store.table_prefix': SHARED } : {});
          // only an explicit save asks about sharing tables; an auto-save or a check shows the error
          expect(step.state.matches('confirmingShare')).toBe(error === sharedTables && path.steps[i - 1]?.state.matches('saving') === true);
        }
        if (event.type === 'user.keepTables') expect(now.fieldErrors['properties.target-store.table_prefix']).toBe(SHARED);
        if (event.type === 'user.shareTables') expect(now.shareTables).toBe(true);
        // a confirmation lasts until the save it was given for succeeds (a failed one may be retried)
        if (event.type === 'xstate.done.actor.savePipeline') expect(now.shareTables).toBe(false);
        if (!path.steps.slice(0, i + 1).some((s) => s.event.type === 'user.shareTables')) expect(now.shareTables).toBe(false);
        if (event.type === 'xstate.error.actor.loadForm') expect(now.loadError).toBe('Down for maintenance');
        // issue 41: a save of a new name asks about what the pipeline feeds before saving, never after
        const renamed = now.pipeline !== null && now.name.trim() !== (now.pipeline.name ?? '').trim();
        if ((event.type === 'user.save' || event.type === 'user.saveAndRun') && path.steps[i - 1]?.state.matches('editing')) {
          expect(step.state.matches('checkingImpact')).toBe(renamed && Object.keys(now.fieldErrors).length === 0 && now.pipeline?._links?.lineage !== undefined);
        }
        if (step.state.matches('confirmingImpact')) {
          expect(now.cutOff).toEqual(['renames the pipeline']);
          expect(selectImpactQuestion(step.state as never)).toEqual({ title: 'This save renames the pipeline. Its runs feed these:', impact: IMPACT });
        } else {
          expect(now.impact).toBeNull();
          expect(selectImpactQuestion(step.state as never)).toBeNull();
        }
        // nothing downstream, or an impact that cannot be read: the save goes on without asking
        if (event.type === 'xstate.done.actor.loadImpact' || event.type === 'xstate.error.actor.loadImpact') {
          const output = (step.event as unknown as { output?: PipelineLineage }).output;
          expect(step.state.matches(output === IMPACT ? 'confirmingImpact' : 'saving')).toBe(true);
        }
        if (event.type === 'user.saveAnyway') expect(step.state.matches('saving')).toBe(true);
        // Keep editing keeps every value as it was typed
        if (event.type === 'user.keepEditing') {
          expect(step.state.matches('editing')).toBe(true);
          expect(now.name).toBe(was?.name);
        }
        // the name follows the first plugin until typed
        if (!now.nameTyped && now.pipeline !== null) expect(now.name).toBe(defaultNameOf(now.components[0]?.label));
      }
    }
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(pipelineFormMachine, path, {
      input,
      states: {
        loading: (_s, { invocations }) => expect(invocations.at(-1)).toMatchObject({ id: 'loadForm', input }),
        autoSaving: (snapshot, { invocations }) => {
          // any change to the component set saves a draft through the draft link
          expect(invocations.at(-1)).toMatchObject({ id: 'savePipeline', input: { rel: 'draft pipeline', body: { dataComponents: ctx(snapshot).components.map((c) => c.ref) } } });
        },
        saving: (snapshot, { invocations }) => {
          const { saveKind, pipeline, shareTables } = ctx(snapshot);
          const rel = saveKind === 'draft' ? 'draft pipeline' : pipeline?._links?.['create pipeline'] ? 'create pipeline' : 'update pipeline';
          expect(invocations.at(-1)).toMatchObject({ id: 'savePipeline', input: { rel } });
          // the confirmation travels with the save it was given for, and only then
          expect((invocations.at(-1) as { input: { body: { shareTables?: boolean } } }).input.body.shareTables).toBe(shareTables ? true : undefined);
          expect(selectBusy(snapshot as never)).toBe(true);
        },
        validating: (snapshot, { invocations }) => {
          // ?validate=true keeps a draft a draft and saves a non-draft with its own link
          expect(invocations.at(-1)).toMatchObject({ id: 'savePipeline', input: { rel: ctx(snapshot).pipeline?.draft ? 'draft pipeline' : 'update pipeline' } });
        },
        saved: (snapshot, { actions }) => {
          const { pipeline, runAfterSave } = ctx(snapshot);
          const last = actions.filter((a) => a.name === 'showPipeline' || a.name === 'showRuns').at(-1);
          const started = path.steps.at(-1)?.event.type === 'xstate.done.actor.startJob';
          // Save: the pipeline's page says it is saved. Save & run: the list says the run started,
          // or the pipeline's page says why it could not start.
          if (!runAfterSave) expect(last).toMatchObject({ name: 'showPipeline', params: { workspaceId: 'w1', pipelineId: pipeline?.id, toast: 'Pipeline saved', toastIntent: 'success' } });
          else if (started) expect(last).toMatchObject({ name: 'showRuns', params: { workspaceId: 'w1', toast: expect.stringMatching(/saved: its run has started\.$/) as unknown } });
          else expect(last).toMatchObject({ name: 'showPipeline', params: { pipelineId: pipeline?.id, toast: expect.stringMatching(/saved, but its run could not start: Down for maintenance$/) as unknown, toastIntent: 'warning' } });
        },
        checkingImpact: (snapshot, { invocations }) => {
          // the impact is read from the pipeline being saved, through its 'lineage' link
          expect(invocations.at(-1)).toMatchObject({ id: 'loadImpact', input: { pipeline: { id: ctx(snapshot).pipeline?.id } } });
          expect(selectBusy(snapshot as never)).toBe(true);
        },
        startingRun: (snapshot, { invocations }) => {
          // the run is asked for the pipeline just saved
          expect(invocations.at(-1)).toMatchObject({ id: 'startJob', input: { pipeline: { id: ctx(snapshot).pipeline?.id } } });
          expect(selectBusy(snapshot as never)).toBe(true);
        },
      },
    });
  });
});

describe('pipelineForm, targeted rules', () => {
  /** The form on the stored pipeline p4 with the test's actors; its moves go nowhere. */
  const onP4 = (actors: NonNullable<Parameters<typeof pipelineFormMachine.provide>[0]['actors']>) =>
    createActor(pipelineFormMachine.provide({ actors, actions: { showPipeline: () => undefined, close: () => undefined } }), {
      input: { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: 'p4', dataPluginId: null, validate: false },
    }).start();
  const start = (load: LoadedForm, input: Partial<PipelineFormInput> = {}) => {
    const saves: unknown[] = [];
    const navigations: string[] = [];
    const actor = createActor(
      pipelineFormMachine.provide({
        actors: {
          loadForm: fromPromise(() => Promise.resolve(load)),
          savePipeline: fromPromise(({ input: save }) => {
            saves.push(save);
            return Promise.resolve({ ...load.pipeline, id: 'p1' });
          }),
        },
        actions: { showPipeline: (_, { pipelineId }) => void navigations.push(pipelineId), close: () => void navigations.push('list') },
      }),
      { input: { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: null, dataPluginId: null, validate: false, ...input } },
    ).start();
    return { actor, saves, navigations };
  };
  const settle = () => new Promise((r) => setTimeout(r, 0));

  it('builds the save body: dropped settings, schedule stored with 6 fields, numbers, script cleared', async () => {
    const { actor, saves, navigations } = start(loaded(EXISTING, [DEMO]), { pipelineId: 'p2' });
    await settle();
    actor.send({ type: 'user.schedule', choice: 'custom' });
    actor.send({ type: 'user.change', field: 'customCron', value: '*/5 * * * *' });
    actor.send({ type: 'user.change', field: 'timeout', value: '600' });
    actor.send({ type: 'user.change', field: 'maxRetries', value: '2' });
    actor.send({ type: 'user.actionsMode', mode: 'default' });
    actor.send({ type: 'user.triggers', names: ['Customers', 'Orders'] });
    actor.send({ type: 'user.save' });
    await settle();
    expect(saves).toEqual([
      {
        pipeline: EXISTING,
        rel: 'update pipeline',
        body: { name: 'Orders', properties: { 'tap-demo.rows': 5 }, schedule: '0 */5 * * * *', dataComponents: ['extractors/tap-demo--builtin'], actions: [], script: null, timeout: 600, maxRetries: 2, triggeredBy: ['Customers'] },
      },
    ]);
    expect(navigations).toEqual(['p1']);
  });

  it('refuses a bad cron, a negative timeout and an empty name before asking the server', async () => {
    const { actor, saves } = start(loaded(NEW, [DEMO]));
    await settle();
    actor.send({ type: 'user.change', field: 'name', value: ' ' });
    actor.send({ type: 'user.schedule', choice: 'custom' });
    actor.send({ type: 'user.change', field: 'customCron', value: 'every day' });
    actor.send({ type: 'user.change', field: 'timeout', value: '-1' });
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ name: 'Name is required', schedule: expect.stringContaining('cron expression') as unknown, timeout: 'Enter a whole number, 0 or more' });
    // a draft may be nameless, not unbuildable
    actor.send({ type: 'user.saveDraft' });
    expect(Object.keys(actor.getSnapshot().context.fieldErrors).sort()).toEqual(['schedule', 'timeout']);
    expect(saves).toEqual([]);
  });

  it('shows the missing-link message when nothing can save the pipeline', async () => {
    const { actor } = start(loaded({ id: 'p3', name: 'Locked' }));
    await settle();
    actor.send({ type: 'user.saveDraft' });
    expect(actor.getSnapshot().context.banner).toBe("Entity 'pipeline' cannot be drafted");
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().context.banner).toBe("Entity 'pipeline' cannot be updated");
  });

  it('a second component change during an auto-save saves again with the newest set', async () => {
    const { actor, saves } = start(loaded(NEW, [DEMO]));
    await settle();
    actor.send({ type: 'user.addComponents', components: [STORE] });
    actor.send({ type: 'user.removeComponent', name: 'tap-demo' });
    await settle();
    expect(saves.map((s) => (s as { body: { dataComponents: string[] } }).body.dataComponents)).toEqual([['extractors/tap-demo--builtin', 'target-store'], ['target-store']]);
    expect(actor.getSnapshot().value).toBe('editing');
    // 'default STORE' is another pipeline's name: the default is numbered on
    expect(actor.getSnapshot().context.name).toBe('Default store 2');
  });

  it('asks before sharing tables: Share saves again confirmed, Choose another prefix keeps editing, a new prefix withdraws the confirmation', async () => {
    const bodies: PipelineWrite[] = [];
    let refuse = 2;
    const actor = createActor(
      pipelineFormMachine.provide({
        actors: {
          loadForm: fromPromise(() => Promise.resolve(loaded(EXISTING, [DEMO, STORE]))),
          savePipeline: fromPromise(({ input: save }: { input: SavePipelineInput }) => {
            bodies.push(save.body);
            return refuse-- > 0 && save.body.shareTables !== true ? Promise.reject(sharedTables) : Promise.resolve({ ...EXISTING, id: 'p2' });
          }),
        },
        actions: { showPipeline: () => undefined, close: () => undefined },
      }),
      { input: { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: 'p2', dataPluginId: null, validate: false } },
    ).start();
    await settle();
    actor.send({ type: 'user.save' });
    await settle();
    expect(actor.getSnapshot().value).toBe('confirmingShare');
    actor.send({ type: 'user.keepTables' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.fieldErrors['properties.target-store.table_prefix']).toBe(SHARED);
    actor.send({ type: 'user.save' });
    await settle();
    actor.send({ type: 'user.shareTables' });
    expect(actor.getSnapshot().context.shareTables).toBe(true);
    actor.send({ type: 'user.setProperty', key: 'target-store.table_prefix', value: 'mine_' });
    expect(actor.getSnapshot().context.shareTables).toBe(false);
    await settle();
    expect(bodies.map((b) => b.shareTables)).toEqual([undefined, undefined, true]);
    expect(actor.getSnapshot().value).toBe('saved');
  });

  it('asks before a new table prefix or a deselected stream its tables hold, and not for a stream they do not (issue 41)', async () => {
    const bodies: PipelineWrite[] = [];
    let impactReads = 0;
    const actor = onP4({
      loadForm: fromPromise(() => Promise.resolve(loaded({ ...FEEDING, properties: { 'target-store.table_prefix': 'shop_' } }, [DEMO, STORE]))),
      loadImpact: fromPromise(() => {
        impactReads += 1;
        return Promise.resolve(IMPACT);
      }),
      savePipeline: fromPromise(({ input: save }: { input: SavePipelineInput }) => {
        bodies.push(save.body);
        return Promise.resolve({ ...FEEDING, ...save.body, id: 'p4' } as Pipeline);
      }),
    });
    await settle();
    // a schedule change reaches nothing: no question, no impact read
    actor.send({ type: 'user.change', field: 'timeout', value: '60' });
    actor.send({ type: 'user.setProperty', key: 'target-store.table_prefix', value: 'sales_' });
    actor.send({ type: 'user.save' });
    await settle();
    expect(actor.getSnapshot().value).toBe('confirmingImpact');
    expect(actor.getSnapshot().context.cutOff).toEqual(['changes its table prefix']);
    actor.send({ type: 'user.keepEditing' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.properties['target-store.table_prefix']).toBe('sales_');
    expect(bodies).toEqual([]);
    // back to the old prefix; selecting only customers drops orders, which its table holds
    actor.send({ type: 'user.setProperty', key: 'target-store.table_prefix', value: 'shop_' });
    actor.send({ type: 'user.setProperty', key: 'tap-demo._select', value: ['customers.*', 'orders.*'] });
    actor.send({ type: 'user.save' });
    await settle();
    // orders stays selected: nothing is cut off, so the save goes ahead without asking
    expect(impactReads).toBe(2);
    expect(bodies).toHaveLength(1);
    expect(actor.getSnapshot().value).toBe('saved');
  });

  it('names only the streams of the tables that have one (a table a transform made has none)', async () => {
    const withModel = { ...IMPACT, tables: [{ name: 'summary', stream: null }, ...IMPACT.tables] } as unknown as PipelineLineage;
    const actor = onP4({ loadForm: fromPromise(() => Promise.resolve(loaded(FEEDING, [DEMO, STORE]))), loadImpact: fromPromise(() => Promise.resolve(withModel)) });
    await settle();
    actor.send({ type: 'user.setProperty', key: 'tap-demo._select', value: ['customers.*'] });
    actor.send({ type: 'user.save' });
    await settle();
    expect(actor.getSnapshot().status).toBe('active');
    expect(selectImpactQuestion(actor.getSnapshot())?.title).toBe('This save deselects the stream orders. Its runs feed these:');
    actor.stop();
  });

  it('a stored pipeline without a retry count or a timeout shows both empty', async () => {
    const actor = onP4({ loadForm: fromPromise(() => Promise.resolve(loaded({ ...FEEDING, maxRetries: null, timeout: null }, [DEMO, STORE]))) });
    await settle();
    expect([actor.getSnapshot().context.maxRetries, actor.getSnapshot().context.timeout]).toEqual(['', '']);
    actor.stop();
  });

  it("Save anyway saves a deselection of a stream its tables hold, after naming it", async () => {
    const bodies: PipelineWrite[] = [];
    const actor = onP4({
      loadForm: fromPromise(() => Promise.resolve(loaded(FEEDING, [DEMO, STORE]))),
      loadImpact: fromPromise(() => Promise.resolve(IMPACT)),
      savePipeline: fromPromise<Pipeline, SavePipelineInput>(({ input: save }: { input: SavePipelineInput }) => {
        bodies.push(save.body);
        return Promise.resolve({ ...FEEDING, id: 'p4' });
      }),
    });
    await settle();
    actor.send({ type: 'user.setProperty', key: 'tap-demo._select', value: ['customers.*'] });
    actor.send({ type: 'user.save' });
    await settle();
    expect(selectImpactQuestion(actor.getSnapshot())?.title).toBe('This save deselects the stream orders. Its runs feed these:');
    actor.send({ type: 'user.saveAnyway' });
    await settle();
    expect(bodies.map((b) => b.properties?.['tap-demo._select'])).toEqual([['customers.*']]);
    expect(actor.getSnapshot().value).toBe('saved');
  });

  it('body of an untouched pipeline keeps its values', () => {
    const context = { ...createActor(pipelineFormMachine, { input: cases[0]![1] }).getSnapshot().context };
    expect(pipelineBody(context)).toEqual({ name: '', properties: {}, schedule: null, dataComponents: [], actions: [], script: null, timeout: null, maxRetries: null, triggeredBy: [] });
  });

  it('initialises, reads the plugin and the pipelines, and saves through the real client', async () => {
    const fake = fakeFetch(
      { status: 201, body: NEW },
      { status: 200, body: { _embedded: { dataplugins: [{ id: 'demo', name: 'tap-demo', pluginType: 'EXTRACTOR', label: 'Demo data', variant: 'builtin', settings: [{ name: 'rows', kind: 'INTEGER' }] }] } } },
      { status: 200, body: { _embedded: { pipelines: [{ id: 'p9', name: 'Customers' }] } } },
      { status: 200, body: { ...NEW, name: 'Demo data', _embedded: { dataComponents: [{ id: 'c1', name: 'tap-demo' }] } } },
    );
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch });
    const navigations: string[] = [];
    const actor = createActor(pipelineFormMachine.provide({ actors: pipelineFormActors(client), actions: { showPipeline: (_, { pipelineId }) => void navigations.push(pipelineId), close: () => undefined } }), {
      input: { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: null, dataPluginId: 'demo', validate: false },
    }).start();
    // waits on what it checks next, not on a clock
    await waitFor(actor, (snapshot) => snapshot.context.name === 'Demo data', { timeout: 5_000 });
    expect(actor.getSnapshot().context.name).toBe('Demo data');
    actor.send({ type: 'user.setProperty', key: 'tap-demo.rows', value: 10 });
    actor.send({ type: 'user.save' });
    await waitFor(actor, () => navigations.length > 0, { timeout: 5_000 });
    expect(fake.calls.map((c) => [c.method, c.url])).toEqual([
      ['POST', 'http://api.test/api/workspaces/w1/pipelines'],
      ['GET', 'http://api.test/api/workspaces/w1/dataplugins?sort=label&size=9999'],
      ['GET', 'http://api.test/api/workspaces/w1/pipelines?size=99'],
      ['PUT', 'http://api.test/api/pipelines/p1'],
    ]);
    expect(fake.calls[3]?.body).toMatchObject({ name: 'Demo data', properties: { 'tap-demo.rows': 10 }, dataComponents: ['extractors/tap-demo--builtin'] });
    expect(navigations).toEqual(['p1']);
  });
});

describe('pipelineForm, checked by hand', () => {
  /** The machine with the test's own actors: each call recorded, each answer given by the test. */
  function start(input: Partial<PipelineFormInput> = {}) {
    return heldForm({ pipelineId: 'p2', ...input }, {
      load: (i) => `${i.pipelineId ?? 'new'} ${i.dataPluginId ?? '-'}`,
      save: (i) => `${i.pipeline && 'id' in i.pipeline ? String(i.pipeline.id) : 'none'} ${i.rel} ${i.body.name ?? ''}${i.body.shareTables ? ' shared' : ''}`,
    });
  }
  const settle = settleHeld;

  it('starts with nothing loaded and loads by its input; a failed load says why, Close leaves, retry clears the message', async () => {
    const m = start();
    expect(m.context()).toMatchObject({ pipeline: null, components: [], triggerOptions: [], name: '', nameTyped: false, properties: {}, actionsMode: 'default', actions: '', script: '', scheduleChoice: 'manual', customCron: '', timeout: '', maxRetries: '', triggeredBy: [], saveKind: 'save', banner: null, fieldErrors: {}, loadError: null, shareTables: false, runAfterSave: false, impact: null, cutOff: [] });
    expect(m.calls).toEqual(['loadForm p2 -']);
    expect(m.busy()).toBe(false);
    // nothing is taken before the pipeline is loaded
    m.actor.send({ type: 'user.change', field: 'name', value: 'x' });
    m.actor.send({ type: 'user.setProperty', key: 'a.b', value: 1 });
    m.actor.send({ type: 'user.actionsMode', mode: 'custom' });
    m.actor.send({ type: 'user.schedule', choice: 'custom' });
    m.actor.send({ type: 'user.triggers', names: ['Customers'] });
    expect(m.context()).toMatchObject({ name: '', properties: {}, actionsMode: 'default', scheduleChoice: 'manual', triggeredBy: [] });
    m.answer('loadForm').reject(serverDown);
    await settle();
    expect(m.value()).toBe('failed');
    expect(m.context().loadError).toBe('Down for maintenance');
    m.actor.send({ type: 'user.close' });
    expect(m.moves).toEqual(['close w1']);
    m.actor.send({ type: 'user.retry' });
    expect(m.value()).toBe('loading');
    expect(m.context().loadError).toBeNull();
    expect(m.calls).toEqual(['loadForm p2 -', 'loadForm p2 -']);
    m.answer('loadForm').resolve(loaded(EXISTING, [DEMO]));
    await settle();
    expect(m.value()).toBe('editing');
    expect(m.context()).toMatchObject({ pipeline: EXISTING, name: 'Orders', nameTyped: true, components: [DEMO] });
    m.actor.send({ type: 'user.close' });
    expect(m.moves).toEqual(['close w1', 'close w1']);
  });

  it('?validate=true saves once on load through its own link and shows what the server says; without a link it says so', async () => {
    const m = start({ validate: true });
    m.answer('loadForm').resolve(loaded(EXISTING, [DEMO]));
    await settle();
    expect(m.value()).toBe('validating');
    expect(m.busy()).toBe(true);
    expect(m.context().saveKind).toBe('validate');
    expect(m.calls.at(-1)).toBe('savePipeline p2 update pipeline Orders');
    m.answer('savePipeline').reject(badRequest);
    await settle();
    expect(m.value()).toBe('editing');
    expect(m.context()).toMatchObject({ banner: 'Validation failed', fieldErrors: { name: 'Name is taken' } });
    m.actor.stop();
    const ok = start({ validate: true, pipelineId: 'p1' });
    ok.answer('loadForm').resolve(loaded(NEW, [DEMO]));
    await settle();
    expect(ok.calls.at(-1)).toBe('savePipeline p1 draft pipeline Demo data');
    ok.answer('savePipeline').resolve({ ...NEW, properties: { 'target-store.table_prefix': 'demo_' } });
    await settle();
    expect(ok.value()).toBe('editing');
    expect(ok.context()).toMatchObject({ banner: null, fieldErrors: {}, properties: { 'target-store.table_prefix': 'demo_' } });
    ok.actor.stop();
    const locked = start({ validate: true, pipelineId: 'p3' });
    locked.answer('loadForm').resolve(loaded({ id: 'p3', name: 'Locked' }));
    await settle();
    expect(locked.value()).toBe('editing');
    expect(locked.context().banner).toBe("Entity 'pipeline' cannot be updated");
    expect(locked.calls).toEqual(['loadForm p3 -']);
  });

  it("Save: clears the last messages, saves, and shows the pipeline's page saying so; a failure says why and stays", async () => {
    const m = start();
    m.answer('loadForm').resolve(loaded(EXISTING, [DEMO]));
    await settle();
    m.actor.send({ type: 'user.save' });
    expect(m.value()).toBe('saving');
    expect(m.busy()).toBe(true);
    expect(m.context()).toMatchObject({ saveKind: 'save', runAfterSave: false });
    m.answer('savePipeline').reject(serverDown);
    await settle();
    expect(m.value()).toBe('editing');
    expect(m.context().banner).toBe('Down for maintenance');
    m.actor.send({ type: 'user.save' });
    expect(m.context()).toMatchObject({ banner: null, fieldErrors: {} });
    m.answer('savePipeline').resolve({ ...EXISTING, id: 'p2' });
    await settle();
    expect(m.value()).toBe('saved');
    expect(m.actor.getSnapshot().status).toBe('done');
    expect(m.moves).toEqual(['showPipeline w1 p2 success: Pipeline saved']);
  });

  it('a save answered without an id stays on the form', async () => {
    const m = start();
    m.answer('loadForm').resolve(loaded(EXISTING, [DEMO]));
    await settle();
    m.actor.send({ type: 'user.saveAndRun' });
    m.answer('savePipeline').resolve({ ...EXISTING, id: '' });
    await settle();
    expect(m.value()).toBe('editing');
    expect(m.moves).toEqual([]);
    expect(m.calls.some((c) => c.startsWith('startJob'))).toBe(false);
  });

  it("Save & run: saved, then its run asked for; started, the list says so; refused, the pipeline's page says why", async () => {
    for (const started of [true, false]) {
      const m = start();
      m.answer('loadForm').resolve(loaded(EXISTING, [DEMO]));
      await settle();
      m.actor.send({ type: 'user.saveAndRun' });
      expect(m.context()).toMatchObject({ saveKind: 'save', runAfterSave: true });
      m.answer('savePipeline').resolve({ ...EXISTING, id: 'p2', name: 'Orders' });
      await settle();
      expect(m.value()).toBe('startingRun');
      expect(m.busy()).toBe(true);
      expect(m.calls.at(-1)).toBe('startJob p2');
      if (started) m.answer('startJob').resolve({ id: 'j1' });
      else m.answer('startJob').reject(serverDown);
      await settle();
      expect(m.value()).toBe('saved');
      expect(m.moves).toEqual([started ? 'showRuns w1: Orders saved: its run has started.' : 'showPipeline w1 p2 warning: Orders saved, but its run could not start: Down for maintenance']);
    }
  });

  it('Save draft saves through the draft link; a component change of a saved draft auto-saves it, busy only as auto-saving', async () => {
    const m = start({ pipelineId: 'p1' });
    m.answer('loadForm').resolve(loaded(NEW, [DEMO]));
    await settle();
    m.actor.send({ type: 'user.addComponents', components: [DEMO, STORE] });
    expect(m.value()).toBe('autoSaving');
    expect(selectAutoSaving(m.actor.getSnapshot())).toBe(true);
    expect(m.busy()).toBe(false);
    expect(m.context().components).toEqual([DEMO, STORE]);
    expect(m.calls.at(-1)).toBe('savePipeline p1 draft pipeline Demo data');
    m.answer('savePipeline').reject(serverDown);
    await settle();
    expect(m.value()).toBe('editing');
    expect(m.context().banner).toBe('Down for maintenance');
    m.actor.send({ type: 'user.saveDraft' });
    expect(m.value()).toBe('saving');
    expect(m.context()).toMatchObject({ saveKind: 'draft', banner: null });
    expect(m.calls.at(-1)).toBe('savePipeline p1 draft pipeline Demo data');
    m.actor.stop();
    // a pipeline that cannot auto-save takes the change in place
    const locked = start({ pipelineId: 'p3' });
    locked.answer('loadForm').resolve(loaded({ id: 'p3', name: 'Locked' }, [DEMO]));
    await settle();
    locked.actor.send({ type: 'user.addComponents', components: [STORE] });
    locked.actor.send({ type: 'user.removeComponent', name: 'tap-demo' });
    expect(locked.value()).toBe('editing');
    expect(locked.context().components).toEqual([STORE]);
    expect(locked.calls).toEqual(['loadForm p3 -']);
  });

  it('sharing tables: asked only for an explicit save, with the server\'s words; Share saves confirmed; Keep goes back', async () => {
    const m = start({ pipelineId: 'p1' });
    m.answer('loadForm').resolve(loaded(NEW, [DEMO]));
    await settle();
    m.actor.send({ type: 'user.save' });
    m.answer('savePipeline').reject(sharedTables);
    await settle();
    expect(m.value()).toBe('confirmingShare');
    expect(selectShareQuestion(m.actor.getSnapshot())).toBe(SHARED);
    m.actor.send({ type: 'user.keepTables' });
    expect(m.value()).toBe('editing');
    expect(selectShareQuestion(m.actor.getSnapshot())).toBeNull();
    m.actor.send({ type: 'user.save' });
    m.answer('savePipeline').reject(sharedTables);
    await settle();
    m.actor.send({ type: 'user.shareTables' });
    expect(m.value()).toBe('saving');
    expect(m.context()).toMatchObject({ shareTables: true, banner: null, fieldErrors: {} });
    expect(m.calls.at(-1)).toBe('savePipeline p1 create pipeline Demo data shared');
    m.actor.stop();
  });

  it('a rename of a pipeline that feeds datasets asks first, with what it reaches; Keep editing forgets the question', async () => {
    const m = start({ pipelineId: 'p4' });
    m.answer('loadForm').resolve(loaded(FEEDING, [DEMO, STORE]));
    await settle();
    m.actor.send({ type: 'user.change', field: 'name', value: 'Sales' });
    m.actor.send({ type: 'user.saveAndRun' });
    expect(m.value()).toBe('checkingImpact');
    expect(m.busy()).toBe(true);
    expect(m.context()).toMatchObject({ saveKind: 'save', runAfterSave: true });
    expect(m.calls.at(-1)).toBe('loadImpact p4');
    m.answer('loadImpact').resolve(IMPACT);
    await settle();
    expect(m.value()).toBe('confirmingImpact');
    expect(m.context()).toMatchObject({ impact: IMPACT, cutOff: ['renames the pipeline'] });
    m.actor.send({ type: 'user.keepEditing' });
    expect(m.value()).toBe('editing');
    expect(m.context()).toMatchObject({ impact: null, cutOff: [], name: 'Sales' });
    m.actor.send({ type: 'user.save' });
    m.answer('loadImpact').reject(serverDown);
    await settle();
    expect(m.value()).toBe('saving');
    expect(m.calls.at(-1)).toBe('savePipeline p4 update pipeline Sales');
    m.actor.stop();
  });

  it('value edits clear their own errors only; the custom cron clears the schedule error; default actions drop the script', async () => {
    const m = start({ pipelineId: 'p1' });
    m.answer('loadForm').resolve(loaded(NEW, [DEMO]));
    await settle();
    m.actor.send({ type: 'user.change', field: 'name', value: ' ' });
    m.actor.send({ type: 'user.schedule', choice: 'custom' });
    m.actor.send({ type: 'user.change', field: 'customCron', value: 'bad' });
    m.actor.send({ type: 'user.change', field: 'timeout', value: '-1' });
    m.actor.send({ type: 'user.saveAndRun' });
    expect(Object.keys(m.context().fieldErrors).sort()).toEqual(['name', 'schedule', 'timeout']);
    expect(m.context().banner).toBeNull();
    m.actor.send({ type: 'user.change', field: 'customCron', value: '*/5 * * * *' });
    expect(Object.keys(m.context().fieldErrors).sort()).toEqual(['name', 'timeout']);
    m.actor.send({ type: 'user.change', field: 'timeout', value: '5' });
    expect(Object.keys(m.context().fieldErrors)).toEqual(['name']);
    m.actor.send({ type: 'user.change', field: 'name', value: 'Named' });
    expect(m.context()).toMatchObject({ fieldErrors: {}, name: 'Named', nameTyped: true });
    m.actor.send({ type: 'user.save' });
    m.answer('savePipeline').reject(badRequest);
    await settle();
    m.actor.send({ type: 'user.schedule', choice: 'manual' });
    expect(m.context().fieldErrors).toEqual({ name: 'Name is taken' });
    m.actor.send({ type: 'user.actionsMode', mode: 'custom' });
    m.actor.send({ type: 'user.change', field: 'script', value: 'echo' });
    expect(m.context()).toMatchObject({ actionsMode: 'custom', script: 'echo' });
    m.actor.send({ type: 'user.actionsMode', mode: 'custom' });
    expect(m.context().script).toBe('echo');
    m.actor.send({ type: 'user.actionsMode', mode: 'default' });
    expect(m.context()).toMatchObject({ actionsMode: 'default', script: '' });
    m.actor.send({ type: 'user.setProperty', key: 'tap-demo.rows', value: 7 });
    expect(m.context().properties).toMatchObject({ 'tap-demo.rows': 7 });
    m.actor.stop();
  });
});

/**
 * The machine with the test's own actors: each call recorded under its key, each answer given by the
 * test, every save's input kept whole, every move of the page recorded.
 */
function heldForm(input: Partial<PipelineFormInput>, keys: { load: (load: PipelineFormInput) => string; save: (save: SavePipelineInput) => string }) {
  const { calls, pending, held } = heldActors();
  const saves: SavePipelineInput[] = [];
  const moves: string[] = [];
  const machine = pipelineFormMachine.provide({
    actors: {
      loadForm: held<PipelineFormInput, LoadedForm>('loadForm', keys.load),
      savePipeline: held<SavePipelineInput, Pipeline>('savePipeline', (i) => {
        saves.push(i);
        return keys.save(i);
      }),
      startJob: held<{ pipeline: Pipeline }, unknown>('startJob', (i) => i.pipeline.id ?? ''),
      loadImpact: held<{ pipeline: Pipeline }, PipelineLineage>('loadImpact', (i) => i.pipeline.id ?? ''),
    },
    actions: {
      showPipeline: (_, p) => void moves.push(`showPipeline ${p.workspaceId} ${p.pipelineId} ${p.toastIntent}: ${p.toast}`),
      showRuns: (_, p) => void moves.push(`showRuns ${p.workspaceId}: ${p.toast}`),
      close: (_, p) => void moves.push(`close ${p.workspaceId}`),
    },
  });
  const actor = createActor(machine, { input: { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: 'p5', dataPluginId: null, validate: false, ...input } }).start();
  const answer = (id: string) => pending[id]!.at(-1)!;
  const context = () => actor.getSnapshot().context;
  const value = () => actor.getSnapshot().value;
  const busy = () => selectBusy(actor.getSnapshot());
  return { actor, calls, saves, moves, answer, context, value, busy };
}

/** `heldForm` with its load answered with `load`; a save is held under `saveKey(input)` (its rel by default). */
async function openHeld(load: LoadedForm, input: Partial<PipelineFormInput> = {}, saveKey: (save: SavePipelineInput) => string = (save) => save.rel) {
  const form = heldForm(input, { load: (i) => i.pipelineId ?? 'new', save: saveKey });
  form.answer('loadForm').resolve(load);
  await settleHeld();
  return form;
}
function settleHeld(): Promise<unknown> {
  return new Promise((resolve) => setImmediate(resolve));
}

describe('pipelineForm, checked by hand: stored values, save bodies and failures', () => {
  const open = openHeld;
  const settle = settleHeld;
  const UPDATE = { 'update pipeline': link('/pipelines/p5') };

  it('shows a stored pipeline as stored: a custom schedule, its actions, a timeout of 0 as the placeholder, retries and triggers; saves them back', async () => {
    const stored: Pipeline = {
      id: 'p5',
      name: 'Nightly',
      schedule: '0 */5 * * * *',
      actions: ['tap-demo target-store', 'dbt:run'],
      timeout: 0,
      maxRetries: 3,
      triggeredBy: ['Customers'],
      properties: { 'tap-demo.rows': 2 },
      _links: UPDATE,
    };
    const m = await open(loaded(stored, [DEMO]));
    expect(m.value()).toBe('editing');
    expect(m.context()).toMatchObject({
      name: 'Nightly',
      nameTyped: true,
      properties: { 'tap-demo.rows': 2 },
      actionsMode: 'custom',
      actions: 'tap-demo target-store\ndbt:run',
      script: '',
      scheduleChoice: 'custom',
      customCron: '0 */5 * * * *',
      timeout: '',
      maxRetries: '3',
      triggeredBy: ['Customers'],
    });
    m.actor.send({ type: 'user.save' });
    expect(m.saves).toEqual([
      {
        pipeline: stored,
        rel: 'update pipeline',
        body: { name: 'Nightly', properties: { 'tap-demo.rows': 2 }, schedule: '0 */5 * * * *', dataComponents: ['extractors/tap-demo--builtin'], actions: ['tap-demo target-store', 'dbt:run'], script: null, timeout: null, maxRetries: 3, triggeredBy: ['Customers'] },
      },
    ]);
    m.actor.stop();
  });

  it('a daily pipeline with a script shows no custom cron, the script, its timeout and 0 retries', async () => {
    const stored: Pipeline = { id: 'p5', name: 'Daily', schedule: '0 0 0 * * *', script: 'meltano run tap-demo', timeout: 600, maxRetries: 0, _links: UPDATE };
    const m = await open(loaded(stored, [DEMO]));
    expect(m.context()).toMatchObject({ scheduleChoice: 'daily', customCron: '', actionsMode: 'script', script: 'meltano run tap-demo', actions: '', timeout: '600', maxRetries: '0', triggeredBy: [], properties: {} });
    m.actor.send({ type: 'user.saveDraft' });
    // no draft link: nothing is asked of the server
    expect(m.context().banner).toBe("Entity 'pipeline' cannot be drafted");
    m.actor.send({ type: 'user.save' });
    expect(m.saves.map((s) => s.body)).toEqual([
      { name: 'Daily', properties: {}, schedule: '0 0 0 * * *', dataComponents: ['extractors/tap-demo--builtin'], actions: [], script: 'meltano run tap-demo', timeout: 600, maxRetries: 0, triggeredBy: [] },
    ]);
    m.actor.stop();
  });

  it('custom actions are saved a line each, trimmed, blank lines dropped; the script only in script mode', async () => {
    const m = await open(loaded({ id: 'p5', name: 'Lines', _links: UPDATE }, [DEMO]));
    m.actor.send({ type: 'user.actionsMode', mode: 'custom' });
    m.actor.send({ type: 'user.change', field: 'actions', value: '  tap-demo target-store \n\n   \n dbt:run\n' });
    m.actor.send({ type: 'user.change', field: 'script', value: 'echo left over' });
    m.actor.send({ type: 'user.save' });
    expect(m.saves.at(-1)?.body).toMatchObject({ actions: ['tap-demo target-store', 'dbt:run'], script: null });
    m.answer('savePipeline').reject(serverDown);
    await settle();
    m.actor.send({ type: 'user.actionsMode', mode: 'script' });
    m.actor.send({ type: 'user.save' });
    expect(m.saves.at(-1)?.body).toMatchObject({ actions: [], script: 'echo left over' });
    m.actor.stop();
  });

  it('refuses retries that are not a whole number before asking the server, and clears that error when they are retyped', async () => {
    const m = await open(loaded({ id: 'p5', name: 'Retries', _links: UPDATE }, [DEMO]));
    m.actor.send({ type: 'user.change', field: 'maxRetries', value: 'two' });
    m.actor.send({ type: 'user.save' });
    expect(m.context().fieldErrors).toEqual({ maxRetries: 'Enter a whole number, 0 or more' });
    m.actor.send({ type: 'user.saveDraft' });
    expect(m.context().fieldErrors).toEqual({ maxRetries: 'Enter a whole number, 0 or more' });
    expect(m.value()).toBe('editing');
    expect(m.saves).toEqual([]);
    m.actor.send({ type: 'user.change', field: 'maxRetries', value: ' 2 ' });
    expect(m.context().fieldErrors).toEqual({});
    m.actor.send({ type: 'user.save' });
    expect(m.saves.at(-1)?.body.maxRetries).toBe(2);
    m.actor.stop();
  });

  it('an auto-save with half-typed values keeps the stored schedule and sends no number it cannot read', async () => {
    const draft: Pipeline = { ...NEW, schedule: '0 0 * * * *', timeout: 60, maxRetries: 1 };
    const m = await open(loaded(draft, [DEMO]), { pipelineId: 'p1' });
    expect(m.context()).toMatchObject({ scheduleChoice: 'hourly', timeout: '60', maxRetries: '1' });
    m.actor.send({ type: 'user.schedule', choice: 'custom' });
    m.actor.send({ type: 'user.change', field: 'customCron', value: '*/5 *' });
    m.actor.send({ type: 'user.change', field: 'timeout', value: '-1' });
    m.actor.send({ type: 'user.change', field: 'maxRetries', value: 'x' });
    m.actor.send({ type: 'user.addComponents', components: [STORE] });
    expect(m.value()).toBe('autoSaving');
    expect(m.saves).toEqual([
      {
        pipeline: draft,
        rel: 'draft pipeline',
        body: { name: 'Demo data', properties: {}, schedule: '0 0 * * * *', dataComponents: ['extractors/tap-demo--builtin', 'target-store'], actions: [], script: null, timeout: null, maxRetries: null, triggeredBy: [] },
      },
    ]);
    m.actor.stop();
  });

  it("after a save the server's names replace the refs (when it sends as many components), and what it filled in shows beside what was typed", async () => {
    const m = await open(loaded(NEW, [DEMO]), { pipelineId: 'p1' });
    m.actor.send({ type: 'user.setProperty', key: 'tap-demo.rows', value: 7 });
    m.actor.send({ type: 'user.addComponents', components: [STORE] });
    m.answer('savePipeline').resolve({
      ...NEW,
      properties: { 'tap-demo.rows': 5, 'target-store.table_prefix': 'demo_' },
      _embedded: { dataComponents: [{ name: 'tap-demo-2' }, { name: 'target-store' }] },
    });
    await settle();
    expect(m.value()).toBe('editing');
    expect(m.context().components).toEqual([
      { ...DEMO, ref: 'tap-demo-2', name: 'tap-demo-2' },
      { ...STORE, ref: 'target-store', name: 'target-store' },
    ]);
    expect(m.context().properties).toEqual({ 'target-store.table_prefix': 'demo_', 'tap-demo.rows': 7 });
    // an answer with another number of components leaves the form's own
    m.actor.send({ type: 'user.removeComponent', name: 'target-store' });
    m.answer('savePipeline').resolve({ ...NEW, _embedded: { dataComponents: [{ name: 'x' }, { name: 'y' }] } });
    await settle();
    expect(m.context().components).toEqual([{ ...DEMO, ref: 'tap-demo-2', name: 'tap-demo-2' }]);
    m.actor.stop();
  });

  it('says why a load failed in the words of each kind of failure', async () => {
    const failures: [unknown, string][] = [
      // a 400 with field errors and no message of its own: the first error
      [new ApiFailure({ kind: 'response', status: 400, message: '[400] bad', body: { errors: [{ field: 'name', defaultMessage: 'Name is taken' }] } as never }), 'Name is taken'],
      // a 400 without a body: its status text
      [new ApiFailure({ kind: 'response', status: 400, message: '[400] bad' }), '[400] bad'],
      // another response with a message in its body: that message
      [new ApiFailure({ kind: 'response', status: 409, message: '[409] conflict', body: { timestamp: 't', status: 409, error: 'Conflict', message: 'Pipeline is running', path: '/pipelines/p5' } }), 'Pipeline is running'],
      // and without one: its status text
      [new ApiFailure({ kind: 'response', status: 404, message: '[404] gone' }), '[404] gone'],
      [new Error('Storage is full'), 'Storage is full'],
      [new Error('   '), 'An unexpected error occurred.'],
      ['no error at all', 'An unexpected error occurred.'],
      [new ApiFailure({ kind: 'missingLink', rel: 'self' }), 'An unexpected error occurred.'],
    ];
    const { pending, held } = heldActors();
    const actor = createActor(
      pipelineFormMachine.provide({ actors: { loadForm: held<PipelineFormInput, LoadedForm>('loadForm', () => '') }, actions: { close: () => undefined } }),
      { input: { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: 'p5', dataPluginId: null, validate: false } },
    ).start();
    const texts: (string | null)[] = [];
    for (const [error] of failures) {
      pending.loadForm!.at(-1)!.reject(error);
      await settle();
      texts.push(actor.getSnapshot().context.loadError);
      actor.send({ type: 'user.retry' });
    }
    expect(texts).toEqual(failures.map(([, text]) => text));
    actor.stop();
  });

  it("a save's failure shows its banner and every field's message; a message for a setting goes when that setting changes", async () => {
    const m = await open(loaded({ id: 'p5', name: 'Fields', _links: UPDATE }, [DEMO]));
    m.actor.send({ type: 'user.save' });
    m.answer('savePipeline').reject(
      new ApiFailure({
        kind: 'response',
        status: 400,
        message: '[400] …',
        body: { timestamp: 't', status: 400, error: 'Bad Request', message: 'Validation failed', path: '/pipelines/p5', errors: [{ field: 'properties.tap-demo.rows', objectName: 'pipeline', defaultMessage: 'Too many rows' }, { field: 'name', objectName: 'pipeline', defaultMessage: 'Name is taken' }] },
      }),
    );
    await settle();
    expect(m.value()).toBe('editing');
    expect(m.context()).toMatchObject({ banner: 'Validation failed', fieldErrors: { 'properties.tap-demo.rows': 'Too many rows', name: 'Name is taken' } });
    m.actor.send({ type: 'user.setProperty', key: 'tap-demo.other', value: 1 });
    expect(Object.keys(m.context().fieldErrors).sort()).toEqual(['name', 'properties.tap-demo.rows']);
    m.actor.send({ type: 'user.setProperty', key: 'tap-demo.rows', value: 10 });
    expect(m.context().fieldErrors).toEqual({ name: 'Name is taken' });
    m.actor.stop();
  });

  it('a confirmation to share tables stays through changes of other settings', async () => {
    const m = await open(loaded(NEW, [DEMO, STORE]), { pipelineId: 'p1' });
    m.actor.send({ type: 'user.save' });
    m.answer('savePipeline').reject(sharedTables);
    await settle();
    expect(m.value()).toBe('confirmingShare');
    m.actor.send({ type: 'user.shareTables' });
    m.actor.send({ type: 'user.setProperty', key: 'tap-demo.rows', value: 3 });
    expect(m.context().shareTables).toBe(true);
    m.actor.send({ type: 'user.setProperty', key: 'target-store.table_prefix', value: 'other_' });
    expect(m.context().shareTables).toBe(false);
    m.actor.stop();
  });

  it('a save answered without any id stays on the form', async () => {
    const m = await open(loaded({ id: 'p5', name: 'Nameless', _links: UPDATE }, [DEMO]));
    m.actor.send({ type: 'user.save' });
    const { id: _, ...withoutId } = { id: 'p5', name: 'Nameless', _links: UPDATE };
    m.answer('savePipeline').resolve(withoutId);
    await settle();
    expect(m.value()).toBe('editing');
    expect(m.moves).toEqual([]);
    m.actor.stop();
  });

  it("Save & run of a pipeline the server answers without a name names it as typed; a refused run says so on the saved pipeline's page", async () => {
    for (const started of [true, false]) {
      const m = await open(loaded(NEW, [DEMO]), { pipelineId: 'p1' });
      m.actor.send({ type: 'user.change', field: 'name', value: 'Fresh' });
      m.actor.send({ type: 'user.saveAndRun' });
      m.answer('savePipeline').resolve({ ...NEW, id: 'p7', name: null });
      await settle();
      expect(m.calls.at(-1)).toBe('startJob p7');
      if (started) m.answer('startJob').resolve({ id: 'j1' });
      else m.answer('startJob').reject(new ApiFailure({ kind: 'response', status: 409, message: '[409] conflict' }));
      await settle();
      expect(m.moves).toEqual([started ? 'showRuns w1: Fresh saved: its run has started.' : 'showPipeline w1 p7 warning: Fresh saved, but its run could not start: [409] conflict']);
    }
  });

  it('a draft, or a pipeline without a save link or a lineage link, is saved (or refused) without asking what it feeds', async () => {
    const drafts: Pipeline[] = [
      { ...FEEDING, status: 'DRAFT' },
      { ...FEEDING, draft: true },
    ];
    for (const pipeline of drafts) {
      const m = await open(loaded(pipeline, [DEMO, STORE]), { pipelineId: 'p4' });
      m.actor.send({ type: 'user.change', field: 'name', value: 'Sales' });
      m.actor.send({ type: 'user.save' });
      expect(m.value()).toBe('saving');
      expect(m.calls.at(-1)).toBe('savePipeline update pipeline');
      m.actor.stop();
    }
    const noLineage = await open(loaded(EXISTING, [DEMO, STORE]), { pipelineId: 'p2' });
    noLineage.actor.send({ type: 'user.change', field: 'name', value: 'Sales' });
    noLineage.actor.send({ type: 'user.save' });
    expect(noLineage.value()).toBe('saving');
    noLineage.actor.stop();
    const locked = await open(loaded({ id: 'p6', name: 'Shop', _links: { lineage: link('/pipelines/p6/lineage') } }, [DEMO, STORE]), { pipelineId: 'p6' });
    locked.actor.send({ type: 'user.change', field: 'name', value: 'Sales' });
    locked.actor.send({ type: 'user.save' });
    expect(locked.value()).toBe('editing');
    expect(locked.context().banner).toBe("Entity 'pipeline' cannot be updated");
    expect(locked.calls).toEqual(['loadForm p6']);
    // unrenamed, a pipeline that can say what it feeds saves without asking either
    const same = await open(loaded(FEEDING, [DEMO, STORE]), { pipelineId: 'p4' });
    same.actor.send({ type: 'user.save' });
    expect(same.value()).toBe('saving');
    same.actor.stop();
  });
});

describe('pipelineForm, checked by hand: which save each button makes', () => {
  const open = (load: LoadedForm, input: Partial<PipelineFormInput> = {}) => openHeld(load, input, (i) => `${i.rel} ${i.body.name ?? ''} [${(i.body.dataComponents ?? []).join(', ')}]`);
  const settle = settleHeld;
  const UPDATE = { 'update pipeline': link('/pipelines/p5') };

  it('a blank name alone stops Save and Save & run before the server, not Save as draft', async () => {
    const m = await open(loaded(NEW, [DEMO]), { pipelineId: 'p1' });
    m.actor.send({ type: 'user.change', field: 'name', value: '   ' });
    m.actor.send({ type: 'user.save' });
    expect(m.context().fieldErrors).toEqual({ name: 'Name is required' });
    m.actor.send({ type: 'user.change', field: 'name', value: '' });
    m.actor.send({ type: 'user.saveAndRun' });
    expect(m.context().fieldErrors).toEqual({ name: 'Name is required' });
    expect(m.value()).toBe('editing');
    expect(m.calls).toEqual(['loadForm p1']);
    m.actor.send({ type: 'user.saveDraft' });
    expect(m.value()).toBe('saving');
    expect(m.calls.at(-1)).toBe('savePipeline draft pipeline  [extractors/tap-demo--builtin]');
    m.actor.stop();
  });

  it('the name is saved trimmed', async () => {
    const m = await open(loaded({ id: 'p5', name: 'Old', _links: UPDATE }, [DEMO]));
    m.actor.send({ type: 'user.change', field: 'name', value: '  Padded name  ' });
    m.actor.send({ type: 'user.save' });
    expect(m.calls.at(-1)).toBe('savePipeline update pipeline Padded name [extractors/tap-demo--builtin]');
    m.actor.stop();
  });

  it('Save & run of a pipeline without a save link says which link is missing', async () => {
    const m = await open(loaded({ id: 'p3', name: 'Locked' }, [DEMO]), { pipelineId: 'p3' });
    m.actor.send({ type: 'user.saveAndRun' });
    expect(m.value()).toBe('editing');
    expect(m.context().banner).toBe("Entity 'pipeline' cannot be updated");
    expect(m.calls).toEqual(['loadForm p3']);
    m.actor.stop();
  });

  it('a saved draft shows its page without starting a run', async () => {
    const m = await open(loaded(NEW, [DEMO]), { pipelineId: 'p1' });
    m.actor.send({ type: 'user.saveDraft' });
    expect(m.context()).toMatchObject({ saveKind: 'draft', runAfterSave: false });
    m.answer('savePipeline').resolve({ ...NEW, id: 'p1' });
    await settle();
    expect(m.value()).toBe('saved');
    expect(m.moves).toEqual(['showPipeline w1 p1 success: Pipeline saved']);
    expect(m.calls.some((c) => c.startsWith('startJob'))).toBe(false);
  });

  it('a rename that reaches nothing downstream is saved as a plain Save: its page, no run', async () => {
    const m = await open(loaded(FEEDING, [DEMO, STORE]), { pipelineId: 'p4' });
    m.actor.send({ type: 'user.change', field: 'name', value: 'Sales' });
    m.actor.send({ type: 'user.save' });
    expect(m.value()).toBe('checkingImpact');
    expect(m.context()).toMatchObject({ saveKind: 'save', runAfterSave: false });
    m.answer('loadImpact').resolve(NOTHING_DOWNSTREAM);
    await settle();
    expect(m.calls.at(-1)).toBe('savePipeline update pipeline Sales [extractors/tap-demo--builtin, target-store]');
    m.answer('savePipeline').resolve({ ...FEEDING, name: 'Sales' });
    await settle();
    expect(m.moves).toEqual(['showPipeline w1 p4 success: Pipeline saved']);
    expect(m.calls.some((c) => c.startsWith('startJob'))).toBe(false);
  });

  it('?validate=true of a draft that has only its draft link saves through it; of a draft without links says it cannot be drafted', async () => {
    const draftOnly: Pipeline = { id: 'p8', name: 'Draft', draft: true, _links: { 'draft pipeline': link('/pipelines/p8/draft') } };
    const m = await open(loaded(draftOnly, [DEMO]), { pipelineId: 'p8', validate: true });
    expect(m.value()).toBe('validating');
    expect(m.calls.at(-1)).toBe('savePipeline draft pipeline Draft [extractors/tap-demo--builtin]');
    m.actor.stop();
    const bare = await open(loaded({ id: 'p8', name: 'Draft', status: 'DRAFT' }, [DEMO]), { pipelineId: 'p8', validate: true });
    expect(bare.value()).toBe('editing');
    expect(bare.context().banner).toBe("Entity 'pipeline' cannot be drafted");
    expect(bare.calls).toEqual(['loadForm p8']);
    bare.actor.stop();
  });

  it('removing a component of a saved draft auto-saves; adding one during that save saves again with the newest set', async () => {
    const m = await open(loaded(NEW, [DEMO, STORE]), { pipelineId: 'p1' });
    m.actor.send({ type: 'user.removeComponent', name: 'tap-demo' });
    expect(m.value()).toBe('autoSaving');
    expect(m.context().components).toEqual([STORE]);
    expect(m.calls.at(-1)).toBe('savePipeline draft pipeline Default store 2 [target-store]');
    m.actor.send({ type: 'user.addComponents', components: [DEMO] });
    expect(m.value()).toBe('autoSaving');
    expect(m.context().components).toEqual([STORE, DEMO]);
    expect(m.calls.slice(1)).toEqual(['savePipeline draft pipeline Default store 2 [target-store]', 'savePipeline draft pipeline Default store 2 [target-store, extractors/tap-demo--builtin]']);
    m.actor.stop();
  });

  it('a save answered without an id keeps what the server answered, and forgets the last messages', async () => {
    const m = await open(loaded({ id: 'p5', name: 'Kept', _links: UPDATE }, [DEMO]));
    m.actor.send({ type: 'user.save' });
    m.answer('savePipeline').reject(serverDown);
    await settle();
    expect(m.context().banner).toBe('Down for maintenance');
    m.actor.send({ type: 'user.save' });
    const answer: Pipeline = { name: 'Kept', script: 'echo', _links: UPDATE };
    m.answer('savePipeline').resolve(answer);
    await settle();
    expect(m.value()).toBe('editing');
    expect(m.context()).toMatchObject({ pipeline: answer, banner: null, fieldErrors: {} });
    m.actor.stop();
  });

  it('nothing is set before the pipeline is loaded, a property least of all', () => {
    const { held } = heldActors();
    const actor = createActor(pipelineFormMachine.provide({ actors: { loadForm: held<PipelineFormInput, LoadedForm>('loadForm', () => '') } }), {
      input: { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: 'p5', dataPluginId: null, validate: false },
    }).start();
    actor.send({ type: 'user.setProperty', key: 'tap-demo.rows', value: 1 });
    expect(actor.getSnapshot().context.properties).toEqual({});
    actor.stop();
  });

  it('another schedule choice clears the schedule error', async () => {
    const m = await open(loaded({ id: 'p5', name: 'Cron', _links: UPDATE }, [DEMO]));
    m.actor.send({ type: 'user.schedule', choice: 'custom' });
    m.actor.send({ type: 'user.change', field: 'customCron', value: 'never' });
    m.actor.send({ type: 'user.save' });
    expect(Object.keys(m.context().fieldErrors)).toEqual(['schedule']);
    m.actor.send({ type: 'user.schedule', choice: 'daily' });
    expect(m.context().fieldErrors).toEqual({});
    m.actor.stop();
  });

  it("a refusal other than a 400 shows the body's message and no field errors", async () => {
    const m = await open(loaded({ id: 'p5', name: 'Busy', _links: UPDATE }, [DEMO]));
    m.actor.send({ type: 'user.save' });
    m.answer('savePipeline').reject(
      new ApiFailure({
        kind: 'response',
        status: 409,
        message: '[409] conflict',
        body: { timestamp: 't', status: 409, error: 'Conflict', message: 'Pipeline is running', path: '/pipelines/p5', errors: [{ field: 'name', objectName: 'pipeline', defaultMessage: 'Busy' }] },
      }),
    );
    await settle();
    expect(m.value()).toBe('editing');
    expect(m.context()).toMatchObject({ banner: 'Pipeline is running', fieldErrors: {} });
    expect(Object.keys(m.context().fieldErrors)).toEqual([]);
    m.actor.stop();
  });
});
