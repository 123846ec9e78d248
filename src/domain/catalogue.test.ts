import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addComponentRoute, catalogueTabIndex, discoveryErrorLines, meltanoAddCommand } from './catalogue';
import { hostileString } from './hostile.fixture';
import { PLUGIN_TYPES } from './resources';

describe('catalogueTabIndex', () => {
  it('reads ?tab as an index of Installed, Available, Custom', () => {
    expect(catalogueTabIndex('0')).toBe(0);
    expect(catalogueTabIndex('1')).toBe(1);
    expect(catalogueTabIndex('2')).toBe(2);
    for (const other of [null, undefined, '', '3', '-1', '1.0', ' 1', '01', 'abc']) expect(catalogueTabIndex(other), String(other)).toBe(0);
  });

  it('always answers a tab', () => {
    fc.assert(
      fc.property(hostileString, (tab) => {
        expect([0, 1, 2]).toContain(catalogueTabIndex(tab));
      }),
    );
  });
});

describe('addComponentRoute', () => {
  it('sends loaders to data stores, extractors and transformers to pipelines, the rest nowhere', () => {
    expect(addComponentRoute({ id: 'loaders/target-x--a', name: 'target-x', pluginType: 'LOADER' })).toBe('newDatastore');
    expect(addComponentRoute({ id: 'extractors/tap-x--a', name: 'tap-x', pluginType: 'EXTRACTOR' })).toBe('newPipeline');
    expect(addComponentRoute({ id: 'transformers/dbt--a', name: 'dbt', pluginType: 'TRANSFORMER' })).toBe('newPipeline');
    for (const type of ['MAPPER', 'UTILITY', 'FILE', 'ROBOT']) expect(addComponentRoute({ id: 'x', name: 'x', pluginType: type })).toBeUndefined();
    expect(addComponentRoute({ id: 'x', name: 'tap-x', pluginType: 'EXTRACTOR', custom: true })).toBeUndefined();
  });
});

describe('meltanoAddCommand', () => {
  it('names the type, the plugin and its variant', () => {
    expect(meltanoAddCommand({ id: 'x', name: 'tap-acme', pluginType: 'EXTRACTOR', variant: 'acme' })).toBe('meltano add extractor tap-acme --variant acme');
    expect(meltanoAddCommand({ id: 'x', name: 'map-x', pluginType: 'MAPPER', variant: null })).toBe('meltano add mapper map-x');
  });

  it('never carries shell syntax from a hostile name', () => {
    fc.assert(
      fc.property(hostileString, hostileString, fc.constantFrom(...PLUGIN_TYPES, 'ROBOT'), (name, variant, pluginType) => {
        const command = meltanoAddCommand({ id: 'x', name, variant, pluginType });
        expect(command).toMatch(/^meltano add [a-z]+ [A-Za-z0-9_.-]*( --variant [A-Za-z0-9_.-]*)?$/);
      }),
    );
  });
});

describe('discoveryErrorLines', () => {
  it('writes one line per error as objectName[index].field - defaultMessage', () => {
    expect(
      discoveryErrorLines([
        { objectName: 'extractors[1]', field: 'settings[0].kind', defaultMessage: 'must be one of string' },
        { objectName: 'discovery', field: 'document', defaultMessage: 'is not valid YAML' },
        { defaultMessage: 'alone' },
      ]),
    ).toEqual(['extractors[1].settings[0].kind - must be one of string', 'discovery.document - is not valid YAML', 'alone']);
  });

  it('gives exactly one line per error, whatever they hold', () => {
    const part = fc.option(hostileString, { nil: undefined });
    fc.assert(
      fc.property(fc.array(fc.record({ objectName: part, field: part, defaultMessage: part })), (errors) => {
        expect(discoveryErrorLines(errors)).toHaveLength(errors.length);
      }),
    );
  });
});

describe('catalogue, each case written out (mutation testing, issue 40)', () => {
  it("names every plugin type as Meltano's command does, and an unknown one as a utility", () => {
    const command = (pluginType: string) => meltanoAddCommand({ id: 'x', name: 'p', pluginType });
    expect(['EXTRACTOR', 'LOADER', 'MAPPER', 'TRANSFORMER', 'UTILITY', 'FILE', 'ROBOT'].map(command)).toEqual([
      'meltano add extractor p',
      'meltano add loader p',
      'meltano add mapper p',
      'meltano add transformer p',
      'meltano add utility p',
      'meltano add files p',
      'meltano add utility p',
    ]);
  });

  it('keeps only the characters a name may hold, and no --variant for an empty one', () => {
    expect(meltanoAddCommand({ id: 'x', name: 'tap-a_b.c; rm -rf /', pluginType: 'EXTRACTOR', variant: '$(x)acme' })).toBe('meltano add extractor tap-a_b.crm-rf --variant xacme');
    expect(meltanoAddCommand({ id: 'x', name: 'tap-a', pluginType: 'EXTRACTOR', variant: '' })).toBe('meltano add extractor tap-a');
    expect(meltanoAddCommand({ id: 'x', name: 'tap-a', pluginType: 'EXTRACTOR' })).toBe('meltano add extractor tap-a');
  });

  it('leaves out an empty or missing part of where an error is, and an absent message as empty', () => {
    expect(
      discoveryErrorLines([
        { objectName: '', field: 'name', defaultMessage: 'is required' },
        { objectName: 'extractors[0]', field: null, defaultMessage: 'is invalid' },
        { objectName: 'loaders[2]', field: 'pip_url', defaultMessage: null },
        { objectName: null, field: '', defaultMessage: null },
      ]),
    ).toEqual(['name - is required', 'extractors[0] - is invalid', 'loaders[2].pip_url - ', '']);
    expect(discoveryErrorLines([])).toEqual([]);
  });

  it('sends a custom plugin nowhere whatever its type, and a plugin not flagged custom by its type', () => {
    expect(addComponentRoute({ id: 'x', name: 'target-x', pluginType: 'LOADER', custom: true })).toBeUndefined();
    expect(addComponentRoute({ id: 'x', name: 'target-x', pluginType: 'LOADER', custom: false })).toBe('newDatastore');
    expect(addComponentRoute({ id: 'x', name: 'dbt', pluginType: 'TRANSFORMER', custom: null })).toBe('newPipeline');
    expect(addComponentRoute({ id: 'x', name: 'tap', pluginType: 'extractor' })).toBeUndefined();
  });
});
