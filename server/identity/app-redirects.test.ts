import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isUnderApp } from './app-redirects';

const APP = 'http://localhost:8080';

describe('isUnderApp', () => {
  it('accepts the app itself and any path of it', () => {
    for (const url of [APP, `${APP}/`, `${APP}/l/123/feed`, `${APP}/logout?x=1`]) expect(isUnderApp(url, APP)).toBe(true);
  });

  it('keeps a path-prefixed app inside its prefix', () => {
    expect(isUnderApp('https://example.com/app/', 'https://example.com/app')).toBe(true);
    expect(isUnderApp('https://example.com/app/x', 'https://example.com/app')).toBe(true);
    expect(isUnderApp('https://example.com/apple', 'https://example.com/app')).toBe(false);
    expect(isUnderApp('https://example.com/app/../evil', 'https://example.com/app')).toBe(false);
  });

  it('refuses other origins and URLs a browser could read differently', () => {
    for (const url of [
      'http://localhost:8081/',
      'https://localhost:8080/',
      'http://localhost.evil.example:8080/',
      'http://evil.example/http://localhost:8080/',
      'http://localhost:8080@evil.example/',
      'http://user:pass@localhost:8080/',
      'http://localhost:8080\\@evil.example/',
      'http://localhost:8080/#/frag',
      'http://localhost:8080/\n',
      ' http://localhost:8080/',
      'http://localhost:8080/\u0000',
      '//localhost:8080/',
      '/relative',
      'javascript:alert(1)',
      '',
    ]) {
      expect(isUnderApp(url, APP), url).toBe(false);
    }
  });

  it('never throws and accepts only URLs whose origin is the app origin (hostile input)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.webUrl({ withFragments: true, withQueryParameters: true }), fc.string().map((s) => `${APP}/${s}`)), (value) => {
        const accepted = isUnderApp(value, APP);
        if (accepted) expect(new URL(value).origin).toBe(APP);
      }),
      { numRuns: 500 },
    );
  });
});
