import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../../src/domain/hostile.fixture';
import { columnTypeOf, columnValue, safeIdentifier, tableShapeOf } from './tableShape';

describe('tableShape', () => {
  it('maps JSON Schema types to columns and keys', () => {
    const shape = tableShapeOf('Web Sessions!', { properties: { ID: { type: ['integer'] }, 'started at': { type: 'string', format: 'date-time' }, tags: { type: 'array' }, amount: { type: ['number', 'null'] }, ok: { type: 'boolean' } } }, ['ID']);
    expect(shape.table).toBe('web_sessions');
    expect(shape.columns.map((c) => [c.column, c.type])).toEqual([
      ['id', 'bigint'],
      ['started_at', 'timestamptz'],
      ['tags', 'jsonb'],
      ['amount', 'double precision'],
      ['ok', 'boolean'],
    ]);
    expect(shape.key).toEqual(['id']);
    expect(columnTypeOf({ type: ['integer', 'number'] })).toBe('double precision');
    expect(columnValue({ a: 1 }, 'jsonb')).toBe('{"a":1}');
    expect(columnValue('a\u0000b', 'text')).toBe('a\uFFFDb');
  });
  it('a key naming a missing property gives no key rather than a wrong one', () => {
    expect(tableShapeOf('s', { properties: { a: { type: 'string' } } }, ['a', 'b']).key).toEqual([]);
  });
  it('on hostile schemas yields safe, distinct identifiers', () => {
    fc.assert(
      fc.property(hostileString, fc.dictionary(hostileString, fc.anything()), fc.array(fc.anything(), { maxLength: 3 }), (stream, properties, keys) => {
        const shape = tableShapeOf(stream, { properties }, keys);
        for (const name of [shape.table, ...shape.columns.map((c) => c.column)]) expect(name).toMatch(/^[a-z_][a-z0-9_]{0,62}$/);
        expect(new Set(shape.columns.map((c) => c.column)).size).toBe(shape.columns.length);
        for (const k of shape.key) expect(shape.columns.some((c) => c.column === k)).toBe(true);
      }),
      { numRuns: 300 },
    );
    fc.assert(fc.property(fc.anything(), (schema) => {
      expect(typeof columnTypeOf(schema)).toBe('string');
    }));
    expect(safeIdentifier('')).toBe('x');
    expect(safeIdentifier('9lives')).toBe('_9lives');
  });
});
