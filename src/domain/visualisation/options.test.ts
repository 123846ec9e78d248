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
