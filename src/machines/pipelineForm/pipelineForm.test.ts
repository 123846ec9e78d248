import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyMachineSnapshot } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Pipeline } from '../../domain/resources';
import { modelPaths, replayPath, unvisitedStates, unwalkedTransitions } from '../testing';
import { pipelineFormActors } from './pipelineForm.actors';
import { pipelineBody, pipelineFormMachine, selectBusy, type EditorComponent, type LoadedForm, type PipelineFormContext, type PipelineFormInput } from './pipelineForm.machine';

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
const DEMO: EditorComponent = { ref: 'extractors/tap-demo--builtin', name: 'tap-demo', pluginType: 'EXTRACTOR', label: 'Demo data', settings: [{ name: 'rows', kind: 'INTEGER' }] };
const STORE: EditorComponent = { ref: 'target-store', name: 'target-store', pluginType: 'LOADER', label: 'Default store', settings: [] };

const loaded = (pipeline: Pipeline, components: EditorComponent[] = []): LoadedForm => ({ pipeline, components, triggers: [{ id: 'p2', name: 'Orders' }, { id: 'p9', name: 'Customers' }] });
const badRequest = new ApiFailure({
  kind: 'response',
  status: 400,
  message: '[400] …',
  body: { timestamp: 't', status: 400, error: 'Bad Request', message: 'Validation failed', path: '/pipelines/p1', errors: [{ field: 'name', objectName: 'pipeline', defaultMessage: 'Name is taken' }] },
});
const serverDown = new ApiFailure({ kind: 'server', status: 503, message: 'Down for maintenance' });

// The server's answer to a save: the same pipeline, now with an id and the links of a saved one.
const savedFrom = (snapshot: AnyMachineSnapshot): Pipeline => {
  const { pipeline } = snapshot.context as PipelineFormContext;
  return { ...pipeline, id: pipeline?.id ?? 'p1', _links: { 'update pipeline': link('/pipelines/p1'), 'draft pipeline': link('/pipelines/p1/draft'), dataplugins: link('/dataplugins') } };
};

const eventsFor = (load: LoadedForm) => ({
  'xstate.done.actor.loadForm': [{ output: load }],
  'xstate.error.actor.loadForm': [{ error: serverDown }],
  'xstate.done.actor.savePipeline': (snapshot: AnyMachineSnapshot) => [{ output: savedFrom(snapshot) }],
  'xstate.error.actor.savePipeline': [{ error: badRequest }, { error: serverDown }],
  'user.addComponents': [{ components: [STORE] }],
  'user.removeComponent': [{ name: 'tap-demo' }],
});

// Value edits are the targeted tests' business: kept out of the graph, they would multiply its contexts.
const BARE = { 'user.change': [], 'user.setProperty': [], 'user.schedule': [], 'user.actionsMode': [], 'user.triggers': [] };

const cases: [string, PipelineFormInput, LoadedForm][] = [
  ['a new pipeline from ?dataplugin', { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: null, dataPluginId: 'demo', validate: false }, loaded(NEW, [DEMO])],
  ['an existing pipeline with ?validate=true', { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: 'p2', dataPluginId: null, validate: true }, loaded(EXISTING, [DEMO])],
  ['a pipeline without save links', { workspaceId: 'w1', workspace: WORKSPACE, pipelineId: 'p3', dataPluginId: null, validate: true }, loaded({ id: 'p3', name: 'Locked' }, [])],
];

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as PipelineFormContext;

describe.each(cases)('pipelineForm machine for %s, generated paths', (_, input, load) => {
  const events = eventsFor(load);
  const paths = modelPaths(pipelineFormMachine, { input, events: { ...events, ...BARE } });

  it('visits every state and walks every transition', () => {
    const unvisited = unvisitedStates(pipelineFormMachine, paths);
    // Only a pipeline with save links can be saved; a locked one never leaves editing.
    const expected = input.pipelineId === 'p3' ? ['pipelineForm.validating', 'pipelineForm.autoSaving', 'pipelineForm.saving', 'pipelineForm.saved'] : input.validate ? [] : ['pipelineForm.validating'];
    expect(unvisited.sort()).toEqual(expected.sort());
    expect(unwalkedTransitions(pipelineFormMachine, paths, { input, events: { ...events, ...BARE } })).toEqual([]);
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
        if (event.type === 'user.save' && !step.state.matches('saving')) {
          expect(Object.keys(now.fieldErrors).length > 0 || now.banner !== null).toBe(true);
          if (was?.name.trim() === '') expect(now.fieldErrors.name).toBe('Name is required');
        }
        if (event.type === 'xstate.error.actor.savePipeline') {
          const error = (step.event as unknown as { error: unknown }).error;
          expect(now.banner).toBe(error === badRequest ? 'Validation failed' : 'Down for maintenance');
          expect(now.fieldErrors).toEqual(error === badRequest ? { name: 'Name is taken' } : {});
        }
        if (event.type === 'xstate.error.actor.loadForm') expect(now.loadError).toBe('Down for maintenance');
        // the name follows the first plugin until typed
        if (!now.nameTyped && now.pipeline !== null) expect(now.name).toBe(now.components[0]?.label ?? '');
      }
    }
  });

  it.each(paths.map((p) => [p.description, p] as const))('replays %s', async (_, path) => {
    await replayPath(pipelineFormMachine, path, {
      input,
      states: {
        loading: (_s, { invocations }) => expect(invocations.at(-1)).toMatchObject({ id: 'loadForm', input }),
        autoSaving: (snapshot, { invocations }) => {
          // any change to the component set saves a draft through the draft link
          expect(invocations.at(-1)).toMatchObject({ id: 'savePipeline', input: { rel: 'draft pipeline', body: { dataComponents: ctx(snapshot).components.map((c) => c.ref) } } });
        },
        saving: (snapshot, { invocations }) => {
          const { saveKind, pipeline } = ctx(snapshot);
          const rel = saveKind === 'draft' ? 'draft pipeline' : pipeline?._links?.['create pipeline'] ? 'create pipeline' : 'update pipeline';
          expect(invocations.at(-1)).toMatchObject({ id: 'savePipeline', input: { rel } });
          expect(selectBusy(snapshot as never)).toBe(true);
        },
        validating: (snapshot, { invocations }) => {
          // ?validate=true keeps a draft a draft and saves a non-draft with its own link
          expect(invocations.at(-1)).toMatchObject({ id: 'savePipeline', input: { rel: ctx(snapshot).pipeline?.draft ? 'draft pipeline' : 'update pipeline' } });
        },
        saved: (snapshot, { actions }) => {
          expect(actions.filter((a) => a.name === 'showPipeline').at(-1)?.params).toEqual({ workspaceId: 'w1', pipelineId: ctx(snapshot).pipeline?.id });
        },
      },
    });
  });
});

describe('pipelineForm, targeted rules', () => {
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
    expect(actor.getSnapshot().context.name).toBe('Default store');
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
    await new Promise((r) => setTimeout(r, 20));
    expect(actor.getSnapshot().context.name).toBe('Demo data');
    actor.send({ type: 'user.setProperty', key: 'tap-demo.rows', value: 10 });
    actor.send({ type: 'user.save' });
    await new Promise((r) => setTimeout(r, 20));
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
