import { test as base, expect, type BrowserContext } from '@playwright/test';

/**
 * Every spec imports `test` from here instead of '@playwright/test' (ESLint says so): the same
 * test, plus an automatic guard that fails it when any page broke the Content-Security-Policy
 * (issue 17: every page renders under the CSP with no violation). It watches the test's own
 * context and any context the test opens with `browser.newContext()`.
 */
export * from '@playwright/test';

/** What the page's `securitypolicyviolation` event says. */
interface ViolationEvent {
  url: string;
  directive: string;
  blocked: string;
  source: string;
  sample: string;
}

const BINDING = '__e2eCspViolation';

/** Records every violation of the pages in `context`, across navigations. */
function watchContext(context: BrowserContext, violations: string[]): Promise<unknown> {
  // Chromium logs every violation to the console: a listener registered at once, before any page
  // of this context loads, even when the binding below is still on its way.
  context.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  return Promise.all([
    // A binding, not a list on window: a list would be lost with the next navigation.
    context.exposeBinding(BINDING, (_source, event: ViolationEvent) => {
      violations.push(`${event.directive} blocked ${event.blocked || '(inline)'} on ${event.url}${event.source ? ` at ${event.source}` : ''}${event.sample ? `: ${event.sample}` : ''}`);
    }),
    context.addInitScript((binding: string) => {
      const report = (window as unknown as Record<string, ((event: unknown) => void) | undefined>)[binding];
      document.addEventListener(
        'securitypolicyviolation',
        (event) => {
          report?.({ url: event.documentURI, directive: event.effectiveDirective, blocked: event.blockedURI, source: event.sourceFile ? `${event.sourceFile}:${event.lineNumber}` : '', sample: event.sample });
        },
        true,
      );
    }, BINDING),
  ]);
}

export const test = base.extend<{ cspGuard: void }>({
  cspGuard: [
    async ({ context, browser }, use) => {
      const violations: string[] = [];
      await watchContext(context, violations);
      const onContext = (opened: BrowserContext) => {
        watchContext(opened, violations).catch((error: unknown) => violations.push(`the CSP guard could not watch a context: ${String(error)}`));
      };
      browser.on('context', onContext);
      try {
        await use();
      } finally {
        browser.off('context', onContext);
      }
      expect(violations, 'Content-Security-Policy violations (server/http/securityHeaders.ts)').toEqual([]);
    },
    { auto: true },
  ],
});
