import { describe, expect, it } from 'vitest';
import { createActor, toPromise, type AnyMachineSnapshot } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import type { Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, unvisitedStates, unwalkedTransitions } from '../testing';
import { dashboardEditorActors } from './dashboardEditor.actors';
import { dashboardContentOf, dashboardEditorMachine, type DashboardEditorContext, type DashboardEditorInput } from './dashboardEditor.machine';

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

const eventsFor = (fresh: Workspace) => ({
  'xstate.done.actor.refreshWorkspace': [{ output: fresh }],
  'xstate.error.actor.refreshWorkspace': [{ error: serverDown }],
  'xstate.done.actor.saveContent': (snapshot: AnyMachineSnapshot) => [{ output: workspaceWith(ctx(snapshot).draft ?? '', true) }],
  'xstate.error.actor.saveContent': [{ error: serverDown }],
  'user.change': [{ value: '## New' }],
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
    expect(unvisitedStates(dashboardEditorMachine, paths).sort()).toEqual(name === 'a reader' ? ['dashboardEditor.editing', 'dashboardEditor.saving'] : []);
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
        if (event.type === 'xstate.error.actor.saveContent') expect([step.state.value, now.error, now.draft]).toEqual(['editing', 'Down for maintenance', before?.draft]);
        if (event.type === 'xstate.done.actor.saveContent') expect([step.state.value, dashboardContentOf(now.workspace), now.draft]).toEqual(['viewing', before?.draft, null]);
        if (event.type === 'user.cancel') expect([step.state.value, now.draft, now.error]).toEqual(['viewing', null, null]);
      }
    }
  });

  it.each(paths.map((p) => [p.description, p] as const))('replays %s', async (_, path) => {
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

describe('dashboardEditor machine, targeted', () => {
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
