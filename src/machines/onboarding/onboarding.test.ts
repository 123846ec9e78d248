import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { ONBOARDING_POLL_MS, ONBOARDING_SEARCH_DEBOUNCE_MS } from '../../domain/onboarding';
import type { DataPlugin, Job, Pipeline, StoreTable, Workspace } from '../../domain/resources';
import { ROW_POLL_MS } from '../jobRun/jobRun.machine';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type ModelPath, type ReplayLog } from '../testing';
import { onboardingActors } from './onboarding.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { onboardingMachine, selectBusy, selectFirstRun, selectFirstRunLinks, selectPleaseWait, selectSearching, type OnboardingContext, type OnboardingInput, type PipelineInput, type PluginsInput, type PluginsPage, type RunInput, type SaveWorkspaceInput, type TablesInput, type WorkspaceIdInput } from './onboarding.machine';
import { heldActors } from '../testing/deferred.fixture';

const BASE = 'http://api.test/api';
const links = {
  self: { href: `${BASE}/workspaces/w1` },
  'update delete workspace': { href: `${BASE}/workspaces/w1` },
  dataplugins: { href: `${BASE}/workspaces/w1/dataplugins` },
  'new pipeline': { href: `${BASE}/workspaces/w1/pipelines` },
  tables: { href: `${BASE}/workspaces/w1/tables` },
  'publish dataset': { href: `${BASE}/workspaces/w1/datasets` },
};
const provisioning: Workspace = { id: 'w1', name: 'Acme', status: 'PROVISIONING', managed: true, _links: links };
const ready: Workspace = { ...provisioning, status: 'READY' };
// an admin the store's tables are not offered to: the first run offers no table
const { tables: _tables, 'publish dataset': _publish, ...untabled } = links;
const readyWithoutTables: Workspace = { ...ready, _links: untabled };
const ownRepository: Workspace = { ...ready, managed: false };
// what a plain member is shown of the same workspace: no Lab links
const asMember: Workspace = { ...ready, _links: { self: links.self } };
const demo: DataPlugin = { id: 'p1', name: 'tap-demo', label: 'Demo', pluginType: 'EXTRACTOR', _links: {} };
const csv: DataPlugin = { id: 'p2', name: 'tap-csv', label: 'CSV', pluginType: 'EXTRACTOR', _links: {} };
// Step 2's saved pipeline: offered a run, or incomplete (no 'create job'); and its first job as it goes.
const pipelineLinks = { self: { href: `${BASE}/pipelines/p` } };
const runnable: Pipeline = { id: 'p', name: 'Demo', _links: { ...pipelineLinks, 'create job': { href: `${BASE}/pipelines/p/jobs` } } };
const incomplete: Pipeline = { id: 'p', name: 'Demo', _links: pipelineLinks };
// the store the pipeline loads into, as the pipeline embeds it (the embedded store offers its tables)
const store = { id: 's1', name: 'Embedded', _links: { self: { href: `${BASE}/datastores/s1` }, tables: links.tables } };
const storeTable = (name: string, rows: number, pipelineId: string, jobId: string): StoreTable => ({ name, columns: [], rows, lastLoad: { loaded: '2026-01-01T00:00:05Z', rows, pipelineId, jobId }, _links: {} });
const loaded = [storeTable('customers', 20, 'p', 'j1'), storeTable('orders', 120, 'p', 'j1'), storeTable('files', 500, 'other', 'j0')];
const runJob = (status: Job['status'], extra: Partial<Job> = {}): Job => ({ id: 'j1', type: 'PIPELINE_RUN', status, created: '2026-01-01T00:00:00Z', _links: {}, ...extra });
const withJob = (job: Job): Pipeline => ({ ...runnable, _embedded: { 'latest job': job, datastore: store } });
const queued = runJob('QUEUED');
const running = withJob(runJob('RUNNING', { startTime: '2026-01-01T00:00:01Z' }));
const complete = withJob(runJob('COMPLETE', { exitCode: 0, rowsLoaded: 12 }));
const errored = withJob(runJob('ERROR', { exitCode: 1 }));
const busy = new ApiFailure({ kind: 'response', status: 409, message: '[409]', body: { message: 'A job of this pipeline is already queued or running' } as never });
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });
const refused = new ApiFailure({ kind: 'response', status: 400, message: '[400]', body: { message: 'Validation failed', errors: [{ field: 'name', objectName: 'pipeline', defaultMessage: 'is taken' }] } as never });

const events = {
  'xstate.done.actor.loadWorkspace': [{ output: provisioning }, { output: ready }, { output: ownRepository }, { output: asMember }, { output: readyWithoutTables }],
  'xstate.error.actor.loadWorkspace': [{ error: offline }],
  'xstate.done.actor.saveWorkspace': [{ output: provisioning }],
  'xstate.error.actor.saveWorkspace': [{ error: refused }],
  'xstate.done.actor.setDefaultWorkspace': [{ output: undefined }],
  'xstate.error.actor.setDefaultWorkspace': [{ error: offline }],
  'xstate.done.actor.listPlugins': [{ output: { plugins: [demo], hasMore: true } }, { output: { plugins: [demo], hasMore: false } }],
  'xstate.error.actor.listPlugins': [{ error: offline }],
  'xstate.done.actor.listMorePlugins': [{ output: { plugins: [csv], hasMore: false } }],
  'xstate.error.actor.listMorePlugins': [{ error: offline }],
  'user.more': [{}],
  'xstate.done.actor.createPipeline': [{ output: runnable }, { output: incomplete }],
  'xstate.error.actor.createPipeline': [{ error: refused }],
  'user.name': [{ value: '' }, { value: 'Acme' }],
  'user.search': [{ value: 'de' }, { value: 'demo' }],
  'user.choose': [{ plugin: demo }],
  'xstate.done.actor.startRun': [{ output: queued }],
  'xstate.error.actor.startRun': [{ error: busy }],
  'xstate.done.actor.readRun': [{ output: running }, { output: complete }, { output: errored }],
  'xstate.error.actor.readRun': [{ error: offline }],
  'xstate.done.actor.listTables': [{ output: loaded }],
  'xstate.error.actor.listTables': [{ error: offline }],
};

const INPUTS: readonly OnboardingInput[] = [
  { step: 'w', workspaceId: 'new' },
  { step: 'w', workspaceId: 'w1' },
  { step: 'imports', workspaceId: 'w1' },
  { step: 'tasks', workspaceId: 'w1' },
];
type Snap = { context: { errors: { banner: string | null; fields: Record<string, string> }; name: string; search: string } };
// Bounded: stop once an error shows, or once a name or search has been typed twice over.
const stopWhen = (s: Snap) => s.context.errors.banner !== null || Object.keys(s.context.errors.fields).length > 0;
const optionsFor = (input: OnboardingInput) => ({ input, events, stopWhen, limit: 5000 });
const pathsByInput: readonly (readonly [OnboardingInput, ModelPath[]])[] = INPUTS.map((input) => [input, modelPaths(onboardingMachine, optionsFor(input))] as const);

const goTos = (log: ReplayLog) => log.actions.filter((a) => a.name === 'goTo').map((a) => a.params as { path: string; reload: boolean });

describe('onboarding (model-based)', () => {
  it('reaches every state and walks every transition over the four ways in', () => {
    const all = pathsByInput.flatMap(([, paths]) => paths);
    expect(unvisitedStates(onboardingMachine, all)).toEqual([]);
    for (const [input, paths] of pathsByInput) expect(unwalkedTransitions(onboardingMachine, paths, optionsFor(input))).toEqual([]);
  });

  for (const [input, paths] of pathsByInput) {
    describe(`/setup/${input.step}/${input.workspaceId}`, () => {
      replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
        await replayPath(onboardingMachine, path, {
          input,
          states: {
            // Leaving always goes somewhere the spec names.
            left: (s, log) => {
              const [move] = goTos(log).slice(-1);
              expect(move?.path).toMatch(/^\/(setup\/(w\/new|imports\/w1|tasks\/w1)|lab\/w1\/pipelines|l\/w1)$/);
              if (move?.path === '/lab/w1/pipelines') expect(move.reload).toBe(true);
              // only a member is sent to the workspace (the scenario below: always, from any step)
              const workspace = (s.context as { workspace: Workspace | null }).workspace;
              if (move?.path === '/l/w1') expect(workspace).toBe(asMember);
            },
            savingWorkspace: (s) => expect((s.context as Snap['context']).name.trim()).not.toBe(''),
            'importing.waiting': (s) => expect(selectPleaseWait(s as never)).toBe(true),
            'importing.choosing': (s) => expect(selectPleaseWait(s as never)).toBe(false),
            // The first run: each phase shows what the step renders, and only a runnable pipeline is started.
            firstRun: (s, log) => {
              const context = s.context as OnboardingContext;
              expect(context.pipeline).not.toBeNull();
              const started = log.invocations.some((i) => i.id === 'startRun');
              expect(started).toBe(context.pipeline?._links?.['create job'] !== undefined);
              expect(goTos(log)).toEqual([]);
            },
            'firstRun.starting': (s, log) => {
              expect(selectFirstRun(s as never)).toBe('starting');
              expect(log.invocations.at(-1)).toMatchObject({ id: 'startRun', input: { pipeline: runnable } });
            },
            'firstRun.active': (s) => {
              expect(selectFirstRun(s as never)).toBe('active');
              expect(['QUEUED', 'RUNNING']).toContain((s.context as OnboardingContext).job?.status);
            },
            'firstRun.polling': (s, log) => {
              expect(selectFirstRun(s as never)).toBe('active');
              expect(log.invocations.at(-1)?.id).toBe('readRun');
            },
            'firstRun.succeeded': (s) => {
              expect(selectFirstRun(s as never)).toBe('succeeded');
              expect((s.context as OnboardingContext).job).toMatchObject({ status: 'COMPLETE', rowsLoaded: 12 });
            },
            // what the completed run loaded: its biggest table, one click from its rows and from a chart
            'firstRun.succeeded.readingTables': (_s, log) => expect(log.invocations.at(-1)).toMatchObject({ id: 'listTables', input: { workspace: ready } }),
            'firstRun.succeeded.shown': (s, log) => {
              const read = log.invocations.some((i) => i.id === 'listTables');
              const context = (s as { context: OnboardingContext }).context;
              expect(read).toBe(context.workspace?._links?.tables !== undefined);
              const links = selectFirstRunLinks(s as never);
              if (context.loadedTables?.length) {
                expect(context.loadedTables.map((t) => t.name)).toEqual(['orders', 'customers']);
                expect(links).toEqual({ table: 'orders', tablesPath: '/lab/w1/datastores/s1?table=orders', chartPath: '/lab/w1/datasets?edit=new&table=orders' });
              } else {
                // tables not offered or not read: the store's page (its own 'tables' link), no table and no chart
                expect(links).toEqual({ table: null, tablesPath: '/lab/w1/datastores/s1', chartPath: null });
              }
            },
            // the search: the text is kept at once, and the catalogue asked for it only once typing rests
            'importing.searching': (s) => expect(selectSearching(s as never)).toBe(true),
            'importing.listing': (s, log) => {
              expect(selectSearching(s as never)).toBe(true);
              expect(log.invocations.at(-1)).toMatchObject({ id: 'listPlugins', input: { search: (s.context as Snap['context']).search, page: 0 } });
            },
            'firstRun.failed': (s) => {
              expect(selectFirstRun(s as never)).toBe('failed');
              expect((s.context as OnboardingContext).job).toMatchObject({ status: 'ERROR', exitCode: 1 });
            },
            'firstRun.notOffered': (s) => {
              expect(selectFirstRun(s as never)).toBe('notOffered');
              expect((s.context as OnboardingContext).pipeline).toBe(incomplete);
            },
            'firstRun.refused': (s) => {
              expect(selectFirstRun(s as never)).toBe('refused');
              expect((s.context as OnboardingContext).runError).toBe('A job of this pipeline is already queued or running');
            },
          },
        });
      });
    });
  }
});

describe('onboarding scenarios', () => {
  it('step 2 waits, re-reads the workspace every 5 s, and offers the plugins once it is READY', async () => {
    const input: OnboardingInput = { step: 'imports', workspaceId: 'w1' };
    const path = pathOf(
      onboardingMachine,
      [
        { type: 'xstate.done.actor.loadWorkspace', output: provisioning },
        { type: 'xstate.after.readinessPoll.onboarding.importing.waiting' },
        { type: 'xstate.done.actor.loadWorkspace', output: provisioning },
        { type: 'xstate.after.readinessPoll.onboarding.importing.waiting' },
        { type: 'xstate.done.actor.loadWorkspace', output: ready },
        { type: 'xstate.done.actor.listPlugins', output: { plugins: [demo], hasMore: false } },
      ],
      { input },
    );
    expect(path.state.matches({ importing: 'choosing' })).toBe(true);
    const log = await replayPath(onboardingMachine, path, { input });
    expect(log.clock.now()).toBe(2 * ONBOARDING_POLL_MS);
  });

  it('a READY workspace that is not managed skips to step 3', async () => {
    const input: OnboardingInput = { step: 'imports', workspaceId: 'w1' };
    const path = pathOf(onboardingMachine, [{ type: 'xstate.done.actor.loadWorkspace', output: ownRepository }], { input });
    expect(path.state.matches('left')).toBe(true);
    const log = await replayPath(onboardingMachine, path, { input });
    expect(goTos(log)).toEqual([{ path: '/setup/tasks/w1', reload: false }]);
  });

  it("a member opening any setup URL of the workspace lands on the workspace, with no call a member is refused", async () => {
    for (const step of ['w', 'imports', 'tasks'] as const) {
      const input: OnboardingInput = { step, workspaceId: 'w1' };
      const path = pathOf(onboardingMachine, [{ type: 'xstate.done.actor.loadWorkspace', output: asMember }], { input });
      expect(path.state.matches('left')).toBe(true);
      const log = await replayPath(onboardingMachine, path, { input });
      expect(goTos(log)).toEqual([{ path: '/l/w1', reload: false }]);
      expect(log.invocations.map((i) => i.id)).toEqual(['loadWorkspace']);
    }
  });

  it('a refused pipeline (400) keeps the form with its field errors', () => {
    const path = pathOf(
      onboardingMachine,
      [
        { type: 'xstate.done.actor.loadWorkspace', output: ready },
        { type: 'xstate.done.actor.listPlugins', output: { plugins: [demo], hasMore: false } },
        { type: 'user.choose', plugin: demo },
        { type: 'user.submit' },
        { type: 'xstate.error.actor.createPipeline', error: refused },
      ],
      { input: { step: 'imports', workspaceId: 'w1' } },
    );
    expect(path.state.matches({ importing: 'choosing' })).toBe(true);
    expect((path.state.context as Snap['context']).errors).toEqual({ banner: 'Validation failed', fields: { name: 'is taken' } });
  });

  describe('the first run (issue 20)', () => {
    const input: OnboardingInput = { step: 'imports', workspaceId: 'w1' };
    const saved = (pipeline: Pipeline) => [
      { type: 'xstate.done.actor.loadWorkspace', output: ready },
      { type: 'xstate.done.actor.listPlugins', output: { plugins: [demo], hasMore: false } },
      { type: 'user.choose', plugin: demo },
      { type: 'user.submit' },
      { type: 'xstate.done.actor.createPipeline', output: pipeline },
    ];
    const poll = [{ type: 'xstate.after.runPoll.onboarding.firstRun.active' }];

    it('starts through create job, re-reads the pipeline every 5 s while queued or running, and shows it complete; Continue leads to step 3', async () => {
      const path = pathOf(
        onboardingMachine,
        [
          ...saved(runnable),
          { type: 'xstate.done.actor.startRun', output: queued },
          ...poll,
          { type: 'xstate.done.actor.readRun', output: running },
          ...poll,
          { type: 'xstate.error.actor.readRun', error: offline },
          ...poll,
          { type: 'xstate.done.actor.readRun', output: complete },
        ],
        { input },
      );
      expect(selectFirstRun(path.state as never)).toBe('succeeded');
      const log = await replayPath(onboardingMachine, path, { input });
      expect(log.clock.now()).toBe(3 * ROW_POLL_MS);
      expect(log.invocations.map((i) => i.id)).toEqual(['loadWorkspace', 'listPlugins', 'createPipeline', 'startRun', 'readRun', 'readRun', 'readRun', 'listTables']);
      expect(goTos(log)).toEqual([]);
      const on = pathOf(onboardingMachine, [...path.steps.slice(1).map((s) => s.event as never), { type: 'user.continue' }], { input });
      expect(goTos(await replayPath(onboardingMachine, on, { input }))).toEqual([{ path: '/setup/tasks/w1', reload: false }]);
    });

    it('a failed run keeps its job (status, exit code) for the step to show, and still continues', async () => {
      const path = pathOf(onboardingMachine, [...saved(runnable), { type: 'xstate.done.actor.startRun', output: queued }, ...poll, { type: 'xstate.done.actor.readRun', output: errored }, { type: 'user.continue' }], { input });
      expect(path.state.matches('left')).toBe(true);
      expect((path.state.context as OnboardingContext).job).toMatchObject({ status: 'ERROR', exitCode: 1 });
      expect(goTos(await replayPath(onboardingMachine, path, { input }))).toEqual([{ path: '/setup/tasks/w1', reload: false }]);
    });

    it('a pipeline the server offers no run (no create job link) is not started; a refused start keeps the reason; both continue', async () => {
      const notOffered = pathOf(onboardingMachine, [...saved(incomplete)], { input });
      expect(selectFirstRun(notOffered.state as never)).toBe('notOffered');
      const refused = pathOf(onboardingMachine, [...saved(runnable), { type: 'xstate.error.actor.startRun', error: busy }], { input });
      expect((refused.state.context as OnboardingContext).runError).toBe('A job of this pipeline is already queued or running');
      for (const path of [notOffered, refused]) {
        const on = pathOf(onboardingMachine, [...path.steps.slice(1).map((s) => s.event as never), { type: 'user.continue' }], { input });
        expect(goTos(await replayPath(onboardingMachine, on, { input }))).toEqual([{ path: '/setup/tasks/w1', reload: false }]);
      }
      // Skip is step 2's, before anything is saved; once saved, only Continue moves on.
      expect(notOffered.state.can({ type: 'user.skip' })).toBe(false);
    });

    it('the real actors: create job is POSTed once (no retry), then the pipeline is re-read through self until its job ends', async () => {
      const fake = fakeFetch({ status: 201, body: queued }, { body: running }, { body: complete });
      const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
      const clock = new SimulatedClock();
      // step 2's own calls are covered above; here they answer at once so the run's calls stand alone
      const machine = onboardingMachine.provide({
        actors: {
          ...onboardingActors(client),
          loadWorkspace: fromPromise(() => Promise.resolve(ready)),
          listPlugins: fromPromise<PluginsPage, PluginsInput>(() => Promise.resolve({ plugins: [demo], hasMore: false })),
          createPipeline: fromPromise(() => Promise.resolve(runnable)),
        },
      });
      const actor = createActor(machine, { input, clock }).start();
      await waitFor(actor, (s) => s.matches({ importing: 'choosing' }));
      actor.send({ type: 'user.choose', plugin: demo });
      actor.send({ type: 'user.submit' });
      await waitFor(actor, (s) => s.matches({ firstRun: 'active' }));
      clock.increment(ROW_POLL_MS);
      await waitFor(actor, (s) => s.matches({ firstRun: 'active' }) && s.context.job?.status === 'RUNNING');
      clock.increment(ROW_POLL_MS);
      await waitFor(actor, (s) => s.matches({ firstRun: 'succeeded' }));
      expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`POST ${BASE}/pipelines/p/jobs`, `GET ${BASE}/pipelines/p`, `GET ${BASE}/pipelines/p`]);
      actor.stop();
    });
  });

  describe('the search narrows as letters are typed (issue 38)', () => {
    const input: OnboardingInput = { step: 'imports', workspaceId: 'w1' };
    const shown = [
      { type: 'xstate.done.actor.loadWorkspace', output: ready },
      { type: 'xstate.done.actor.listPlugins', output: { plugins: [demo, csv], hasMore: false } },
    ];
    const rest = { type: `xstate.after.searchDelay.onboarding.importing.searching` };

    it('asks the catalogue once typing rests, for the text as it stands, with no Enter', async () => {
      const path = pathOf(
        onboardingMachine,
        [...shown, { type: 'user.search', value: 'p' }, { type: 'user.search', value: 'po' }, { type: 'user.search', value: 'pos' }, rest, { type: 'xstate.done.actor.listPlugins', output: { plugins: [], hasMore: false } }],
        { input },
      );
      expect(path.state.matches({ importing: 'choosing' })).toBe(true);
      expect((path.state.context as OnboardingContext).plugins).toEqual([]);
      const log = await replayPath(onboardingMachine, path, { input });
      // one call for the three letters, ONBOARDING_SEARCH_DEBOUNCE_MS after the last
      expect(log.invocations.filter((i) => i.id === 'listPlugins').map((i) => (i.input as PluginsInput).search)).toEqual(['', 'pos']);
      expect(log.clock.now()).toBe(ONBOARDING_SEARCH_DEBOUNCE_MS);
    });

    it('the list being replaced is never shown as the answer to the new text: a letter typed while it is read starts over', () => {
      const path = pathOf(onboardingMachine, [...shown, { type: 'user.search', value: 'c' }, rest, { type: 'user.search', value: 'cs' }], { input });
      expect(path.state.matches({ importing: 'searching' })).toBe(true);
      expect(selectSearching(path.state as never)).toBe(true);
      // the answer for 'c' can no longer arrive: its call was left
      expect(path.state.can({ type: 'xstate.done.actor.listPlugins', output: { plugins: [csv], hasMore: false } })).toBe(false);
      // the same text again changes nothing; clearing it lists everything again
      expect(path.state.can({ type: 'user.search', value: 'cs' })).toBe(false);
      const cleared = pathOf(onboardingMachine, [...shown, { type: 'user.search', value: 'c' }, { type: 'user.search', value: '' }], { input });
      expect(cleared.state.matches({ importing: 'searching' })).toBe(true);
      expect((cleared.state.context as OnboardingContext).search).toBe('');
    });

    it('the choice made stays chosen while the list narrows', () => {
      const path = pathOf(onboardingMachine, [...shown, { type: 'user.choose', plugin: demo }, { type: 'user.search', value: 'dem' }, rest, { type: 'xstate.done.actor.listPlugins', output: { plugins: [demo], hasMore: false } }], { input });
      expect((path.state.context as OnboardingContext).plugin).toBe(demo);
    });

    it('the real actors: GETs the catalogue with name= once typing rests', async () => {
      const pageOf = (plugins: DataPlugin[]) => ({ _embedded: { dataplugins: plugins }, _links: {}, page: { size: 10, totalElements: plugins.length, totalPages: 1, number: 0 } });
      const fake = fakeFetch({ body: ready }, { body: pageOf([demo, csv]) }, { body: pageOf([]) });
      const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
      const clock = new SimulatedClock();
      const actor = createActor(onboardingMachine.provide({ actors: onboardingActors(client) }), { input, clock }).start();
      await waitFor(actor, (s) => s.matches({ importing: 'choosing' }));
      for (const value of ['p', 'po', 'postgres']) actor.send({ type: 'user.search', value });
      clock.increment(ONBOARDING_SEARCH_DEBOUNCE_MS - 1);
      expect(fake.calls).toHaveLength(2);
      clock.increment(1);
      await waitFor(actor, (s) => s.matches({ importing: 'choosing' }));
      expect(actor.getSnapshot().context.plugins).toEqual([]);
      expect(fake.calls.at(-1)?.url).toBe(`${BASE}/workspaces/w1/dataplugins?sort=label&size=10&page=0&type=EXTRACTOR&name=postgres`);
      actor.stop();
    });
  });

  it("'More data sources' adds the catalogue's next page below the first, keeping the choice, until there is no next page", async () => {
    const plugin = (n: number): DataPlugin => ({ id: `p${n}`, name: `tap-${n}`, label: `Source ${n}`, pluginType: 'EXTRACTOR', _links: {} });
    const page = (numbers: number[], next: boolean) => ({
      _embedded: { dataplugins: numbers.map(plugin) },
      _links: next ? { next: { href: `${BASE}/workspaces/w1/dataplugins?page=9` } } : {},
      page: { size: 10, totalElements: 12, totalPages: 2, number: 0 },
    });
    const fake = fakeFetch({ body: ready }, { body: page([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], true) }, { body: page([11, 12], false) });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(onboardingMachine.provide({ actors: onboardingActors(client) }), { input: { step: 'imports', workspaceId: 'w1' } }).start();
    await waitFor(actor, (s) => s.matches({ importing: 'choosing' }));
    expect(actor.getSnapshot().context.morePlugins).toBe(true);
    actor.send({ type: 'user.choose', plugin: plugin(3) });
    actor.send({ type: 'user.more' });
    expect(actor.getSnapshot().matches({ importing: 'listingMore' })).toBe(true);
    await waitFor(actor, (s) => s.matches({ importing: 'choosing' }));
    const { plugins, morePlugins, plugin: chosen, pluginsPage } = actor.getSnapshot().context;
    expect(plugins?.map((p) => p.id)).toEqual(Array.from({ length: 12 }, (_, i) => `p${i + 1}`));
    expect({ morePlugins, chosen: chosen?.id, pluginsPage }).toEqual({ morePlugins: false, chosen: 'p3', pluginsPage: 1 });
    actor.send({ type: 'user.more' });
    expect(actor.getSnapshot().matches({ importing: 'choosing' })).toBe(true);
    expect(fake.calls.slice(1).map((c) => c.url)).toEqual([
      `${BASE}/workspaces/w1/dataplugins?sort=label&size=10&page=0&type=EXTRACTOR`,
      `${BASE}/workspaces/w1/dataplugins?sort=label&size=10&page=1&type=EXTRACTOR`,
    ]);
    actor.stop();
  });

  it('the real actors: step 1 initialises then creates, sets the default workspace, and moves to step 2', async () => {
    const root = { _links: { self: { href: `${BASE}/` }, 'new workspace': { href: `${BASE}/workspaces` }, profile: { href: `${BASE}/profiles/me` } } };
    const draft = { id: 'w1', name: '', _links: { 'create workspace': { href: `${BASE}/workspaces/w1` } } };
    const fake = fakeFetch({ body: root }, { status: 201, body: draft }, { status: 201, body: provisioning }, { body: root }, { status: 200, body: {} });
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const moves: string[] = [];
    const machine = onboardingMachine.provide({ actors: onboardingActors(client), actions: { goTo: (_, params) => void moves.push(params.path) } });
    const actor = createActor(machine, { input: { step: 'w', workspaceId: 'new' } }).start();
    actor.send({ type: 'user.name', value: '  Acme  ' });
    actor.send({ type: 'user.submit' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(fake.calls.map((c) => `${c.method} ${c.url} ${c.body === undefined ? '' : JSON.stringify(c.body)}`.trim())).toEqual([
      `GET ${BASE}/`,
      `POST ${BASE}/workspaces`,
      `PUT ${BASE}/workspaces/w1 {"name":"Acme"}`,
      `GET ${BASE}/`,
      `PATCH ${BASE}/profiles/me {"defaultWorkspace":{"id":"w1"}}`,
    ]);
    expect(moves).toEqual(['/setup/imports/w1']);
  });
});

describe('onboarding, checked by hand', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The machine with the test's own actors: each call recorded, each answer given by the test. */
  function start(input: OnboardingInput) {
    const { calls, pending, held } = heldActors();
    const moves: string[] = [];
    const machine = onboardingMachine.provide({
      actors: {
        loadWorkspace: held<WorkspaceIdInput, Workspace>('loadWorkspace', (i) => i.workspaceId),
        saveWorkspace: held<SaveWorkspaceInput, Workspace>('saveWorkspace', (i) => `${i.workspace?.id ?? 'none'} ${i.name}`),
        setDefaultWorkspace: held<WorkspaceIdInput, unknown>('setDefaultWorkspace', (i) => i.workspaceId),
        listPlugins: held<PluginsInput, PluginsPage>('listPlugins', (i) => `${i.workspace.id} '${i.search}' ${i.page}`),
        createPipeline: held<PipelineInput, Pipeline>('createPipeline', (i) => `${i.workspace.id} ${i.plugin.id} ${i.name}`),
        startRun: held<RunInput, Job | undefined>('startRun', (i) => i.pipeline.id ?? ''),
        readRun: held<RunInput, Pipeline>('readRun', (i) => i.pipeline.id ?? ''),
        listTables: held<TablesInput, StoreTable[]>('listTables', (i) => i.workspace.id),
      },
      actions: { goTo: (_, p) => void moves.push(`${p.path}${p.reload ? ' reload' : ''}`) },
    });
    const actor = createActor(machine, { input }).start();
    const answer = (id: string, n = (pending[id]?.length ?? 1) - 1) => pending[id]![n]!;
    const context = () => actor.getSnapshot().context;
    const at = (value: unknown) => actor.getSnapshot().matches(value as never);
    return { actor, calls, moves, answer, context, at };
  }
  const flush = () => vi.advanceTimersByTimeAsync(0);
  const NONE = { banner: null, fields: {} };

  /** Step 2 on `workspace`: the demo plugin chosen and its pipeline saved, so the first run starts. */
  async function pipelineSaved(workspace: Workspace) {
    const m = start({ step: 'imports', workspaceId: 'w1' });
    m.answer('loadWorkspace').resolve(workspace);
    await flush();
    m.answer('listPlugins').resolve({ plugins: [demo], hasMore: false });
    await flush();
    m.actor.send({ type: 'user.choose', plugin: demo });
    m.actor.send({ type: 'user.submit' });
    m.answer('createPipeline').resolve(runnable);
    await flush();
    return m;
  }

  /** The same, the run started, and read once 5 s later as `read`. */
  async function firstRunRead(workspace: Workspace, read: Pipeline) {
    const m = await pipelineSaved(workspace);
    m.answer('startRun').resolve(queued);
    await flush();
    await vi.advanceTimersByTimeAsync(ROW_POLL_MS);
    m.answer('readRun').resolve(read);
    await flush();
    return m;
  }

  it('starts from the input with nothing read; a new workspace is named at once, asking nothing', () => {
    const fresh = start({ step: 'w', workspaceId: 'new' });
    expect(fresh.context()).toEqual({ step: 'w', workspaceId: 'new', workspace: null, name: '', plugins: null, pluginsPage: 0, morePlugins: false, search: '', plugin: null, errors: NONE, pipeline: null, job: null, runError: null, loadedTables: null });
    expect(fresh.at('naming')).toBe(true);
    expect(fresh.calls).toEqual([]);
    expect(selectBusy(fresh.actor.getSnapshot())).toBe(false);
    fresh.actor.stop();
    for (const input of [{ step: 'w', workspaceId: 'w1' }, { step: 'imports', workspaceId: 'new' }] as const) {
      const other = start(input);
      expect(other.at('loading')).toBe(true);
      expect(selectBusy(other.actor.getSnapshot())).toBe(true);
      expect(other.calls).toEqual([`loadWorkspace ${input.workspaceId}`]);
      other.actor.stop();
    }
  });

  it('a workspace that cannot be loaded leads to a new one', async () => {
    vi.useFakeTimers();
    const m = start({ step: 'imports', workspaceId: 'w1' });
    m.answer('loadWorkspace').reject(offline);
    await flush();
    expect(m.at('left')).toBe(true);
    expect(m.moves).toEqual(['/setup/w/new']);
  });

  it('step 1 on a workspace: its name to edit; an empty name is refused, typing clears the message, a refused save and default say why', async () => {
    vi.useFakeTimers();
    const m = start({ step: 'w', workspaceId: 'w1' });
    m.answer('loadWorkspace').resolve(ready);
    await flush();
    expect(m.at('naming')).toBe(true);
    expect(m.context().name).toBe('Acme');
    m.actor.send({ type: 'user.name', value: '   ' });
    m.actor.send({ type: 'user.submit' });
    expect(m.at('naming')).toBe(true);
    expect(m.context().errors).toEqual({ banner: null, fields: { name: 'Name is required' } });
    m.actor.send({ type: 'user.name', value: ' Acme Ltd ' });
    expect(m.context().errors).toEqual(NONE);
    m.actor.send({ type: 'user.submit' });
    expect(m.at('savingWorkspace')).toBe(true);
    expect(selectBusy(m.actor.getSnapshot())).toBe(true);
    expect(m.calls.at(-1)).toBe('saveWorkspace w1 Acme Ltd');
    m.answer('saveWorkspace').reject(refused);
    await flush();
    expect(m.at('naming')).toBe(true);
    expect(m.context().errors).toEqual({ banner: 'Validation failed', fields: { name: 'is taken' } });
    m.actor.send({ type: 'user.submit' });
    expect(m.context().errors).toEqual(NONE);
    m.answer('saveWorkspace').resolve({ ...ready, id: 'w2' });
    await flush();
    expect(m.at('settingDefault')).toBe(true);
    expect(selectBusy(m.actor.getSnapshot())).toBe(true);
    expect(m.context().workspaceId).toBe('w2');
    expect(m.calls.at(-1)).toBe('setDefaultWorkspace w2');
    m.answer('setDefaultWorkspace').reject(offline);
    await flush();
    expect(m.at('naming')).toBe(true);
    expect(m.context().errors).toEqual({ banner: 'We were unable to connect.', fields: {} });
    m.actor.send({ type: 'user.submit' });
    m.answer('saveWorkspace').resolve({ ...ready, id: 'w2' });
    await flush();
    m.answer('setDefaultWorkspace').resolve(undefined);
    await flush();
    expect(m.at('left')).toBe(true);
    expect(m.moves).toEqual(['/setup/imports/w2']);
  });

  it('a new workspace is saved with no workspace yet; another step keeps the name it had', async () => {
    vi.useFakeTimers();
    const m = start({ step: 'w', workspaceId: 'new' });
    m.actor.send({ type: 'user.name', value: 'Mine' });
    m.actor.send({ type: 'user.submit' });
    expect(m.calls).toEqual(['saveWorkspace none Mine']);
    m.actor.stop();
    const t = start({ step: 'tasks', workspaceId: 'w1' });
    t.answer('loadWorkspace').resolve(ready);
    await flush();
    expect(t.at('tasks')).toBe(true);
    expect(t.context().name).toBe('');
    t.actor.send({ type: 'user.goToLab' });
    expect(t.moves).toEqual(['/lab/w1/pipelines reload']);
  });

  it('step 2 waits while the workspace is provisioned: re-read every 5 s, a missed read waits again, READY lists the plugins', async () => {
    vi.useFakeTimers();
    const m = start({ step: 'imports', workspaceId: 'w1' });
    m.answer('loadWorkspace').resolve(provisioning);
    await flush();
    expect(m.at({ importing: 'waiting' })).toBe(true);
    expect(selectPleaseWait(m.actor.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(ONBOARDING_POLL_MS - 1);
    expect(m.calls).toEqual(['loadWorkspace w1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(m.at({ importing: 'polling' })).toBe(true);
    expect(selectPleaseWait(m.actor.getSnapshot())).toBe(true);
    expect(m.calls).toEqual(['loadWorkspace w1', 'loadWorkspace w1']);
    m.answer('loadWorkspace').reject(offline);
    await flush();
    expect(m.at({ importing: 'waiting' })).toBe(true);
    await vi.advanceTimersByTimeAsync(ONBOARDING_POLL_MS);
    m.answer('loadWorkspace').resolve(ready);
    await flush();
    expect(m.at({ importing: 'listing' })).toBe(true);
    expect(m.context().workspace).toBe(ready);
    expect(selectPleaseWait(m.actor.getSnapshot())).toBe(false);
    expect(m.calls.at(-1)).toBe("listPlugins w1 '' 0");
    // Skip leaves for step 3 at any time of step 2
    m.actor.send({ type: 'user.skip' });
    expect(m.moves).toEqual(['/setup/tasks/w1']);
  });

  it('a failed list says why; retry clears it and asks again; typing also starts over with no message', async () => {
    vi.useFakeTimers();
    const m = start({ step: 'imports', workspaceId: 'w1' });
    m.answer('loadWorkspace').resolve(ready);
    await flush();
    m.answer('listPlugins').reject(offline);
    await flush();
    expect(m.at({ importing: 'failed' })).toBe(true);
    expect(m.context().errors).toEqual({ banner: 'We were unable to connect.', fields: {} });
    m.actor.send({ type: 'user.retry' });
    expect(m.at({ importing: 'listing' })).toBe(true);
    expect(m.context().errors).toEqual(NONE);
    m.answer('listPlugins').reject(offline);
    await flush();
    m.actor.send({ type: 'user.search', value: 'cs' });
    expect(m.at({ importing: 'searching' })).toBe(true);
    expect(m.context().errors).toEqual(NONE);
    expect(m.context().search).toBe('cs');
    await vi.advanceTimersByTimeAsync(ONBOARDING_SEARCH_DEBOUNCE_MS);
    expect(m.calls.at(-1)).toBe("listPlugins w1 'cs' 0");
  });

  it('choosing names the pipeline after the plugin; a submit needs a plugin and a name; a refused save keeps the form with the reason', async () => {
    vi.useFakeTimers();
    const m = start({ step: 'imports', workspaceId: 'w1' });
    m.answer('loadWorkspace').resolve(ready);
    await flush();
    m.answer('listPlugins').resolve({ plugins: [demo, csv], hasMore: false });
    await flush();
    expect(m.context()).toMatchObject({ plugins: [demo, csv], pluginsPage: 0, morePlugins: false });
    m.actor.send({ type: 'user.submit' });
    expect(m.context().errors).toEqual({ banner: null, fields: { name: 'Name is required' } });
    m.actor.send({ type: 'user.choose', plugin: csv });
    expect(m.context()).toMatchObject({ plugin: csv, name: 'CSV', errors: NONE });
    m.actor.send({ type: 'user.choose', plugin: { ...demo, label: undefined } });
    expect(m.context().name).toBe('tap-demo');
    m.actor.send({ type: 'user.name', value: '  ' });
    m.actor.send({ type: 'user.submit' });
    expect(m.at({ importing: 'choosing' })).toBe(true);
    expect(m.context().errors).toEqual({ banner: null, fields: { name: 'Name is required' } });
    m.actor.send({ type: 'user.name', value: ' My demo ' });
    m.actor.send({ type: 'user.submit' });
    expect(m.at({ importing: 'saving' })).toBe(true);
    expect(selectBusy(m.actor.getSnapshot())).toBe(true);
    expect(m.context().errors).toEqual(NONE);
    expect(m.calls.at(-1)).toBe('createPipeline w1 p1 My demo');
    m.answer('createPipeline').reject(offline);
    await flush();
    expect(m.at({ importing: 'choosing' })).toBe(true);
    expect(m.context().errors).toEqual({ banner: 'We were unable to connect.', fields: {} });
    // a 409 with a message says the message
    m.actor.send({ type: 'user.submit' });
    m.answer('createPipeline').reject(busy);
    await flush();
    expect(m.context().errors).toEqual({ banner: 'A job of this pipeline is already queued or running', fields: {} });
  });

  it("'More data sources': the next page below, without repeats; a failure says why and keeps the list; clears the last message", async () => {
    vi.useFakeTimers();
    const m = start({ step: 'imports', workspaceId: 'w1' });
    m.answer('loadWorkspace').resolve(ready);
    await flush();
    m.answer('listPlugins').resolve({ plugins: [demo], hasMore: true });
    await flush();
    m.actor.send({ type: 'user.more' });
    expect(m.at({ importing: 'listingMore' })).toBe(true);
    expect(m.calls.at(-1)).toBe("listPlugins w1 '' 1");
    m.answer('listPlugins').reject(offline);
    await flush();
    expect(m.at({ importing: 'choosing' })).toBe(true);
    expect(m.context()).toMatchObject({ plugins: [demo], pluginsPage: 0, morePlugins: true, errors: { banner: 'We were unable to connect.', fields: {} } });
    m.actor.send({ type: 'user.more' });
    expect(m.context().errors).toEqual(NONE);
    m.answer('listPlugins').resolve({ plugins: [demo, csv], hasMore: true });
    await flush();
    expect(m.context()).toMatchObject({ plugins: [demo, csv], pluginsPage: 1, morePlugins: true });
    m.actor.send({ type: 'user.more' });
    expect(m.calls.at(-1)).toBe("listPlugins w1 '' 2");
    m.answer('listPlugins').resolve({ plugins: [], hasMore: false });
    await flush();
    expect(m.context()).toMatchObject({ plugins: [demo, csv], pluginsPage: 2, morePlugins: false });
    m.actor.send({ type: 'user.more' });
    expect(m.at({ importing: 'choosing' })).toBe(true);
    // typing while the next page is read starts over
    const t = start({ step: 'imports', workspaceId: 'w1' });
    t.answer('loadWorkspace').resolve(ready);
    await flush();
    t.answer('listPlugins').resolve({ plugins: [demo], hasMore: true });
    await flush();
    t.actor.send({ type: 'user.more' });
    t.actor.send({ type: 'user.search', value: 'cs' });
    expect(t.at({ importing: 'searching' })).toBe(true);
    expect(t.context().search).toBe('cs');
    t.actor.stop();
    m.actor.stop();
  });

  it('the first run: started job kept, re-read every 5 s, a missed read tried again, complete with the biggest table it loaded', async () => {
    vi.useFakeTimers();
    const m = await pipelineSaved(ready);
    expect(selectFirstRun(m.actor.getSnapshot())).toBe('starting');
    expect(m.context().pipeline).toBe(runnable);
    expect(m.calls.at(-1)).toBe('startRun p');
    m.answer('startRun').resolve(queued);
    await flush();
    expect(selectFirstRun(m.actor.getSnapshot())).toBe('active');
    expect(m.context().job).toBe(queued);
    await vi.advanceTimersByTimeAsync(ROW_POLL_MS - 1);
    expect(m.calls.at(-1)).toBe('startRun p');
    await vi.advanceTimersByTimeAsync(1);
    expect(m.calls.at(-1)).toBe('readRun p');
    expect(selectFirstRun(m.actor.getSnapshot())).toBe('active');
    m.answer('readRun').reject(offline);
    await flush();
    expect(m.at({ firstRun: 'active' })).toBe(true);
    expect(m.context().job).toBe(queued);
    await vi.advanceTimersByTimeAsync(ROW_POLL_MS);
    // a pipeline that lists no job yet keeps the started one, still going
    m.answer('readRun').resolve(runnable);
    await flush();
    expect(m.at({ firstRun: 'active' })).toBe(true);
    expect(m.context()).toMatchObject({ pipeline: runnable, job: queued });
    await vi.advanceTimersByTimeAsync(ROW_POLL_MS);
    m.answer('readRun').resolve(running);
    await flush();
    expect(m.context().job?.status).toBe('RUNNING');
    expect(m.context().pipeline).toBe(running);
    await vi.advanceTimersByTimeAsync(ROW_POLL_MS);
    m.answer('readRun').resolve(complete);
    await flush();
    expect(m.at({ firstRun: { succeeded: 'readingTables' } })).toBe(true);
    expect(m.calls.at(-1)).toBe('listTables w1');
    expect(selectFirstRunLinks(m.actor.getSnapshot())).toEqual({ table: null, tablesPath: null, chartPath: null });
    m.answer('listTables').resolve(loaded);
    await flush();
    expect(m.context().loadedTables?.map((t) => t.name)).toEqual(['orders', 'customers']);
    expect(selectFirstRun(m.actor.getSnapshot())).toBe('succeeded');
    expect(selectFirstRunLinks(m.actor.getSnapshot())).toEqual({ table: 'orders', tablesPath: '/lab/w1/datastores/s1?table=orders', chartPath: '/lab/w1/datasets?edit=new&table=orders' });
    m.actor.send({ type: 'user.skip' });
    expect(m.at('left')).toBe(false);
    m.actor.send({ type: 'user.continue' });
    expect(m.moves).toEqual(['/setup/tasks/w1']);
    expect(selectFirstRun(m.actor.getSnapshot())).toBeNull();
  });

  it('a start that answers no job follows the pipeline; a failed table list offers the store alone; a refused start keeps its reason', async () => {
    vi.useFakeTimers();
    const run = async (startAnswer: 'none' | 'refused') => {
      const m = await pipelineSaved(ready);
      if (startAnswer === 'refused') m.answer('startRun').reject(offline);
      else m.answer('startRun').resolve(undefined);
      await flush();
      return m;
    };
    const none = await run('none');
    expect(none.context().job).toBeNull();
    expect(none.at({ firstRun: 'active' })).toBe(true);
    await vi.advanceTimersByTimeAsync(ROW_POLL_MS);
    none.answer('readRun').resolve(complete);
    await flush();
    none.answer('listTables').reject(offline);
    await flush();
    expect(none.at({ firstRun: { succeeded: 'shown' } })).toBe(true);
    expect(none.context().loadedTables).toEqual([]);
    expect(selectFirstRunLinks(none.actor.getSnapshot())).toEqual({ table: null, tablesPath: '/lab/w1/datastores/s1', chartPath: null });
    none.actor.stop();
    const refusedStart = await run('refused');
    expect(selectFirstRun(refusedStart.actor.getSnapshot())).toBe('refused');
    expect(refusedStart.context().runError).toBe('We were unable to connect.');
    refusedStart.actor.stop();
  });

  it('a run that failed shows failed; no tables link reads no tables', async () => {
    vi.useFakeTimers();
    for (const [workspace, answer, phase] of [
      [ready, errored, 'failed'],
      [readyWithoutTables, complete, 'succeeded'],
    ] as const) {
      const m = await firstRunRead(workspace, answer);
      expect(selectFirstRun(m.actor.getSnapshot())).toBe(phase);
      expect(m.calls.some((c) => c.startsWith('listTables'))).toBe(false);
      if (phase === 'succeeded') {
        expect(m.at({ firstRun: { succeeded: 'shown' } })).toBe(true);
        expect(m.context().loadedTables).toBeNull();
        expect(selectFirstRunLinks(m.actor.getSnapshot())).toEqual({ table: null, tablesPath: '/lab/w1/datastores/s1', chartPath: null });
      }
      m.actor.stop();
    }
  });

  it('a typed name without a chosen plugin is not saved; More drops what is already shown', async () => {
    vi.useFakeTimers();
    const m = start({ step: 'imports', workspaceId: 'w1' });
    m.answer('loadWorkspace').resolve(ready);
    await flush();
    m.answer('listPlugins').resolve({ plugins: [demo, csv], hasMore: true });
    await flush();
    m.actor.send({ type: 'user.name', value: 'Named' });
    m.actor.send({ type: 'user.submit' });
    expect(m.at({ importing: 'choosing' })).toBe(true);
    expect(m.context().errors).toEqual({ banner: null, fields: { name: 'Name is required' } });
    expect(m.calls.some((c) => c.startsWith('createPipeline'))).toBe(false);
    m.actor.send({ type: 'user.more' });
    const third: DataPlugin = { ...demo, id: 'p3', name: 'tap-third', label: 'Third' };
    m.answer('listPlugins').resolve({ plugins: [csv, third, demo], hasMore: false });
    await flush();
    expect(m.context().plugins?.map((p) => p.id)).toEqual(['p1', 'p2', 'p3']);
    m.actor.stop();
  });

  it('each letter restarts the wait before the catalogue is asked', async () => {
    vi.useFakeTimers();
    const m = start({ step: 'imports', workspaceId: 'w1' });
    m.answer('loadWorkspace').resolve(ready);
    await flush();
    m.answer('listPlugins').resolve({ plugins: [demo, csv], hasMore: false });
    await flush();
    m.actor.send({ type: 'user.search', value: 'p' });
    await vi.advanceTimersByTimeAsync(ONBOARDING_SEARCH_DEBOUNCE_MS - 100);
    m.actor.send({ type: 'user.search', value: 'po' });
    await vi.advanceTimersByTimeAsync(ONBOARDING_SEARCH_DEBOUNCE_MS - 1);
    expect(m.calls.filter((c) => c.startsWith('listPlugins'))).toEqual(["listPlugins w1 '' 0"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(m.calls.filter((c) => c.startsWith('listPlugins'))).toEqual(["listPlugins w1 '' 0", "listPlugins w1 'po' 0"]);
    m.actor.stop();
  });

  it('a refusal other than a 400 is one message, its fields not placed; a response without a body says its status', async () => {
    vi.useFakeTimers();
    const m = start({ step: 'w', workspaceId: 'new' });
    m.actor.send({ type: 'user.name', value: 'Acme' });
    m.actor.send({ type: 'user.submit' });
    const conflict = new ApiFailure({ kind: 'response', status: 409, message: '[409]', body: { message: 'Name in use', errors: [{ field: 'name', objectName: 'workspace', defaultMessage: 'is taken' }] } as never });
    m.answer('saveWorkspace').reject(conflict);
    await flush();
    expect(m.context().errors).toEqual({ banner: 'Name in use', fields: {} });
    m.actor.send({ type: 'user.submit' });
    m.answer('saveWorkspace').reject(new ApiFailure({ kind: 'response', status: 404, message: '[404] Not Found' }));
    await flush();
    expect(m.at('naming')).toBe(true);
    expect(m.context().errors).toEqual({ banner: '[404] Not Found', fields: {} });
    m.actor.stop();
  });

  it('Skip and Go to the Lab end the setup; busy while a pipeline saves; searching only while the search is asked', async () => {
    vi.useFakeTimers();
    const m = start({ step: 'imports', workspaceId: 'w1' });
    m.answer('loadWorkspace').resolve(ready);
    await flush();
    expect(selectSearching(m.actor.getSnapshot())).toBe(true);
    m.answer('listPlugins').resolve({ plugins: [demo], hasMore: true });
    await flush();
    expect(selectSearching(m.actor.getSnapshot())).toBe(false);
    m.actor.send({ type: 'user.more' });
    expect(selectSearching(m.actor.getSnapshot())).toBe(false);
    m.answer('listPlugins').resolve({ plugins: [], hasMore: false });
    await flush();
    m.actor.send({ type: 'user.search', value: 'x' });
    expect(selectSearching(m.actor.getSnapshot())).toBe(true);
    await vi.advanceTimersByTimeAsync(ONBOARDING_SEARCH_DEBOUNCE_MS);
    expect(m.at({ importing: 'listing' })).toBe(true);
    expect(selectSearching(m.actor.getSnapshot())).toBe(true);
    m.answer('listPlugins').resolve({ plugins: [demo], hasMore: false });
    await flush();
    m.actor.send({ type: 'user.choose', plugin: demo });
    expect(selectBusy(m.actor.getSnapshot())).toBe(false);
    m.actor.send({ type: 'user.submit' });
    expect(m.at({ importing: 'saving' })).toBe(true);
    expect(selectBusy(m.actor.getSnapshot())).toBe(true);
    expect(selectSearching(m.actor.getSnapshot())).toBe(false);
    m.actor.send({ type: 'user.skip' });
    expect(m.moves).toEqual(['/setup/tasks/w1']);
    expect(m.actor.getSnapshot().status).toBe('done');
    const t = start({ step: 'tasks', workspaceId: 'w1' });
    t.answer('loadWorkspace').resolve(ready);
    await flush();
    t.actor.send({ type: 'user.goToLab' });
    expect(t.moves).toEqual(['/lab/w1/pipelines reload']);
    expect(t.actor.getSnapshot().status).toBe('done');
  });

  it('the tables offered are those the run\'s own job loaded, before bigger ones an earlier run of the pipeline loaded', async () => {
    vi.useFakeTimers();
    const m = await firstRunRead(ready, complete);
    // j1 is this run; j0 an earlier run of the same pipeline, which loaded more rows
    m.answer('listTables').resolve([storeTable('history', 900, 'p', 'j0'), storeTable('customers', 20, 'p', 'j1')]);
    await flush();
    expect(m.context().loadedTables?.map((t) => t.name)).toEqual(['customers']);
    m.actor.stop();
  });

  it('leaving the setup cancels its requests', async () => {
    const inputs = {
      loadWorkspace: { workspaceId: 'w1' },
      saveWorkspace: { workspace: ready, name: 'Acme' },
      setDefaultWorkspace: { workspaceId: 'w1' },
      listPlugins: { workspace: ready, search: '', page: 0 },
      listTables: { workspace: ready },
      createPipeline: { workspace: ready, plugin: demo, name: 'Demo' },
    };
    expect(await requestsCancelledOnStop(onboardingActors, inputs)).toEqual({ loadWorkspace: true, saveWorkspace: true, setDefaultWorkspace: true, listPlugins: true, listTables: true, createPipeline: true });
  });

  it('the real load and pipeline creation keep their failures from the shared error handler', async () => {
    const reported: unknown[] = [];
    const refusal = { status: 403, body: { status: 403, message: 'no' } };
    const fake = fakeFetch(refusal, refusal, refusal, refusal);
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0, onError: (f) => reported.push(f) });
    const actors = onboardingActors(client);
    const outcome = (actor: { subscribe: (o: { error: () => void; complete: () => void }) => unknown; start: () => unknown }) =>
      new Promise<string>((resolve) => {
        actor.subscribe({ error: () => resolve('failed'), complete: () => resolve('done') });
        actor.start();
      });
    expect(await outcome(createActor(actors.loadWorkspace, { input: { workspaceId: 'w1' } }))).toBe('failed');
    expect(await outcome(createActor(actors.createPipeline, { input: { workspace: ready, plugin: demo, name: 'Demo' } }))).toBe('failed');
    expect(fake.calls.length).toBeGreaterThan(1);
    expect(reported).toEqual([]);
  });
});
