import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { halResource } from '../../src/domain/hal';
import { textAnswerProblems } from './responseSchema';

// An answer written as JSON text (JsonText) skips the serialiser; the test servers hold it to its
// response schema with textAnswerProblems (issue 40).

const schema = halResource({ id: z.string(), name: z.string(), secret: z.string().nullish(), owner: z.object({ name: z.string() }).nullish(), tags: z.array(z.object({ name: z.string() })).optional() });

describe('textAnswerProblems', () => {
  it('passes text the schema writes as it is', () => {
    const text = JSON.stringify({ id: 'w1', name: 'Acme', secret: null, owner: { name: 'Ann' }, tags: [{ name: 'a' }], _links: { self: { href: '/w1' } } });
    expect(textAnswerProblems(schema, text)).toEqual([]);
  });

  it('names every field the schema does not, at any depth', () => {
    const text = JSON.stringify({
      id: 'w1',
      name: 'Acme',
      ssh_private_key: '-----BEGIN OPENSSH PRIVATE KEY-----',
      owner: { name: 'Ann', password: 'x' },
      tags: [{ name: 'a' }, { name: 'b', internal: 1 }],
      _links: { self: { href: '/w1', secret: 's' } },
    });
    expect(textAnswerProblems(schema, text).sort()).toEqual(
      ['$.ssh_private_key (not in the schema)', '$.owner.password (not in the schema)', '$.tags[1].internal (not in the schema)', '$._links.self.secret (not in the schema)'].sort(),
    );
  });

  it('names a value the schema would write differently', () => {
    expect(textAnswerProblems(schema, JSON.stringify({ id: 7, name: 'Acme' }))).toEqual(['$.id (written as "7")']);
  });
});
