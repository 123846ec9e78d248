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

describe('logos, byte by byte', () => {
  const png = (bytes: number[]) => `data:image/png;base64,${btoa(String.fromCharCode(...bytes))}`;
  const jpeg = (bytes: number[]) => `data:image/jpeg;base64,${btoa(String.fromCharCode(...bytes))}`;
  const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

  it('needs every byte of the signature, not the first alone', () => {
    expect(isSafeLogo(png([...PNG_HEAD, 0, 0, 0, 0x0d]))).toBe(true);
    expect(isSafeLogo(png([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0b, 0]))).toBe(false);
    expect(isSafeLogo(png([0x89, 0, 0, 0, 0, 0, 0, 0, 0]))).toBe(false);
    expect(isSafeLogo(jpeg([0xff, 0xd8, 0xff, 0xdb]))).toBe(true);
    expect(isSafeLogo(jpeg([0xff, 0xd8, 0x00, 0xdb]))).toBe(false);
    expect(isSafeLogo(jpeg(PNG_HEAD))).toBe(false);
    expect(isSafeLogo(png([0xff, 0xd8, 0xff, 0xdb, 0, 0, 0, 0]))).toBe(false);
  });

  it('refuses a data URL too short to hold the signature', () => {
    expect(isSafeLogo('data:image/png;base64,iVBOR')).toBe(false);
    expect(isSafeLogo('data:image/png;base64,iVBORw0K')).toBe(false);
    expect(isSafeLogo('data:image/jpeg;base64,/9g')).toBe(false);
  });

  it('refuses base64 that is cut short or padded wrong after a correct signature', () => {
    const body = PNG.slice('data:image/png;base64,'.length);
    expect(body.length % 4).toBe(0);
    expect(isSafeLogo(`${PNG.slice(0, -2)}`)).toBe(false);
    expect(isSafeLogo(`${PNG.slice(0, -2)}A`)).toBe(false);
    expect(isSafeLogo(`${PNG.slice(0, -1)}`)).toBe(false);
    expect(isSafeLogo(`data:image/png;base64,${body.replace(/=+$/, '')}AAAAA`)).toBe(false);
    expect(isSafeLogo(`data:image/png;base64,${body.replace(/=+$/, '')}AA==`)).toBe(false);
    expect(isSafeLogo(`data:image/jpeg;base64,/9j/4AAQ`)).toBe(true);
    expect(isSafeLogo(`data:image/jpeg;base64,/9j/4AAQS`)).toBe(false);
  });

  it('refuses anything before or after the data URL, and more than two padding characters', () => {
    expect(isSafeLogo(`x${PNG}`)).toBe(false);
    expect(isSafeLogo(` ${PNG}`)).toBe(false);
    expect(isSafeLogo(`${PNG}!`)).toBe(false);
    expect(isSafeLogo(`${PNG}\n`)).toBe(false);
    expect(isSafeLogo(`${PNG}=`)).toBe(false);
    expect(isSafeLogo(PNG.replace('data:image/png;', 'data:image/PNG;'))).toBe(false);
    expect(isSafeLogo(PNG.replace(';base64,', ';base64,,'))).toBe(false);
  });

  it('starts no crop for an infinite or negative side, and confirms no infinite crop', () => {
    expect(initialCrop(Number.POSITIVE_INFINITY, 50)).toEqual({ x: 0, y: 25, size: 0 });
    expect(initialCrop(50, Number.POSITIVE_INFINITY)).toEqual({ x: 25, y: 0, size: 0 });
    expect(initialCrop(-5, 50)).toEqual({ x: 0, y: 25, size: 0 });
    expect(initialCrop(300, -5)).toEqual({ x: 150, y: 0, size: 0 });
    expect(initialCrop(0, 0)).toEqual({ x: 0, y: 0, size: 0 });
    expect(initialCrop(101, 100)).toEqual({ x: 0, y: 0, size: 100 });
    expect(canConfirmCrop(Number.POSITIVE_INFINITY)).toBe(false);
    expect(canConfirmCrop(512)).toBe(true);
  });
});
