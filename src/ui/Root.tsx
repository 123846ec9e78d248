import { FluentProvider } from '@fluentui/react-components';
import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { AuthBridge } from './auth/AuthBridge';
import { Loading } from './components/Loading';
import type { RuntimeConfig } from './runtimeConfig';
import { RuntimeProvider } from './runtime';
import { ShellGate } from './shell/ShellGate';
import { lightTheme } from './theme';
import { LogoutPage } from './pages/standalone/LogoutPage';
import { NotVerifiedPage } from './pages/standalone/NotVerifiedPage';
import { SignupPage } from './pages/standalone/SignupPage';
import { OAuthReturnPage } from './pages/standalone/OAuthReturnPage';

const InstallHint = lazy(() => import('./shell/InstallHint'));

/**
 * The composition root of the SPA: theme, router, identity bridge, runtime services. The standalone
 * screens live outside the shell gate because they must work while signed out.
 */
export function Root({ config }: { config: RuntimeConfig }) {
  return (
    <FluentProvider theme={lightTheme} style={{ height: '100%' }}>
      <BrowserRouter>
        <AuthBridge config={config}>
          <RuntimeProvider config={config}>
            <Routes>
              <Route path="/logout" element={<LogoutPage />} />
              <Route path="/signup" element={<SignupPage />} />
              <Route path="/notverified" element={<NotVerifiedPage />} />
              <Route path="/oauth" element={<OAuthReturnPage />} />
              <Route path="*" element={<ShellGate />} />
            </Routes>
            <Suspense fallback={null}>
              <InstallHint />
            </Suspense>
          </RuntimeProvider>
        </AuthBridge>
      </BrowserRouter>
    </FluentProvider>
  );
}

export { Loading };
