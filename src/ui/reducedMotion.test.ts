// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { honourMotionPreference } from './reducedMotion';

const prefer = (reduce: boolean) =>
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) => ({ matches: reduce && query === '(prefers-reduced-motion: reduce)', media: query }) as MediaQueryList);

afterEach(() => vi.restoreAllMocks());

describe("charts and the reader's motion preference", () => {
  it('turns chart animation off for a reader who asked for less motion', () => {
    prefer(true);
    const defaults = { animation: { duration: 1000 } as unknown };
    honourMotionPreference(defaults);
    expect(defaults.animation).toBe(false);
  });

  it('leaves it as chart.js has it otherwise', () => {
    prefer(false);
    const animation = { duration: 1000 };
    const defaults = { animation: animation as unknown };
    honourMotionPreference(defaults);
    expect(defaults.animation).toBe(animation);
  });
});
