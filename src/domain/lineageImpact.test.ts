import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasDownstream, impactSentence, withImpact } from './lineageImpact';
import { hostileString } from './hostile.fixture';

describe('impactSentence', () => {
  it('names datasets and dashboards, singular and plural', () => {
    expect(impactSentence({ datasets: ['Orders by day'], dashboards: ['Shop'] })).toBe('Affected: dataset Orders by day; dashboard Shop.');
    expect(impactSentence({ datasets: ['A', 'B'], dashboards: [] })).toBe('Affected: datasets A, B.');
    expect(impactSentence({ datasets: [], dashboards: ['X', 'Y'] })).toBe('Affected: dashboards X, Y.');
    expect(impactSentence({ datasets: [], dashboards: [] })).toBe('');
  });

  it('withImpact leaves a message alone when nothing is downstream', () => {
    expect(withImpact('Job of p ended ERROR.', { datasets: [], dashboards: [] })).toBe('Job of p ended ERROR.');
    expect(withImpact('Job of p ended ERROR.', { datasets: ['D'], dashboards: [] })).toBe('Job of p ended ERROR. Affected: dataset D.');
  });

  it('names every dataset and dashboard in order, and is empty exactly when nothing is downstream (property)', () => {
    const names = fc.array(fc.oneof(hostileString, fc.string({ minLength: 1 })), { maxLength: 5 });
    fc.assert(
      fc.property(names, names, (datasets, dashboards) => {
        const sentence = impactSentence({ datasets, dashboards });
        expect(sentence === '').toBe(!hasDownstream({ datasets, dashboards }));
        let from = 0;
        for (const name of [...datasets, ...dashboards]) {
          const at = sentence.indexOf(name, from);
          expect(at).toBeGreaterThanOrEqual(0);
          from = at + name.length;
        }
        if (sentence !== '') expect(sentence).toMatch(/^Affected: [\s\S]*\.$/);
      }),
    );
  });
});
