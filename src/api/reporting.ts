import { tracingEnabled } from '../domain/constants';
import { toApiError } from './errors';

// Every error is also sent to an error-reporting service (spec 000 section 8). Reporting must
// never become a second failure, so reporters swallow their own errors.

export type ReportContext = Readonly<Record<string, unknown>>;

export type ErrorReporter = { report(error: unknown, context?: ReportContext): void };

type ErrorReport = {
  readonly message: string;
  readonly name: string;
  readonly kind: string;
  readonly stack?: string;
  readonly context?: ReportContext;
  readonly timestamp: string;
};

export function toReport(error: unknown, context?: ReportContext, now: () => Date = () => new Date()): ErrorReport {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : safeText(error);
  return {
    message,
    name,
    kind: toApiError(error).kind,
    ...(error instanceof Error && error.stack !== undefined ? { stack: error.stack } : {}),
    ...(context === undefined ? {} : { context }),
    timestamp: now().toISOString(),
  };
}

/** The default when no reporting service is configured: the browser console. */
export const consoleReporter: ErrorReporter = {
  report(error, context) {
    try {
      console.error('[error report]', error, context ?? {});
    } catch {
      // a console that throws has nowhere left to report to
    }
  },
};

/** POSTs each report as JSON to `url`; failures to report are dropped. */
export function httpReporter(url: string, fetchFn: typeof fetch): ErrorReporter {
  return {
    report(error, context) {
      try {
        void fetchFn(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(toReport(error, context)),
          keepalive: true,
        }).catch(() => undefined);
      } catch {
        // a fetch that throws synchronously (bad URL) is dropped like a rejected one
      }
    },
  };
}

type ReportingConfig = { readonly errorReportingUrl?: string | null | undefined; readonly fetch?: typeof fetch };

export function selectReporter(config: ReportingConfig): ErrorReporter {
  const url = config.errorReportingUrl?.trim();
  if (url === undefined || url === '') return consoleReporter;
  return httpReporter(url, config.fetch ?? ((input, init) => globalThis.fetch(input, init)));
}

/** Tracing happens only when the sample rate is above 0, and then for a `rate` share of sessions. */
export function shouldTrace(sampleRate: unknown, random: () => number = Math.random): boolean {
  if (!tracingEnabled(sampleRate)) return false;
  return random() < Number(sampleRate);
}

function safeText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
