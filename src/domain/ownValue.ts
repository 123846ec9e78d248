/**
 * The value a table holds under a key, counting only the table's own keys. A key a stranger typed
 * ('constructor', '__proto__', 'toString') would otherwise find Object.prototype's members, and a
 * function where text was expected.
 */
export const ownValue = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
