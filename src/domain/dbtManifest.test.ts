import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dbtModels, MAX_INPUTS, parseDbtManifest } from './dbtManifest';

const S = 'ws_store';
const model = (name: string, deps: string[] = [], extra: Record<string, unknown> = {}) => ({ resource_type: 'model', name, schema: S, depends_on: { nodes: deps }, ...extra });

describe('dbtModels', () => {
  it('takes each model of the schema with its inputs: models by alias or name, sources by identifier or name', () => {
    const manifest = {
      nodes: {
        'model.p.counted': model('counted', ['source.p.raw.counts', 'model.p.base']),
        'model.p.base': model('base', ['source.p.raw.things'], { alias: 'base_table' }),
        'test.p.not_null': { resource_type: 'test', name: 'not_null', schema: S, depends_on: { nodes: ['model.p.counted'] } },
        'seed.p.codes': { resource_type: 'seed', name: 'codes', schema: S },
      },
      sources: {
        'source.p.raw.counts': { resource_type: 'source', name: 'counts', schema: S },
        'source.p.raw.things': { resource_type: 'source', name: 'things', identifier: 'raw_things', schema: S },
      },
    };
    expect(dbtModels(manifest, S)).toEqual([
      { table: 'base_table', model: 'base', inputs: ['raw_things'] },
      { table: 'counted', model: 'counted', inputs: ['base_table', 'counts'] },
    ]);
  });

  it('keeps only what is in the schema: another schema’s models and inputs are not the store’s', () => {
    const manifest = {
      nodes: { 'model.p.a': model('a', ['model.p.b', 'source.p.x.y']), 'model.p.b': { ...model('b'), schema: 'other' } },
      sources: { 'source.p.x.y': { resource_type: 'source', name: 'y', schema: 'public' } },
    };
    expect(dbtModels(manifest, S)).toEqual([{ table: 'a', model: 'a', inputs: [] }]);
  });

  it('survives missing fields, wrong types, unknown ids, self-references and cycles', () => {
    const manifest = {
      nodes: {
        'model.p.a': model('a', ['model.p.a', 'model.p.b', 'model.p.gone', 42 as unknown as string, 'source.p.none']),
        'model.p.b': model('b', ['model.p.a']),
        'model.p.c': { resource_type: 'model', schema: S },
        'model.p.d': { resource_type: 'model', name: 'd', schema: S, depends_on: 'everything' },
        'model.p.e': null,
        'model.p.f': { resource_type: 'model', name: 'x'.repeat(64), schema: S },
        'model.p.g': { resource_type: 'model', name: 'g\u0000', schema: S },
      },
      sources: [],
    };
    expect(dbtModels(manifest, S)).toEqual([
      { table: 'a', model: 'a', inputs: ['b'] },
      { table: 'b', model: 'b', inputs: ['a'] },
      { table: 'd', model: 'd', inputs: [] },
    ]);
    for (const odd of [null, 1, 'x', [], { nodes: [] }, { nodes: null }]) expect(dbtModels(odd, S)).toEqual([]);
  });

  it('bounds the inputs of a model', () => {
    const sources = Object.fromEntries(Array.from({ length: MAX_INPUTS + 50 }, (_, i) => [`source.p.r.t${i}`, { resource_type: 'source', name: `t${i}`, schema: S }]));
    const [only] = dbtModels({ nodes: { 'model.p.a': model('a', Object.keys(sources)) }, sources }, S);
    expect(only!.inputs).toHaveLength(MAX_INPUTS);
  });

  it('never throws, and what it returns is in the schema, bounded, sorted and never its own input (any JSON)', () => {
    const name = fc.oneof(fc.constantFrom('a', 'b', 'counts', '__proto__', 'constructor'), fc.string({ maxLength: 70 }));
    const node = fc.record(
      { resource_type: fc.constantFrom('model', 'source', 'seed', 'test', 1), name, alias: fc.option(name), identifier: fc.option(name), schema: fc.constantFrom(S, 'other', null), depends_on: fc.oneof(fc.record({ nodes: fc.array(fc.oneof(name.map((n) => `model.p.${n}`), name.map((n) => `source.p.s.${n}`), fc.anything())) }), fc.anything()) },
      { requiredKeys: [] },
    );
    const nodes = fc.dictionary(name.map((n) => `model.p.${n}`), fc.oneof(node, fc.anything()));
    const sources = fc.dictionary(name.map((n) => `source.p.s.${n}`), fc.oneof(node, fc.anything()));
    fc.assert(
      fc.property(fc.oneof(fc.record({ nodes, sources }, { requiredKeys: [] }), fc.anything()), (manifest) => {
        const models = dbtModels(manifest, S);
        const tables = models.map((m) => m.table);
        expect(new Set(tables).size).toBe(tables.length);
        expect([...tables].sort()).toEqual(tables);
        for (const m of models) {
          expect(m.table.length).toBeGreaterThan(0);
          expect(new TextEncoder().encode(m.table).length).toBeLessThanOrEqual(63);
          expect(m.inputs).not.toContain(m.table);
          expect([...m.inputs].sort()).toEqual(m.inputs);
          expect(m.inputs.length).toBeLessThanOrEqual(MAX_INPUTS);
        }
      }),
    );
  });
});

describe('parseDbtManifest', () => {
  it('turns what is not JSON, or not an object, into an error', () => {
    expect(parseDbtManifest('{not json', S)).toHaveProperty('error');
    expect(parseDbtManifest('[1]', S)).toEqual({ error: 'it is not a JSON object' });
    expect(parseDbtManifest(JSON.stringify({ nodes: { 'model.p.a': model('a') } }), S)).toEqual({ models: [{ table: 'a', model: 'a', inputs: [] }] });
  });
});
