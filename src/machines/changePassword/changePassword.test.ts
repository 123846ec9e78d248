import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { modelPaths, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import { changePasswordActors } from './changePassword.actors';
import { changePasswordMachine } from './changePassword.machine';

const SENT = "We've just sent you an email to reset your password.";
const input = { email: 'ada@example.com' };
const events = {
  'xstate.done.actor.requestReset': [{ output: SENT }],
  'xstate.error.actor.requestReset': [{ error: new Error('[400] bad connection') }],
};
const paths = modelPaths(changePasswordMachine, { input, events });

describe('changePassword machine, generated paths', () => {
  it('visits every state and walks every transition', () => {
    expect(unvisitedStates(changePasswordMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(changePasswordMachine, paths, { input, events })).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_, path) => {
    await replayPath(changePasswordMachine, path, {
      input,
      states: {
        requesting: (snapshot, { invocations }) => {
          expect(invocations.at(-1)).toEqual({ id: 'requestReset', src: 'requestReset', input });
          expect(snapshot.context.error).toBeNull();
        },
        succeeded: (snapshot) => {
          expect(snapshot.status).toBe('done');
          expect(snapshot.context.text).toBe(SENT);
        },
        failed: (snapshot) => expect(snapshot.context.error).toBe('Error ! Please try again'),
      },
    });
  });
});

describe('changePassword against a fake identity provider', () => {
  const config = { authDomain: 'http://idp.test/', clientId: 'spa', connection: 'Username-Password-Authentication' };

  it('posts {client_id, email, connection} and shows the provider\'s text', async () => {
    const fake = fakeFetch({ status: 200, body: SENT, headers: { 'content-type': 'text/plain' } });
    const actor = createActor(changePasswordMachine.provide({ actors: changePasswordActors(fake.fetch, config) }), { input }).start();
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.context.text).toBe(SENT);
    expect(fake.calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', 'http://idp.test/dbconnections/change_password', { client_id: 'spa', email: 'ada@example.com', connection: 'Username-Password-Authentication' }],
    ]);
  });

  it('fails with the catalogue text, then succeeds on retry', async () => {
    const fake = fakeFetch({ networkError: true }, { status: 200, body: SENT });
    const actor = createActor(changePasswordMachine.provide({ actors: changePasswordActors(fake.fetch, config) }), { input }).start();
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.error).toBe('Error ! Please try again');
    actor.send({ type: 'user.retry' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.context).toEqual({ email: 'ada@example.com', text: SENT, error: null });
  });
});
