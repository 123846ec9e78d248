import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, toPromise, type AnyMachineSnapshot } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { NEW_TEXT_BLOCK, parseBlocks, serialiseBlocks } from '../../domain/dashboard/blocks';
import type { Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions, type EventCases, type ModelPath } from '../testing';
import { dashboardEditorActors } from './dashboardEditor.actors';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';
import { deferred } from '../testing/deferred.fixture';
import { dashboardContentOf, dashboardEditorMachine, type DashboardEditorContext, type DashboardEditorInput, type PickerDataset, type SaveContentInput, type SearchDatasetsInput } from './dashboardEditor.machine';

const link = (href: string) => ({ href: `http://api.test/api${href}` });
const workspaceWith = (content: string, admin: boolean): Workspace => ({
  id: 'w1',
  name: 'Acme',
  appProperties: { DASHBOARD_CONTENT: content, OTHER: 'kept' },
  _links: { self: link('/workspaces/w1'), ...(admin ? { 'update delete workspace': link('/workspaces/w1') } : {}) },
});
const SESSION = workspaceWith('# Old', true);
const FRESH = workspaceWith('# Fresh', true);
const READER = workspaceWith('# Old', false);
const serverDown = new ApiFailure({ kind: 'server', status: 503, message: 'Down for maintenance' });

const ctx = (snapshot: AnyMachineSnapshot) => snapshot.context as DashboardEditorContext;

const NO_BUILDER_EVENTS: EventCases = {
  'user.addText': [],
  'user.moveBlock': [],
  'user.removeBlock': [],
  'user.blockText': [],
  'user.openPicker': [],
};

const eventsFor = (fresh: Workspace): EventCases => ({
  'xstate.done.actor.refreshWorkspace': [{ output: fresh }],
  'xstate.error.actor.refreshWorkspace': [{ error: serverDown }],
  'xstate.done.actor.saveContent': (snapshot: AnyMachineSnapshot) => [{ output: workspaceWith(ctx(snapshot).draft ?? '', true) }],
  'xstate.error.actor.saveContent': [{ error: serverDown }],
  'user.change': [{ value: '## New' }],
  // the block and picker paths are walked by their own traversals below
  ...NO_BUILDER_EVENTS,
});

const cases: [string, Workspace, Workspace][] = [
  ['an admin', SESSION, FRESH],
  ['a reader', READER, workspaceWith('# Fresh', false)],
];

describe.each(cases)('dashboardEditor machine for %s, generated paths', (name, workspace, fresh) => {
  const input: DashboardEditorInput = { workspace };
  const events = eventsFor(fresh);
  const paths = modelPaths(dashboardEditorMachine, { input, events });

  it('visits every state and walks every transition', () => {
    const picking = ['dashboardEditor.editing.picking.ready', 'dashboardEditor.editing.picking.searching', 'dashboardEditor.editing.picking.waiting'];
    expect(unvisitedStates(dashboardEditorMachine, paths).sort()).toEqual(name === 'a reader' ? ['dashboardEditor.editing.blocks', ...picking, 'dashboardEditor.saving'] : picking);
    if (name === 'an admin') expect(unwalkedTransitions(dashboardEditorMachine, paths, { input, events })).toEqual([]);
  });

  it('keeps the editor rules on every step', () => {
    for (const path of paths) {
      for (const [i, step] of path.steps.entries()) {
        const before = i > 0 ? ctx(path.steps[i - 1]!.state) : undefined;
        const now = ctx(step.state);
        const event = step.event as { type: string; value?: string };
        expect(now.draft !== null).toBe(step.state.matches('editing') || step.state.matches('saving'));
        // editing starts from the content on show
        if (event.type === 'user.edit') expect([now.draft, now.error]).toEqual([dashboardContentOf(now.workspace), null]);
        if (event.type === 'user.change') expect(now.draft).toBe(event.value);
        // a failed refresh keeps the session's copy on show
        if (event.type === 'xstate.error.actor.refreshWorkspace') expect([step.state.value, now.workspace]).toEqual(['viewing', before?.workspace]);
        if (event.type === 'xstate.error.actor.saveContent') expect([step.state.value, now.error, now.draft]).toEqual([{ editing: 'blocks' }, 'Down for maintenance', before?.draft]);
        if (event.type === 'xstate.done.actor.saveContent') expect([step.state.value, dashboardContentOf(now.workspace), now.draft]).toEqual(['viewing', before?.draft, null]);
        if (event.type === 'user.cancel') expect([step.state.value, now.draft, now.error]).toEqual(['viewing', null, null]);
      }
    }
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(dashboardEditorMachine, path, {
      input,
      states: {
        saving: (snapshot, { invocations }) => {
          const save = invocations.filter((call) => call.id === 'saveContent').at(-1);
          expect(save).toMatchObject({ input: { workspace: ctx(snapshot).workspace, content: ctx(snapshot).draft } });
        },
      },
    });
  });
});

// ---- the builder: blocks and the dataset picker, each walked on its own so the graph stays small ----

const SALES = { alias: 'sales', title: 'Monthly sales' };
const STARTED = workspaceWith('# Old', true);

/** Steps of a path with the context before each. */
function* stepsOf(path: ModelPath) {
  for (const [i, step] of path.steps.entries()) {
    if (i === 0) continue;
    yield { before: ctx(path.steps[i - 1]!.state), now: ctx(step.state), state: step.state, event: step.event as { type: string; [key: string]: unknown } };
  }
}

/** In every editing step the draft and the blocks say the same: the draft is what the blocks write. */
function expectInSync(now: DashboardEditorContext) {
  if (now.draft === null) return expect(now.blocks).toEqual([]);
  expect(serialiseBlocks(parseBlocks(now.draft))).toBe(serialiseBlocks(now.blocks));
}

describe('dashboardEditor machine, block paths', () => {
  const input: DashboardEditorInput = { workspace: STARTED };
  const events: EventCases = {
    'user.change': [{ value: '## New\n\n<DatasetChart alias="sales" />' }],
    'user.moveBlock': [
      { index: 0, by: 1 },
      { index: 1, by: -1 },
      { index: 0, by: -1 },
    ],
    'user.removeBlock': [{ index: 0 }, { index: 5 }],
    'user.blockText': [{ index: 0, value: 'Edited' }],
    'user.openPicker': [],
    'xstate.done.actor.refreshWorkspace': [{ output: STARTED }],
    'xstate.done.actor.saveContent': (snapshot: AnyMachineSnapshot) => [{ output: workspaceWith(ctx(snapshot).draft ?? '', true) }],
    'xstate.error.actor.saveContent': [{ error: serverDown }],
  };
  // three blocks are enough to move one past two others; the graph ends there
  const stopWhen = (snapshot: AnyMachineSnapshot) => ctx(snapshot).blocks.length >= 3;
  const paths = modelPaths(dashboardEditorMachine, { input, events, stopWhen });

  it('walks every block transition', () => {
    expect(paths.length).toBeGreaterThan(10);
    expect(unwalkedTransitions(dashboardEditorMachine, paths, { input, events, stopWhen })).toEqual([]);
  });

  it('keeps the draft and the blocks in step on every path', () => {
    for (const path of paths) {
      for (const { before, now, state, event } of stepsOf(path)) {
        expectInSync(now);
        if (!state.matches('editing')) continue;
        const index = event['index'] as number;
        switch (event.type) {
          case 'user.change':
            expect([now.draft, now.blocks.map((b) => b.kind)]).toEqual([event['value'], ['text', 'dataset']]);
            break;
          case 'user.addText':
            expect(now.blocks).toEqual([...before.blocks, { kind: 'text', source: NEW_TEXT_BLOCK }]);
            expect(now.draft?.endsWith(NEW_TEXT_BLOCK)).toBe(true);
            break;
          case 'user.moveBlock':
            // the guard only lets a real move through
            expect(now.blocks[index + (event['by'] as number)]).toEqual(before.blocks[index]);
            expect(now.blocks.length).toBe(before.blocks.length);
            break;
          case 'user.removeBlock':
            expect(now.blocks).toEqual(before.blocks.filter((_, i) => i !== index));
            break;
          case 'user.blockText':
            expect(now.blocks[0]).toEqual(before.blocks[0]?.kind === 'text' ? { kind: 'text', source: 'Edited' } : before.blocks[0]);
            break;
        }
      }
    }
  });

  replayTest.each(paths.filter((p) => p.steps.some((s) => s.event.type === 'xstate.done.actor.saveContent')).slice(0, 12).map((p) => [p.description, p] as const))('replay: %s, saving what the blocks say', async (_, path) => {
    await replayPath(dashboardEditorMachine, path, {
      input,
      states: {
        saving: (snapshot, { invocations }) => {
          expect(invocations.filter((call) => call.id === 'saveContent').at(-1)).toMatchObject({ input: { content: ctx(snapshot).draft } });
        },
      },
    });
  });
});

describe('dashboardEditor machine, picker paths', () => {
  const input: DashboardEditorInput = { workspace: STARTED };
  const events: EventCases = {
    'user.change': [],
    'user.addText': [],
    'user.moveBlock': [],
    'user.removeBlock': [],
    'user.blockText': [],
    'user.search': [{ q: 'sal' }],
    'user.pickerView': [{ view: 'data' }],
    'user.pickDataset': [{ dataset: SALES }],
    'xstate.done.actor.refreshWorkspace': [{ output: STARTED }],
    'xstate.done.actor.searchDatasets': [{ output: [SALES] }],
    'xstate.error.actor.searchDatasets': [{ error: serverDown }],
    'xstate.done.actor.saveContent': (snapshot: AnyMachineSnapshot) => [{ output: workspaceWith(ctx(snapshot).draft ?? '', true) }],
    'xstate.error.actor.saveContent': [{ error: serverDown }],
  };
  // one dataset picked is the whole story of the picker; a second pick would only repeat it
  const stopWhen = (snapshot: AnyMachineSnapshot) => ctx(snapshot).blocks.length >= 2;
  const paths = modelPaths(dashboardEditorMachine, { input, events, stopWhen });

  it('visits every picker state and walks every transition', () => {
    expect(unvisitedStates(dashboardEditorMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(dashboardEditorMachine, paths, { input, events, stopWhen })).toEqual([]);
  });

  it('searches after the pause, lists or says the failure, and inserts the pick as a block of the chosen kind', () => {
    for (const path of paths) {
      for (const { before, now, state, event } of stepsOf(path)) {
        expectInSync(now);
        switch (event.type) {
          case 'user.openPicker':
            expect([state.value, now.picker]).toEqual([{ editing: { picking: 'searching' } }, { q: '', view: 'chart', results: [], error: null }]);
            break;
          case 'user.search':
            expect([state.value, now.picker.q]).toEqual([{ editing: { picking: 'waiting' } }, 'sal']);
            break;
          case 'xstate.done.actor.searchDatasets':
            expect([state.value, now.picker.results, now.picker.error]).toEqual([{ editing: { picking: 'ready' } }, [SALES], null]);
            break;
          case 'xstate.error.actor.searchDatasets':
            expect([now.picker.results, now.picker.error]).toEqual([[], 'Down for maintenance']);
            break;
          case 'user.pickDataset': {
            const view = before.picker.view;
            expect(state.value).toEqual({ editing: 'blocks' });
            expect(now.blocks.at(-1)).toMatchObject({ kind: 'dataset', alias: 'sales', view });
            expect(now.draft?.endsWith(view === 'chart' ? '<DatasetChart alias="sales" />' : '<DatasetData alias="sales" />')).toBe(true);
            expect([now.titles, now.picker.q]).toEqual([{ sales: 'Monthly sales' }, '']);
            break;
          }
          case 'user.closePicker':
            expect([state.value, now.blocks]).toEqual([{ editing: 'blocks' }, before.blocks]);
            break;
        }
        if (event.type.startsWith('xstate.after.')) expect(state.value).toEqual({ editing: { picking: 'searching' } });
      }
    }
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(dashboardEditorMachine, path, {
      input,
      states: {
        'editing.picking.searching': (snapshot, { invocations }) => {
          expect(invocations.filter((call) => call.id === 'searchDatasets').at(-1)).toMatchObject({ input: { workspaceId: 'w1', q: ctx(snapshot).picker.q } });
        },
      },
    });
  });
});

describe('dashboardEditor machine, targeted', () => {
  it('tells the page when a save succeeded', async () => {
    const machine = dashboardEditorMachine.provide({
      actors: {
        refreshWorkspace: fromPromise(() => Promise.resolve(STARTED)),
        saveContent: fromPromise<Workspace, SaveContentInput>(({ input }) => Promise.resolve(workspaceWith(input.content, true))),
      },
    });
    const actor = createActor(machine, { input: { workspace: STARTED } }).start();
    const saved = new Promise((resolve) => actor.on('dashboard.saved', resolve));
    actor.send({ type: 'user.edit' });
    actor.send({ type: 'user.addText' });
    actor.send({ type: 'user.save' });
    await expect(saved).resolves.toEqual({ type: 'dashboard.saved' });
    expect(dashboardContentOf(actor.getSnapshot().context.workspace)).toBe(`# Old\n\n{/* block */}\n\n${NEW_TEXT_BLOCK}`);
    actor.stop();
  });

  it('a reader cannot edit, before or after the refresh', () => {
    const input = { workspace: READER };
    expect(pathOf(dashboardEditorMachine, [], { input }).state.can({ type: 'user.edit' })).toBe(false);
    expect(pathOf(dashboardEditorMachine, [{ type: 'xstate.done.actor.refreshWorkspace', output: READER }], { input }).state.can({ type: 'user.edit' })).toBe(false);
  });

  it('the refresh shows the fresh content, and rights the fresh copy gives', () => {
    const path = pathOf(dashboardEditorMachine, [{ type: 'xstate.done.actor.refreshWorkspace', output: FRESH }, { type: 'user.edit' }], { input: { workspace: READER } });
    expect(ctx(path.state).draft).toBe('# Fresh');
  });

  it('the save re-reads the workspace and keeps its other app properties', async () => {
    const { fetch, calls } = fakeFetch({ body: { ...FRESH, appProperties: { DASHBOARD_CONTENT: '# Fresh', OTHER: 'changed by another admin' } } }, { body: workspaceWith('## New', true) });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch, retryDelay: () => 0 });
    const saved = await toPromise(createActor(dashboardEditorActors(client).saveContent, { input: { workspace: SESSION, content: '## New' } }).start());
    expect(dashboardContentOf(saved)).toBe('## New');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET http://api.test/api/workspaces/w1', 'PUT http://api.test/api/workspaces/w1']);
    expect(calls[1]?.body).toMatchObject({ name: 'Acme', appProperties: { DASHBOARD_CONTENT: '## New', OTHER: 'changed by another admin' } });
  });
});

describe('dashboardEditor, checked by hand', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function start(workspace: Workspace = SESSION) {
    const calls: string[] = [];
    const refreshes: ReturnType<typeof deferred<Workspace>>[] = [];
    const saves: ReturnType<typeof deferred<Workspace>>[] = [];
    const searches: ReturnType<typeof deferred<readonly PickerDataset[]>>[] = [];
    const machine = dashboardEditorMachine.provide({
      actors: {
        refreshWorkspace: fromPromise<Workspace, DashboardEditorInput>(({ input }) => {
          calls.push(`refresh ${input.workspace.id}`);
          const next = deferred<Workspace>();
          refreshes.push(next);
          return next.promise;
        }),
        saveContent: fromPromise<Workspace, SaveContentInput>(({ input }) => {
          calls.push(`save ${input.workspace.id} ${input.content}`);
          const next = deferred<Workspace>();
          saves.push(next);
          return next.promise;
        }),
        searchDatasets: fromPromise<readonly PickerDataset[], SearchDatasetsInput>(({ input }) => {
          calls.push(`search ${input.workspaceId} '${input.q}'`);
          const next = deferred<readonly PickerDataset[]>();
          searches.push(next);
          return next.promise;
        }),
      },
    });
    const actor = createActor(machine, { input: { workspace } }).start();
    const context = () => actor.getSnapshot().context;
    return { actor, calls, refreshes, saves, searches, context };
  }

  it('starts from the session copy with nothing drafted, and reads the workspace afresh', () => {
    const { actor, calls, context } = start();
    expect(context()).toEqual({ workspace: SESSION, draft: null, blocks: [], error: null, picker: { q: '', view: 'chart', results: [], error: null }, titles: {} });
    expect(calls).toEqual(['refresh w1']);
    expect(actor.getSnapshot().value).toBe('loading');
    actor.stop();
  });

  it('an admin may edit while the refresh is out; a failed refresh keeps the session copy', async () => {
    const { actor, context } = start();
    actor.send({ type: 'user.edit' });
    expect(actor.getSnapshot().value).toEqual({ editing: 'blocks' });
    expect(context().draft).toBe('# Old');
    expect(context().blocks).toEqual([{ kind: 'text', source: '# Old' }]);
    actor.stop();
    const failed = start();
    failed.refreshes[0]!.reject(serverDown);
    await new Promise((resolve) => setImmediate(resolve));
    expect(failed.actor.getSnapshot().value).toBe('viewing');
    expect(failed.context().workspace).toBe(SESSION);
    failed.actor.stop();
  });

  it('a failed save says why and keeps the draft; the next save sends it again; a save closes the editor and tells the page', async () => {
    const { actor, calls, refreshes, saves, context } = start();
    refreshes[0]!.resolve(FRESH);
    await new Promise((resolve) => setImmediate(resolve));
    const emitted: string[] = [];
    actor.on('dashboard.saved', (e) => void emitted.push(e.type));
    actor.send({ type: 'user.edit' });
    actor.send({ type: 'user.change', value: '## Mine' });
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().value).toBe('saving');
    expect(calls.at(-1)).toBe('save w1 ## Mine');
    saves[0]!.reject(serverDown);
    await new Promise((resolve) => setImmediate(resolve));
    expect(actor.getSnapshot().value).toEqual({ editing: 'blocks' });
    expect(context().error).toBe('Down for maintenance');
    expect(context().draft).toBe('## Mine');
    actor.send({ type: 'user.save' });
    expect(calls.at(-1)).toBe('save w1 ## Mine');
    saves[1]!.resolve(workspaceWith('## Mine', true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(actor.getSnapshot().value).toBe('viewing');
    expect(context()).toMatchObject({ draft: null, blocks: [], error: null });
    expect(dashboardContentOf(context().workspace)).toBe('## Mine');
    expect(emitted).toEqual(['dashboard.saved']);
    actor.stop();
  });

  it('cancel drops the draft, the blocks and the message', async () => {
    const { actor, refreshes, saves, context } = start();
    refreshes[0]!.resolve(FRESH);
    await new Promise((resolve) => setImmediate(resolve));
    actor.send({ type: 'user.edit' });
    actor.send({ type: 'user.save' });
    saves[0]!.reject(serverDown);
    await new Promise((resolve) => setImmediate(resolve));
    actor.send({ type: 'user.cancel' });
    expect(actor.getSnapshot().value).toBe('viewing');
    expect(context()).toMatchObject({ draft: null, blocks: [], error: null });
    // editing again starts from the saved content, with no message
    actor.send({ type: 'user.edit' });
    expect(context()).toMatchObject({ draft: '# Fresh', error: null });
    actor.stop();
  });

  it('block events with an index that names no block change nothing', async () => {
    const { actor, refreshes, context } = start(workspaceWith('', true));
    refreshes[0]!.resolve(workspaceWith('', true));
    await new Promise((resolve) => setImmediate(resolve));
    actor.send({ type: 'user.edit' });
    actor.send({ type: 'user.addText' });
    actor.send({ type: 'user.addText' });
    const blocks = context().blocks;
    const draft = context().draft;
    expect(blocks).toHaveLength(2);
    for (const index of [-1, 2, 0.5, Number.NaN, 7]) {
      actor.send({ type: 'user.removeBlock', index });
      actor.send({ type: 'user.blockText', index, value: 'x' });
      actor.send({ type: 'user.moveBlock', index, by: 1 });
    }
    actor.send({ type: 'user.moveBlock', index: 1, by: 1 });
    actor.send({ type: 'user.moveBlock', index: 0, by: -1 });
    expect(context().blocks).toEqual(blocks);
    expect(context().draft).toBe(draft);
    actor.send({ type: 'user.blockText', index: 1, value: 'Second' });
    actor.send({ type: 'user.moveBlock', index: 1, by: -1 });
    expect(context().blocks).toEqual([{ kind: 'text', source: 'Second' }, { kind: 'text', source: NEW_TEXT_BLOCK }]);
    actor.send({ type: 'user.removeBlock', index: 1 });
    expect(context().blocks).toEqual([{ kind: 'text', source: 'Second' }]);
    expect(context().draft).toBe('Second');
    // the first block is a block too
    actor.send({ type: 'user.blockText', index: 0, value: 'First' });
    expect(context().blocks).toEqual([{ kind: 'text', source: 'First' }]);
    actor.send({ type: 'user.removeBlock', index: 0 });
    expect(context().blocks).toEqual([]);
    actor.stop();
  });

  it('the picker lists the newest at once, searches 300 ms after the last letter, says a failure, and a pick adds the block', async () => {
    vi.useFakeTimers();
    const { actor, calls, refreshes, searches, context } = start();
    refreshes[0]!.resolve(FRESH);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'user.edit' });
    actor.send({ type: 'user.openPicker' });
    expect(calls.at(-1)).toBe("search w1 ''");
    searches[0]!.reject(serverDown);
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().value).toEqual({ editing: { picking: 'ready' } });
    expect(context().picker).toEqual({ q: '', view: 'chart', results: [], error: 'Down for maintenance' });
    actor.send({ type: 'user.search', q: 's' });
    await vi.advanceTimersByTimeAsync(200);
    actor.send({ type: 'user.search', q: 'sa' });
    await vi.advanceTimersByTimeAsync(299);
    expect(calls.filter((c) => c.startsWith('search'))).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.at(-1)).toBe("search w1 'sa'");
    searches[1]!.resolve([SALES]);
    await vi.advanceTimersByTimeAsync(0);
    expect(context().picker).toEqual({ q: 'sa', view: 'chart', results: [SALES], error: null });
    actor.send({ type: 'user.pickerView', view: 'link' });
    expect(context().picker.view).toBe('link');
    expect(context().picker.q).toBe('sa');
    actor.send({ type: 'user.pickDataset', dataset: SALES });
    expect(actor.getSnapshot().value).toEqual({ editing: 'blocks' });
    expect(context().blocks.at(-1)).toEqual({ kind: 'dataset', view: 'link', alias: 'sales', source: '<DatasetLink alias="sales">Monthly sales</DatasetLink>' });
    expect(context().titles).toEqual({ sales: 'Monthly sales' });
    expect(context().picker).toEqual({ q: '', view: 'chart', results: [], error: null });
    // opening again starts afresh; closing keeps the blocks
    actor.send({ type: 'user.openPicker' });
    actor.send({ type: 'user.search', q: 'x' });
    actor.send({ type: 'user.closePicker' });
    expect(actor.getSnapshot().value).toEqual({ editing: 'blocks' });
    expect(context().picker).toEqual({ q: '', view: 'chart', results: [], error: null });
    // a save from the picker closes it
    actor.send({ type: 'user.openPicker' });
    actor.send({ type: 'user.search', q: 'y' });
    actor.send({ type: 'user.save' });
    expect(actor.getSnapshot().value).toBe('saving');
    expect(context().picker).toEqual({ q: '', view: 'chart', results: [], error: null });
    actor.stop();
  });

  it('a block event naming no block leaves the typed source as typed', async () => {
    const { actor, refreshes, context } = start();
    refreshes[0]!.resolve(FRESH);
    await new Promise((resolve) => setImmediate(resolve));
    expect(actor.getSnapshot().value).toBe('viewing');
    actor.send({ type: 'user.edit' });
    const typed = '  # Typed   \n\n\n\nkept as typed  ';
    // the blocks would write it otherwise: a block change rewrites the draft
    expect(serialiseBlocks(parseBlocks(typed))).not.toBe(typed);
    actor.send({ type: 'user.change', value: typed });
    for (const index of [-1, 1, 0.5, 9]) {
      actor.send({ type: 'user.removeBlock', index });
      actor.send({ type: 'user.blockText', index, value: 'x' });
      actor.send({ type: 'user.moveBlock', index, by: -1 });
    }
    expect(context().draft).toBe(typed);
    actor.stop();
  });

  it('a workspace with no dashboard content edits from nothing', () => {
    const bare: Workspace = { id: 'w1', name: 'Acme', _links: SESSION._links };
    const { actor, context } = start(bare);
    actor.send({ type: 'user.edit' });
    expect(context().draft).toBe('');
    expect(context().blocks).toEqual([]);
    actor.stop();
  });

  it('the real actors keep their failures from the shared error handler; a search page with no datasets lists none', async () => {
    const reported: unknown[] = [];
    const { fetch } = fakeFetch({ status: 403, body: { status: 403, message: 'no' } }, { status: 403, body: { status: 403, message: 'no' } }, { status: 403, body: { status: 403, message: 'no' } }, { body: {} });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch, retryDelay: () => 0, onError: (f) => reported.push(f) });
    const actors = dashboardEditorActors(client);
    const settleOf = (actor: { subscribe: (o: { error: (e: unknown) => void; complete: () => void }) => unknown; start: () => unknown; getSnapshot: () => { output?: unknown } }) =>
      new Promise<unknown>((resolve) => {
        actor.subscribe({ error: () => resolve('failed'), complete: () => resolve(actor.getSnapshot().output) });
        actor.start();
      });
    expect(await settleOf(createActor(actors.refreshWorkspace, { input: { workspace: SESSION } }))).toBe('failed');
    expect(await settleOf(createActor(actors.saveContent, { input: { workspace: SESSION, content: '# New' } }))).toBe('failed');
    expect(await settleOf(createActor(actors.searchDatasets, { input: { workspaceId: 'w1', q: '' } }))).toBe('failed');
    expect(reported).toEqual([]);
    expect(await settleOf(createActor(actors.searchDatasets, { input: { workspaceId: 'w1', q: '' } }))).toEqual([]);
  });

  it('the real search names a dataset without an alias by its id', async () => {
    const { fetch, calls } = fakeFetch({ body: { _embedded: { datasets: [{ id: 'd1', title: 'No alias' }, { id: 'd2', alias: 'sales', title: 'Monthly sales' }] } } });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch, retryDelay: () => 0 });
    const found = await toPromise(createActor(dashboardEditorActors(client).searchDatasets, { input: { workspaceId: 'w1', q: 'sal' } }).start());
    expect(found).toEqual([{ alias: 'd1', title: 'No alias' }, SALES]);
    expect(calls[0]?.url).toContain('q=sal');
    expect(calls[0]?.url).toContain('size=20');
  });

  it('leaving the dashboard cancels its requests', async () => {
    expect(await requestsCancelledOnStop(dashboardEditorActors, { refreshWorkspace: { workspace: SESSION }, saveContent: { workspace: SESSION, content: '# New' }, searchDatasets: { workspaceId: 'w1', q: '' } })).toEqual({
      refreshWorkspace: true,
      saveContent: true,
      searchDatasets: true,
    });
  });
});
