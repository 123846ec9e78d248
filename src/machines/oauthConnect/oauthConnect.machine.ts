import { assign, sendTo, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { OAUTH_POLL_DELAY_MS, OAUTH_TEXTS, type OAuthProvider } from '../../domain/oauth';
import type { DataComponent, OAuthCredentials, OAuthToken } from '../../domain/resources';
import { failureText } from '../failureText';
import { notProvided, notProvidedActor } from '../notProvided';
import { fromCallback } from 'xstate';

// OAuth connect of one OAUTH setting (spec 001 §4 'OAuth connection', §7, §8). A PKCE pair and the
// provider's authorization url are prepared ahead, so Connect opens the popup inside the click
// (browsers block popups opened later). The popup opens on the app's own /oauth route, which
// goes on to the provider; the opener polls it every 500 ms for the returned code, then the server
// exchanges the code. Authorised → Disconnect, Refresh, or Connect again (re-authorise).

export interface Prepared {
  readonly verifier: string;
  readonly state: string;
  /** the provider's authorization url with the code-flow and PKCE parameters */
  readonly url: string;
}

export interface OAuthConnectInput {
  readonly component: DataComponent;
  readonly authorizationUrl: string;
  readonly scope: string;
  /** undefined: the authorization url is not supported */
  readonly provider: OAuthProvider | undefined;
  /** undefined: this deployment has no client for the provider */
  readonly clientId: string | undefined;
  readonly redirectUri: string;
}

export type OAuthConnectContext = OAuthConnectInput & {
  readonly credentials: OAuthCredentials;
  readonly prepared: Prepared | null;
  readonly error: string | null;
};

export type PopupEvent =
  | { readonly type: 'popup.blocked' }
  | { readonly type: 'popup.closed' }
  | { readonly type: 'popup.code'; readonly code: string; readonly state: string | null }
  | { readonly type: 'popup.error'; readonly message: string };

export type OAuthConnectEvent =
  | { readonly type: 'user.connect' }
  | { readonly type: 'user.disconnect' }
  | { readonly type: 'user.refresh' }
  | PopupEvent;

export interface PrepareInput {
  readonly authorizationUrl: string;
  readonly scope: string;
  readonly clientId: string;
  readonly redirectUri: string;
}
export interface PopupInput {
  readonly prepared: Prepared;
}
export interface ExchangeInput {
  readonly component: DataComponent;
  readonly provider: OAuthProvider;
  readonly code: string;
  readonly verifier: string;
  readonly redirectUri: string;
  readonly scope: string;
}
export interface ComponentInput {
  readonly component: DataComponent;
  readonly provider: OAuthProvider | undefined;
}

const NOT_CONNECTED: OAuthCredentials = { connected: false };

/** Why Connect cannot start, or null when it can. */
export function connectRefusal(context: Pick<OAuthConnectContext, 'provider' | 'clientId' | 'authorizationUrl'>): string | null {
  if (context.provider === undefined) return OAUTH_TEXTS.unsupported(context.authorizationUrl);
  if (context.clientId === undefined) return `This server has no OAuth client for ${context.provider}: ask its operator to configure one.`;
  return null;
}

export const oauthConnectMachine = setup({
  types: { context: {} as OAuthConnectContext, events: {} as OAuthConnectEvent, input: {} as OAuthConnectInput },
  actors: {
    prepare: notProvidedActor<Prepared, PrepareInput>('prepare'),
    popup: fromCallback<{ type: 'poll.check' }, PopupInput>(() => {
      throw new Error('popup not provided');
    }),
    exchange: notProvidedActor<OAuthToken, ExchangeInput>('exchange'),
    refresh: notProvidedActor<OAuthToken, ComponentInput>('refresh'),
    disconnect: notProvidedActor<unknown, ComponentInput>('disconnect'),
  },
  actions: {
    /** spec §8: a blocked popup is logged */
    logBlocked: notProvided('logBlocked'),
  },
  delays: { pollDelay: OAUTH_POLL_DELAY_MS },
  guards: {
    refused: ({ context }) => connectRefusal(context) !== null,
    connected: ({ context }) => context.credentials.connected,
    failedBefore: ({ context }) => context.error !== null,
    prepared: ({ context }) => context.prepared !== null,
    stateMatches: ({ context, event }) => event.type === 'popup.code' && event.state === context.prepared?.state,
  },
}).createMachine({
  id: 'oauthConnect',
  context: ({ input }) => ({ ...input, credentials: input.component.credentials ?? NOT_CONNECTED, prepared: null, error: null }),
  initial: 'preparing',
  states: {
    preparing: {
      always: { guard: 'refused', target: 'settled' },
      invoke: {
        id: 'prepare',
        src: 'prepare',
        input: ({ context }) => ({ authorizationUrl: context.authorizationUrl, scope: context.scope, clientId: context.clientId ?? '', redirectUri: context.redirectUri }),
        onDone: { target: 'settled', actions: assign({ prepared: ({ event }) => event.output }) },
        // no crypto.subtle: the spec's 'context/environment is not secure' message
        onError: { target: 'insecure', actions: assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : OAUTH_TEXTS.insecureContext) }) },
      },
    },
    settled: { always: [{ guard: 'failedBefore', target: 'failed' }, { guard: 'connected', target: 'authorised' }, { target: 'idle' }] },
    idle: {
      on: {
        'user.connect': [
          { guard: 'refused', target: 'failed', actions: assign({ error: ({ context }) => connectRefusal(context) }) },
          { guard: 'prepared', target: 'authorising', actions: assign({ error: null }) },
        ],
      },
    },
    authorising: {
      invoke: { id: 'popup', src: 'popup', input: ({ context }) => ({ prepared: context.prepared! }) },
      initial: 'waiting',
      states: {
        waiting: { after: { pollDelay: { target: 'waiting', reenter: true, actions: sendTo('popup', { type: 'poll.check' }) } } },
      },
      on: {
        'popup.blocked': { target: 'blocked', actions: [assign({ error: OAUTH_TEXTS.popupBlocked }), 'logBlocked'] },
        'popup.closed': { target: 'closed', actions: assign({ error: OAUTH_TEXTS.popupClosed }) },
        'popup.error': { target: 'preparing', actions: assign({ error: ({ event }) => event.message }) },
        'popup.code': [
          { guard: 'stateMatches', target: 'exchanging' },
          // a code for another request (a stale popup) is not ours to exchange
          { target: 'preparing', actions: assign({ error: 'The authorisation answered another request: connect again.' }) },
        ],
      },
    },
    exchanging: {
      invoke: {
        id: 'exchange',
        src: 'exchange',
        input: ({ context, event }) => ({
          component: context.component,
          provider: context.provider!,
          code: (event as Extract<OAuthConnectEvent, { type: 'popup.code' }>).code,
          verifier: context.prepared!.verifier,
          redirectUri: context.redirectUri,
          scope: context.scope,
        }),
        // a verifier is used once: a new pair is prepared either way
        onDone: { target: 'preparing', actions: assign({ credentials: ({ event }) => event.output.credentials, prepared: null, error: null }) },
        onError: { target: 'preparing', actions: assign({ prepared: null, error: ({ event }) => failureText(event.error) }) },
      },
    },
    authorised: {
      on: {
        'user.connect': { guard: 'prepared', target: 'authorising', actions: assign({ error: null }) },
        'user.disconnect': { target: 'disconnecting', actions: assign({ error: null }) },
        'user.refresh': { target: 'refreshing', actions: assign({ error: null }) },
      },
    },
    refreshing: {
      invoke: {
        id: 'refresh',
        src: 'refresh',
        input: ({ context }) => ({ component: context.component, provider: context.provider }),
        onDone: { target: 'authorised', actions: assign({ credentials: ({ event }) => event.output.credentials }) },
        onError: { target: 'authorised', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    disconnecting: {
      invoke: {
        id: 'disconnect',
        src: 'disconnect',
        input: ({ context }) => ({ component: context.component, provider: context.provider }),
        onDone: { target: 'idle', actions: assign({ credentials: NOT_CONNECTED }) },
        onError: { target: 'authorised', actions: assign({ error: ({ event }) => failureText(event.error) }) },
      },
    },
    blocked: { on: { 'user.connect': { target: 'authorising', actions: assign({ error: null }) } } },
    closed: { on: { 'user.connect': { target: 'authorising', actions: assign({ error: null }) } } },
    failed: {
      on: {
        'user.connect': [
          { guard: 'refused', target: 'failed', reenter: true },
          { guard: 'prepared', target: 'authorising', actions: assign({ error: null }) },
        ],
        'user.disconnect': { guard: 'connected', target: 'disconnecting', actions: assign({ error: null }) },
      },
    },
    insecure: { type: 'final' },
  },
});

export type OAuthConnectSnapshot = SnapshotFrom<typeof oauthConnectMachine>;

export function selectBusy(snapshot: OAuthConnectSnapshot): boolean {
  return snapshot.matches('preparing') || snapshot.matches('authorising') || snapshot.matches('exchanging') || snapshot.matches('refreshing') || snapshot.matches('disconnecting');
}
