import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { createApiClient } from '../../api/client';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { modelPaths, replayPath, unvisitedStates, unwalkedTransitions } from '../testing';
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

  it.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
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
