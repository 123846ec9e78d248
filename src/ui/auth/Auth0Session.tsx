import { Auth0Provider, useAuth0, type AppState } from '@auth0/auth0-react';
import { useEffect, useMemo } from 'react';
import { useNavigate } from 'react-router-dom';
import { sessionCookieMaxAge } from '../../domain/constants';
import { PROVIDER_PARAM } from '../../domain/emailLinks';
import { parseRoute, pathTo } from '../../domain/routes';
import type { RuntimeConfig } from '../runtimeConfig';
import { clearSessionCookie, rememberSessionUser, SESSION_COOKIE, type AuthPort, type AuthSnapshot, type SdkSession } from './authState';

/**
 * The only module that imports @auth0/auth0-react, loaded by AuthBridge when the visitor may have a
 * session (or asks to sign in): the SDK is the largest library of the app and a signed-out
 * visitor's first page does not need it (issue 21).
 */
export function Auth0Session({ config, onSession }: { config: RuntimeConfig; onSession: (session: SdkSession) => void }) {
  const navigate = useNavigate();
  const origin = window.location.origin;
  return (
    <Auth0Provider
      domain={config.auth.domain}
      clientId={config.auth.clientId}
      authorizationParams={{ redirect_uri: `${origin}${pathTo('root')}`, audience: config.auth.audience, scope: 'openid profile email offline_access' }}
      useRefreshTokens
      cacheLocation="localstorage"
      // /oauth is the data-source popup's return: its code is not ours.
      skipRedirectCallback={parseRoute(window.location.pathname)?.name === 'oauth'}
      onRedirectCallback={(appState?: AppState) => {
        const target = typeof appState?.returnTo === 'string' ? appState.returnTo : pathTo('root');
        void navigate(target, { replace: true });
      }}
    >
      <Reporter onSession={onSession} />
    </Auth0Provider>
  );
}

function Reporter({ onSession }: { onSession: (session: SdkSession) => void }) {
  const { isLoading, isAuthenticated, user, error, getAccessTokenSilently, getIdTokenClaims, loginWithRedirect, logout } = useAuth0();

  const snapshot = useMemo<AuthSnapshot>(
    () => ({
      isLoading,
      isAuthenticated,
      error,
      user: user?.sub
        ? { sub: user.sub, name: user.name ?? user.nickname ?? user.email ?? '', email: user.email ?? '', email_verified: user.email_verified === true }
        : undefined,
    }),
    [isLoading, isAuthenticated, user, error],
  );

  const port = useMemo<AuthPort>(
    () => ({
      getToken: async (options) => {
        const token: unknown = await getAccessTokenSilently(options?.cacheMode ? { cacheMode: options.cacheMode } : {});
        if (typeof token !== 'string') throw new Error('No access token');
        return token;
      },
      login: ({ returnTo, loginHint, screen, notice, invitation }) =>
        loginWithRedirect({
          appState: { returnTo },
          authorizationParams: {
            ...(loginHint ? { login_hint: loginHint } : {}),
            ...(screen ? { screen_hint: screen } : {}),
            ...(notice ? { [PROVIDER_PARAM.notice]: notice } : {}),
            ...(invitation ? { [PROVIDER_PARAM.invitation]: invitation } : {}),
          },
        }),
      logout: async (returnTo) => {
        clearSessionCookie();
        await logout({ logoutParams: { returnTo } });
      },
    }),
    [getAccessTokenSilently, loginWithRedirect, logout],
  );

  useEffect(() => onSession({ snapshot, port }), [onSession, snapshot, port]);

  // Spec 000 §9: a session cookie lives as long as the token (exp - iat), strict, secure, path '/'.
  useEffect(() => {
    if (!isAuthenticated) {
      if (!isLoading) clearSessionCookie();
      return;
    }
    let cancelled = false;
    void (async () => {
      try {
        const token: unknown = await getAccessTokenSilently();
        if (typeof token !== 'string') return;
        const claims = await getIdTokenClaims();
        if (cancelled || !claims?.exp || !claims.iat) return;
        const maxAge = sessionCookieMaxAge(claims.exp, claims.iat);
        document.cookie = `${SESSION_COOKIE}=${encodeURIComponent(token)}; Max-Age=${maxAge}; Path=/; SameSite=Strict; Secure`;
        if (snapshot.user) rememberSessionUser(snapshot.user);
      } catch {
        // no token yet: the auth machine handles sign-in
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [isLoading, isAuthenticated, getAccessTokenSilently, getIdTokenClaims, snapshot.user]);

  return null;
}
