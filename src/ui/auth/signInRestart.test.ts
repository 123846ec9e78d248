import { describe, expect, it } from 'vitest';
import { rememberSignInRestart, signInRestartedRecently } from './signInRestart';

const memory = () => {
  const items = new Map<string, string>();
  return { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value) };
};

describe('the tab’s note of a restarted sign-in', () => {
  it('holds for two minutes after the restart, not before it and not after', () => {
    const storage = memory();
    expect(signInRestartedRecently(1_000, storage)).toBe(false);
    rememberSignInRestart(1_000, storage);
    expect(signInRestartedRecently(1_000, storage)).toBe(true);
    expect(signInRestartedRecently(1_000 + 119_999, storage)).toBe(true);
    expect(signInRestartedRecently(1_000 + 120_000, storage)).toBe(false);
    expect(signInRestartedRecently(999, storage)).toBe(false);
  });

  it('is false when storage holds nonsense or cannot be used', () => {
    expect(signInRestartedRecently(5, { getItem: () => 'soon' })).toBe(false);
    expect(signInRestartedRecently(5, undefined)).toBe(false);
    expect(() => rememberSignInRestart(5, { setItem: () => { throw new Error('QuotaExceededError'); } })).not.toThrow();
  });
});
