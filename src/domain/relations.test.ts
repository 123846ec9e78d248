import { describe, expect, it } from 'vitest';
import { REL } from './relations';

// What a relation name must be, rather than a copy of the table: the contract suite
// (tests/api/contract) checks that every relation the server offers has a handler and who is
// offered which, and the spec's own names are read where they are used.

describe('REL', () => {
  const names = Object.values(REL);

  it('has no two constants naming the same relation', () => {
    expect(new Set(names).size).toBe(names.length);
  });

  it('names each relation as the spec and the Matatika reference write them: lower case words, one space apart', () => {
    for (const name of names) expect(name, name).toMatch(/^[a-z][a-z0-9.-]*( [a-z][a-z0-9.-]*)*$/);
  });
});
