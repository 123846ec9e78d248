import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import { ownValue } from './ownValue';

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype);

describe('ownValue', () => {
  it("finds nothing under Object.prototype's names in a table that does not hold them", () => {
    const table: Record<string, string> = { csv: 'text/csv' };
    for (const key of PROTOTYPE_KEYS) expect(ownValue(table, key), key).toBeUndefined();
  });

  it("finds a table's own value under those names, '__proto__' included", () => {
    const table = Object.fromEntries(PROTOTYPE_KEYS.map((key) => [key, `own ${key}`]));
    for (const key of PROTOTYPE_KEYS) expect(ownValue(table, key), key).toBe(`own ${key}`);
  });

  it('reads a table without a prototype', () => {
    const table = Object.assign(Object.create(null) as Record<string, number>, { a: 1 });
    expect(ownValue(table, 'a')).toBe(1);
    expect(ownValue(table, 'b')).toBeUndefined();
  });

  it('gives what a Map of the same entries gives, for any key', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(hostileString, fc.integer())), hostileString, (entries, probe) => {
        const table = Object.fromEntries(entries);
        const map = new Map(entries);
        for (const key of [probe, ...entries.map(([k]) => k)]) expect(ownValue(table, key)).toBe(map.get(key));
      }),
    );
  });
});
