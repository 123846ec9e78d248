import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { emailLinkOf, hasCallbackParams } from '../../domain/emailLinks';
import { featureSwitches } from '../../domain/features';
import { useAuthSnapshot } from '../auth/AuthBridge';
import { signInRestartedRecently } from '../auth/signInRestart';
import { Loading } from '../components/Loading';
import { useAuthMachine } from '../MachinesProvider';
import { useRuntime } from '../runtime';
import { ApiErrorScreen } from './ApiErrorScreen';
import { LoginView } from './LoginView';
import { SessionContext, type Session } from './session';



// The signed-in app (layout, menus, pages) loads after sign-in, so the login view stays small; each
// view brings its own machines (./machineAreas), so the shell's come with this chunk.
const AppRoutes = lazy(() => import('./AppRoutes').then((m) => ({ default: m.AppRoutes })));

/** The shell states of spec 000 §2.1, read from the auth machine; the app renders only when ready. */
export function ShellGate() {
  const { config } = useRuntime();
  const authMachine = useAuthMachine();
  const snapshot = useAuthSnapshot();
  const location = useLocation();

  const auth = useActorRef(
    authMachine,
    {
      input: {
        returnTo: `${location.pathname}${location.search}${location.hash}`,
        loginHint: new URLSearchParams(location.search).get('email') ?? undefined,
        emailLink: emailLinkOf(location.search),
        callback: hasCallbackParams(location.search) ? { restartedBefore: signInRestartedRecently() } : undefined,
      },
    },
  );

  useEffect(() => {
    if (snapshot.isLoading) return;
    if (snapshot.error) auth.send({ type: 'auth.failed', error: authFailure(snapshot.error) });
    else auth.send({ type: 'auth.loaded', isAuthenticated: snapshot.isAuthenticated, user: snapshot.user });
  }, [auth, snapshot]);

  const state = useSelector(auth, (s) => (s.matches('ready') ? 'ready' : s.matches('apiError') ? 'apiError' : s.matches('unauthenticated') ? 'signedOut' : 'waiting'));
  const errorMessage = useSelector(auth, (s) => s.context.errorMessage);
  const profile = useSelector(auth, (s) => s.context.profile);
  const root = useSelector(auth, (s) => s.context.root);
  const workspaces = useSelector(auth, (s) => s.context.workspaces);
  const targetWorkspaceId = useSelector(auth, (s) => s.context.targetWorkspaceId);

  const session = useMemo<Session | null>(
    () =>
      profile && root
        ? { auth, profile, root, workspaces, targetWorkspaceId, features: featureSwitches(config.disabledFeatures, profile) }
        : null,
    [auth, profile, root, workspaces, targetWorkspaceId, config.disabledFeatures],
  );

  if (state === 'apiError') {
    return <ApiErrorScreen message={errorMessage ?? ''} onRetry={() => auth.send({ type: 'user.retry' })} onLogout={() => auth.send({ type: 'user.logout' })} />;
  }
  if (state === 'signedOut') {
    return <LoginView onSignIn={() => auth.send({ type: 'user.login' })} onSignUp={() => auth.send({ type: 'user.signup' })} />;
  }
  if (state !== 'ready' || !session) return <Loading />;
  return (
    <SessionContext.Provider value={session}>
      <Suspense fallback={<Loading />}>
        <AppRoutes />
      </Suspense>
    </SessionContext.Provider>
  );
}

/** auth0-spa-js errors carry the OAuth `error` code and `error_description`. */
function authFailure(error: Error): { code?: string; message?: string } {
  const { error: code, error_description: description } = error as Error & { error?: unknown; error_description?: unknown };
  return {
    ...(typeof code === 'string' ? { code } : {}),
    message: typeof description === 'string' && description !== '' ? description : error.message,
  };
}
