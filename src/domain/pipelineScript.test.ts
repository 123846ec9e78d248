import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from './hostile.fixture';
import { FALLBACK_SCRIPT, defaultActions, pipelineScript, scriptForActions, shellQuote, stateIdOf } from './pipelineScript';

const ID = '5b0e8a43-6c52-4d1c-9d41-3f1f2f1f0001';

describe('defaultActions', () => {
  it('lists extractors then loaders, plus dbt deps and run', () => {
    expect(
      defaultActions([
        { name: 'target-store', pluginType: 'LOADER' },
        { name: 'tap-demo', pluginType: 'EXTRACTOR' },
        { name: 'dbt-postgres', pluginType: 'TRANSFORMER', pluginName: 'dbt-postgres' },
      ]),
    ).toEqual(['tap-demo', 'target-store', 'dbt-postgres:deps', 'dbt-postgres:run']);
    expect(defaultActions([{ name: 'tap-demo', pluginType: 'EXTRACTOR' }, { name: 'x', pluginType: 'UTILITY' }])).toEqual(['tap-demo']);
  });
});

describe('the default script', () => {
  it('invokes one plugin, runs several with the state-id suffix, echoes otherwise', () => {
    expect(scriptForActions(['tap-demo'], ID)).toBe('meltano invoke tap-demo');
    expect(scriptForActions(['tap-demo', 'target-store'], ID)).toBe(`meltano run --state-id-suffix ${ID} tap-demo target-store`);
    expect(scriptForActions([], ID)).toBe(FALLBACK_SCRIPT);
    expect(scriptForActions(['  '], ID)).toBe(FALLBACK_SCRIPT);
  });
  it('prefers the script, then the actions, then the components', () => {
    const components = [{ name: 'tap-demo', pluginType: 'EXTRACTOR' }, { name: 'target-store', pluginType: 'LOADER' }];
    expect(pipelineScript({ id: ID, script: 'echo mine', actions: ['a'], components })).toBe('echo mine');
    expect(pipelineScript({ id: ID, script: '  ', actions: ['tap-demo'], components })).toBe('meltano invoke tap-demo');
    expect(pipelineScript({ id: ID, script: null, actions: [], components })).toBe(`meltano run --state-id-suffix ${ID} tap-demo target-store`);
  });
  it('names state per pipeline', () => {
    expect(stateIdOf('tap-demo', 'target-store', ID)).toBe(`tap-demo-to-target-store:${ID}`);
    expect(stateIdOf('tap-demo', 'target-store')).toBe('tap-demo-to-target-store');
  });
});

describe('shellQuote', () => {
  it('keeps safe words and quotes the rest', () => {
    expect(shellQuote('tap-demo')).toBe('tap-demo');
    expect(shellQuote("it's; rm -rf /")).toBe(`'it'\\''s; rm -rf /'`);
    expect(shellQuote('')).toBe("''");
  });
  it('bash reads back exactly the word (NUL removed) for hostile text', () => {
    fc.assert(
      fc.property(fc.array(hostileString, { minLength: 1, maxLength: 5 }), (words) => {
        const clean = words.map((w) => w.replace(/\u0000/g, '')).map((w) => Buffer.from(w, 'utf8').toString('utf8'));
        const out = execFileSync('bash', ['-c', `printf '%s\\0' ${clean.map(shellQuote).join(' ')}`]);
        expect(out.toString('utf8').split('\u0000').slice(0, -1)).toEqual(clean);
      }),
      { numRuns: 40 },
    );
  });
});

describe('verifyScript', () => {
  it('runs each extractor discovery', async () => {
    const { verifyScript } = await import('./pipelineScript');
    expect(verifyScript([{ name: 'tap-demo', pluginType: 'EXTRACTOR' }, { name: 'target-store', pluginType: 'LOADER' }])).toBe(
      "set -eo pipefail\nmeltano invoke tap-demo --discover | record-catalog tap-demo\necho 'tap-demo: settings and connection verified'",
    );
    expect(verifyScript([])).toContain('Nothing to verify');
  });
});

describe('dbt and quoting at their edges (by hand)', () => {
  it('runs dbt only for a transformer named dbt or dbt-…', () => {
    expect(defaultActions([{ name: 'dbt', pluginType: 'UTILITY' }])).toEqual([]);
    expect(defaultActions([{ name: 'sqlmesh', pluginType: 'TRANSFORMER' }])).toEqual([]);
    expect(defaultActions([{ name: 'transform', pluginType: 'TRANSFORMER', pluginName: 'dbt-postgres' }])).toEqual(['transform:deps', 'transform:run']);
  });

  it('drops NUL from a quoted word', () => {
    expect(shellQuote('a\u0000b c')).toBe("'ab c'");
    expect(shellQuote('')).toBe("''");
  });
});
