// Chart options written in a dataset's visualisation JSON, merged into ours without letting JSON
// keys reach a prototype.

import { ownValue } from '../ownValue';

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);
const MAX_DEPTH = 20;

/**
 * Keys whose value chart.js calls: JSON can put only text or data there, which chart.js would
 * call on the first draw or hover and break the chart (it never evaluates text, but a "callback"
 * that throws is still a broken page). They are refused wherever they appear, and so is every
 * on… handler (onClick, onHover, onComplete…). Ours are kept by mergeOptions.
 */
const CALLBACK_KEYS = new Set(['callback', 'callbacks', 'external', 'generateLabels', 'filter', 'sort', 'itemSort', 'formatter', 'labelColor', 'labelPointStyle', 'labelTextColor', 'beforeInit', 'afterInit']);
const isCallbackKey = (key: string): boolean => CALLBACK_KEYS.has(key) || /^on[A-Z]/.test(key);

/**
 * Top-level options refused outright: a huge devicePixelRatio multiplies the canvas's pixels
 * (memory), and plugins or a locale chart.js cannot read throw while drawing.
 */
const REFUSED_TOP_KEYS = new Set(['devicePixelRatio']);

/**
 * chart.js draws exactly `ticks.count` ticks, however many (a count of 1e9 hangs the tab), and
 * raises 10 to `ticks.precision`: both are kept only within sane bounds.
 */
function boundedTick(key: string, value: unknown): boolean {
  if (key === 'count') return Number.isInteger(value) && (value as number) >= 2 && (value as number) <= TICK_COUNT_MAX;
  if (key === 'precision') return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 20;
  return true;
}

/** The most ticks a dataset may ask an axis to draw. */
export const TICK_COUNT_MAX = 100;

/** A locale Intl accepts, or null. */
function validLocale(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 35) return null;
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * The dataset's chart.js options with what could break or abuse the chart dropped: unsafe keys,
 * callback keys, devicePixelRatio, a locale Intl refuses. Everything else is passed as given.
 */
export function chartJsOptions(value: unknown): Record<string, unknown> {
  const cleaned = cleanJson(value);
  if (!isPlain(cleaned)) return {};
  const strip = (node: unknown, parent: string): unknown => {
    if (Array.isArray(node)) return node.map((item) => strip(item, parent));
    if (!isPlain(node)) return node;
    const entries = Object.entries(node).filter(([key, child]) => !isCallbackKey(key) && (parent !== 'ticks' || boundedTick(key, child)));
    return Object.fromEntries(entries.map(([key, child]) => [key, strip(child, key)]));
  };
  const out = strip(cleaned, '') as Record<string, unknown>;
  for (const key of REFUSED_TOP_KEYS) delete out[key];
  if (Object.hasOwn(out, 'locale')) {
    const locale = validLocale(out.locale);
    if (locale === null) delete out.locale;
    else out.locale = locale;
  }
  return out;
}

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
      const left = ownValue(a, key);
      const right = b[key];
      // our callbacks stay: JSON cannot hold a function, and a string in its place would throw on hover
      if (typeof left === 'function') continue;
      out[key] = isPlain(left) && isPlain(right) ? merge(left, right) : right;
    }
    return out;
  };
  return merge(base, cleaned);
}
