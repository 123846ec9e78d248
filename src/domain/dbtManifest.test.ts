import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dbtModels, MAX_INPUTS, MAX_MODELS, parseDbtManifest } from './dbtManifest';

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

describe('dbtModels, at its edges', () => {
  const tables = (nodes: Record<string, unknown>, sources: Record<string, unknown> = {}) => dbtModels({ nodes, sources }, S).map((m) => m.table);

  it('a table name is 1 to 63 bytes', () => {
    expect(tables({ 'model.p.a': model('a', [], { alias: '' }), 'model.p.b': model('b', [], { alias: 'x'.repeat(63) }), 'model.p.c': model('c', [], { alias: 'y'.repeat(64) }) })).toEqual(['x'.repeat(63)]);
  });

  it('returns the models by table name, whatever their ids', () => {
    expect(tables({ 'model.p.a': model('m'), 'model.p.b': model('z'), 'model.p.c': model('a'), 'model.p.d': model('k') })).toEqual(['a', 'k', 'm', 'z']);
  });

  it('of two models for one table, the first by id stands', () => {
    const models = dbtModels({ nodes: { 'model.p.b': model('second', [], { alias: 't' }), 'model.p.a': model('first', [], { alias: 't' }) } }, S);
    expect(models).toEqual([{ table: 't', model: 'first', inputs: [] }]);
  });

  it('a model needs a name of its own, and its depends_on may be anything', () => {
    expect(tables({ 'model.p.a': { resource_type: 'model', schema: S, alias: 't' } })).toEqual([]);
    expect(dbtModels({ nodes: { 'model.p.a': { ...model('a'), depends_on: null } } }, S)).toEqual([{ table: 'a', model: 'a', inputs: [] }]);
  });

  it('reads at most 2000 input ids of a model', () => {
    const ids = [...Array.from({ length: MAX_INPUTS * 4 }, (_, i) => `model.p.missing${String(i)}`), 'model.p.b'];
    expect(dbtModels({ nodes: { 'model.p.a': model('a', ids), 'model.p.b': model('b') } }, S)[0]).toEqual({ table: 'a', model: 'a', inputs: [] });
  });

  it(`takes ${String(MAX_MODELS)} models at most`, () => {
    const nodes = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`model.p.m${String(i).padStart(5, '0')}`, model(`m${String(i).padStart(5, '0')}`, [])]));
    const models = dbtModels({ nodes }, S);
    expect(models).toHaveLength(5000);
    expect(models.at(-1)?.table).toBe('m04999');
  });

  it("text that is not JSON gives the parser's own message", () => {
    const result = parseDbtManifest('{not json', S);
    expect('error' in result && result.error).not.toBe('it is not a JSON object');
    expect('error' in result && result.error).toMatch(/JSON/);
  });
});
