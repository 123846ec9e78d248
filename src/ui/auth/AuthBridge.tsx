import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { parseRoute } from '../../domain/routes';
import type { RuntimeConfig } from '../runtimeConfig';
import { clearSessionCookie, SESSION_COOKIE, SESSION_USER_KEY, type AuthPort, type AuthSnapshot, type SdkSession } from './authState';
import { cookieValue, resumableSession, stillGood, storedUser, type ResumedSession } from './sessionResume';

export { clearSessionCookie, SESSION_COOKIE, type AuthPort, type AuthSnapshot, type AuthUser } from './authState';

/**
 * The identity bridge: the SDK's state as a plain snapshot and a port of effects (token, login,
 * logout) that the auth machine's actions use. The SDK itself (@auth0/auth0-react, in
 * ./Auth0Session) is loaded only when it has something to do: when the browser holds a session it
 * may resume (its cookie or its cache), when the provider has just redirected back with a code, or
 * when the app calls the port. A visitor with none of these is signed out without it, as the SDK
 * would find (issue 21: the SDK would be a third of the first route). A signed-in visitor whose
 * session cookie still holds a good token resumes with it, without the SDK (./sessionResume).
 */
const SnapshotContext = createContext<AuthSnapshot | null>(null);
const PortContext = createContext<AuthPort | null>(null);

/** auth0-spa-js's marks of a session: its `auth0[.<clientId>].is.authenticated` cookies (legacy ones too) and its cache keys. */
const SDK_COOKIE = /(?:^|;\s*)(?:_legacy_)?auth0(?:\.[^=;]*)?\.is\.authenticated=/;
const SDK_CACHE_PREFIX = '@@auth0spajs@@';

/** Whether the SDK may find a session, or a sign-in to complete, in this browser at this URL. */
export function sdkHasWork(location: { pathname: string; search: string }, cookies: string, storageKeys: () => readonly string[]): boolean {
  if (SDK_COOKIE.test(cookies)) return true;
  let keys: readonly string[];
  try {
    keys = storageKeys();
  } catch {
    return true; // storage unreadable: let the SDK decide
  }
  if (keys.some((key) => key.startsWith(SDK_CACHE_PREFIX))) return true;
  return isProviderRedirect(location);
}

/** The provider's redirect back (auth0-react's hasAuthParams); /oauth's code is a data source's. */
function isProviderRedirect(location: { pathname: string; search: string }): boolean {
  const params = new URLSearchParams(location.search);
  const authParams = (params.has('code') || params.has('error')) && params.has('state');
  return authParams && parseRoute(location.pathname)?.name !== 'oauth';
}

/** The session this page resumes without the SDK, if any: never on the provider's redirect back, which only the SDK completes. */
function resumeInBrowser(): ResumedSession | undefined {
  if (isProviderRedirect(window.location)) return undefined;
  let remembered: string | null;
  try {
    remembered = window.localStorage.getItem(SESSION_USER_KEY);
  } catch {
    return undefined;
  }
  return resumableSession(cookieValue(document.cookie, SESSION_COOKIE), storedUser(remembered), Date.now());
}

function browserStorageKeys(): string[] {
  return Array.from({ length: window.localStorage.length }, (_, i) => window.localStorage.key(i) ?? '');
}

const loadSdk = () => import('./Auth0Session');
const resumed = typeof window !== 'undefined' ? resumeInBrowser() : undefined;
// A returning visitor's SDK starts loading with the page, beside /config.json, not after it.
const sdkExpected = resumed === undefined && typeof window !== 'undefined' && sdkHasWork(window.location, document.cookie, browserStorageKeys);
if (sdkExpected) void loadSdk();
const Auth0Session = lazy(() => loadSdk().then((m) => ({ default: m.Auth0Session })));

const SIGNED_OUT: AuthSnapshot = { isLoading: false, isAuthenticated: false, user: undefined, error: undefined };
const LOADING: AuthSnapshot = { isLoading: true, isAuthenticated: false, user: undefined, error: undefined };
const RESUMED: AuthSnapshot | undefined = resumed && { isLoading: false, isAuthenticated: true, user: resumed.user, error: undefined };

export function AuthBridge({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  const [sdkWanted, setSdkWanted] = useState(sdkExpected);
  const [session, setSession] = useState<SdkSession | undefined>(undefined);

  // The port is stable: each call waits for the SDK (loading it on first use) and goes to its
  // current port.
  const latestPort = useRef<AuthPort | undefined>(undefined);
  const waiting = useRef<((port: AuthPort) => void)[]>([]);
  const onSession = useCallback((next: SdkSession) => {
    latestPort.current = next.port;
    for (const resolve of waiting.current.splice(0)) resolve(next.port);
    setSession(next);
  }, []);
  const port = useMemo<AuthPort>(() => {
    const sdk = (): Promise<AuthPort> => {
      if (latestPort.current) return Promise.resolve(latestPort.current);
      setSdkWanted(true);
      return new Promise((resolve) => waiting.current.push(resolve));
    };
    return {
      // The resumed token serves until the SDK is loaded for something else or the token nears its end.
      getToken: async (options) =>
        resumed && !latestPort.current && options?.cacheMode !== 'off' && stillGood(resumed.expiresAt, Date.now()) ? resumed.token : (await sdk()).getToken(options),
      login: async (options) => (await sdk()).login(options),
      logout: async (returnTo) => {
        clearSessionCookie();
        await (await sdk()).logout(returnTo);
      },
    };
  }, []);

  // Signed out without the SDK: no session cookie of ours may outlive the SDK's session (spec 000 §9).
  useEffect(() => {
    if (!sdkExpected && !resumed) clearSessionCookie();
  }, []);

  // Until the SDK has reported, a resumed visitor is signed in, one it was loaded for is loading,
  // and any other is signed out (and stays so while the SDK loads for a sign-in).
  const snapshot = session?.snapshot ?? RESUMED ?? (sdkExpected ? LOADING : SIGNED_OUT);
  return (
    <PortContext.Provider value={port}>
      <SnapshotContext.Provider value={snapshot}>{children}</SnapshotContext.Provider>
      {sdkWanted && (
        <Suspense fallback={null}>
          <Auth0Session config={config} onSession={onSession} />
        </Suspense>
      )}
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
