// Chart options written in a dataset's visualisation JSON, merged into ours without letting JSON
// keys reach a prototype.

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 20;

const isPlain = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A copy of JSON data with unsafe keys dropped and depth bounded (deeper branches are dropped). */
export function cleanJson(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) return value.map((item) => cleanJson(item, depth + 1));
  if (isPlain(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      if (UNSAFE_KEYS.has(key)) continue;
      const cleaned = cleanJson(value[key], depth + 1);
      if (cleaned !== undefined) out[key] = cleaned;
    }
    return out;
  }
  return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' ? undefined : value;
}

/**
 * base with overrides laid over it: plain objects merge key by key, anything else replaces. Only
 * own, safe keys of overrides are copied; base values are kept where overrides say nothing, and
 * base functions are always kept.
 */
export function mergeOptions(base: Record<string, unknown>, overrides: unknown): Record<string, unknown> {
  const cleaned = cleanJson(overrides);
  if (!isPlain(cleaned)) return { ...base };
  const merge = (a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...a };
    for (const key of Object.keys(b)) {
      const left = Object.hasOwn(a, key) ? a[key] : undefined;
      const right = b[key];
      // our callbacks stay: JSON cannot hold a function, and a string in its place would throw on hover
      if (typeof left === 'function') continue;
      out[key] = isPlain(left) && isPlain(right) ? merge(left, right) : right;
    }
    return out;
  };
  return merge(base, cleaned);
}
