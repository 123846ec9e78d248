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
