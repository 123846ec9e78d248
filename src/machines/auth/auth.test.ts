import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../api/errors';
import { MESSAGES } from '../../domain/errors';
import type { Profile, Workspace } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { authMachine, type AuthInput, type BootstrapOutput } from './auth.machine';
import { authFailureMessage, failureIsStaleAnswer, failureIsUnverifiedEmail, failureNeedsSignIn, isSignedIn } from './auth.rules';

const input: AuthInput = { returnTo: 'http://localhost:8080/l/w1/feed?x=1', loginHint: 'ann@example.com' };
const INVITATION = '0b6f7c1e-2d3a-4e5f-8a9b-0c1d2e3f4a5b';
// Issue 38: arriving by a mailed link, and with a provider's answer in the address.
const byVerification: AuthInput = { returnTo: '/?email=ann%40example.com&notice=email_verified', loginHint: 'ann@example.com', emailLink: { notice: 'email_verified' } };
const byInvitation: AuthInput = { returnTo: `/l/w1?email=ann%40example.com&invitation=${INVITATION}`, loginHint: 'ann@example.com', emailLink: { notice: 'sign_in', invitation: INVITATION } };
const withAnswer: AuthInput = { returnTo: '/l/w1/feed?x=1&code=c0de&state=5tate', loginHint: undefined, callback: { restartedBefore: false } };
const withAnswerAgain: AuthInput = { ...withAnswer, callback: { restartedBefore: true } };
const INPUTS = { plain: input, byVerification, byInvitation, withAnswer, withAnswerAgain } as const;
/** Where each input's visitor goes once signed in: no answer, no link parameters. */
const TARGET: Record<keyof typeof INPUTS, string> = {
  plain: input.returnTo,
  byVerification: '/',
  byInvitation: '/l/w1',
  withAnswer: '/l/w1/feed?x=1',
  withAnswerAgain: '/l/w1/feed?x=1',
};
const stale = { code: 'missing_transaction', message: 'Invalid state' };
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
const SHELL_MESSAGES = ['Database down', '[404] Not Found', MESSAGES.unableToConnect, MESSAGES.unexpected, 'User is blocked', 'Invalid state', 'grant request is invalid'];

const events = {
  'auth.loaded': [{ isAuthenticated: false }, { isAuthenticated: true, user: verified }, { isAuthenticated: true, user: unverified }],
  'auth.failed': [
    { error: { code: 'login_required' } },
    { error: { code: 'access_denied', message: MESSAGES.verifyEmail } },
    { error: { code: 'access_denied', message: 'User is blocked' } },
    { error: stale },
    { error: { code: 'invalid_grant', message: 'grant request is invalid' } },
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

type Snapshot = { context: Record<string, unknown>; matches: (state: string) => boolean };
const redirects = (log: ReplayLog) => log.actions.filter((a) => a.name === 'redirectToLogin' || a.name === 'restartSignIn');

/** Per-state checks for one input: each reads the snapshot and the effects seen, never the path. */
const statesFor = (name: keyof typeof INPUTS) => {
  const given = INPUTS[name];
  return {
  // Every way to the provider keeps the target (cleaned of the answer and the link) and the hint.
  unauthenticated: (_: unknown, log: ReplayLog) => {
    for (const action of redirects(log)) expect(action.params).toMatchObject({ returnTo: TARGET[name], loginHint: given.loginHint });
  },
  // The link is followed at once, once, saying what it did; the login view stays behind it.
  'unauthenticated.followingLink': (snapshot: Snapshot, log: ReplayLog) => {
    expect(given.emailLink).toBeDefined();
    // once: a later Sign in (the visitor pressing it) goes without the link's words
    expect(log.actions.filter((a) => a.name === 'redirectToLogin' && (a.params as { notice?: unknown }).notice !== undefined)).toEqual([
      expect.objectContaining({ params: { returnTo: TARGET[name], loginHint: given.loginHint, screen: 'login', notice: given.emailLink?.notice, invitation: given.emailLink?.invitation } }),
    ]);
    expect(snapshot.context.emailLink).toBeUndefined();
  },
  // An unusable answer: a fresh sign-in, never twice in a row.
  'unauthenticated.restartingSignIn': (_: unknown, log: ReplayLog) => {
    expect(given.callback).toEqual({ restartedBefore: false });
    expect(log.actions.filter((a) => a.name === 'restartSignIn')).toEqual([expect.objectContaining({ params: { returnTo: TARGET[name], loginHint: given.loginHint, screen: 'login' } })]);
  },
  // The login view waits for the visitor; an answer it could not use is gone from the address.
  'unauthenticated.idle': (snapshot: Snapshot, log: ReplayLog) => {
    expect(snapshot.context.emailLink).toBeUndefined();
    for (const action of log.actions.filter((a) => a.name === 'clearCallbackUrl')) {
      expect(given.callback?.restartedBefore).toBe(true);
      expect(action.params).toEqual({ target: TARGET[name] });
    }
    expect(log.actions.filter((a) => a.name === 'restartSignIn')).toEqual([]);
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
    // 'Uh oh! Invalid state' never follows an answer in the address: that is a fresh sign-in.
    if (given.callback !== undefined) expect(['Invalid state', 'grant request is invalid']).not.toContain(snapshot.context.errorMessage);
  },
  loggingOut: (_: unknown, log: ReplayLog) => {
    expect(lastAction(log)?.name).toBe('logout');
  },
  };
};
const states = statesFor('plain');

describe('auth machine (model-based)', () => {
  const names = Object.keys(INPUTS) as (keyof typeof INPUTS)[];
  const pathsOf = Object.fromEntries(names.map((name) => [name, modelPaths(authMachine, { input: INPUTS[name], events })])) as Record<keyof typeof INPUTS, ReturnType<typeof modelPaths>>;

  it('reaches every shell state and walks every transition, over the ways in', () => {
    const all = names.flatMap((name) => pathsOf[name]);
    expect(unvisitedStates(authMachine, all)).toEqual([]);
    for (const name of names) {
      // A transition a way in cannot take (the link followed without a link) is no gap in its walk.
      const unwalked = unwalkedTransitions(authMachine, pathsOf[name], { input: INPUTS[name], events });
      expect(unwalked, name).toEqual([]);
    }
  });

  replayTest.each(names.flatMap((name) => pathsOf[name].map((p) => [`${name}: ${p.description}`, name, p] as const)))('replay: %s', async (_, name, path) => {
    await replayPath(authMachine, path, { input: INPUTS[name], states: statesFor(name) });
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
    expect(path.state.value).toEqual({ unauthenticated: 'idle' });
    await replayPath(authMachine, path, { input, states });
  });

  it('an unverified email goes to /notverified and never calls the API', async () => {
    const log = await replay({ type: 'auth.loaded', isAuthenticated: true, user: unverified });
    expect(log.invocations).toEqual([]);
  });

  it('a signed-in event without a subject counts as signed out', () => {
    const path = pathOf(authMachine, [{ type: 'auth.loaded', isAuthenticated: true, user: { ...verified, sub: '' } }], { input });
    expect(path.state.value).toEqual({ unauthenticated: 'idle' });
  });

  // Issue 38: links that work in any tab.
  const replayFrom = (name: keyof typeof INPUTS, ...evts: Parameters<typeof pathOf>[1]) =>
    replayPath(authMachine, pathOf(authMachine, evts, { input: INPUTS[name] }), { input: INPUTS[name], states: statesFor(name) });

  it('a signed-out visitor who came by the verification link goes straight to sign-in, told what happened, with the address', async () => {
    const log = await replayFrom('byVerification', { type: 'auth.loaded', isAuthenticated: false });
    expect(log.actions).toEqual([
      expect.objectContaining({ name: 'redirectToLogin', params: { returnTo: '/', loginHint: 'ann@example.com', screen: 'login', notice: 'email_verified', invitation: undefined } }),
    ]);
  });

  it('an invitation link opens sign-in for the invited address and the invitation, and comes back to its workspace', async () => {
    const log = await replayFrom('byInvitation', { type: 'auth.loaded', isAuthenticated: false });
    expect(log.actions[0]?.params).toEqual({ returnTo: '/l/w1', loginHint: 'ann@example.com', screen: 'login', notice: 'sign_in', invitation: INVITATION });
  });

  it('a link opened where the person is signed in asks for nothing: the app opens', async () => {
    const log = await replayFrom('byInvitation', { type: 'auth.loaded', isAuthenticated: true, user: verified }, { type: 'xstate.done.actor.bootstrap', output: bootstrapped });
    expect(log.actions).toEqual([]);
    expect(log.invocations.map((i) => i.id)).toEqual(['bootstrap']);
  });

  it("an answer this tab cannot use ('Invalid state') begins a fresh sign-in, without the code, instead of 'Uh oh!'", async () => {
    const path = pathOf(authMachine, [{ type: 'auth.failed', error: stale }], { input: withAnswer });
    expect(path.state.value).toEqual({ unauthenticated: 'restartingSignIn' });
    const log = await replayPath(authMachine, path, { input: withAnswer, states: statesFor('withAnswer') });
    expect(log.actions).toEqual([expect.objectContaining({ name: 'restartSignIn', params: { returnTo: '/l/w1/feed?x=1', loginHint: undefined, screen: 'login' } })]);
  });

  it('a second unusable answer in a row stops at the login view with a clean address, never a loop', async () => {
    const path = pathOf(authMachine, [{ type: 'auth.failed', error: stale }, { type: 'user.login' }], { input: withAnswerAgain });
    const log = await replayPath(authMachine, path, { input: withAnswerAgain, states: statesFor('withAnswerAgain') });
    expect(log.actions.map((a) => [a.name, a.params])).toEqual([
      ['clearCallbackUrl', { target: '/l/w1/feed?x=1' }],
      ['redirectToLogin', { returnTo: '/l/w1/feed?x=1', loginHint: undefined, screen: 'login' }],
    ]);
  });

  it('an identity error with no answer in the address is still shown as one', () => {
    const path = pathOf(authMachine, [{ type: 'auth.failed', error: stale }], { input });
    expect(path.state.value).toBe('apiError');
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
    // and the shell is idle again, ready for the next reload
    expect(path.state.value).toEqual({ ready: 'idle' });
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

// Independent checks (issue 40): the rules' answers and the shell's states written here by hand.
describe('auth, checked by hand', () => {
  it('signed in needs the SDK to say so and a subject', () => {
    expect(isSignedIn(true, verified)).toBe(true);
    expect(isSignedIn(false, verified)).toBe(false);
    expect(isSignedIn(true, undefined)).toBe(false);
    expect(isSignedIn(true, { sub: '' })).toBe(false);
    expect(isSignedIn(true, { sub: 42 } as never)).toBe(false);
  });

  it('asks for a new sign-in on login_required and consent_required only', () => {
    expect(failureNeedsSignIn({ code: 'login_required' })).toBe(true);
    expect(failureNeedsSignIn({ code: 'consent_required' })).toBe(true);
    expect(failureNeedsSignIn({ code: 'access_denied' })).toBe(false);
    expect(failureNeedsSignIn({})).toBe(false);
  });

  it('reads the four stale-answer codes, and nothing else, as a stale answer', () => {
    for (const code of ['missing_transaction', 'state_mismatch', 'invalid_state', 'invalid_grant']) expect(failureIsStaleAnswer({ code }), code).toBe(true);
    expect(failureIsStaleAnswer({ code: 'access_denied' })).toBe(false);
    expect(failureIsStaleAnswer({ message: 'Invalid state' })).toBe(false);
  });

  it('words an identity failure by its trimmed message, else the unexpected one', () => {
    expect(failureIsUnverifiedEmail({ message: '  Please verify your email before logging in. ' })).toBe(true);
    expect(failureIsUnverifiedEmail({})).toBe(false);
    expect(authFailureMessage({ message: '  User is blocked ' })).toBe('User is blocked');
    expect(authFailureMessage({ message: '   ' })).toBe('An unexpected error occurred.');
    expect(authFailureMessage({})).toBe('An unexpected error occurred.');
  });

  it('an identity failure shows its own words in the error view', () => {
    const path = pathOf(authMachine, [{ type: 'auth.failed', error: { code: 'access_denied', message: ' User is blocked ' } }], { input });
    expect(path.state.value).toBe('apiError');
    expect(path.state.context.errorMessage).toBe('User is blocked');
    const consent = pathOf(authMachine, [{ type: 'auth.failed', error: { code: 'consent_required' } }], { input });
    expect(consent.state.value).toEqual({ unauthenticated: 'idle' });
    const verify = pathOf(authMachine, [{ type: 'auth.failed', error: { code: 'access_denied', message: MESSAGES.verifyEmail } }, { type: 'user.logout' }], { input });
    expect(verify.state.value).toBe('loggingOut');
    // the provider's refusal of an unverified address is the verify view, not the error view
    expect(pathOf(authMachine, [{ type: 'auth.failed', error: { code: 'access_denied', message: MESSAGES.verifyEmail } }], { input }).state.value).toBe('unverified');
  });

  it('an unverified user is kept; logging out from there or from the app leaves', () => {
    const path = pathOf(authMachine, [{ type: 'auth.loaded', isAuthenticated: true, user: unverified }], { input });
    expect(path.state.value).toBe('unverified');
    expect(path.state.context.user).toEqual(unverified);
    expect(pathOf(authMachine, [{ type: 'auth.loaded', isAuthenticated: true, user: unverified }, { type: 'user.logout' }], { input }).state.value).toBe('loggingOut');
    const ready = [
      { type: 'auth.loaded', isAuthenticated: true, user: verified },
      { type: 'xstate.done.actor.bootstrap', output: bootstrapped },
    ] as const;
    expect(pathOf(authMachine, [...ready, { type: 'user.logout' }], { input }).state.value).toBe('loggingOut');
    expect(pathOf(authMachine, [...ready], { input }).state.context.workspaces).toEqual([w1]);
  });

  it('a failed workspace reload signs in again when refused, else shows the error', () => {
    const ready = [
      { type: 'auth.loaded', isAuthenticated: true, user: verified },
      { type: 'xstate.done.actor.bootstrap', output: bootstrapped },
      { type: 'workspaces.reload' },
    ] as const;
    expect(pathOf(authMachine, [...ready, { type: 'xstate.error.actor.reloadWorkspaces', error: failure.unauthorized }], { input }).state.value).toEqual({ unauthenticated: 'idle' });
    const failed = pathOf(authMachine, [...ready, { type: 'xstate.error.actor.reloadWorkspaces', error: failure.server }], { input });
    expect(failed.state.value).toBe('apiError');
    expect(failed.state.context.errorMessage).toBe('Database down');
  });

  it('starts with no workspaces and keeps the asked-for address when no mailed link came', () => {
    const path = pathOf(authMachine, [], { input: { returnTo: '/l/w1?email=ann%40example.com&invitation=x', loginHint: undefined } });
    expect(path.state.context.workspaces).toEqual([]);
    expect(path.state.context.returnTo).toBe('/l/w1?email=ann%40example.com&invitation=x');
  });
});
