import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { createApiClient, type ApiClient } from '../api/client';
import { selectReporter, shouldTrace, type ErrorReporter } from '../api/reporting';
import { useAuthPort } from './auth/AuthBridge';
import type { RuntimeConfig } from './runtimeConfig';

/** Services every view may use: the deployment's config, the API client and the error reporter. */
export interface Runtime {
  config: RuntimeConfig;
  client: ApiClient;
  reporter: ErrorReporter;
}

/** Exported for tests and previews that hand views a runtime of their own. */
export const RuntimeContext = createContext<Runtime | null>(null);

const randomHex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

export function RuntimeProvider({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  const port = useAuthPort();
  const runtime = useMemo<Runtime>(() => {
    const reporter = selectReporter({ errorReportingUrl: config.errorReportingUrl });
    // A sampled session sends a W3C trace context with every call, so its requests can be followed
    // on the server; tracing is off unless the sample rate is above 0 (spec 000 §9).
    const traceId = shouldTrace(config.traceSampleRate) ? randomHex(16) : undefined;
    const client = createApiClient({
      baseURL: config.apiBaseUrl,
      getToken: () => port.getToken(),
      onError: (failure, request) => reporter.report(failure, { ...request, ...(traceId ? { traceId } : {}) }),
      ...(traceId ? { headers: () => ({ traceparent: `00-${traceId}-${randomHex(8)}-01` }) } : {}),
    });
    return { config, client, reporter };
  }, [config, port]);

  // Errors outside any API call are reported too (spec 000 §8: any error).
  useEffect(() => {
    const onError = (event: ErrorEvent) => runtime.reporter.report(event.error ?? event.message, { source: 'window' });
    const onRejection = (event: PromiseRejectionEvent) => runtime.reporter.report(event.reason, { source: 'unhandled rejection' });
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    return () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, [runtime]);

  return <RuntimeContext.Provider value={runtime}>{children}</RuntimeContext.Provider>;
}

export function useRuntime(): Runtime {
  const value = useContext(RuntimeContext);
  if (!value) throw new Error('useRuntime outside RuntimeProvider');
  return value;
}

/** The runtime when there is one: for components that also render outside the app (previews, tests). */
export function useOptionalRuntime(): Runtime | null {
  return useContext(RuntimeContext);
}
