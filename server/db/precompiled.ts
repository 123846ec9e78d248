import { CompiledQuery, type Compilable, type RawBuilder } from 'kysely';
import type { Db } from './database';

// The hottest reads (the caller of every request, the workspace list, the feed) spent more server
// CPU building and compiling their Kysely query than PostgreSQL spent running it (bench:profile:
// ~40 µs a query in the builder's node trees and compiler, and the garbage they leave). A query
// whose shape never depends on its arguments is the same SQL text every time, so it is built and
// compiled once; a call only binds its arguments. The text is a constant string, which also makes
// the prepared-statement name lookup (db/prepared-pool.ts) a hash of a string V8 already hashed.

const SLOT = Symbol('precompiled argument');

interface Slot {
  readonly [SLOT]: string;
}

const isSlot = (value: unknown): value is Slot => typeof value === 'object' && value !== null && SLOT in value;

/**
 * `build` receives stand-ins for its arguments: it may place them in the query (as values,
 * limits, offsets, `sql` parameters) but must not compute with them or branch on them (a query
 * with two shapes is two precompiled queries). Arguments must be scalars: an `in` list's length is
 * part of the SQL. The returned function runs the query on any database or transaction of ours
 * (both dialects are PostgreSQL, so the text is the same for all).
 */
export function precompiled<A extends Record<string, unknown>, R>(build: (db: Db, args: A) => Compilable<R> | RawBuilder<R>) {
  let compiled: { sql: string; bind: (args: A) => unknown[] } | undefined;
  const compile = (db: Db) => {
    const stand = new Proxy({} as A, { get: (_target, key) => (typeof key === 'string' ? { [SLOT]: key } : undefined) });
    const built = build(db, stand);
    const query = 'isRawBuilder' in built ? built.compile(db) : built.compile();
    const parameters = query.parameters.map((value) => (isSlot(value) ? { key: value[SLOT] } : { value }));
    // a stand-in that was computed with leaves NaN or an object behind instead of itself
    if (parameters.some((p) => 'value' in p && (Number.isNaN(p.value) || (typeof p.value === 'object' && p.value !== null && !(p.value instanceof Date))))) {
      throw new Error(`precompiled: a stand-in was computed with, not placed, in ${query.sql}`);
    }
    return { sql: query.sql, bind: (args: A) => parameters.map((p) => ('key' in p ? args[p.key] : p.value)) };
  };
  return async (db: Db, args: A): Promise<R[]> => {
    compiled ??= compile(db);
    const result = await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, compiled.bind(args)));
    return result.rows;
  };
}
