import { fromCallback, fromPromise } from 'xstate';
import type { ApiClient } from '../../api/client';
import { disconnect, exchangeCode, refreshToken } from '../../api/oauth';
import { authorizationRequestUrl, OAUTH_POPUP, OAUTH_TEXTS, pkceChallenge, pkceVerifier, readPopupReturn } from '../../domain/oauth';
import { pathTo } from '../../domain/routes';
import type { OAuthToken } from '../../domain/resources';
import type { ComponentInput, ExchangeInput, PopupEvent, PopupInput, Prepared, PrepareInput } from './oauthConnect.machine';

// The real effects of OAuth connect: the PKCE pair (Web Crypto), the popup on the app's own /oauth
// route, and the token calls to our server.

/** Where the opener leaves the provider's url for the popup's /oauth page (same origin, one use). */
export const oauthRequestKey = (state: string): string => `oauth.request.${state}`;

const randomBytes = (length: number) => crypto.getRandomValues(new Uint8Array(length));

/** `subtle` is undefined in an insecure context (plain http on another host than localhost). */
export function preparePkce(input: PrepareInput, subtle: SubtleCrypto | undefined): Promise<Prepared> {
  const verifier = pkceVerifier(randomBytes);
  const state = pkceVerifier(randomBytes).slice(0, 32);
  return pkceChallenge(verifier, subtle).then((codeChallenge) => ({
    verifier,
    state,
    url: authorizationRequestUrl({ authorizationUrl: input.authorizationUrl, clientId: input.clientId, redirectUri: input.redirectUri, scope: input.scope, state, codeChallenge }),
  }));
}

/** What the popup shows now, read from the opener; a cross-origin page (the provider's) cannot be read and is still waiting. */
export function inspectPopup(popup: Window, origin: string): PopupEvent | undefined {
  if (popup.closed) return { type: 'popup.closed' };
  let search: string;
  try {
    if (popup.location.origin !== origin || popup.location.pathname !== pathTo('oauth')) return undefined;
    search = popup.location.search;
  } catch {
    return undefined;
  }
  const answer = readPopupReturn(search);
  if (answer === undefined) return undefined;
  return 'code' in answer ? { type: 'popup.code', code: answer.code, state: answer.state } : { type: 'popup.error', message: answer.error };
}

export const popupFeatures = (): string => {
  const left = Math.max(0, Math.round((window.screen.width - OAUTH_POPUP.width) / 2));
  const top = Math.max(0, Math.round((window.screen.height - OAUTH_POPUP.height) / 2));
  return `popup=yes,width=${OAUTH_POPUP.width},height=${OAUTH_POPUP.height},left=${left},top=${top}`;
};

/** `oauthConnectMachine.provide({ actors: oauthConnectActors(client), actions: oauthConnectActions })`. */
export function oauthConnectActors(client: ApiClient) {
  return {
    prepare: fromPromise<Prepared, PrepareInput>(({ input }) => preparePkce(input, globalThis.crypto?.subtle)),
    popup: fromCallback<{ type: 'poll.check' }, PopupInput>(({ input, sendBack, receive }) => {
      const key = oauthRequestKey(input.prepared.state);
      window.localStorage.setItem(key, input.prepared.url);
      // not 'noopener': the opener must read the popup's location when it comes back
      const popup = window.open(pathTo('oauth', {}, { state: input.prepared.state }), 'oauth-connect', popupFeatures());
      if (popup === null) {
        window.localStorage.removeItem(key);
        sendBack({ type: 'popup.blocked' });
        return undefined;
      }
      receive(() => {
        const seen = inspectPopup(popup, window.location.origin);
        if (seen) sendBack(seen);
      });
      return () => {
        window.localStorage.removeItem(key);
        if (!popup.closed) popup.close();
      };
    }),
    exchange: fromPromise<OAuthToken, ExchangeInput>(({ input, signal }) => exchangeCode(client, input, { signal })),
    refresh: fromPromise<OAuthToken, ComponentInput>(({ input, signal }) => {
      if (input.provider === undefined) return Promise.reject(new Error(OAUTH_TEXTS.unsupported('')));
      return refreshToken(client, input.component, input.provider, { signal });
    }),
    disconnect: fromPromise<unknown, ComponentInput>(({ input, signal }) => disconnect(client, input.component, { signal })),
  };
}

export const oauthConnectActions = {
  // spec §8: 'Popup blocked...' is logged (and shown by the editor)
  logBlocked: () => console.warn(OAUTH_TEXTS.popupBlocked),
};
