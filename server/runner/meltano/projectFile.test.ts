import { describe, expect, it } from 'vitest';
import { readDiscovery } from '../../../src/domain/discovery';
import { pythonPluginEntry } from './projectFile';

// A Python plugin's entry in meltano.yml: a complete custom plugin Meltano installs and runs
// without asking MeltanoHub, with its settings as the definition gives them.

describe('pythonPluginEntry', () => {
  it("writes the definition's settings with their kind, default, sensitivity, env, options and value_processor, under the component's name", () => {
    const { plugins, errors } = readDiscovery({
      extractors: [
        {
          name: 'tap-acme',
          namespace: 'tap_acme',
          pip_url: 'tap-acme==1.2',
          capabilities: ['catalog', 'state'],
          settings: [
            { name: 'region', kind: 'options', value: 'eu', options: [{ label: 'Europe', value: 'eu' }, { value: 'us' }], value_processor: 'upcase_string' },
            { name: 'api_key', kind: 'password', env: 'ACME_KEY' },
            { name: 'filters', kind: 'object', value: { 'a.b': 1 }, value_processor: 'NEST_OBJECT' },
            { name: 'limit', kind: 'integer', value: 0 },
            { name: 'unset', value: null },
            { name: 'note' },
          ],
        },
      ],
    });
    expect(errors).toEqual([]);
    expect(pythonPluginEntry({ name: 'acme-eu', plugin_name: 'tap-acme' }, plugins[0]!)).toEqual({
      name: 'acme-eu',
      namespace: 'tap_acme',
      pip_url: 'tap-acme==1.2',
      executable: 'tap-acme',
      capabilities: ['catalog', 'state'],
      settings: [
        { name: 'region', kind: 'options', value: 'eu', options: [{ label: 'Europe', value: 'eu' }, { label: 'us', value: 'us' }], value_processor: 'upcase_string' },
        { name: 'api_key', kind: 'password', sensitive: true, env: 'ACME_KEY' },
        { name: 'filters', kind: 'object', value: { 'a.b': 1 }, value_processor: 'nest_object' },
        // a default of 0 is a default; a null one is none
        { name: 'limit', kind: 'integer', value: 0 },
        { name: 'unset', kind: 'string' },
        { name: 'note', kind: 'string' },
      ],
    });
  });
});
