import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileStringWithHuge } from '../hostile.fixture';
import { resolveLink, safeUrl } from './links';

describe('safeUrl and resolveLink', () => {
  it('keeps http(s) and same-site paths, refuses other schemes', () => {
    expect(safeUrl('https://example.com/a.png')).toBe('https://example.com/a.png');
    expect(safeUrl('/api/x.png')).toBe('/api/x.png');
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:image/png;base64,AA', '//evil.test/x', '/\\evil.test', 'java\nscript:x', 'vbscript:x', 'file:///etc/passwd', '', null, undefined]) expect(safeUrl(bad), String(bad)).toBeNull();
  });
  it('never lets a non-http(s) absolute address through (property)', () => {
    fc.assert(fc.property(hostileStringWithHuge, (text) => {
      const url = safeUrl(text);
      if (url !== null) expect(url.startsWith('/') ? !url.startsWith('//') : /^https?:\/\//.test(url)).toBe(true);
    }));
  });
  it('goes to a dataset by alias or needs an href', () => {
    const href = (alias: string) => `/l/w/dataset/${alias}`;
    expect(resolveLink({ dataset: 'a/b', href: null, label: null }, href)).toEqual({ ok: true, href: '/l/w/dataset/a/b' });
    expect(resolveLink({ dataset: null, href: null, label: 'x' }, href)).toEqual({ ok: false, message: 'Link error: expected `href`', detail: '{"dataset":null,"href":null,"label":"x"}' });
  });
});

describe('safeUrl and resolveLink at their edges (mutation testing, issue 40)', () => {
  it('trims an address, takes plain http too, and refuses control characters anywhere', () => {
    expect(safeUrl('  /api/x.png \n')).toBe('/api/x.png');
    expect(safeUrl('http://example.com/a')).toBe('http://example.com/a');
    expect(safeUrl(' https://example.com ')).toBe('https://example.com/');
    for (const bad of ['/a\u0000b', '/a\u0007b', 'https://example.com/\u0001', '/a\u007fb', '   ']) expect(safeUrl(bad), JSON.stringify(bad)).toBeNull();
  });

  it('reads a blank dataset alias as no alias, and trims one that is there', () => {
    const href = (alias: string) => `/l/w/dataset/${alias}`;
    expect(resolveLink({ dataset: '   ', href: 'https://example.com/x', label: null }, href)).toEqual({ ok: true, href: 'https://example.com/x' });
    expect(resolveLink({ dataset: ' a/b ', href: 'https://example.com/x', label: null }, href)).toEqual({ ok: true, href: '/l/w/dataset/a/b' });
    expect(resolveLink({ dataset: '', href: '/l/w/x', label: null }, href)).toEqual({ ok: true, href: '/l/w/x' });
  });
});
