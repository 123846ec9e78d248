import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MULTI_SEARCH_MAX, MULTI_SEARCH_MAX_SIZE, parseMultiSearch, type MultiSearchQuery } from './multiSearch';

const ndjson = (lines: unknown[]) => `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;

describe('parseMultiSearch', () => {
  it('reads a header and a query line per search, in order', () => {
    const parsed = parseMultiSearch(ndjson([{}, { q: 'revenue tag:sales', size: 5, from: 10 }, { index: 'datasets' }, { query: { match_all: {} } }, {}, { query: { query_string: { query: 'orders' } } }]));
    expect(parsed).toEqual({
      ok: true,
      searches: [
        { q: 'revenue tag:sales', page: 2, size: 5 },
        { q: '', page: 0, size: 10 },
        { q: 'orders', page: 0, size: 10 },
      ],
    });
  });

  it('takes \\r\\n and a body without its last newline', () => {
    expect(parseMultiSearch('{}\r\n{"q":"a"}')).toEqual({ ok: true, searches: [{ q: 'a', page: 0, size: 10 }] });
  });

  it('names each bad line, numbered from 1', () => {
    const parsed = parseMultiSearch(ndjson([{}, { q: 1 }, 'not json', { q: 'x' }, {}, { query: { term: { x: 1 } } }, {}, { q: 'x', size: 10, from: 5 }]));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((p) => p.field)).toEqual(['line 2', 'line 3', 'line 6', 'line 8']);
    expect(parsed.problems[2]!.message).toMatch(/query.term is not supported/);
    expect(parsed.problems[3]!.message).toMatch(/multiple of size/);
  });

  it('refuses a header without its query line, an empty body and more than the cap of searches', () => {
    expect(parseMultiSearch(ndjson([{}, { q: 'a' }, {}]))).toEqual({ ok: false, problems: [{ field: 'line 3', message: 'a header line must be followed by its query line' }] });
    expect(parseMultiSearch('')).toMatchObject({ ok: false, problems: [{ field: 'searches' }] });
    // the cap is ten searches a request
    const many = Array.from({ length: 11 }, () => [{}, { q: 'a' }]).flat();
    expect(parseMultiSearch(ndjson(many))).toMatchObject({ ok: false, problems: [{ field: 'searches', message: 'must be at most 10 searches per request' }] });
    expect(parseMultiSearch(ndjson(many.slice(2))).ok).toBe(true);
  });

  it('refuses sizes beyond the cap and text longer than the single search takes', () => {
    expect(parseMultiSearch(ndjson([{}, { size: MULTI_SEARCH_MAX_SIZE + 1 }])).ok).toBe(false);
    expect(parseMultiSearch(ndjson([{}, { size: 0 }])).ok).toBe(false);
    expect(parseMultiSearch(ndjson([{}, { q: 'x'.repeat(12_001) }])).ok).toBe(false);
    expect(parseMultiSearch(ndjson([{}, { q: 'a', query: { match_all: {} } }])).ok).toBe(false);
  });

  it('gives back every search written as NDJSON (property)', () => {
    const search = fc.record({ q: fc.string({ maxLength: 40 }), page: fc.nat({ max: 50 }), size: fc.integer({ min: 1, max: MULTI_SEARCH_MAX_SIZE }) });
    fc.assert(
      fc.property(fc.array(search, { minLength: 1, maxLength: MULTI_SEARCH_MAX }), fc.boolean(), (searches: MultiSearchQuery[], crlf) => {
        const lines = searches.flatMap((s) => [JSON.stringify({}), JSON.stringify({ q: s.q, from: s.page * s.size, size: s.size })]);
        expect(parseMultiSearch(lines.join(crlf ? '\r\n' : '\n'))).toEqual({ ok: true, searches });
      }),
    );
  });

  it('names the line of any query line that is not an object (property)', () => {
    const notAnObject = fc.oneof(fc.constant('[]'), fc.constant('null'), fc.constant('"q"'), fc.integer().map(String), fc.constant('{'));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MULTI_SEARCH_MAX - 1 }), notAnObject, (at, bad) => {
        const lines = Array.from({ length: MULTI_SEARCH_MAX }, () => ['{}', '{"q":"a"}']).flat();
        lines[at * 2 + 1] = bad;
        expect(parseMultiSearch(lines.join('\n'))).toEqual({ ok: false, problems: [{ field: `line ${at * 2 + 2}`, message: 'must be one JSON object' }] });
      }),
    );
  });
});

describe('parseMultiSearch: each rule with its exact words', () => {
  const problem = (query: unknown) => {
    const parsed = parseMultiSearch(ndjson([{}, query]));
    return parsed.ok ? parsed : parsed.problems;
  };
  const one = (message: string) => [{ field: 'line 2', message }];
  const kinds = 'match_all, query_string, simple_query_string, multi_match';

  it('names what is wrong with a query object', () => {
    expect(problem({ query: 'orders' })).toEqual(one('query must be an object'));
    expect(problem({ query: {} })).toEqual(one(`query must hold one of ${kinds}`));
    expect(problem({ query: { match_all: {}, multi_match: { query: 'a' } } })).toEqual(one(`query must hold one of ${kinds}`));
    expect(problem({ query: { match_all: true } })).toEqual(one('query.match_all must be an object'));
    expect(problem({ query: { term: {} } })).toEqual(one(`query.term is not supported: use q, or one of ${kinds}`));
    expect(problem({ query: { multi_match: null } })).toEqual(one('query.multi_match.query must be text'));
    expect(problem({ query: { multi_match: { query: 1 } } })).toEqual(one('query.multi_match.query must be text'));
    expect(problem({ query: { simple_query_string: { query: 'a b' } } })).toEqual({ ok: true, searches: [{ q: 'a b', page: 0, size: 10 }] });
  });

  it('names what is wrong with q, size and from', () => {
    expect(problem({ q: 'a', query: { match_all: {} } })).toEqual(one('give q or query, not both'));
    expect(problem({ q: 1 })).toEqual(one('q must be text'));
    expect(problem({ q: 'x'.repeat(12_001) })).toEqual(one('the text must be at most 12000 characters'));
    for (const size of [0, 101, 1.5, '5']) expect(problem({ size }), String(size)).toEqual(one('size must be a whole number from 1 to 100'));
    for (const from of [-10, 1.5, '10', 'x']) expect(problem({ from }), String(from)).toEqual(one('from must be a whole number, 0 or more'));
    expect(problem({ from: 5, size: 10 })).toEqual(one('from must be a multiple of size (10)'));
  });

  it('takes a line with neither q nor query as every dataset, and the longest text', () => {
    expect(problem({})).toEqual({ ok: true, searches: [{ q: '', page: 0, size: 10 }] });
    expect(problem({ q: 'x'.repeat(12_000), size: 100, from: 200 })).toEqual({ ok: true, searches: [{ q: 'x'.repeat(12_000), page: 2, size: 100 }] });
  });

  it('says a blank body holds no search', () => {
    for (const body of ['', '  ', '\n', ' \r\n ']) expect(parseMultiSearch(body), JSON.stringify(body)).toEqual({ ok: false, problems: [{ field: 'searches', message: 'must hold at least one search: a header line and a query line' }] });
  });
});
