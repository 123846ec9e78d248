import { createRequire } from 'node:module';
import type fastJsonStringify from 'fast-json-stringify';
import { z } from 'zod';

// A route's answer is written by fast-json-stringify from the JSON Schema of the zod schema the SPA
// parses it with (the `Wire` type: the schema's input side), so a field the schema does not name
// never leaves the server. The same JSON Schema describes the answer in GET /api/openapi.json.
// An answer a route writes as JSON text itself (JsonText: workspaces, datasets, the feed) skips the
// serialiser: the test servers check each against this schema instead (textAnswerProblems).

type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `anyOf: [{type: X, ...}, {type: 'null'}]` (a `.nullish()`) as `{type: [X, 'null'], ...}`: fast-json-stringify
 * picks an anyOf branch by validating the value against each, which is slow and throws on a value
 * matching none. An enum keeps null among its values.
 */
function collapseNullable(node: JsonSchema): JsonSchema | undefined {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const nullAt = branches.findIndex((b) => isObject(b) && b.type === 'null' && Object.keys(b).length === 1);
  const other: unknown = branches[1 - nullAt];
  if (nullAt < 0 || !isObject(other) || typeof other.type !== 'string' || other.anyOf !== undefined) return undefined;
  const { anyOf: _anyOf, ...rest } = node;
  const collapsed: JsonSchema = { ...rest, ...other, type: [other.type, 'null'] };
  if (Array.isArray(other.enum)) collapsed.enum = [...(other.enum as unknown[]), null];
  return collapsed;
}

/**
 * `anyOf: [X, {type: 'array', items: X}]` (HAL's one link or several) as `{...X, type: [X's type,
 * 'array'], items: X}`: fast-json-stringify then picks by the value's type instead of validating it
 * against each branch.
 */
function collapseOneOrMany(node: JsonSchema): JsonSchema | undefined {
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return undefined;
  const [one, many] = branches as unknown[];
  if (!isObject(one) || !isObject(many) || typeof one.type !== 'string' || many.type !== 'array' || JSON.stringify(many.items) !== JSON.stringify(one)) return undefined;
  const { anyOf: _anyOf, ...rest } = node;
  return { ...rest, ...one, type: [one.type, 'array'], items: one };
}

function close(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(close);
  if (!isObject(node)) return node;
  const collapsed = collapseNullable(node) ?? collapseOneOrMany(node);
  if (collapsed) return close(collapsed);
  // Any other union is left as zod wrote it: fast-json-stringify validates the value against its
  // branches, and a closed branch would turn an extra field into a 500 rather than drop it.
  if (node.anyOf !== undefined || node.oneOf !== undefined) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isObject(value)) out.properties = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, close(property)]));
    else if (key === 'items' || key === 'prefixItems') out[key] = close(value);
    else out[key] = value;
  }
  if (isObject(out.properties)) {
    // an object: only the fields its schema names are written
    out.additionalProperties = false;
  } else if (out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'))) {
    // A record. Of objects that name their fields (`_links`): each value closed like any object.
    // Of anything else (`appProperties`, a table row): written whole, as JSON.stringify writes it.
    delete out.propertyNames;
    const value = close(node.additionalProperties);
    out.additionalProperties = isObject(value) && value.additionalProperties === false ? value : {};
  }
  return out;
}

/**
 * The JSON Schema of what the server sends for `schema`: every object with properties closed
 * (`additionalProperties: false`), records left open, nullable unions as type lists.
 */
export function responseJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return close(json) as JsonSchema;
}

function withoutRequired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutRequired);
  if (!isObject(node)) return node;
  return Object.fromEntries(Object.entries(node).filter(([key, value]) => !(key === 'required' && Array.isArray(value))).map(([key, value]) => [key, withoutRequired(value)]));
}

/**
 * The schema Fastify serialises a 2xx answer with. `required` is dropped: fast-json-stringify throws
 * on a missing required field, and an answer that lacks one was sent as it is before; the schema
 * decides which fields are written, not whether the answer is sent.
 */
export function serializerSchema(schema: z.ZodType): JsonSchema {
  return withoutRequired(responseJsonSchema(schema)) as JsonSchema;
}

/**
 * A route's answer schema as the route hands it to Fastify. Not a plain object, so Fastify leaves it
 * to the route's serializer compiler (`serializerOf`) instead of reading it as JSON Schema.
 */
export class ResponseSchema {
  constructor(readonly schema: z.ZodType) {}
}

// Loaded with the first serializer made: it loads Ajv, a tenth of a second that a start need not wait for.
const require = createRequire(import.meta.url);
let build: typeof fastJsonStringify | undefined;

const holdsTuple = (node: unknown): boolean =>
  Array.isArray(node) ? node.some(holdsTuple) : isObject(node) && (node.prefixItems !== undefined || Object.values(node).some(holdsTuple));

/**
 * The serializer of a 2xx answer: fast-json-stringify over serializerSchema. A tuple (`z.tuple`,
 * `prefixItems`) is refused when the serializer is made, at the route's first 2xx answer, so the
 * route's own tests fail: fast-json-stringify writes a tuple's items whole, so an object inside one
 * would send the fields its schema does not name.
 */
export function compileSerializer(schema: z.ZodType): (data: unknown) => string {
  const json = serializerSchema(schema);
  if (holdsTuple(json)) throw new Error('a response schema may not hold a tuple (z.tuple): its items would be written whole, unnamed fields included');
  build ??= require('fast-json-stringify') as typeof fastJsonStringify;
  return build(json);
}

const compiled = new WeakMap<z.ZodType, (data: unknown) => string>();

/**
 * Where an answer already written as JSON text (JsonText) departs from what its response schema
 * writes: each JSON path whose value the closed schema would drop or write differently (empty: the
 * text passes its schema). Such an answer skips the serialiser, so nothing else closes it; the
 * test servers check every one with this (CHECK_TEXT_ANSWERS, routes/define.ts).
 */
export function textAnswerProblems(schema: z.ZodType, text: string): string[] {
  let serialize = compiled.get(schema);
  if (!serialize) compiled.set(schema, (serialize = compileSerializer(schema)));
  const sent = JSON.parse(text) as unknown;
  const problems: string[] = [];
  differences(sent, JSON.parse(serialize(sent)) as unknown, '$', problems);
  return problems;
}

function differences(sent: unknown, closed: unknown, at: string, out: string[]): void {
  if (Array.isArray(sent) && Array.isArray(closed) && sent.length === closed.length) {
    sent.forEach((item, index) => differences(item, closed[index], `${at}[${index}]`, out));
  } else if (isObject(sent) && isObject(closed)) {
    for (const [key, value] of Object.entries(sent)) {
      if (!(key in closed)) out.push(`${at}.${key} (not in the schema)`);
      else differences(value, closed[key], `${at}.${key}`, out);
    }
  } else if (JSON.stringify(sent) !== JSON.stringify(closed)) {
    out.push(`${at} (written as ${JSON.stringify(closed)?.slice(0, 40)})`);
  }
}

/**
 * The route's serializer compiler: the serializer is made on the route's first answer that needs
 * one, not when the route is registered. Made eagerly, the hundred-odd routes' JSON Schemas and
 * their compiled serializers took about 270 ms of every start (a tenth of `npm start`) and the
 * memory to hold them, though most answers never use theirs: the hottest reads write their JSON
 * themselves (JsonText). routes/structure.test.ts compiles every route's so none fails late.
 */
export function serializerOf({ schema }: { schema?: unknown }): (data: unknown) => string {
  if (!(schema instanceof ResponseSchema)) throw new TypeError("a route's answer schema is given as a ResponseSchema");
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => (serialize ??= compileSerializer(schema.schema))(data);
}
