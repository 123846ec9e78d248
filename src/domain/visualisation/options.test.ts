import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chartJsOptions, cleanJson, mergeOptions, TICK_COUNT_MAX } from './options';

describe('mergeOptions', () => {
  it('lays the dataset options over ours', () => {
    const onClick = () => undefined;
    expect(mergeOptions({ onClick, plugins: { legend: { display: true, position: 'top' } } }, { plugins: { legend: { position: 'bottom' } }, scales: { y: { min: 0 } } })).toEqual({ onClick, plugins: { legend: { display: true, position: 'bottom' } }, scales: { y: { min: 0 } } });
    expect(mergeOptions({ a: 1 }, 'x')).toEqual({ a: 1 });
    const title = () => 'full label';
    expect(mergeOptions({ plugins: { tooltip: { callbacks: { title } } } }, { plugins: { tooltip: { callbacks: { title: 'oops' } } } })).toEqual({ plugins: { tooltip: { callbacks: { title } } } });
  });

  it('drops __proto__, constructor and prototype and never pollutes (property)', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).join();
    const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted'));
    const tree = fc.letrec((tie) => ({ node: fc.oneof({ depthSize: 'small' }, fc.jsonValue(), fc.dictionary(key, tie('node'), { maxKeys: 4 })) })).node;
    fc.assert(fc.property(tree, (value) => {
      const merged = mergeOptions({ plugins: {} }, JSON.parse(JSON.stringify(value ?? null)));
      const walk = (v: unknown): void => {
        if (v && typeof v === 'object') for (const k of Object.keys(v)) {
          expect(['__proto__', 'constructor', 'prototype']).not.toContain(k);
          walk((v as Record<string, unknown>)[k]);
        }
      };
      walk(merged);
      expect(Object.getOwnPropertyNames(Object.prototype).join()).toBe(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }));
    expect(cleanJson(JSON.parse('{"__proto__":{"polluted":1},"a":1}'))).toEqual({ a: 1 });
  });
});

describe('chartJsOptions', () => {
  it("passes the chart.js v3 options of Matatika's examples as given", () => {
    const given = {
      scales: { x: { stacked: true, title: { display: true, text: 'Number of Sales' } }, y: { max: 100, beginAtZero: true, ticks: { stepSize: 1, count: 5, precision: 0 } } },
      plugins: { legend: { position: 'left', labels: { boxWidth: 20 } }, title: { display: true, text: 'Shops' } },
      indexAxis: 'y',
      locale: 'de-DE',
      elements: { line: { tension: 0 } },
    };
    expect(chartJsOptions(JSON.parse(JSON.stringify(given)))).toEqual(given);
  });

  it('refuses what chart.js would call, what could pollute, and what could exhaust the page', () => {
    const hostile = JSON.parse(`{
      "onClick": "alert(1)", "onHover": "x", "animation": {"onComplete": "fetch('/x')", "duration": 100},
      "plugins": {"tooltip": {"callbacks": {"label": "() => 1"}, "external": "x", "filter": "x", "itemSort": "x"}, "legend": {"labels": {"generateLabels": "x", "filter": "x", "sort": "x"}}},
      "scales": {"y": {"ticks": {"callback": "function(){}", "count": 1000000000, "precision": 400}, "constructor": {"prototype": {"polluted": 1}}}},
      "__proto__": {"polluted": 1}, "devicePixelRatio": 1000, "locale": "not a locale!"
    }`);
    expect(chartJsOptions(hostile)).toEqual({ animation: { duration: 100 }, plugins: { tooltip: {}, legend: { labels: {} } }, scales: { y: { ticks: {} } } });
    expect(chartJsOptions({ scales: { y: { ticks: { count: TICK_COUNT_MAX, precision: 20 } } } })).toEqual({ scales: { y: { ticks: { count: TICK_COUNT_MAX, precision: 20 } } } });
    expect(chartJsOptions({ scales: { y: { ticks: { count: TICK_COUNT_MAX + 1 } } } })).toEqual({ scales: { y: { ticks: {} } } });
    expect(chartJsOptions('nope')).toEqual({});
    expect(chartJsOptions({ locale: 'EN-gb' })).toEqual({ locale: 'en-GB' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never leaves a callback key, an unsafe key or an unbounded tick count (property)', () => {
    const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'callback', 'callbacks', 'onClick', 'onAnything', 'generateLabels', 'ticks', 'count', 'precision', 'devicePixelRatio'));
    const tree = fc.letrec((tie) => ({ node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), fc.dictionary(key, tie('node'), { maxKeys: 5 })) })).node;
    fc.assert(fc.property(tree, (value) => {
      const out = chartJsOptions(JSON.parse(JSON.stringify(value ?? null)));
      expect(Object.hasOwn(out, 'devicePixelRatio')).toBe(false);
      const walk = (v: unknown, parent: string): void => {
        if (!v || typeof v !== 'object') return;
        for (const k of Object.keys(v)) {
          expect(['__proto__', 'constructor', 'prototype', 'callback', 'callbacks', 'generateLabels']).not.toContain(k);
          expect(k).not.toMatch(/^on[A-Z]/);
          const child = (v as Record<string, unknown>)[k];
          if (parent === 'ticks' && k === 'count') expect(Number.isInteger(child) && (child as number) >= 2 && (child as number) <= TICK_COUNT_MAX).toBe(true);
          walk(child, k);
        }
      };
      walk(out, '');
    }));
  });
});

describe('options at their edges (by hand)', () => {
  it('keeps tick counts of 2 to 100 and precisions of 0 to 20, integers only, and keys merely containing "on"', () => {
    const ticks = (t: Record<string, unknown>) => (chartJsOptions({ scales: { y: { ticks: t } } }) as { scales: { y: { ticks: unknown } } }).scales.y.ticks;
    expect(ticks({ count: 2, precision: 0 })).toEqual({ count: 2, precision: 0 });
    expect(ticks({ count: 100, precision: 20 })).toEqual({ count: 100, precision: 20 });
    expect(ticks({ count: 1, precision: -1 })).toEqual({});
    expect(ticks({ count: 101, precision: 21 })).toEqual({});
    expect(ticks({ count: 2.5, precision: 1.5 })).toEqual({});
    expect(ticks({ count: '5', precision: '2' })).toEqual({});
    expect(chartJsOptions({ plugins: { legend: { position: 'top', lonClick: 1, onClick: 'x' } } })).toEqual({ plugins: { legend: { position: 'top', lonClick: 1 } } });
    expect(chartJsOptions({ elements: [{ onHover: 'x', a: 1 }] })).toEqual({ elements: [{ a: 1 }] });
  });

  it('keeps a locale Intl accepts, of at most 35 characters, canonical', () => {
    expect(chartJsOptions({ locale: 'EN-gb' })).toEqual({ locale: 'en-GB' });
    expect(chartJsOptions({ locale: 'xx-invalid-locale-!!' })).toEqual({});
    expect(chartJsOptions({ locale: 5 })).toEqual({});
    expect(chartJsOptions({ locale: `en-${'a'.repeat(33)}` })).toEqual({});
    expect(chartJsOptions({ responsive: true })).toEqual({ responsive: true });
  });

  it('drops functions, symbols and bigints, and keeps 20 levels of depth', () => {
    expect(cleanJson({ f: () => 1, s: Symbol('s'), b: 1n, n: null, u: 'x', a: [() => 1, 2] })).toEqual({ n: null, u: 'x', a: [undefined, 2] });
    const deep = (n: number): unknown => (n === 0 ? 'leaf' : { d: deep(n - 1) });
    const list = (n: number): unknown => (n === 0 ? 'leaf' : [list(n - 1)]);
    expect(cleanJson(deep(20))).toEqual(deep(20));
    expect(cleanJson(deep(21))).toEqual(dropLeaf(21));
    expect(cleanJson(list(20))).toEqual(list(20));
    expect(JSON.stringify(cleanJson(list(21)))).toBe(`${'['.repeat(21)}null${']'.repeat(21)}`);
  });
});

/** { d: … } 21 levels deep with the leaf (beyond 20) dropped. */
function dropLeaf(levels: number): unknown {
  let value: unknown = {};
  for (let i = 1; i < levels; i += 1) value = { d: value };
  return value;
}
