import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import { workspaceSwitchActors } from './workspaceSwitch.actors';
import { workspaceSwitchMachine } from './workspaceSwitch.machine';
import type { WorkspaceSwitchContext } from './workspaceSwitch.machine';

const input = { profileId: 'auth0|42' };
const events = {
  'user.switch': [{ workspaceId: 'w2' }, { workspaceId: '  ' }],
  'xstate.done.actor.setDefaultWorkspace': [{ output: undefined }],
  'xstate.error.actor.setDefaultWorkspace': [{ error: new Error('[403] Forbidden') }],
};
const paths = modelPaths(workspaceSwitchMachine, { input, events });

describe('workspaceSwitch machine, generated paths', () => {
  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(workspaceSwitchMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(workspaceSwitchMachine, paths, { input, events })).toEqual([]);
  });

  it('never switches to a blank workspace id', () => {
    const switches = paths.flatMap((p) => p.steps).filter((s) => s.event.type === 'user.switch');
    expect(switches.length).toBeGreaterThan(0);
    for (const step of switches) expect((step.event as unknown as { workspaceId: string }).workspaceId).toBe('w2');
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    const log = await replayPath(workspaceSwitchMachine, path, {
      input,
      states: {
        switching: (_s, { invocations }) =>
          expect(invocations.at(-1)).toEqual({ id: 'setDefaultWorkspace', src: 'setDefaultWorkspace', input: { profileId: 'auth0|42', workspaceId: 'w2' } }),
        idle: (snapshot, { actions }) => {
          expect(actions).toEqual([]);
          const { error, workspaceId } = snapshot.context as WorkspaceSwitchContext;
          expect(workspaceId).toBeNull();
          expect([null, '[403] Forbidden']).toContain(error);
        },
      },
    });
    // The reload happens exactly when the server accepted the new default.
    const accepted = path.steps.some((s) => s.event.type === 'xstate.done.actor.setDefaultWorkspace');
    expect(log.actions.map((a) => a.name)).toEqual(accepted ? ['reloadToRoot'] : []);
  });
});

describe('workspaceSwitch against the real client', () => {
  it('PATCHes /profiles/{id} {defaultWorkspace:{id}} then reloads to /', async () => {
    const fake = fakeFetch({ status: 200, body: {} });
    const client = createApiClient({ baseURL: 'http://api.test/api', getToken: () => Promise.resolve('t'), fetch: fake.fetch });
    let reloads = 0;
    const actor = createActor(
      workspaceSwitchMachine.provide({ actors: workspaceSwitchActors(client), actions: { reloadToRoot: () => void (reloads += 1) } }),
      { input },
    ).start();
    actor.send({ type: 'user.switch', workspaceId: 'w2' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(fake.calls.map((c) => [c.method, c.url, c.body])).toEqual([['PATCH', 'http://api.test/api/profiles/auth0%7C42', { defaultWorkspace: { id: 'w2' } }]]);
    expect(reloads).toBe(1);
  });
});

// Independent checks (issue 40): the test's own actor and action, expectations from spec 000
// section 2.4 (Switch Workspace: set the default workspace, then reload to '/').
describe('workspaceSwitch, checked by hand', () => {
  function start(answer: () => Promise<void>) {
    const calls: unknown[] = [];
    let reloads = 0;
    const machine = workspaceSwitchMachine.provide({
      actors: {
        setDefaultWorkspace: fromPromise<void, { profileId: string; workspaceId: string }>(({ input: asked }) => {
          calls.push(asked);
          return answer();
        }),
      },
      actions: { reloadToRoot: () => void (reloads += 1) },
    });
    const actor = createActor(machine, { input }).start();
    return { actor, calls, reloads: () => reloads };
  }

  it('stays where it is, says why and does not reload when the new default is refused', async () => {
    const { actor, calls, reloads } = start(() => Promise.reject(new Error('You may not use this workspace')));
    actor.send({ type: 'user.switch', workspaceId: 'w9' });
    await waitFor(actor, (s) => s.matches('idle') && s.context.error !== null);
    expect(calls).toEqual([{ profileId: 'auth0|42', workspaceId: 'w9' }]);
    expect(actor.getSnapshot().context).toEqual({ profileId: 'auth0|42', workspaceId: null, error: 'You may not use this workspace' });
    expect(reloads()).toBe(0);
    // a second try clears the message while it runs
    actor.send({ type: 'user.switch', workspaceId: 'w9' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.stop();
  });

  it('ignores a blank workspace id', () => {
    const { actor, calls } = start(() => Promise.resolve());
    for (const workspaceId of ['', '   ']) actor.send({ type: 'user.switch', workspaceId });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toEqual([]);
    actor.stop();
  });

  it('cancels the request when the menu is closed before it answers', async () => {
    const fake = fakeFetch({ hang: true });
    const client = createApiClient({
      baseURL: 'http://api.test/api',
      getToken: () => Promise.resolve('t'),
      fetch: fake.fetch,
    });
    const actor = createActor(workspaceSwitchMachine.provide({ actors: workspaceSwitchActors(client), actions: { reloadToRoot: () => undefined } }), { input }).start();
    actor.send({ type: 'user.switch', workspaceId: 'w2' });
    await vi.waitFor(() => expect(fake.calls).toHaveLength(1));
    actor.stop();
    expect(fake.calls[0]?.signal?.aborted).toBe(true);
  });
});
