import fc from 'fast-check';

// Shared fast-check arbitraries for the domain's property tests: text a browser, a user or a
// misbehaving server could hand us.

const SPECIALS = ['"', '\u201C', '\u201D', '%', '%2', '%25', '%E0%A4%A', '%C3%A9', '%2F', '%2e', '+', ' ', '\t', '/', '//', '.', '..', '?', '#', '&', '=', '\\', '\u0000', '\uD83D', '\uDE00', '\uD83D\uDE00', 'é', 'İ', 'ß', 'a', 'Z', '0', 'l', 'lab', 'setup'];

const WEIRD_PATHS = ['', '/', '//', '///', '/l', '/l/', '/l//x', '/l/./x', '/l/../x', '../', '/../', '/lab', '/lab/', '/setup', '/setup/w', '/setup/w/', '/debug/../lab', '/%2e%2e/lab', '/l/%', '/l/%E0%A4%A/feed', '?x=1', '#/l/a', 'l/abc', '/L/ABC'];

const HUGE = ['/'.repeat(100_000) + 'x', '%'.repeat(100_000), '%41'.repeat(30_000) + '%', 'a'.repeat(1_000_000), '"'.repeat(100_000), '+'.repeat(100_000), 'a@' + 'b-'.repeat(50_000) + '.c', 'a'.repeat(100_000) + '@' + 'b.'.repeat(50_000)];

/** Arbitrary text: any code points, lone surrogates, URL syntax, quotes, percent runs. */
export const hostileString = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom(...SPECIALS), maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'x') }),
  fc.constantFrom(...WEIRD_PATHS),
);

/** Like hostileString, plus a few very long texts (regex back-tracking, stack depth). */
export const hostileStringWithHuge = fc.oneof(hostileString, fc.constantFrom(...HUGE));

/** Location-like text: slash-joined hostile segments, sometimes with a query or fragment. */
export const hostilePath = fc.oneof(
  fc.constantFrom(...WEIRD_PATHS),
  fc.tuple(fc.array(hostileString, { maxLength: 6 }), fc.constantFrom('', '?q=1', '#top', '?a=%')).map(([parts, tail]) => `/${parts.join('/')}${tail}`),
);

export const HUGE_TEXTS: readonly string[] = HUGE;

export { wellFormed } from './plainText';
