import type * as LibPgQueryModule from 'libpg-query';

// PostgreSQL's own parser (libpg-query) instantiates its WebAssembly module as soon as it is
// imported, which costs every server process about 20 MB of memory from the start. Only a
// dataset's query needs it, so it is loaded at the first one: parse and scan were asynchronous
// already (they wait for the module), so their callers see no difference.

type LibPgQuery = typeof LibPgQueryModule;

let parser: Promise<LibPgQuery> | undefined;
const loadParser = () => (parser ??= import('libpg-query'));

/** libpg-query's parse, loaded on first use. */
export async function parse(query: string): ReturnType<LibPgQuery['parse']> {
  return (await loadParser()).parse(query);
}

/** libpg-query's scan, loaded on first use. */
export async function scan(query: string): ReturnType<LibPgQuery['scan']> {
  return (await loadParser()).scan(query);
}
