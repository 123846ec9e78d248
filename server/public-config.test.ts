import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { publicConfig } from './public-config';

describe('publicConfig: handsontableLicenseKey', () => {
  it('is null unless HANDSONTABLE_LICENSE_KEY is set (handsontable-table then renders as html-table)', () => {
    expect(publicConfig(loadConfig({})).handsontableLicenseKey).toBeNull();
    expect(publicConfig(loadConfig({ HANDSONTABLE_LICENSE_KEY: '   ' })).handsontableLicenseKey).toBeNull();
    expect(publicConfig(loadConfig({ HANDSONTABLE_LICENSE_KEY: ' key-1 ' })).handsontableLicenseKey).toBe('key-1');
  });
});
