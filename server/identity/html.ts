import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** Markup that is already safe; everything else interpolated into `html` is escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number') return String(value);
  return '';
}

/** Tagged template: `html\`<p>${userInput}</p>\`` escapes the input, nested `html` stays markup. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

// The app's dark slate blue (spec: theme primary colour), no web fonts or any other external asset.
const STYLE = `
:root{--primary:#483D8B;--primary-dark:#372e6e;--text:#1f1d2b;--muted:#5b5870;--error:#b3261e;--bg:#f3f2f9;--card:#fff;--border:#c9c6da}
*{box-sizing:border-box}
html{font-size:100%}
body{margin:0;min-height:100vh;display:flex;align-items:flex-start;justify-content:center;background:var(--bg);color:var(--text);font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{width:100%;max-width:26rem;margin:3rem 1rem;background:var(--card);border-radius:.5rem;box-shadow:0 1px 3px rgba(31,29,43,.2);padding:2rem 1.75rem}
@media (max-width:30rem){main{margin:0;min-height:100vh;border-radius:0;box-shadow:none;padding:1.5rem 1.25rem}}
.brand{margin:0 0 1.5rem;color:var(--primary);font-weight:700;font-size:1.1rem;letter-spacing:.02em}
h1{margin:0 0 .5rem;font-size:1.5rem;line-height:1.25}
p{margin:.5rem 0 1rem}
.lead{color:var(--muted);margin-top:0}
form{margin:1.25rem 0 0}
.field{margin-bottom:1rem}
label{display:block;font-weight:600;margin-bottom:.25rem}
input[type=email],input[type=password],input[type=text]{width:100%;padding:.65rem .75rem;font:inherit;color:inherit;border:1px solid var(--border);border-radius:.375rem;background:#fff}
input:focus{outline:3px solid rgba(72,61,139,.35);outline-offset:1px;border-color:var(--primary)}
input[aria-invalid=true]{border-color:var(--error)}
.hint{color:var(--muted);font-size:.875rem;margin:.25rem 0 0}
.field-error{color:var(--error);font-size:.875rem;margin:.25rem 0 0}
.alert{border-left:4px solid var(--error);background:#fdecea;color:#5f1410;padding:.65rem .85rem;border-radius:.25rem;margin:1rem 0}
.notice{border-left:4px solid var(--primary);background:#eeecf7;padding:.65rem .85rem;border-radius:.25rem;margin:1rem 0}
button,.button{display:inline-block;width:100%;padding:.7rem 1rem;font:inherit;font-weight:600;text-align:center;text-decoration:none;color:#fff;background:var(--primary);border:0;border-radius:.375rem;cursor:pointer}
button:hover,.button:hover{background:var(--primary-dark)}
button:focus-visible,.button:focus-visible,a:focus-visible{outline:3px solid rgba(72,61,139,.5);outline-offset:2px}
a{color:var(--primary)}
.notice .title{display:block}
.button.secondary{color:var(--primary);background:#fff;border:1px solid var(--primary)}
.button.secondary:hover{background:#eeecf7}
.or{margin:1.25rem 0 .5rem;color:var(--muted);text-align:center}
.links{margin-top:1.25rem;display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem;font-size:.95rem}
.mail{border-top:1px solid var(--border);padding:1rem 0}
.mail h2{font-size:1rem;margin:0}
.mail pre{white-space:pre-wrap;word-break:break-word;font:inherit;background:var(--bg);padding:.75rem;border-radius:.375rem}
.meta{color:var(--muted);font-size:.875rem;margin:.25rem 0}
.wide{max-width:48rem}
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const STYLE_HASH = sha256(STYLE);

interface PageOptions {
  title: string;
  brand: string;
  body: SafeHtml;
  /** an inline script the page needs (its hash is added to the content security policy) */
  script?: string;
  wide?: boolean;
}

export interface RenderedPage {
  html: string;
  headers: Record<string, string>;
}

export function renderPage(options: PageOptions, formTargets: string[]): RenderedPage {
  const scriptTag = options.script === undefined ? '' : `<script>${options.script}</script>`;
  const document = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} · ${options.brand}</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<main class="${options.wide ? 'wide' : ''}">
<p class="brand">${options.brand}</p>
${options.body}
</main>
${new SafeHtml(scriptTag)}
</body>
</html>`;
  const csp = [
    "default-src 'none'",
    `style-src ${STYLE_HASH}`,
    options.script === undefined ? "script-src 'none'" : `script-src ${sha256(options.script)}`,
    "img-src 'self' data:",
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return {
    html: document.value,
    headers: {
      'content-security-policy': csp,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  };
}

export function sendPage(res: ServerResponse, status: number, page: RenderedPage, headers: Record<string, string> = {}): void {
  const body = Buffer.from(page.html, 'utf8');
  res.statusCode = status;
  for (const [name, value] of Object.entries({ ...page.headers, ...headers })) res.setHeader(name, value);
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('content-length', body.length);
  res.end(body);
}
