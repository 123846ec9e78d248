import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileStringWithHuge } from './hostile.fixture';
import { envName, envValue, isValidEnvName, settingEnvName, settingsEnv, splitPropertyKey } from './settingEnv';

describe('settingEnvName (Meltano rule)', () => {
  it('joins plugin and setting, non-alphanumerics to _, upper case', () => {
    expect(settingEnvName('tap-github', 'start_date')).toBe('TAP_GITHUB_START_DATE');
    expect(settingEnvName('tap-github', 'batch_config.encoding.format')).toBe('TAP_GITHUB_BATCH_CONFIG_ENCODING_FORMAT');
    expect(settingEnvName('tap-github', '_select')).toBe('TAP_GITHUB__SELECT');
  });
  it('lets a usable explicit env win, and ignores an unusable one', () => {
    expect(settingEnvName('tap-github', 'access_token', 'GITHUB_TOKEN')).toBe('GITHUB_TOKEN');
    expect(settingEnvName('tap-github', 'access_token', '1BAD NAME')).toBe('TAP_GITHUB_ACCESS_TOKEN');
    expect(settingEnvName('tap-github', 'access_token', '')).toBe('TAP_GITHUB_ACCESS_TOKEN');
  });
  it('always yields only [A-Z0-9_] from the rule, whatever the names', () => {
    fc.assert(fc.property(hostileStringWithHuge, hostileString, (plugin, setting) => {
      expect(envName(plugin, setting)).toMatch(/^[A-Z0-9_]*$/);
    }), { numRuns: 300 });
  });
});

describe('envValue', () => {
  it('turns values into text', () => {
    expect(envValue('x')).toBe('x');
    expect(envValue(3)).toBe('3');
    expect(envValue(false)).toBe('false');
    expect(envValue(['a', 'b'])).toBe('["a","b"]');
    expect(envValue({ a: 1 })).toBe('{"a":1}');
    expect(envValue(null)).toBeUndefined();
    expect(envValue(Number.NaN)).toBeUndefined();
    expect(envValue(10n)).toBeUndefined();
  });
  it('survives a cycle', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(envValue(cyclic)).toBeUndefined();
  });
});

describe('splitPropertyKey', () => {
  it('takes the longest component prefix', () => {
    expect(splitPropertyKey('tap-x.start_date', ['tap-x'])).toEqual({ component: 'tap-x', setting: 'start_date' });
    expect(splitPropertyKey('tap-x.y.z', ['tap-x', 'tap-x.y'])).toEqual({ component: 'tap-x.y', setting: 'z' });
    expect(splitPropertyKey('tap-xy.z', ['tap-x'])).toBeUndefined();
    expect(splitPropertyKey('tap-x.', ['tap-x'])).toBeUndefined();
  });
});

describe('settingsEnv', () => {
  const components = [
    { name: 'tap-github', settings: [{ name: 'start_date' }, { name: 'access_token', env: 'GITHUB_TOKEN' }] },
    { name: 'target-store', settings: [] },
  ];
  it('maps pipeline properties over component properties', () => {
    const { env, skipped } = settingsEnv(
      components,
      { 'tap-github.start_date': '2024-01-01', 'tap-github.access_token': 's3cret', 'tap-github.repositories': ['a/b'], 'other.x': 'y' },
      { 'tap-github': { start_date: '2020-01-01', page_size: 100 } },
    );
    expect(env).toEqual({
      TAP_GITHUB_START_DATE: '2024-01-01',
      TAP_GITHUB_PAGE_SIZE: '100',
      GITHUB_TOKEN: 's3cret',
      TAP_GITHUB_REPOSITORIES: '["a/b"]',
    });
    expect(skipped).toEqual(['other.x']);
  });
  it('never sets a reserved name', () => {
    const { env, skipped } = settingsEnv([{ name: 'tap-x', settings: [{ name: 'path', env: 'PATH' }] }], { 'tap-x.path': '/evil' }, {}, new Set(['PATH']));
    expect(env).toEqual({});
    expect(skipped).toEqual(['tap-x.path']);
  });
  it('on hostile keys and values yields only valid names, no NUL, nothing reserved', () => {
    fc.assert(
      fc.property(fc.array(hostileString, { maxLength: 4 }), fc.dictionary(hostileString, fc.oneof(hostileString, fc.integer(), fc.boolean(), fc.constant(null))), (names, props) => {
        const reserved = new Set(['PATH', 'HOME']);
        const { env } = settingsEnv(names.map((name) => ({ name, settings: [{ name: 'x', env: 'PATH' }] })), props, {}, reserved);
        for (const [name, value] of Object.entries(env)) {
          expect(isValidEnvName(name)).toBe(true);
          expect(reserved.has(name)).toBe(false);
          expect(value.includes('\u0000')).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});
