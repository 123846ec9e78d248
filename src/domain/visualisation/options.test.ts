import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanJson, mergeOptions } from './options';

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
