import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseWith } from './parse';
import { jobSchema, profileSchema, workspaceSchema, workspacesCollectionSchema } from './resources';

const profile = { id: 'p1', name: 'Ada', email: 'ada@example.com', defaultWorkspace: { id: 'w1' }, _links: { self: { href: '/profiles/p1' } } };

describe('parseWith', () => {
  it('returns the value when the body is valid', () => {
    const result = parseWith(profileSchema, profile);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value.defaultWorkspace?.id).toBe('w1');
  });

  it('names a nested field with a dotted path', () => {
    const result = parseWith(profileSchema, { ...profile, defaultWorkspace: { id: 7 } });
    expect(result).toMatchObject({ ok: false, issues: [{ field: 'defaultWorkspace.id' }] });
  });

  it('names the href inside a link rather than the union around it', () => {
    const result = parseWith(profileSchema, { ...profile, _links: { self: { href: 42 } } });
    expect(result).toMatchObject({ ok: false, issues: [{ field: '_links.self.href' }] });
  });

  it('names the href inside a link array with its index', () => {
    const result = parseWith(profileSchema, { ...profile, _links: { self: [{ href: '/a' }, { href: false }] } });
    expect(result).toMatchObject({ ok: false, issues: [{ field: '_links.self.1.href' }] });
  });

  it('reports the relation itself when it is neither a link nor an array', () => {
    const result = parseWith(profileSchema, { ...profile, _links: { self: 'x' } });
    expect(result).toMatchObject({ ok: false, issues: [{ field: '_links.self' }] });
  });

  it('names fields inside embedded collections', () => {
    const result = parseWith(workspacesCollectionSchema, { _embedded: { workspaces: [{ id: 'w', name: 'W' }, { id: 'v', name: 3 }] } });
    expect(result).toMatchObject({ ok: false, issues: [{ field: '_embedded.workspaces.1.name' }] });
  });

  it("uses '' for the root", () => {
    const result = parseWith(profileSchema, 'not an object');
    expect(result).toMatchObject({ ok: false, issues: [{ field: '' }] });
  });

  it('lists every failing field', () => {
    const result = parseWith(jobSchema, { id: 1, type: 'PIPELINE_RUN', status: 'NOPE', created: null });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.field).sort()).toEqual(['created', 'id', 'status']);
  });
});

describe('properties', () => {
  const json = fc.jsonValue();

  it('never throws and always names string fields, whatever the body', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), json), (data) => {
        for (const schema of [profileSchema, workspaceSchema, jobSchema, workspacesCollectionSchema]) {
          const result = parseWith(schema, data);
          if (!result.ok) {
            expect(result.issues.length).toBeGreaterThan(0);
            for (const issue of result.issues) {
              expect(typeof issue.field).toBe('string');
              expect(issue.message.length).toBeGreaterThan(0);
            }
          }
        }
      }),
    );
  });

  it('ok means the schema accepts the body', () => {
    const schema = z.object({ a: z.string(), b: z.array(z.number()).optional() });
    fc.assert(
      fc.property(fc.anything(), (data) => {
        expect(parseWith(schema, data).ok).toBe(schema.safeParse(data).success);
      }),
    );
  });

  it('a wrong type at a random key is reported at that key', () => {
    fc.assert(
      // zod never reads an input's '__proto__' key (its guard against prototype pollution), so that key is not one a field can have
      fc.property(fc.string({ minLength: 1 }).filter((key) => !key.includes('.') && key !== '__proto__'), fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)), (key, bad) => {
        const schema = z.object({ [key]: z.string() });
        const result = parseWith(schema, { [key]: bad });
        expect(result).toMatchObject({ ok: false, issues: [{ field: key }] });
      }),
    );
  });
});

describe('which union branch names the field', () => {
  const fields = (schema: z.ZodType, data: unknown): string[] => {
    const result = parseWith(schema, data);
    return result.ok ? [] : result.issues.map((issue) => issue.field);
  };
  const a = z.object({ a: z.string() });
  const ab = z.object({ a: z.string(), b: z.string() });

  it('takes the matched branch with the fewest issues, the first of equals', () => {
    expect(fields(z.union([a, ab]), { a: 1, b: 1 })).toEqual(['a']);
    expect(fields(z.union([ab, a]), { a: 1, b: 1 })).toEqual(['a']);
    const first = parseWith(z.union([z.object({ a: z.string() }), z.object({ a: z.number() })]), { a: true });
    const second = parseWith(z.union([z.object({ a: z.number() }), z.object({ a: z.string() })]), { a: true });
    expect(first.ok || second.ok).toBe(false);
    if (!first.ok && !second.ok) {
      expect(first.issues.map((i) => i.field)).toEqual(['a']);
      expect(first.issues[0]!.message).toMatch(/string/);
      expect(second.issues[0]!.message).toMatch(/number/);
    }
  });

  it('keeps the union itself when no branch matched below it', () => {
    // the object branch has an issue at its own root (an unknown key): it did not match
    expect(fields(z.union([z.strictObject({ a: z.string() }), z.number()]), { a: 1, x: 1 })).toEqual(['']);
  });

  it('names a symbol key by its description', () => {
    const schema = z.unknown().superRefine((_, context) => {
      context.addIssue({ code: 'custom', message: 'no', path: [Symbol('secret'), 'x', 0] });
      context.addIssue({ code: 'custom', message: 'no', path: [Symbol(), 'y'] });
    });
    expect(fields(schema, 1)).toEqual(['secret.x.0', '.y']);
  });
});
