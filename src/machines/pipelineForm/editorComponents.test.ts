import { describe, expect, it } from 'vitest';
import type { DataComponent, DataPlugin } from '../../domain/resources';
import { componentFromExisting, componentFromPlugin } from './editorComponents';

const ROWS = { name: 'rows', kind: 'INTEGER' };

describe('the editors\' components, checked by hand', () => {
  it('an existing component takes its plugin\'s type, name, label, description and settings', () => {
    const component: DataComponent = {
      id: 'c1',
      name: 'tap-demo-2',
      _embedded: { dataplugin: { id: 'demo', name: 'tap-demo', pluginType: 'EXTRACTOR', label: 'Demo data', description: 'Rows to try things with', settings: [ROWS] } },
    };
    expect(componentFromExisting(component)).toEqual({ ref: 'tap-demo-2', name: 'tap-demo-2', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', label: 'Demo data', description: 'Rows to try things with', settings: [ROWS] });
  });

  it("an existing component's own type comes before its plugin's", () => {
    const component = { id: 'c1', name: 'target-x', pluginType: 'LOADER', _embedded: { dataplugin: { id: 'x', name: 'target-x', pluginType: 'EXTRACTOR' } } } as DataComponent;
    expect(componentFromExisting(component)).toEqual({ ref: 'target-x', name: 'target-x', pluginType: 'LOADER', pluginName: 'target-x', label: 'target-x', description: null, settings: [] });
  });

  it('an existing component without its plugin is labelled by its name, with no settings', () => {
    expect(componentFromExisting({ id: 'c1', name: 'orphan' })).toEqual({ ref: 'orphan', name: 'orphan', pluginType: '', pluginName: undefined, label: 'orphan', description: null, settings: [] });
    expect(componentFromExisting({ id: 'c1', name: 'orphan', _embedded: { dataplugin: null } })).toEqual({ ref: 'orphan', name: 'orphan', pluginType: '', pluginName: undefined, label: 'orphan', description: null, settings: [] });
  });

  it('a new component is named after its plugin, and refers to it by type, name and variant', () => {
    const plugin = { id: 'demo', name: 'tap-demo', variant: 'builtin', pluginType: 'EXTRACTOR', label: 'Demo data', description: 'Rows', settings: [ROWS] } as DataPlugin;
    expect(componentFromPlugin(plugin)).toEqual({ ref: 'extractors/tap-demo--builtin', name: 'tap-demo', pluginType: 'EXTRACTOR', pluginName: 'tap-demo', label: 'Demo data', description: 'Rows', settings: [ROWS] });
    const bare = { id: 'x', name: 'target-x', pluginType: 'LOADER' } as DataPlugin;
    expect(componentFromPlugin(bare)).toEqual({ ref: 'loaders/target-x', name: 'target-x', pluginType: 'LOADER', pluginName: 'target-x', label: 'target-x', description: null, settings: [] });
  });
});
