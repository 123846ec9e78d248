import { Auth0Provider, useAuth0, type AppState } from '@auth0/auth0-react';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { sessionCookieMaxAge } from '../../domain/constants';
import { parseRoute, pathTo } from '../../domain/routes';
import type { RuntimeConfig } from '../runtimeConfig';

/**
 * The only module that imports @auth0/auth0-react. It turns the SDK's state into a plain snapshot
 * and a port of effects (token, login, logout) that the auth machine's actions use.
 */
export interface AuthUser {
  sub: string;
  name: string;
  email: string;
  email_verified: boolean;
}

export interface AuthSnapshot {
  isLoading: boolean;
  isAuthenticated: boolean;
  user: AuthUser | undefined;
  error: Error | undefined;
}

export interface AuthPort {
  getToken(options?: { cacheMode?: 'on' | 'off' }): Promise<string>;
  login(options: { returnTo: string; loginHint?: string | undefined; screen?: 'signup' }): Promise<void>;
  logout(returnTo: string): Promise<void>;
}

const SnapshotContext = createContext<AuthSnapshot | null>(null);
const PortContext = createContext<AuthPort | null>(null);

export const SESSION_COOKIE = 'session_token';

function clearSessionCookie() {
  document.cookie = `${SESSION_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict; Secure`;
}

export function AuthBridge({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
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
      <Bridge>{children}</Bridge>
    </Auth0Provider>
  );
}

function Bridge({ children }: { children: ReactNode }) {
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
      login: ({ returnTo, loginHint, screen }) =>
        loginWithRedirect({
          appState: { returnTo },
          authorizationParams: { ...(loginHint ? { login_hint: loginHint } : {}), ...(screen ? { screen_hint: screen } : {}) },
        }),
      logout: async (returnTo) => {
        clearSessionCookie();
        await logout({ logoutParams: { returnTo } });
      },
    }),
    [getAccessTokenSilently, loginWithRedirect, logout],
  );

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
      } catch {
        // no token yet: the auth machine handles sign-in
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [isLoading, isAuthenticated, getAccessTokenSilently, getIdTokenClaims]);

  return (
    <PortContext.Provider value={port}>
      <SnapshotContext.Provider value={snapshot}>{children}</SnapshotContext.Provider>
    </PortContext.Provider>
  );
}

export function useAuthSnapshot(): AuthSnapshot {
  const value = useContext(SnapshotContext);
  if (!value) throw new Error('useAuthSnapshot outside AuthBridge');
  return value;
}

export function useAuthPort(): AuthPort {
  const value = useContext(PortContext);
  if (!value) throw new Error('useAuthPort outside AuthBridge');
  return value;
}
