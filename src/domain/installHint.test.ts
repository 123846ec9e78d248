import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shouldShowInstallHint } from './installHint';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';

describe('shouldShowInstallHint', () => {
  it('shows on iPhone and iPad in the browser', () => {
    expect(shouldShowInstallHint({ userAgent: IPHONE, standalone: false, dismissed: false })).toBe(true);
    expect(shouldShowInstallHint({ userAgent: IPAD, standalone: false, dismissed: false })).toBe(true);
  });
  it('hides when standalone, dismissed, or not iOS', () => {
    expect(shouldShowInstallHint({ userAgent: IPHONE, standalone: true, dismissed: false })).toBe(false);
    expect(shouldShowInstallHint({ userAgent: IPHONE, standalone: false, dismissed: true })).toBe(false);
    expect(shouldShowInstallHint({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120', standalone: false, dismissed: false })).toBe(false);
  });
  it('never shows once dismissed', () => {
    fc.assert(fc.property(fc.string(), fc.boolean(), (ua, standalone) => {
      expect(shouldShowInstallHint({ userAgent: ua, standalone, dismissed: true })).toBe(false);
    }));
  });
});
