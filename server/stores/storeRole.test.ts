import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { storeRoleName, storeSchemaName } from './storeRole';

describe('storeRoleName', () => {
  it('names one role per workspace and database, within PostgreSQL’s 63 characters, as a plain identifier', () => {
    const tag = fc.stringMatching(/^[0-9a-f]{8}$/);
    fc.assert(
      fc.property(fc.uuid(), fc.uuid(), tag, tag, (a, b, tagA, tagB) => {
        const name = storeRoleName(a, tagA);
        expect(name).toMatch(/^ws_[0-9a-f]{32}_[0-9a-f]{8}$/);
        expect(name.length).toBeLessThanOrEqual(63);
        expect(name.startsWith(storeSchemaName(a))).toBe(true);
        expect(storeRoleName(b, tagB) === name).toBe(a.toLowerCase() === b.toLowerCase() && tagA === tagB);
      }),
    );
  });

  it('refuses what is not a workspace id or a database tag', () => {
    expect(() => storeRoleName('x"; DROP ROLE postgres; --', '0123abcd')).toThrow(/UUID/);
    expect(() => storeRoleName('6d57d858-3c6d-40d0-9d9e-48fa69311f24', 'ab"cd')).toThrow(/tag/);
  });
});
