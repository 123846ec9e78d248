import { describe, expect, it } from 'vitest';
import { runtimeConfigSchema } from './runtimeConfig';

const base = {
  appTitle: 'W', apiBaseUrl: '/api', auth: { domain: 'd', clientId: 'c', audience: 'a', embedded: true }, disabledFeatures: '', disabledFeatureTooltip: '',
  errorReportingUrl: null, traceSampleRate: 0, placeholderMinimumLoad: 0, placeholderLoadTimeout: 0, snackbarTimeout: 0, manageAccountUrl: '',
};

describe('runtimeConfigSchema: handsontableLicenseKey', () => {
  it('defaults to null when an older server leaves it out, and keeps a key', () => {
    expect(runtimeConfigSchema.parse(base).handsontableLicenseKey).toBeNull();
    expect(runtimeConfigSchema.parse({ ...base, handsontableLicenseKey: 'k' }).handsontableLicenseKey).toBe('k');
    expect(() => runtimeConfigSchema.parse({ ...base, handsontableLicenseKey: 5 })).toThrow();
  });
});
