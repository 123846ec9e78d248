import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { html, renderPage, SafeHtml } from './html';
import { linksIn } from './mailer';

describe('html', () => {
  it('escapes interpolated text and keeps nested markup', () => {
    const name = '<script>alert("x")</script>&\'';
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
    expect(html`<div>${html`<b>${'a<b'}</b>`}${[html`<i>1</i>`, '<2>']}${undefined}${false}</div>`.value).toBe('<div><b>a&lt;b</b><i>1</i>&lt;2&gt;</div>');
  });

  it('lets no tag or quote through from text, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const out = html`<a href="${text}">${text}</a>`.value;
        const inner = out.slice('<a href="'.length, -'</a>'.length);
        expect(inner.replace('">', '')).not.toMatch(/[<>"']/);
      }),
    );
  });

  it('renders pages with a strict content security policy and no external asset', () => {
    const page = renderPage({ title: 'T', brand: 'B', body: new SafeHtml('<p>x</p>'), script: 'go()' }, ['http://app.example']);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("form-action 'self' http://app.example");
    expect(page.headers['content-security-policy']).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(page.html).not.toMatch(/https?:\/\//);
    expect(page.html).toContain('#483D8B');
  });
});

describe('linksIn', () => {
  it('finds the links of a mail body', () => {
    expect(linksIn('open\n\nhttp://localhost:8080/idp/verify-email?token=abc_-1\n\nthanks')).toEqual(['http://localhost:8080/idp/verify-email?token=abc_-1']);
    expect(linksIn('no links')).toEqual([]);
  });
});
