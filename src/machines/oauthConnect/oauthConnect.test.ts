import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { OAUTH_POLL_DELAY_MS, OAUTH_TEXTS } from '../../domain/oauth';
import type { DataComponent, OAuthToken } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { inspectPopup, oauthConnectActors, preparePkce } from './oauthConnect.actors';
import { oauthConnectMachine, selectBusy, type OAuthConnectInput, type Prepared } from './oauthConnect.machine';
import { requestsCancelledOnStop } from '../testing/requestsCancelled.fixture';

const BASE = 'http://api.test/api';
const links = {
  self: { href: `${BASE}/datacomponents/c1` },
  'authorize datacomponent': { href: `${BASE}/tokens/{provider}/token` },
  'disconnect datacomponent': { href: `${BASE}/datacomponents/c1/credentials` },
};
const fresh: DataComponent = { id: 'c1', name: 'tap-ga', credentials: { connected: false }, _links: links };
const connected: DataComponent = { ...fresh, credentials: { connected: true, provider: 'oauth2-google', expiresAt: '2030-01-01T00:00:00.000Z', refreshable: true } };
const AUTH_URL = 'https://accounts.google.com/o/oauth2/auth';
const base = { authorizationUrl: AUTH_URL, scope: 'drive.readonly', provider: 'oauth2-google', clientId: 'cid', redirectUri: 'http://app.test/oauth' } as const;
const PREPARED: Prepared = { verifier: 'v'.repeat(96), state: 's1', url: `${AUTH_URL}?state=s1` };
const TOKEN: OAuthToken = { access_token: 'at', credentials: { connected: true, provider: 'oauth2-google', refreshable: true } };
const offline = new ApiFailure({ kind: 'network', message: 'We were unable to connect.' });

const events = {
  'xstate.done.actor.prepare': [{ output: PREPARED }],
  'xstate.error.actor.prepare': [{ error: new Error(OAUTH_TEXTS.insecureContext) }],
  'popup.code': [{ code: 'c1', state: 's1' }, { code: 'c2', state: 'stale' }],
  'popup.error': [{ message: 'access_denied' }],
  'xstate.done.actor.exchange': [{ output: TOKEN }],
  'xstate.error.actor.exchange': [{ error: offline }],
  'xstate.done.actor.refresh': [{ output: TOKEN }],
  'xstate.error.actor.refresh': [{ error: offline }],
  'xstate.done.actor.disconnect': [{ output: undefined }],
  'xstate.error.actor.disconnect': [{ error: offline }],
};

describe.each([
  ['a source not yet connected', { ...base, component: fresh }],
  ['a connected source', { ...base, component: connected }],
  ['an unsupported authorization url', { ...base, authorizationUrl: 'https://auth.example.com/authorize', provider: undefined, component: fresh }],
  ['a provider this server has no client for', { ...base, provider: 'oauth2-linkedin', clientId: undefined, component: fresh }],
] as const satisfies readonly (readonly [string, OAuthConnectInput])[])('OAuth connect of %s (model-based)', (_, input) => {
  const paths = modelPaths(oauthConnectMachine, { input, events, limit: 400 });

  it('walks every transition it can reach', () => {
    expect(unwalkedTransitions(oauthConnectMachine, paths, { input, events })).toEqual([]);
  });

  replayTest.each(paths.map((p) => [p.description, p] as const))('replay: %s', async (_d, path) => {
    await replayPath(oauthConnectMachine, path, {
      input,
      states: {
        exchanging: (_s, log: ReplayLog) => {
          // the code is exchanged with the verifier of the pair the popup was opened with
          expect(log.invocations.filter((i) => i.id === 'exchange').at(-1)?.input).toMatchObject({ code: 'c1', verifier: PREPARED.verifier, provider: input.provider, scope: base.scope });
        },
        authorising: (s) => expect(selectBusy(s as never)).toBe(true),
        blocked: (s, log) => {
          expect(s.context.error).toBe('Popup blocked. Disable popup blocker to authorise data source.');
          expect(log.actions.map((a) => a.name)).toContain('logBlocked');
        },
        failed: (s) => expect(s.context.error).toEqual(expect.any(String)),
        insecure: (s) => expect(s.context.error).toBe("The context/environment is not secure, and does not support the 'crypto.subtle' module"),
      },
    });
  });
});

describe('every state is reachable across the inputs', () => {
  it('visits idle, authorising, exchanging, authorised, failed, blocked, closed and insecure', () => {
    const inputs = [{ ...base, component: fresh }, { ...base, component: connected }];
    const visited = new Set<string>();
    for (const input of inputs) {
      const missing = unvisitedStates(oauthConnectMachine, modelPaths(oauthConnectMachine, { input, events, limit: 400 }));
      for (const state of ['idle', 'authorising', 'exchanging', 'authorised', 'failed', 'blocked', 'closed', 'insecure', 'refreshing', 'disconnecting']) if (!missing.includes(state)) visited.add(state);
    }
    expect([...visited].sort()).toEqual(['authorised', 'authorising', 'blocked', 'closed', 'disconnecting', 'exchanging', 'failed', 'idle', 'insecure', 'refreshing']);
  });
});

describe('OAuth connect scenarios', () => {
  it('connects: popup, a poll every 500 ms, the code, the exchange, authorised', () => {
    const path = pathOf(
      oauthConnectMachine,
      [
        { type: 'xstate.done.actor.prepare', output: PREPARED },
        { type: 'user.connect' },
        { type: 'popup.code', code: 'c1', state: 's1' },
        { type: 'xstate.done.actor.exchange', output: TOKEN },
        { type: 'xstate.done.actor.prepare', output: { ...PREPARED, state: 's2' } },
      ],
      { input: { ...base, component: fresh } },
    );
    expect(path.state.value).toBe('authorised');
    expect(path.state.context.credentials.connected).toBe(true);
    expect(OAUTH_POLL_DELAY_MS).toBe(500);
  });

  it('an unsupported url fails Connect with the spec\'s text', () => {
    const actor = createActor(oauthConnectMachine, { input: { ...base, authorizationUrl: 'https://x.example/a', provider: undefined, component: fresh } }).start();
    actor.send({ type: 'user.connect' });
    expect(actor.getSnapshot().context.error).toBe('Authorization url not supported: https://x.example/a');
    actor.stop();
  });

  it('a blocked popup: the real popup actor reports it when window.open returns null', () => {
    const storage = new Map<string, string>();
    const fakeWindow = {
      open: () => null,
      localStorage: { setItem: (k: string, v: string) => storage.set(k, v), removeItem: (k: string) => storage.delete(k) },
      screen: { width: 1280, height: 1024 },
      location: { origin: 'http://app.test' },
    };
    const saved = globalThis.window;
    (globalThis as { window?: unknown }).window = fakeWindow;
    try {
      const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fakeFetch().fetch, retryDelay: () => 0 });
      const machine = oauthConnectMachine.provide({ actors: oauthConnectActors(client), actions: { logBlocked: () => undefined } });
      // start from idle with a prepared pair (the model's own snapshot), then click Connect
      const path = pathOf(oauthConnectMachine, [{ type: 'xstate.done.actor.prepare', output: PREPARED }], { input: { ...base, component: fresh } });
      const restored = createActor(machine, { input: { ...base, component: fresh }, snapshot: path.state as never }).start();
      restored.send({ type: 'user.connect' });
      expect(restored.getSnapshot().value).toBe('blocked');
      expect(storage.size).toBe(0);
      restored.stop();
    } finally {
      (globalThis as { window?: unknown }).window = saved;
    }
  });
});

describe('the real effects', () => {
  it('prepares a 96-character verifier, a state and the S256 authorization url', async () => {
    const prepared = await preparePkce({ authorizationUrl: AUTH_URL, scope: 's', clientId: 'cid', redirectUri: 'http://app.test/oauth' }, webcrypto.subtle as SubtleCrypto);
    expect(prepared.verifier).toMatch(/^[A-Za-z0-9]{96}$/);
    const url = new URL(prepared.url);
    expect(url.searchParams.get('state')).toBe(prepared.state);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses to prepare without crypto.subtle, with the spec\'s text', async () => {
    await expect(preparePkce({ authorizationUrl: AUTH_URL, scope: 's', clientId: 'c', redirectUri: 'http://app.test/oauth' }, undefined)).rejects.toThrow(OAUTH_TEXTS.insecureContext);
  });

  it('reads the popup: waiting on the provider, the code back on /oauth, an error, closed', () => {
    const at = (origin: string, pathname: string, search: string, closed = false) => ({ closed, location: { origin, pathname, search } }) as unknown as Window;
    const crossOrigin = { closed: false, get location(): never { throw new DOMException('cross-origin'); } } as unknown as Window;
    expect(inspectPopup(crossOrigin, 'http://app.test')).toBeUndefined();
    expect(inspectPopup(at('http://app.test', '/oauth', '?state=s1'), 'http://app.test')).toBeUndefined();
    expect(inspectPopup(at('http://app.test', '/oauth', '?code=c&state=s1'), 'http://app.test')).toEqual({ type: 'popup.code', code: 'c', state: 's1' });
    expect(inspectPopup(at('http://app.test', '/oauth', '?error=access_denied'), 'http://app.test')).toEqual({ type: 'popup.error', message: 'access_denied' });
    expect(inspectPopup(at('http://evil.test', '/oauth', '?code=c'), 'http://app.test')).toBeUndefined();
    expect(inspectPopup(at('http://app.test', '/oauth', '', true), 'http://app.test')).toEqual({ type: 'popup.closed' });
  });

  it('POSTs the code to the token url of the provider, skipping the shared error handler, and DELETEs to disconnect', async () => {
    const fake = fakeFetch({ body: TOKEN }, { status: 204 });
    const reported: unknown[] = [];
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0, onError: (f) => reported.push(f) });
    const actors = oauthConnectActors(client);
    const exchange = createActor(actors.exchange, { input: { component: fresh, provider: 'oauth2-google', code: 'c1', verifier: 'v', redirectUri: 'http://app.test/oauth', scope: 's' } }).start();
    await new Promise((resolve) => exchange.subscribe({ complete: () => resolve(undefined) }));
    expect(exchange.getSnapshot().output).toMatchObject({ access_token: 'at' });
    const gone = createActor(actors.disconnect, { input: { component: connected, provider: 'oauth2-google' } }).start();
    await new Promise((resolve) => gone.subscribe({ complete: () => resolve(undefined) }));
    expect(fake.calls.map((c) => `${c.method} ${c.url}`)).toEqual([`POST ${BASE}/tokens/oauth2-google/token`, `DELETE ${BASE}/datacomponents/c1/credentials`]);
    expect(fake.calls[0]?.body).toEqual({ grant_type: 'authorization_code', code: 'c1', code_verifier: 'v', redirect_uri: 'http://app.test/oauth', scope: 's', component: 'c1' });
    const failing = fakeFetch({ status: 400, body: { status: 400, message: 'refused', errors: [] } });
    const strict = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: failing.fetch, retryDelay: () => 0, onError: (f) => reported.push(f) });
    const refused = createActor(oauthConnectActors(strict).refresh, { input: { component: connected, provider: 'oauth2-google' } }).start();
    await new Promise((resolve) => refused.subscribe({ error: () => resolve(undefined), complete: () => resolve(undefined) }));
    expect(refused.getSnapshot().status).toBe('error');
    expect(reported).toEqual([]);
  });
});

describe('oauthConnect, checked by hand', () => {
  it('cancels each request when the dialog is closed before it answers', async () => {
    const inputs = {
      exchange: { component: fresh, provider: 'oauth2-google', code: 'c1', verifier: 'v', redirectUri: 'http://app.test/oauth', scope: 's' },
      refresh: { component: connected, provider: 'oauth2-google' },
      disconnect: { component: connected, provider: 'oauth2-google' },
    };
    expect(await requestsCancelledOnStop((client) => oauthConnectActors(client) as never, inputs)).toEqual({ exchange: true, refresh: true, disconnect: true });
  });
});
