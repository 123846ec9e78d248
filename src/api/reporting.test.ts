import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailure } from './errors';
import { consoleReporter, httpReporter, selectReporter, shouldTrace, toReport } from './reporting';
import { fakeFetch } from './testing/fakeFetch';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('error reporting', () => {
  it('the console reporter logs the error and its context', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = new Error('boom');
    consoleReporter.report(error, { page: '/api-key' });
    expect(log).toHaveBeenCalledWith('[error report]', error, { page: '/api-key' });
  });

  it('the http reporter POSTs a JSON report', async () => {
    const fake = fakeFetch({ status: 204 });
    httpReporter('https://reports.test/errors', fake.fetch).report(new ApiFailure({ kind: 'network', message: 'We were unable to connect.' }), {
      route: '/',
    });
    await Promise.resolve();
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]).toMatchObject({
      url: 'https://reports.test/errors',
      method: 'POST',
      body: { message: 'We were unable to connect.', name: 'ApiFailure', kind: 'network', context: { route: '/' } },
    });
  });

  it('the http reporter never throws, whether fetch rejects or throws', async () => {
    const rejecting = httpReporter('https://reports.test', () => Promise.reject(new Error('offline')));
    const throwing = httpReporter('https://reports.test', () => {
      throw new TypeError('bad url');
    });
    expect(() => rejecting.report(new Error('x'))).not.toThrow();
    expect(() => throwing.report('just text')).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  it('reports values that are not errors, even cyclic ones', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toReport(cyclic).message).toBe('[object Object]');
    expect(toReport('text', undefined, () => new Date(0))).toEqual({
      message: 'text',
      name: 'string',
      kind: 'unknown',
      timestamp: '1970-01-01T00:00:00.000Z',
    });
  });

  it('selects the http reporter only when a reporting URL is configured', async () => {
    expect(selectReporter({})).toBe(consoleReporter);
    expect(selectReporter({ errorReportingUrl: '  ' })).toBe(consoleReporter);
    expect(selectReporter({ errorReportingUrl: null })).toBe(consoleReporter);
    const fake = fakeFetch({ status: 204 });
    const reporter = selectReporter({ errorReportingUrl: 'https://reports.test', fetch: fake.fetch });
    expect(reporter).not.toBe(consoleReporter);
    reporter.report(new Error('x'));
    await Promise.resolve();
    expect(fake.calls[0]?.url).toBe('https://reports.test');
  });
});

describe('shouldTrace', () => {
  it('never traces at a rate of 0 or an unusable rate', () => {
    for (const rate of [0, -1, '0', '', 'abc', Number.NaN, Number.POSITIVE_INFINITY, undefined, null]) {
      expect(shouldTrace(rate, () => 0)).toBe(false);
    }
  });

  it('traces a share of sessions equal to the rate', () => {
    expect(shouldTrace(0.25, () => 0.2)).toBe(true);
    expect(shouldTrace(0.25, () => 0.25)).toBe(false);
    expect(shouldTrace('0.5', () => 0.49)).toBe(true);
    expect(shouldTrace(1, () => 0.999)).toBe(true);
  });
});
