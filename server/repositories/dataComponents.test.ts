import { describe, expect, it } from 'vitest';
import { parsePluginReference } from './dataComponents';

describe('parsePluginReference', () => {
  it('reads a plugin by its lower-case plural or its upper-case type, with or without a variant', () => {
    expect(parsePluginReference('extractors/tap-demo')).toEqual({ pluginType: 'EXTRACTOR', pluginName: 'tap-demo', variant: null });
    expect(parsePluginReference('Loaders/target-store--builtin')).toEqual({ pluginType: 'LOADER', pluginName: 'target-store', variant: 'builtin' });
    expect(parsePluginReference('UTILITY/dbt')).toEqual({ pluginType: 'UTILITY', pluginName: 'dbt', variant: null });
  });

  it('names no plugin with another word, a lower-case singular, or a word only an object prototype knows', () => {
    for (const entry of ['widgets/x', 'extractor/tap-demo', 'constructor/x', '__proto__/x', 'hasOwnProperty/x', 'toString/x']) {
      expect(parsePluginReference(entry), entry).toBeUndefined();
    }
  });
});
