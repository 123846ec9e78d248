import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from '../api/client';
import { selectReporter, type ErrorReporter } from '../api/reporting';
import { useAuthPort } from './auth/AuthBridge';
import type { RuntimeConfig } from './runtimeConfig';

/** Services every view may use: the deployment's config, the API client and the error reporter. */
export interface Runtime {
  config: RuntimeConfig;
  client: ApiClient;
  reporter: ErrorReporter;
}

const RuntimeContext = createContext<Runtime | null>(null);

export function RuntimeProvider({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  const port = useAuthPort();
  const runtime = useMemo<Runtime>(
    () => ({
      config,
      client: createApiClient({ baseURL: config.apiBaseUrl, getToken: () => port.getToken() }),
      reporter: selectReporter({ errorReportingUrl: config.errorReportingUrl }),
    }),
    [config, port],
  );
  return <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>;
}

export function useRuntime(): Runtime {
  const value = useContext(RuntimeContext);
  if (!value) throw new Error('useRuntime outside RuntimeProvider');
  return value;
}
