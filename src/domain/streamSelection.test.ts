import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATALOG_LIMITS, catalogStreams, choicesOf, literalPattern, NOTHING_SELECTED, rulesFor, selectionOf, selectRulesOf, withSelection, type CatalogStream, type StreamChoice } from './streamSelection';

const prop = (name: string, automatic = false) => ({ name, type: 'string', automatic });
const orders: CatalogStream = { name: 'public-orders', properties: [prop('id', true), prop('total'), prop('note')] };
const people: CatalogStream = { name: 'public-people', properties: [prop('id', true), prop('email'), prop('name')] };
const dotted: CatalogStream = { name: 'sheet.v2', properties: [prop('a.b'), prop('c')] };

describe('catalogStreams', () => {
  it("reads a tap's streams, top-level properties with their types, and which are automatic", () => {
    const catalog = {
      streams: [
        {
          tap_stream_id: 'public-orders',
          stream: 'orders',
          schema: { type: 'object', properties: { id: { type: 'integer' }, total: { type: ['null', 'number'] }, meta: { type: 'object', properties: { x: {} } } } },
          metadata: [
            { breadcrumb: [], metadata: { selected: true } },
            { breadcrumb: ['properties', 'id'], metadata: { inclusion: 'automatic' } },
            { breadcrumb: ['properties', 'total'], metadata: { inclusion: 'available' } },
          ],
        },
        { stream: 'people', schema: { properties: {} } },
      ],
    };
    expect(catalogStreams(catalog)).toEqual({
      ok: true,
      streams: [
        { name: 'public-orders', properties: [{ name: 'id', type: 'integer', automatic: true }, { name: 'total', type: 'number', automatic: false }, { name: 'meta', type: 'object', automatic: false }] },
        { name: 'people', properties: [] },
      ],
    });
  });

  it('refuses what is not a catalog, a nameless stream, and past the limits', () => {
    expect(catalogStreams(null).ok).toBe(false);
    expect(catalogStreams({ streams: 'x' }).ok).toBe(false);
    expect(catalogStreams({ streams: [{ schema: {} }] })).toEqual({ ok: false, message: 'not a Singer catalog: a stream has no tap_stream_id' });
    expect(catalogStreams({ streams: Array.from({ length: CATALOG_LIMITS.streams + 1 }, (_, i) => ({ tap_stream_id: `s${i}` })) }).ok).toBe(false);
    expect(catalogStreams({ streams: [{ tap_stream_id: 'x'.repeat(CATALOG_LIMITS.nameLength + 1) }] }).ok).toBe(false);
    const wide = Object.fromEntries(Array.from({ length: CATALOG_LIMITS.properties + 1 }, (_, i) => [`p${i}`, {}]));
    expect(catalogStreams({ streams: [{ tap_stream_id: 's', schema: { properties: wide } }] }).ok).toBe(false);
    expect(catalogStreams({ streams: [{ tap_stream_id: 's', schema: { properties: { ['y'.repeat(CATALOG_LIMITS.nameLength + 1)]: {} } } }] }).ok).toBe(false);
    // within every count and length, but more than a workspace keeps
    const many = Array.from({ length: 60 }, (_, i) => ({ tap_stream_id: `stream_${i}`, schema: { properties: Object.fromEntries(Array.from({ length: 100 }, (__, j) => [`${'p'.repeat(180)}_${j}`, { type: 'string' }])) } }));
    expect(catalogStreams({ streams: many })).toMatchObject({ ok: false, message: expect.stringContaining('more than 1024 KiB') });
    expect(catalogStreams({ streams: many.slice(0, 10) }).ok).toBe(true);
  });

  it('keeps a catalog whose streams take exactly 1024 KiB, and refuses one byte more', () => {
    // the streams as catalogStreams lists them, written here; the last stream's name takes up the rest
    const props = (count: number, from: number) => Array.from({ length: count }, (_, j) => `${'p'.repeat(180)}_${from + j}`);
    const listed = (streams: { name: string; properties: string[] }[]) => JSON.stringify(streams.map((st) => ({ name: st.name, properties: st.properties.map((name) => ({ name, type: 'string', automatic: false })) })));
    const sized = (bytes: number) => {
      const streams: { name: string; properties: string[] }[] = [];
      while (listed(streams).length < bytes - 30_000) streams.push({ name: `s${streams.length}`, properties: props(100, 0) });
      const last = { name: 'x', properties: [] as string[] };
      streams.push(last);
      while (listed(streams).length < bytes - 400) last.properties.push(...props(1, last.properties.length));
      // short names for the last few hundred bytes, so that a stream name of at most 151 letters ends it
      while (listed(streams).length < bytes - 150) last.properties.push(`q${last.properties.length}`);
      last.name = 'x'.repeat(1 + bytes - listed(streams).length);
      expect(listed(streams).length).toBe(bytes);
      const catalog = { streams: streams.map((st) => ({ tap_stream_id: st.name, schema: { properties: Object.fromEntries(st.properties.map((name) => [name, { type: 'string' }])) } })) };
      return { catalog, streams };
    };
    const exact = sized(CATALOG_LIMITS.bytes);
    const kept = catalogStreams(exact.catalog);
    expect(kept.ok && JSON.stringify(kept.streams)).toBe(listed(exact.streams));
    expect(catalogStreams(sized(CATALOG_LIMITS.bytes + 1).catalog)).toMatchObject({ ok: false, message: expect.stringContaining('more than 1024 KiB') });
  });

  it('keeps the first of two streams with one id', () => {
    const result = catalogStreams({ streams: [{ tap_stream_id: 'a', schema: { properties: { x: {} } } }, { tap_stream_id: 'a', schema: { properties: { y: {} } } }] });
    expect(result.ok && result.streams).toEqual([{ name: 'a', properties: [{ name: 'x', type: '', automatic: false }] }]);
  });
});

describe('selectionOf: Meltano select rules', () => {
  it('selects everything by default, and with *.*', () => {
    expect(choicesOf([orders, people])).toEqual([{ stream: 'public-orders', properties: 'all' }, { stream: 'public-people', properties: 'all' }]);
  });

  it('reads wildcards, character groups and exclusions; an exclusion wins', () => {
    const rules = ['public-*.*', '!public-people.email', '!*-orders.*'];
    expect(choicesOf([orders, people], rules)).toEqual([{ stream: 'public-people', properties: ['id', 'name'] }]);
    expect(choicesOf([orders, people], ['public-[op]eople.*'])).toEqual([{ stream: 'public-people', properties: 'all' }]);
    expect(choicesOf([orders, people], ['public-[!p]*.*'])).toEqual([{ stream: 'public-orders', properties: 'all' }]);
    expect(choicesOf([orders, people], ['public-?rders.total'])).toEqual([{ stream: 'public-orders', properties: ['id', 'total'] }]);
  });

  it('keeps a key with its stream whatever the rules say of it', () => {
    expect(choicesOf([orders], ['public-orders.note', '!public-orders.id'])).toEqual([{ stream: 'public-orders', properties: ['id', 'note'] }]);
  });

  it('a bare stream name is the whole stream; \\. is a dot inside a name', () => {
    expect(choicesOf([orders, dotted], ['public-orders'])).toEqual([{ stream: 'public-orders', properties: 'all' }]);
    expect(choicesOf([orders, dotted], ['sheet\\.v2.a\\.b'])).toEqual([{ stream: 'sheet.v2', properties: ['a.b'] }]);
  });

  it('a pattern fnmatch would refuse matches nothing, and never throws', () => {
    expect(choicesOf([orders], ['[z-a].*'])).toEqual([]);
    expect(choicesOf([orders], ['public-orders[.*'])).toEqual([]);
    expect(() => selectionOf(['(', '\\', '[', '[!]', '.', '!']).stream('x')).not.toThrow();
  });
});

describe('withSelection', () => {
  it("marks each stream and top-level property selected or not, keeping the tap's own metadata and the rest of the catalog", () => {
    const catalog = {
      version: 1,
      streams: [
        {
          tap_stream_id: 'orders',
          key_properties: ['id'],
          schema: { properties: { id: {}, total: {}, note: {} } },
          metadata: [
            { breadcrumb: [], metadata: { 'replication-method': 'INCREMENTAL', selected: false } },
            { breadcrumb: ['properties', 'note'], metadata: { inclusion: 'available' } },
            { breadcrumb: ['properties', 'note', 'properties', 'x'], metadata: { inclusion: 'available' } },
          ],
        },
        { tap_stream_id: 'people', schema: { properties: { id: {} } } },
      ],
    };
    expect(withSelection(catalog, ['orders.total'])).toEqual({
      version: 1,
      streams: [
        {
          tap_stream_id: 'orders',
          key_properties: ['id'],
          schema: { properties: { id: {}, total: {}, note: {} } },
          metadata: [
            { breadcrumb: [], metadata: { 'replication-method': 'INCREMENTAL', selected: true } },
            { breadcrumb: ['properties', 'id'], metadata: { selected: true } },
            { breadcrumb: ['properties', 'total'], metadata: { selected: true } },
            { breadcrumb: ['properties', 'note'], metadata: { inclusion: 'available', selected: false } },
            { breadcrumb: ['properties', 'note', 'properties', 'x'], metadata: { inclusion: 'available' } },
          ],
        },
        { tap_stream_id: 'people', schema: { properties: { id: {} } }, metadata: [{ breadcrumb: [], metadata: { selected: false } }, { breadcrumb: ['properties', 'id'], metadata: { selected: false } }] },
      ],
    });
  });

  it('returns what is not a catalog as it is', () => {
    expect(withSelection('nope', ['*.*'])).toBe('nope');
  });
});

describe('selectRulesOf', () => {
  it("reads a list, or a pipeline property's JSON text of one; anything else is no rule", () => {
    expect(selectRulesOf(['a.*'])).toEqual(['a.*']);
    expect(selectRulesOf('["a.*","!a.b"]')).toEqual(['a.*', '!a.b']);
    expect(selectRulesOf('')).toBeUndefined();
    expect(selectRulesOf('not json')).toBeUndefined();
    expect(selectRulesOf('[1]')).toBeUndefined();
    expect(selectRulesOf({ a: 1 })).toBeUndefined();
  });
});

describe('rulesFor', () => {
  it('writes stream.* for a whole stream and one rule per property of a part', () => {
    expect(rulesFor([{ stream: 'public-orders', properties: 'all' }, { stream: 'public-people', properties: ['email'] }], [orders, people])).toEqual(['public-orders.*', 'public-people.email']);
  });

  it('every property but the keys ticked is the whole stream; none ticked is no stream', () => {
    expect(rulesFor([{ stream: 'public-orders', properties: ['total', 'note'] }], [orders])).toEqual(['public-orders.*']);
    expect(rulesFor([{ stream: 'public-orders', properties: ['id'] }, { stream: 'public-people', properties: 'all' }], [orders, people])).toEqual(['public-people.*']);
  });

  it('nothing ticked selects nothing (not Meltano’s default, everything)', () => {
    expect(rulesFor([], [orders])).toEqual([NOTHING_SELECTED]);
    expect(choicesOf([orders, people], rulesFor([], [orders, people]))).toEqual([]);
  });

  it('escapes what fnmatch would read as a pattern', () => {
    expect(literalPattern('a*b?c[d].e')).toBe('a[*]b[?]c[[]d]\\.e');
    expect(literalPattern('!x')).toBe('[]!]x');
    const odd: CatalogStream = { name: 'x*[y].z', properties: [prop('p?.q'), prop('r')] };
    const other: CatalogStream = { name: 'xa[y].z', properties: [prop('p?.q')] };
    expect(choicesOf([odd, other], rulesFor([{ stream: 'x*[y].z', properties: ['p?.q'] }], [odd, other]))).toEqual([{ stream: 'x*[y].z', properties: ['p?.q'] }]);
  });

  it('ignores streams the catalog does not have', () => {
    expect(rulesFor([{ stream: 'gone', properties: 'all' }], [orders])).toEqual([NOTHING_SELECTED]);
  });
});

// Any catalog, any ticking: reading back the rules written for it gives the same ticking (keys
// included, a stream without a chosen property dropped, every non-key property chosen read as all).
// (no name starts with `]`: literalPattern's `[]!]` for a leading `!` would take it too)
const nameArb = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom('a', 'b', '.', '*', '?', '[', ']', '!', '-', '\\', 'é') }).filter((n) => !n.startsWith(']'));
const catalogArb = fc.uniqueArray(
  fc.record({ name: nameArb, properties: fc.uniqueArray(fc.record({ name: nameArb, type: fc.constant('string'), automatic: fc.boolean() }), { selector: (p) => p.name, maxLength: 5 }) }),
  { selector: (s) => s.name, maxLength: 5 },
);

function normalised(choices: readonly StreamChoice[], streams: readonly CatalogStream[]): StreamChoice[] {
  const out: StreamChoice[] = [];
  for (const stream of streams) {
    const choice = choices.find((c) => c.stream === stream.name);
    if (!choice) continue;
    const optional = stream.properties.filter((p) => !p.automatic);
    const picked = choice.properties === 'all' ? optional : optional.filter((p) => (choice.properties as string[]).includes(p.name));
    if (picked.length === optional.length) out.push({ stream: stream.name, properties: 'all' });
    else if (picked.length > 0) out.push({ stream: stream.name, properties: stream.properties.filter((p) => p.automatic || picked.includes(p)).map((p) => p.name) });
  }
  return out;
}

describe('rulesFor and choicesOf, any names', () => {
  it('read back what was written', () => {
    fc.assert(
      fc.property(
        catalogArb.chain((streams) =>
          fc.tuple(
            fc.constant(streams),
            fc.subarray(streams).chain((chosen) =>
              fc.tuple(...chosen.map((s) => fc.oneof(fc.constant<'all'>('all'), fc.subarray(s.properties.map((p) => p.name))).map((properties) => ({ stream: s.name, properties })))),
            ),
          ),
        ),
        ([streams, choices]) => {
          expect(choicesOf(streams, rulesFor(choices, streams))).toEqual(normalised(choices, streams));
        },
      ),
    );
  });

  it('hostile rule texts never throw', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 20 })), catalogArb, (rules, streams) => {
        expect(() => choicesOf(streams, rules)).not.toThrow();
      }),
    );
  });
});

describe('streamSelection at the edges of each rule (mutation testing, issue 40)', () => {
  const one = (stream: Record<string, unknown>) => catalogStreams({ streams: [stream] });

  it("says where a catalog is not one, in zod's words after ours", () => {
    expect(catalogStreams(null)).toEqual({ ok: false, message: 'not a Singer catalog: streams Invalid input: expected object, received null' });
    expect(catalogStreams({ streams: [{ tap_stream_id: 5 }] })).toEqual({ ok: false, message: 'not a Singer catalog: streams.0.tap_stream_id Invalid input: expected string, received number' });
  });

  it('types a property by its schema: nullable types drop null, several join with |, anything else is untyped', () => {
    const types = one({
      tap_stream_id: 's',
      schema: { properties: { a: { type: ['null', 'string'] }, b: { type: ['integer', 'string'] }, c: { type: 'null' }, d: null, e: true, f: { type: 7 }, g: {} } },
    });
    expect(types).toEqual({
      ok: true,
      streams: [
        {
          name: 's',
          properties: [
            { name: 'a', type: 'string', automatic: false },
            { name: 'b', type: 'integer | string', automatic: false },
            { name: 'c', type: '', automatic: false },
            { name: 'd', type: '', automatic: false },
            { name: 'e', type: '', automatic: false },
            { name: 'f', type: '', automatic: false },
            { name: 'g', type: '', automatic: false },
          ],
        },
      ],
    });
  });

  it('takes a stream without a schema, and a key only from a two-part properties breadcrumb marked automatic', () => {
    expect(one({ tap_stream_id: 's' })).toEqual({ ok: true, streams: [{ name: 's', properties: [] }] });
    const metadata = [
      { breadcrumb: ['properties', 'a'], metadata: { inclusion: 'automatic' } },
      { breadcrumb: ['properties', 'b'], metadata: { inclusion: 'available' } },
      { breadcrumb: ['other', 'c'], metadata: { inclusion: 'automatic' } },
      { breadcrumb: ['properties', 'd', 'x'], metadata: { inclusion: 'automatic' } },
      { breadcrumb: [], metadata: { inclusion: 'automatic' } },
      { metadata: { inclusion: 'automatic' } },
      { breadcrumb: ['properties', 'e'] },
    ];
    const schema = { properties: { a: {}, b: {}, c: {}, d: {}, e: {} } };
    const result = one({ tap_stream_id: 's', schema, metadata });
    expect(result.ok && result.streams[0]!.properties.filter((p) => p.automatic).map((p) => p.name)).toEqual(['a']);
  });

  it('keeps 500 properties and names of 200 characters, and refuses one more, or an empty name, by name', () => {
    const properties = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, {}]));
    expect(one({ tap_stream_id: 's', schema: { properties: properties(500) } }).ok).toBe(true);
    expect(one({ tap_stream_id: 's', schema: { properties: properties(501) } })).toEqual({ ok: false, message: 'stream s has more than 500 properties' });
    expect(one({ tap_stream_id: 's', schema: { properties: { ['x'.repeat(200)]: {} } } }).ok).toBe(true);
    const refused = { ok: false, message: 'stream s has a property name that is empty or longer than 200' };
    expect(one({ tap_stream_id: 's', schema: { properties: { ['x'.repeat(201)]: {} } } })).toEqual(refused);
    expect(one({ tap_stream_id: 's', schema: { properties: { '': {} } } })).toEqual(refused);
  });

  it("reads fnmatch groups: '!' first negates, ']' first is a member, other characters are members as written", () => {
    const streams = (rule: string, names: string[]) => names.filter((name) => selectionOf([rule]).stream(name));
    expect(streams('[!a]x.*', ['ax', 'bx', '!x'])).toEqual(['bx', '!x']);
    expect(streams('[!]]x.*', [']x', 'ax'])).toEqual(['ax']);
    expect(streams('[]a]x.*', [']x', 'ax', 'bx'])).toEqual([']x', 'ax']);
    // one character is one code point, not one UTF-16 unit
    expect(streams('?.*', ['😀', 'ab'])).toEqual(['😀']);
  });

  it('reads a rule that starts with a dot as an empty stream name, which no stream has', () => {
    expect(selectionOf(['.x']).stream('.x')).toBe(false);
    expect(selectionOf(['.*']).stream('x')).toBe(false);
  });

  it('selects nothing with exclusions alone, even ones about a property', () => {
    expect(selectionOf(['!a.x']).stream('a')).toBe(false);
    expect(selectionOf(['!a.*']).stream('a')).toBe(false);
  });

  it('takes a select list only when every entry is text', () => {
    expect(selectRulesOf(['a.*', 1])).toBeUndefined();
    expect(selectRulesOf('["a.*", 1]')).toBeUndefined();
    expect(selectRulesOf('["a.*", "b.c"]')).toEqual(['a.*', 'b.c']);
  });

  it("drops metadata entries without a breadcrumb, and keeps the tap's other two-part breadcrumbs as they were", () => {
    const catalog = {
      streams: [
        {
          tap_stream_id: 's',
          schema: { properties: { a: {} } },
          metadata: [{ metadata: { selected: true } }, { breadcrumb: ['other', 'y'], metadata: { note: 1 } }, { breadcrumb: ['properties', 'a'], metadata: { inclusion: 'available' } }],
        },
      ],
    };
    expect(withSelection(catalog, ['s.*'])).toEqual({
      streams: [
        {
          tap_stream_id: 's',
          schema: { properties: { a: {} } },
          metadata: [
            { breadcrumb: [], metadata: { selected: true } },
            { breadcrumb: ['properties', 'a'], metadata: { inclusion: 'available', selected: true } },
            { breadcrumb: ['other', 'y'], metadata: { note: 1 } },
          ],
        },
      ],
    });
  });
});
