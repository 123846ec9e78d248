import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseJsonSchema, serializerOf, serializerSchema, textAnswerProblems } from './responseSchema';

// How responseJsonSchema rewrites the unions zod writes, and how textAnswerProblems names a
// difference: each expectation below is written out by hand from the JSON Schema rules, not taken
// from the code (issue 40, item 4: these cases were the mutants that survived).

const A = z.object({ a: z.string() });
const B = z.object({ b: z.string() });
const closedA = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false };
const openA = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
const openB = { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] };

describe('responseJsonSchema: a nullable union becomes a type list only when it is exactly "X or null"', () => {
  it('null first or last, the object closed either way', () => {
    expect(responseJsonSchema(z.union([z.null(), A]))).toEqual({ ...closedA, type: ['object', 'null'] });
    expect(responseJsonSchema(A.nullable())).toEqual({ ...closedA, type: ['object', 'null'] });
  });

  it('null beside two objects stays a union: collapsing it would drop one of them', () => {
    expect(responseJsonSchema(z.union([z.null(), A, B]))).toEqual({ anyOf: [{ type: 'null' }, openA, openB] });
  });

  it('a null branch that says more than its type is a branch of its own', () => {
    const schema = z.union([z.string(), z.null().describe('none')]);
    expect(responseJsonSchema(schema)).toEqual({ anyOf: [{ type: 'string' }, { type: 'null', description: 'none' }] });
  });

  it('"anything or null" and "a union or null" keep their anyOf: the other branch has no single type', () => {
    expect(responseJsonSchema(z.unknown().nullable())).toEqual({ anyOf: [{}, { type: 'null' }] });
    expect(responseJsonSchema(z.union([A, B]).nullish())).toEqual({ anyOf: [{ anyOf: [openA, openB] }, { type: 'null' }] });
  });

  it('a nullable list: its items closed', () => {
    expect(responseJsonSchema(z.array(A).nullish())).toEqual({ type: ['array', 'null'], items: closedA });
  });
});

describe('responseJsonSchema: "one or many" collapses only for X or a list of the same X', () => {
  it('a link or a list of links', () => {
    expect(responseJsonSchema(z.union([A, z.array(A)]))).toEqual({ ...closedA, type: ['object', 'array'], items: closedA });
  });

  it('a list of something else, a third branch, or an untyped X: left as zod wrote it', () => {
    expect(responseJsonSchema(z.union([z.string(), z.array(z.number())]))).toEqual({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'number' } }] });
    expect(responseJsonSchema(z.union([z.string(), z.array(z.string()), z.number()]))).toEqual({
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'number' }],
    });
    expect(responseJsonSchema(z.union([z.any(), z.array(z.any())]))).toEqual({ anyOf: [{}, { type: 'array', items: {} }] });
  });
});

describe('responseJsonSchema: what is closed and what is left', () => {
  it("a tuple's items are closed and its `items: false` kept", () => {
    expect(responseJsonSchema(z.tuple([A]))).toEqual({ type: 'array', prefixItems: [closedA], items: false, minItems: 1, maxItems: 1 });
  });

  it("an intersection's parts are left open: each closed would refuse the other's fields", () => {
    const recordPart = { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } };
    expect(responseJsonSchema(z.intersection(A, z.record(z.string(), z.string())))).toEqual({ allOf: [openA, recordPart] });
  });

  it('the serialiser demands no field inside a union either', () => {
    expect(serializerSchema(z.object({ u: z.union([A, B]) }))).toEqual({
      type: 'object',
      properties: { u: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }] } },
      additionalProperties: false,
    });
  });
});

describe('serializerOf', () => {
  it('refuses a schema not given as a ResponseSchema (a plain JSON Schema would skip the closing)', () => {
    expect(() => serializerOf({ schema: { type: 'object' } })).toThrow(new TypeError("a route's answer schema is given as a ResponseSchema"));
    expect(() => serializerOf({})).toThrow(TypeError);
  });
});

describe('textAnswerProblems: a value of another shape than the schema says', () => {
  const schema = z.object({ tags: z.string(), name: z.string() });

  it('a list where the schema has text: one problem at the list, not one per item', () => {
    expect(textAnswerProblems(schema, JSON.stringify({ tags: ['a'], name: 'n' }))).toEqual(['$.tags (written as "a")']);
  });

  it('an object where the schema has text: one problem at the object', () => {
    expect(textAnswerProblems(schema, JSON.stringify({ tags: 't', name: { first: 'Ann' } }))).toEqual(['$.name (written as "[object Object]")']);
  });

  it('quotes at most 40 characters of what the schema wrote', () => {
    const long = 'x'.repeat(60);
    expect(textAnswerProblems(schema, JSON.stringify({ tags: [long], name: 'n' }))).toEqual([`$.tags (written as "${'x'.repeat(39)})`]);
  });
});
