import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../api/errors';
import { MESSAGES } from '../../domain/errors';
import type { Profile, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { authMachine, type AuthInput, type BootstrapOutput } from './auth.machine';

const input: AuthInput = { returnTo: 'http://localhost:8080/l/w1/feed?x=1', loginHint: 'ann@example.com' };
const verified = { sub: 'auth0|1', name: 'Ann', email: 'ann@example.com', email_verified: true };
const unverified = { ...verified, email_verified: false };
const profile: Profile = { id: 'auth0|1', name: 'Ann', email: 'ann@example.com' };
const w1: Workspace = { id: 'w1', name: 'One' };
const w2: Workspace = { id: 'w2', name: 'Two' };
const bootstrapped: BootstrapOutput = { profile, root: { _links: {} }, workspaces: [w1], targetWorkspaceId: 'w1' };

const failure = {
  unauthorized: new ApiFailure({ kind: 'unauthorized' }),
  server: new ApiFailure({ kind: 'server', status: 500, message: 'Database down' }),
  response: new ApiFailure({ kind: 'response', status: 404, message: '[404] Not Found' }),
  network: new ApiFailure({ kind: 'network', message: MESSAGES.unableToConnect }),
  bug: new TypeError('undefined is not a function'),
};
const SHELL_MESSAGES = ['Database down', '[404] Not Found', MESSAGES.unableToConnect, MESSAGES.unexpected, 'User is blocked'];

const events = {
  'auth.loaded': [{ isAuthenticated: false }, { isAuthenticated: true, user: verified }, { isAuthenticated: true, user: unverified }],
  'auth.failed': [
    { error: { code: 'login_required' } },
    { error: { code: 'access_denied', message: MESSAGES.verifyEmail } },
    { error: { code: 'access_denied', message: 'User is blocked' } },
  ],
  'xstate.done.actor.bootstrap': [{ output: bootstrapped }],
  'xstate.error.actor.bootstrap': Object.values(failure).map((error) => ({ error })),
  'xstate.done.actor.reloadWorkspaces': [{ output: [w1, w2] }],
  'xstate.error.actor.reloadWorkspaces': [{ error: failure.unauthorized }, { error: failure.network }],
  'profile.updated': [{ profile: { ...profile, name: 'Anna' } }],
  'user.login': [{}],
  'user.signup': [{}],
};

const lastAction = (log: ReplayLog) => log.actions.at(-1);

const states = {
  unauthenticated: (_: unknown, log: ReplayLog) => {
    // The login view redirects only when the visitor asks to.
    const action = lastAction(log);
    if (action?.name === 'redirectToLogin') {
      expect(action).toMatchObject({ params: { returnTo: input.returnTo, loginHint: input.loginHint } });
    }
  },
  unverified: (_: unknown, log: ReplayLog) => {
    expect(lastAction(log)).toMatchObject({ name: 'goNotVerified', params: { message: 'Please verify your email before logging in.' } });
  },
  loadingProfile: (snapshot: { context: { user: unknown; errorMessage: unknown } }, log: ReplayLog) => {
    expect(log.invocations.at(-1)).toEqual({ id: 'bootstrap', src: 'bootstrap', input: { user: snapshot.context.user } });
    expect(snapshot.context.errorMessage).toBeUndefined();
  },
  ready: (snapshot: { context: { profile: unknown; workspaces: unknown; targetWorkspaceId: unknown } }) => {
    expect(snapshot.context.profile).toMatchObject({ id: 'auth0|1' });
    expect(snapshot.context.workspaces).not.toEqual([]);
    expect(snapshot.context.targetWorkspaceId).toBe('w1');
  },
  'ready.reloading': (_: unknown, log: ReplayLog) => {
    expect(log.invocations.at(-1)).toMatchObject({ id: 'reloadWorkspaces' });
  },
  apiError: (snapshot: { context: { errorMessage: unknown } }) => {
    expect(SHELL_MESSAGES).toContain(snapshot.context.errorMessage);
  },
  loggingOut: (_: unknown, log: ReplayLog) => {
    expect(lastAction(log)?.name).toBe('logout');
  },
};

describe('auth machine (model-based)', () => {
  const paths = modelPaths(authMachine, { input, events });

  it('reaches every shell state and walks every transition', () => {
    expect(unvisitedStates(authMachine, paths)).toEqual([]);
    expect(unwalkedTransitions(authMachine, paths, { input, events })).toEqual([]);
  });

  it.each(paths.map((p) => [p.description, p] as const))('%s', async (_, path) => {
    await replayPath(authMachine, path, { input, states });
  });
});

describe('auth machine scenarios', () => {
  const replay = (...evts: Parameters<typeof pathOf>[1]) => replayPath(authMachine, pathOf(authMachine, evts, { input }), { input, states });

  it('a verified sign-in loads the profile and lands ready with the bootstrap output', async () => {
    const path = pathOf(authMachine, [
      { type: 'auth.loaded', isAuthenticated: true, user: verified },
      { type: 'xstate.done.actor.bootstrap', output: bootstrapped },
    ], { input });
    expect(path.state.value).toEqual({ ready: 'idle' });
    expect(path.state.context).toMatchObject({ profile, workspaces: [w1], targetWorkspaceId: 'w1', user: verified });
    await replayPath(authMachine, path, { input, states });
  });

  it.each([
    [failure.server, 'Database down'],
    [failure.response, '[404] Not Found'],
    [failure.network, 'We were unable to connect.'],
    [failure.bug, 'An unexpected error occurred.'],
  ])('a failed bootstrap shows the catalogue message (%s)', async (error, message) => {
    const path = pathOf(authMachine, [{ type: 'auth.loaded', isAuthenticated: true, user: verified }, { type: 'xstate.error.actor.bootstrap', error }], { input });
    expect(path.state.value).toBe('apiError');
    expect(path.state.context.errorMessage).toBe(message);
    await replayPath(authMachine, path, { input, states });
  });

  it('an unauthorized bootstrap goes to sign-in, keeping the target URL and login hint', async () => {
    const log = await replay(
      { type: 'auth.loaded', isAuthenticated: true, user: verified },
      { type: 'xstate.error.actor.bootstrap', error: failure.unauthorized },
      { type: 'user.login' },
    );
    expect(log.actions).toMatchObject([{ name: 'redirectToLogin', params: { returnTo: input.returnTo, loginHint: input.loginHint, screen: 'login' } }]);
  });

  it('the login view waits for the visitor: Sign in or Create an account', async () => {
    const quiet = await replay({ type: 'auth.loaded', isAuthenticated: false });
    expect(quiet.actions).toEqual([]);
    const log = await replay({ type: 'auth.loaded', isAuthenticated: false }, { type: 'user.signup' }, { type: 'user.login' });
    expect(log.actions.map((a) => (a.params as { screen: string }).screen)).toEqual(['signup', 'login']);
  });

  it('RETRY from the error view runs the bootstrap again; LOGOUT logs out', async () => {
    const log = await replay(
      { type: 'auth.loaded', isAuthenticated: true, user: verified },
      { type: 'xstate.error.actor.bootstrap', error: failure.network },
      { type: 'user.retry' },
      { type: 'xstate.error.actor.bootstrap', error: failure.server },
      { type: 'user.logout' },
    );
    expect(log.invocations.map((i) => i.id)).toEqual(['bootstrap', 'bootstrap']);
    expect(log.actions.map((a) => a.name)).toEqual(['logout']);
  });

  it('an identity failure without a user retries by signing in again', async () => {
    const path = pathOf(authMachine, [{ type: 'auth.failed', error: { code: 'access_denied', message: 'User is blocked' } }, { type: 'user.retry' }], { input });
    expect(path.state.value).toBe('unauthenticated');
    await replayPath(authMachine, path, { input, states });
  });

  it('an unverified email goes to /notverified and never calls the API', async () => {
    const log = await replay({ type: 'auth.loaded', isAuthenticated: true, user: unverified });
    expect(log.invocations).toEqual([]);
  });

  it('a signed-in event without a subject counts as signed out', () => {
    const path = pathOf(authMachine, [{ type: 'auth.loaded', isAuthenticated: true, user: { ...verified, sub: '' } }], { input });
    expect(path.state.value).toBe('unauthenticated');
  });

  it('pages refresh the shell: a new profile, a reloaded workspace list', async () => {
    const path = pathOf(authMachine, [
      { type: 'auth.loaded', isAuthenticated: true, user: verified },
      { type: 'xstate.done.actor.bootstrap', output: bootstrapped },
      { type: 'profile.updated', profile: { ...profile, name: 'Anna' } },
      { type: 'workspaces.reload' },
      { type: 'xstate.done.actor.reloadWorkspaces', output: [w1, w2] },
    ], { input });
    expect(path.state.context.profile?.name).toBe('Anna');
    expect(path.state.context.workspaces).toEqual([w1, w2]);
    await replayPath(authMachine, path, { input, states });
  });

  it('default effects are not provided: running the machine unprovided fails loudly', async () => {
    const { createActor } = await import('xstate');
    const actor = createActor(authMachine, { input });
    const errors: unknown[] = [];
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    actor.send({ type: 'auth.loaded', isAuthenticated: false });
    actor.send({ type: 'user.login' });
    expect(String(errors[0])).toContain('redirectToLogin not provided');
  });
});
