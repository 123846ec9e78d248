import { webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { createApiClient } from '../../api/client';
import { ApiFailure } from '../../api/errors';
import { fakeFetch } from '../../api/testing/fakeFetch';
import { OAUTH_POLL_DELAY_MS, OAUTH_TEXTS } from '../../domain/oauth';
import type { DataComponent, OAuthToken } from '../../domain/resources';
import { modelPaths, pathOf, replayPath, replayTest, unvisitedStates, unwalkedTransitions } from '../testing';
import type { ReplayLog } from '../testing';
import { inspectPopup, oauthConnectActions, oauthConnectActors, oauthRequestKey, popupFeatures, preparePkce } from './oauthConnect.actors';
import { oauthConnectMachine, selectBusy, type ComponentInput, type ExchangeInput, type OAuthConnectInput, type PopupEvent, type PopupInput, type Prepared, type PrepareInput } from './oauthConnect.machine';
import { deferred } from '../testing/deferred.fixture';
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
    // another page of the app itself is not the answer either
    expect(inspectPopup(at('http://app.test', '/lab', '?code=c&state=s1'), 'http://app.test')).toBeUndefined();
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
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The machine with the test's own actors: each call recorded, each answer given by the test. */
  function start(input: OAuthConnectInput) {
    const calls: string[] = [];
    const prepares: ReturnType<typeof deferred<Prepared>>[] = [];
    const exchanges: ReturnType<typeof deferred<OAuthToken>>[] = [];
    const refreshes: ReturnType<typeof deferred<OAuthToken>>[] = [];
    const disconnects: ReturnType<typeof deferred<unknown>>[] = [];
    const popup = { send: (_e: PopupEvent) => undefined as void, polls: 0 };
    const held = <T,>(list: ReturnType<typeof deferred<T>>[]) => {
      const next = deferred<T>();
      list.push(next);
      return next.promise;
    };
    const machine = oauthConnectMachine.provide({
      actors: {
        prepare: fromPromise<Prepared, PrepareInput>(({ input: i }) => {
          calls.push(`prepare ${i.authorizationUrl} ${i.scope} ${i.clientId} ${i.redirectUri}`);
          return held(prepares);
        }),
        popup: fromCallback<{ type: 'poll.check' }, PopupInput>(({ input: i, sendBack, receive }) => {
          calls.push(`popup ${i.prepared.state}`);
          popup.send = (e) => sendBack(e);
          receive(() => void (popup.polls += 1));
          return () => void calls.push('popup closed');
        }),
        exchange: fromPromise<OAuthToken, ExchangeInput>(({ input: i }) => {
          calls.push(`exchange ${i.component.id} ${i.provider} ${i.code} ${i.verifier} ${i.redirectUri} ${i.scope}`);
          return held(exchanges);
        }),
        refresh: fromPromise<OAuthToken, ComponentInput>(({ input: i }) => {
          calls.push(`refresh ${i.component.id} ${String(i.provider)}`);
          return held(refreshes);
        }),
        disconnect: fromPromise<unknown, ComponentInput>(({ input: i }) => {
          calls.push(`disconnect ${i.component.id} ${String(i.provider)}`);
          return held(disconnects);
        }),
      },
      actions: { logBlocked: () => void calls.push('logBlocked') },
    });
    const actor = createActor(machine, { input }).start();
    const context = () => actor.getSnapshot().context;
    const value = () => actor.getSnapshot().value;
    const busy = () => selectBusy(actor.getSnapshot());
    return { actor, calls, prepares, exchanges, refreshes, disconnects, popup, context, value, busy };
  }
  const flush = () => vi.advanceTimersByTimeAsync(0);
  const OTHER: Prepared = { verifier: 'w'.repeat(96), state: 's2', url: `${AUTH_URL}?state=s2` };

  it('starts not connected, prepares with the input (busy meanwhile), and waits in idle', async () => {
    vi.useFakeTimers();
    const m = start({ ...base, component: { ...fresh, credentials: undefined } });
    expect(m.context()).toMatchObject({ credentials: { connected: false }, prepared: null, error: null });
    expect(m.value()).toBe('preparing');
    expect(m.busy()).toBe(true);
    expect(m.calls).toEqual([`prepare ${AUTH_URL} drive.readonly cid http://app.test/oauth`]);
    m.prepares[0]!.resolve(PREPARED);
    await flush();
    expect(m.value()).toBe('idle');
    expect(m.busy()).toBe(false);
    expect(m.context().prepared).toEqual(PREPARED);
    m.actor.stop();
  });

  it('connects: opens the popup with the prepared pair, polls it every 500 ms, exchanges the code, prepares a new pair and is authorised', async () => {
    vi.useFakeTimers();
    const m = start({ ...base, component: fresh });
    m.prepares[0]!.resolve(PREPARED);
    await flush();
    m.actor.send({ type: 'user.connect' });
    expect(m.value()).toEqual({ authorising: 'waiting' });
    expect(m.busy()).toBe(true);
    expect(m.calls.at(-1)).toBe('popup s1');
    await vi.advanceTimersByTimeAsync(499);
    expect(m.popup.polls).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(m.popup.polls).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(m.popup.polls).toBe(2);
    m.popup.send({ type: 'popup.code', code: 'c1', state: 's1' });
    expect(m.value()).toBe('exchanging');
    expect(m.busy()).toBe(true);
    expect(m.calls.slice(-2)).toEqual(['popup closed', `exchange c1 oauth2-google c1 ${PREPARED.verifier} http://app.test/oauth drive.readonly`]);
    m.exchanges[0]!.resolve(TOKEN);
    await flush();
    expect(m.value()).toBe('preparing');
    expect(m.context()).toMatchObject({ credentials: TOKEN.credentials, prepared: null, error: null });
    m.prepares[1]!.resolve(OTHER);
    await flush();
    expect(m.value()).toBe('authorised');
    expect(m.busy()).toBe(false);
    // connect again from authorised opens the popup with the new pair
    m.actor.send({ type: 'user.connect' });
    expect(m.calls.at(-1)).toBe('popup s2');
    m.actor.stop();
  });

  it('a blocked popup is said and logged; Connect tries again with the message cleared', async () => {
    vi.useFakeTimers();
    const m = start({ ...base, component: fresh });
    m.prepares[0]!.resolve(PREPARED);
    await flush();
    m.actor.send({ type: 'user.connect' });
    m.popup.send({ type: 'popup.blocked' });
    expect(m.value()).toBe('blocked');
    expect(m.context().error).toBe(OAUTH_TEXTS.popupBlocked);
    expect(m.calls).toContain('logBlocked');
    expect(m.busy()).toBe(false);
    m.actor.send({ type: 'user.connect' });
    expect(m.value()).toEqual({ authorising: 'waiting' });
    expect(m.context().error).toBeNull();
    m.popup.send({ type: 'popup.closed' });
    expect(m.value()).toBe('closed');
    expect(m.context().error).toBe(OAUTH_TEXTS.popupClosed);
    expect(m.calls.filter((c) => c === 'logBlocked')).toHaveLength(1);
    m.actor.send({ type: 'user.connect' });
    expect(m.value()).toEqual({ authorising: 'waiting' });
    expect(m.context().error).toBeNull();
    m.actor.stop();
  });

  it("the provider's error, a stale code and a failed exchange each prepare a new pair and end failed with their message; Connect clears it", async () => {
    vi.useFakeTimers();
    for (const [answer, message] of [
      [{ type: 'popup.error', message: 'access_denied' }, 'access_denied'],
      [{ type: 'popup.code', code: 'c9', state: 'stale' }, 'The authorisation answered another request: connect again.'],
      [{ type: 'popup.code', code: 'c9', state: null }, 'The authorisation answered another request: connect again.'],
      ['exchange', 'We were unable to connect.'],
    ] as const) {
      const m = start({ ...base, component: fresh });
      m.prepares[0]!.resolve(PREPARED);
      await flush();
      m.actor.send({ type: 'user.connect' });
      if (answer === 'exchange') {
        m.popup.send({ type: 'popup.code', code: 'c1', state: 's1' });
        m.exchanges[0]!.reject(offline);
        await flush();
        expect(m.context().prepared).toBeNull();
      } else {
        m.popup.send(answer);
        expect(m.calls.some((c) => c.startsWith('exchange'))).toBe(false);
      }
      expect(m.value()).toBe('preparing');
      expect(m.context().error).toBe(message);
      expect(m.prepares).toHaveLength(2);
      m.prepares[1]!.resolve(OTHER);
      await flush();
      expect(m.value()).toBe('failed');
      expect(m.context().error).toBe(message);
      // not connected: nothing to disconnect
      m.actor.send({ type: 'user.disconnect' });
      expect(m.value()).toBe('failed');
      m.actor.send({ type: 'user.connect' });
      expect(m.value()).toEqual({ authorising: 'waiting' });
      expect(m.context().error).toBeNull();
      expect(m.calls.at(-1)).toBe('popup s2');
      m.actor.stop();
    }
  });

  it('a connected source failed again may disconnect from failed', async () => {
    vi.useFakeTimers();
    const m = start({ ...base, component: connected });
    m.prepares[0]!.resolve(PREPARED);
    await flush();
    expect(m.value()).toBe('authorised');
    m.actor.send({ type: 'user.connect' });
    m.popup.send({ type: 'popup.error', message: 'access_denied' });
    m.prepares[1]!.resolve(OTHER);
    await flush();
    expect(m.value()).toBe('failed');
    m.actor.send({ type: 'user.disconnect' });
    expect(m.value()).toBe('disconnecting');
    expect(m.context().error).toBeNull();
    m.actor.stop();
  });

  it('authorised: refresh and disconnect say their failure, clear it on the next try, and keep the answer', async () => {
    vi.useFakeTimers();
    const m = start({ ...base, component: connected });
    expect(m.context().credentials).toEqual(connected.credentials);
    m.prepares[0]!.resolve(PREPARED);
    await flush();
    m.actor.send({ type: 'user.refresh' });
    expect(m.value()).toBe('refreshing');
    expect(m.busy()).toBe(true);
    expect(m.calls.at(-1)).toBe('refresh c1 oauth2-google');
    m.refreshes[0]!.reject(offline);
    await flush();
    expect(m.value()).toBe('authorised');
    expect(m.context().error).toBe('We were unable to connect.');
    m.actor.send({ type: 'user.refresh' });
    expect(m.context().error).toBeNull();
    const renewed = { connected: true, provider: 'oauth2-google', expiresAt: '2031-01-01T00:00:00.000Z', refreshable: true } as const;
    m.refreshes[1]!.resolve({ access_token: 'at2', credentials: renewed });
    await flush();
    expect(m.context().credentials).toEqual(renewed);
    m.actor.send({ type: 'user.disconnect' });
    expect(m.value()).toBe('disconnecting');
    expect(m.busy()).toBe(true);
    expect(m.calls.at(-1)).toBe('disconnect c1 oauth2-google');
    m.disconnects[0]!.reject(offline);
    await flush();
    expect(m.value()).toBe('authorised');
    expect(m.context().error).toBe('We were unable to connect.');
    m.actor.send({ type: 'user.connect' });
    expect(m.context().error).toBeNull();
    m.popup.send({ type: 'popup.blocked' });
    m.actor.stop();
    const n = start({ ...base, component: connected });
    n.prepares[0]!.resolve(PREPARED);
    await flush();
    n.actor.send({ type: 'user.refresh' });
    n.refreshes[0]!.reject(offline);
    await flush();
    n.actor.send({ type: 'user.disconnect' });
    expect(n.context().error).toBeNull();
    n.disconnects[0]!.resolve(undefined);
    await flush();
    expect(n.value()).toBe('idle');
    expect(n.context().credentials).toEqual({ connected: false });
    n.actor.stop();
  });

  it('Connect refused: the reason for an unsupported url or a missing client, again on each Connect', async () => {
    vi.useFakeTimers();
    for (const [input, message] of [
      [{ ...base, authorizationUrl: 'https://auth.example.com/authorize', provider: undefined, component: fresh }, 'Authorization url not supported: https://auth.example.com/authorize'],
      [{ ...base, provider: 'oauth2-linkedin', clientId: undefined, component: fresh }, 'This server has no OAuth client for oauth2-linkedin: ask its operator to configure one.'],
    ] as const) {
      const m = start(input);
      await flush();
      expect(m.value()).toBe('idle');
      expect(m.context().error).toBeNull();
      m.actor.send({ type: 'user.connect' });
      expect(m.value()).toBe('failed');
      expect(m.context().error).toBe(message);
      m.actor.send({ type: 'user.connect' });
      expect(m.value()).toBe('failed');
      expect(m.context().error).toBe(message);
      expect(m.calls.filter((c) => c.startsWith('popup'))).toEqual([]);
      m.actor.stop();
    }
  });

  it('no crypto.subtle ends insecure with its message; another failure says the insecure context', async () => {
    vi.useFakeTimers();
    for (const [error, message] of [
      [new Error('no subtle here'), 'no subtle here'],
      ['not an Error', OAUTH_TEXTS.insecureContext],
    ] as const) {
      const m = start({ ...base, component: fresh });
      m.prepares[0]!.reject(error);
      await flush();
      expect(m.value()).toBe('insecure');
      expect(m.actor.getSnapshot().status).toBe('done');
      expect(m.context().error).toBe(message);
    }
  });

  it('the real popup: leaves the url for /oauth under its state, opens a centred popup, reads it on each poll, and cleans up', async () => {
    vi.useFakeTimers();
    const storage = new Map<string, string>();
    const opened: string[][] = [];
    let closedCalls = 0;
    const fakePopup = { closed: false, close: () => void (closedCalls += 1), location: { origin: 'http://app.test', pathname: '/oauth', search: '' } };
    const fakeWindow = {
      open: (...args: string[]) => {
        opened.push(args);
        return fakePopup;
      },
      localStorage: { setItem: (k: string, v: string) => storage.set(k, v), removeItem: (k: string) => storage.delete(k) },
      screen: { width: 1300, height: 1000 },
      location: { origin: 'http://app.test' },
    };
    const saved = globalThis.window;
    (globalThis as { window?: unknown }).window = fakeWindow;
    try {
      expect(oauthRequestKey('abc')).toBe('oauth.request.abc');
      expect(popupFeatures()).toBe('popup=yes,width=700,height=800,left=300,top=100');
      fakeWindow.screen = { width: 600, height: 500 };
      expect(popupFeatures()).toBe('popup=yes,width=700,height=800,left=0,top=0');
      fakeWindow.screen = { width: 1301, height: 1001 };
      expect(popupFeatures()).toBe('popup=yes,width=700,height=800,left=301,top=101');
      const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fakeFetch({ hang: true }).fetch, retryDelay: () => 0 });
      const real = oauthConnectActors(client);
      const exchanged: string[] = [];
      const machine = oauthConnectMachine.provide({
        actors: {
          popup: real.popup,
          prepare: fromPromise<Prepared, PrepareInput>(() => Promise.resolve(PREPARED)),
          exchange: fromPromise<OAuthToken, ExchangeInput>(({ input }) => {
            exchanged.push(input.code);
            return new Promise<OAuthToken>(() => undefined);
          }),
        },
      });
      const actor = createActor(machine, { input: { ...base, component: fresh } }).start();
      await vi.advanceTimersByTimeAsync(0);
      actor.send({ type: 'user.connect' });
      expect(storage.get('oauth.request.s1')).toBe(PREPARED.url);
      expect(opened).toEqual([['/oauth?state=s1', 'oauth-connect', 'popup=yes,width=700,height=800,left=301,top=101']]);
      // the provider's page: nothing yet
      await vi.advanceTimersByTimeAsync(500);
      expect(actor.getSnapshot().value).toEqual({ authorising: 'waiting' });
      fakePopup.location.search = '?code=c1&state=s1';
      await vi.advanceTimersByTimeAsync(500);
      expect(actor.getSnapshot().value).toBe('exchanging');
      expect(exchanged).toEqual(['c1']);
      expect(storage.size).toBe(0);
      expect(closedCalls).toBe(1);
      actor.stop();
      // a popup the person closed is not closed again
      const again = createActor(machine, { input: { ...base, component: fresh } }).start();
      await vi.advanceTimersByTimeAsync(0);
      again.send({ type: 'user.connect' });
      fakePopup.closed = true;
      await vi.advanceTimersByTimeAsync(500);
      expect(again.getSnapshot().value).toBe('closed');
      expect(closedCalls).toBe(1);
      expect(storage.size).toBe(0);
      again.stop();
    } finally {
      (globalThis as { window?: unknown }).window = saved;
    }
  });

  it('the real prepare uses Web Crypto: a 96-character verifier and a 32-character state', async () => {
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fakeFetch().fetch, retryDelay: () => 0 });
    const actor = createActor(oauthConnectActors(client).prepare, { input: { authorizationUrl: AUTH_URL, scope: 's', clientId: 'cid', redirectUri: 'http://app.test/oauth' } });
    const done = new Promise<Prepared>((resolve, reject) => actor.subscribe({ complete: () => resolve(actor.getSnapshot().output as Prepared), error: reject }));
    actor.start();
    const prepared = await done;
    expect(prepared.verifier).toHaveLength(96);
    expect(prepared.state).toHaveLength(32);
    expect(prepared.verifier.startsWith(prepared.state)).toBe(false);
    expect(new URL(prepared.url).searchParams.get('state')).toBe(prepared.state);
  });

  it('the real refresh refuses an unsupported provider without asking, and a blocked popup is logged as a warning', async () => {
    const fake = fakeFetch();
    const client = createApiClient({ baseURL: BASE, getToken: () => Promise.resolve('t'), fetch: fake.fetch, retryDelay: () => 0 });
    const actor = createActor(oauthConnectActors(client).refresh, { input: { component: connected, provider: undefined } });
    const failed = new Promise<unknown>((resolve) => actor.subscribe({ error: resolve, complete: () => resolve(undefined) }));
    actor.start();
    expect(await failed).toEqual(new Error('Authorization url not supported: '));
    expect(fake.calls).toEqual([]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    oauthConnectActions.logBlocked();
    expect(warn).toHaveBeenCalledWith(OAUTH_TEXTS.popupBlocked);
    warn.mockRestore();
  });

  it('cancels each request when the dialog is closed before it answers', async () => {
    const inputs = {
      exchange: { component: fresh, provider: 'oauth2-google', code: 'c1', verifier: 'v', redirectUri: 'http://app.test/oauth', scope: 's' },
      refresh: { component: connected, provider: 'oauth2-google' },
      disconnect: { component: connected, provider: 'oauth2-google' },
    };
    expect(await requestsCancelledOnStop((client) => oauthConnectActors(client) as never, inputs)).toEqual({ exchange: true, refresh: true, disconnect: true });
  });
});
