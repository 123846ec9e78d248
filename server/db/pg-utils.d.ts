// node-postgres's own parameter encoding, reused by the PGlite pool so both databases bind values alike.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
