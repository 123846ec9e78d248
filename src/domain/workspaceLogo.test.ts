import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from './hostile.fixture';
import { canConfirmCrop, initialCrop, isSafeLogo } from './workspaceLogo';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const b64 = (text: string) => btoa(text);

describe('logos', () => {
  it('accepts PNG and JPEG data URLs whose bytes are that type', () => {
    expect(isSafeLogo(PNG)).toBe(true);
    expect(isSafeLogo(`data:image/jpeg;base64,${btoa(String.fromCharCode(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))}`)).toBe(true);
  });

  it('refuses SVG (script can live in it), other types, mislabelled bytes and plain URLs', () => {
    expect(isSafeLogo(`data:image/svg+xml;base64,${b64('<svg onload="alert(1)"/>')}`)).toBe(false);
    expect(isSafeLogo('data:image/svg+xml,<svg><script>alert(1)</script></svg>')).toBe(false);
    expect(isSafeLogo(`data:image/png;base64,${b64('<svg onload="alert(1)"/>')}`)).toBe(false);
    expect(isSafeLogo(`data:text/html;base64,${b64('<script>alert(1)</script>')}`)).toBe(false);
    expect(isSafeLogo('https://example.com/logo.png')).toBe(false);
    expect(isSafeLogo('javascript:alert(1)')).toBe(false);
  });

  it('starts the crop at 100 px (less for a smaller image), centred, and confirms from 10 px', () => {
    expect(initialCrop(400, 200)).toEqual({ x: 150, y: 50, size: 100 });
    expect(initialCrop(50, 80)).toEqual({ x: 0, y: 15, size: 50 });
    expect(initialCrop(Number.NaN, -1)).toEqual({ x: 0, y: 0, size: 0 });
    expect(canConfirmCrop(10)).toBe(true);
    expect(canConfirmCrop(9.9)).toBe(false);
    expect(canConfirmCrop(Number.NaN)).toBe(false);
  });

  it('never throws on hostile text, and accepts only data URLs of PNG or JPEG', () => {
    fc.assert(
      fc.property(hostileStringWithHuge, (text) => {
        if (isSafeLogo(text)) expect(text).toMatch(/^data:image\/(png|jpeg);base64,/);
      }),
    );
  });
});
