import { FluentProvider } from '@fluentui/react-components';
import { lazy, Suspense, useState } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { routePattern } from '../domain/routes';
import { AuthBridge } from './auth/AuthBridge';
import { Loading } from './components/Loading';
import type { RuntimeConfig } from './runtimeConfig';
import { MachinesProvider } from './MachinesProvider';
import { RuntimeProvider } from './runtime';
import { installHintWanted } from './shell/installHintWanted';
import { ShellGate } from './shell/ShellGate';
import { lightTheme } from './theme';

const InstallHint = lazy(() => import('./shell/InstallHint'));
const LogoutPage = lazy(() => import('./pages/standalone/LogoutPage').then((m) => ({ default: m.LogoutPage })));
const SignupPage = lazy(() => import('./pages/standalone/SignupPage').then((m) => ({ default: m.SignupPage })));
const NotVerifiedPage = lazy(() => import('./pages/standalone/NotVerifiedPage').then((m) => ({ default: m.NotVerifiedPage })));
const OAuthReturnPage = lazy(() => import('./pages/standalone/OAuthReturnPage').then((m) => ({ default: m.OAuthReturnPage })));

/**
 * The composition root of the SPA: theme, router, identity bridge, runtime services. The standalone
 * screens live outside the shell gate because they must work while signed out.
 */
export function Root({ config }: { config: RuntimeConfig }) {
  // The hint's chunk (a message bar) loads only on the devices that show it.
  const [showInstallHint] = useState(installHintWanted);
  return (
    <FluentProvider theme={lightTheme} style={{ height: '100%' }}>
      <BrowserRouter>
        <AuthBridge config={config}>
          <RuntimeProvider config={config}>
            <MachinesProvider>
            <Suspense fallback={<Loading />}>
              <Routes>
                <Route path={routePattern('logout')} element={<LogoutPage />} />
                <Route path={routePattern('signup')} element={<SignupPage />} />
                <Route path={routePattern('notVerified')} element={<NotVerifiedPage />} />
                <Route path={routePattern('oauth')} element={<OAuthReturnPage />} />
                <Route path="*" element={<ShellGate />} />
              </Routes>
            </Suspense>
            {showInstallHint && (
              <Suspense fallback={null}>
                <InstallHint />
              </Suspense>
            )}
            </MachinesProvider>
          </RuntimeProvider>
        </AuthBridge>
      </BrowserRouter>
    </FluentProvider>
  );
}

