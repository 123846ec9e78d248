import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdpUser } from '../../server/identity/users';
import { signIn } from '../support/auth';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Issue 17, deliverable 5: the security headers of everything Fastify answers (the SPA's index and
 * assets, /config.json, API JSON and errors), HSTS only over TLS, and the dev outbox refusing a
 * rebound Host. What the headers do in a browser is checked by the e2e suite's CSP listener.
 */

/** A built SPA in miniature: what the static handler and the history fallback serve. */
function miniSpa(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-headers-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
  fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1);');
  return dir;
}

/** The CSP as directive name → sources. */
function parseCsp(header: string | null): Map<string, string[]> {
  expect(header, 'content-security-policy').toBeTruthy();
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), values);
  }
  return directives;
}

function expectHardened(response: Response, what: string) {
  const h = response.headers;
  const csp = parseCsp(h.get('content-security-policy'));
  // scripts: this origin only (script-src, else default-src, governs every script)
  const scripts = csp.get('script-src') ?? csp.get('default-src') ?? [];
  expect(scripts, `${what}: script-src`).toEqual(["'self'"]);
  for (const name of ['script-src', 'script-src-elem', 'script-src-attr', 'default-src']) {
    expect(csp.get(name) ?? [], `${what}: ${name}`).not.toContain("'unsafe-inline'");
    expect(csp.get(name) ?? [], `${what}: ${name}`).not.toContain("'unsafe-eval'");
  }
  expect(csp.get('object-src'), what).toEqual(["'none'"]);
  expect(csp.get('base-uri'), what).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(csp.get('form-action'), what).toEqual(["'self'"]);
  expect(csp.get('img-src'), what).toEqual(expect.arrayContaining(["'self'", 'data:', 'https:']));
  expect(csp.get('connect-src'), what).toContain("'self'");
  expect(h.get('x-frame-options'), what).toBe('DENY');
  expect(h.get('x-content-type-options'), what).toBe('nosniff');
  expect(h.get('referrer-policy'), what).toBe('no-referrer');
  expect(h.get('cross-origin-opener-policy'), what).toBe('same-origin-allow-popups');
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) expect(h.get('permissions-policy'), what).toContain(`${feature}=()`);
  // only features browsers know: an unknown one is a console warning on every page
  expect(h.get('permissions-policy'), what).not.toContain('bluetooth');
  expect(h.get('x-powered-by'), what).toBeNull();
}

/** An API answer is never a document: nothing in it may load, run or be framed. */
function expectApiHardened(response: Response, what: string) {
  const h = response.headers;
  const csp = parseCsp(h.get('content-security-policy'));
  expect(Object.fromEntries(csp), what).toEqual({ 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] });
  expect(h.get('x-frame-options'), what).toBe('DENY');
  expect(h.get('x-content-type-options'), what).toBe('nosniff');
  expect(h.get('referrer-policy'), what).toBe('no-referrer');
  expect(h.get('cross-origin-resource-policy'), what).toBe('same-origin');
  expect(h.get('x-powered-by'), what).toBeNull();
  // the page's document-only headers are not repeated on every read
  expect(h.get('permissions-policy'), what).toBeNull();
}

describe('security headers', () => {
  let server: TestServer;
  let spaDir: string;
  let token: string;

  beforeAll(async () => {
    spaDir = miniSpa();
    server = await startTestServer({ env: { STATIC_DIR: spaDir } });
    const person = { name: 'Hedda Headers', email: 'headers@example.com', password: 'a-long-enough-password-7' };
    await createIdpUser(server.db, { ...person, emailVerified: true });
    token = (await signIn(server.baseUrl, person)).accessToken;
  });
  afterAll(async () => {
    await server?.close();
    if (spaDir) fs.rmSync(spaDir, { recursive: true, force: true });
  });

  it("are on the SPA's index, a deep link into it and /config.json", async () => {
    for (const target of ['/', '/l/some-workspace/feed', '/config.json']) {
      const response = await fetch(`${server.baseUrl}${target}`);
      expect(response.status, target).toBe(200);
      expectHardened(response, target);
    }
  });

  it("are the API's short set less its document-only headers on the build's scripts and stylesheets (issue 39: a kilobyte less on each)", async () => {
    const response = await fetch(`${server.baseUrl}/assets/app.js`);
    expect(response.status).toBe(200);
    const h = response.headers;
    // what a script or stylesheet still obeys: its type as sent, who may embed it, the referrer its fetches send
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(h.get('referrer-policy')).toBe('no-referrer');
    expect(h.get('x-powered-by')).toBeNull();
    // and nothing only a document obeys
    for (const name of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'permissions-policy']) expect(h.get(name), name).toBeNull();
  });

  it("are the API's own, stricter set on API JSON answers and on errors", async () => {
    const root = await fetch(`${server.baseUrl}/api/`, { headers: { authorization: `Bearer ${token}` } });
    expect(root.status).toBe(200);
    expect(root.headers.get('content-type')).toMatch(/json/);
    expectApiHardened(root, 'GET /api/');
    const cases: [string, RequestInit, number][] = [
      ['/api', {}, 401],
      ['/api/no-such-resource', { headers: { authorization: `Bearer ${token}` } }, 404],
      ['/api/workspaces', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{not json' }, 400],
      ['/api/workspaces', { method: 'PATCH', headers: { authorization: `Bearer ${token}` } }, 405],
    ];
    for (const [target, init, status] of cases) {
      const response = await fetch(`${server.baseUrl}${target}`, init);
      expect(response.status, target).toBe(status);
      expectApiHardened(response, `${init.method ?? 'GET'} ${target} (${status})`);
    }
  });

  it("give pages outside /api the page's set, even where a path only begins like the API's", async () => {
    for (const [target, init, status] of [
      ['/apikeys', {}, 200],
      ['/api-docs', {}, 200],
      ['/no-such-file.js', { method: 'POST' }, 404],
    ] as const) {
      const response = await fetch(`${server.baseUrl}${target}`, init);
      expect(response.status, target).toBe(status);
      expectHardened(response, `${'method' in init ? init.method : 'GET'} ${target} (${status})`);
    }
  });

  it("leave the OAuth-connect popup's page without COOP, so its opener can follow it to the provider and back", async () => {
    const popup = await fetch(`${server.baseUrl}/oauth?state=abc`);
    expect(popup.status).toBe(200);
    expect(popup.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
    expect(parseCsp(popup.headers.get('content-security-policy')).get('script-src')).toEqual(["'self'"]);
    expect((await fetch(`${server.baseUrl}/oauthx`)).headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
  });

  it('carry no HSTS over plain http, even when the client claims https without a trusted proxy', async () => {
    expect((await fetch(`${server.baseUrl}/`)).headers.get('strict-transport-security')).toBeNull();
    const forged = await fetch(`${server.baseUrl}/config.json`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers.get('strict-transport-security')).toBeNull();
  });

  it('leave the identity provider its own, stricter page headers', async () => {
    const page = await fetch(`${server.baseUrl}/idp/outbox`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('HSTS behind a TLS-terminating proxy (TRUST_PROXY)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '1', PUBLIC_URL: 'https://app.example.com' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is sent when the proxy says the browser came over https, on SPA and API answers alike', async () => {
    for (const target of ['/config.json', '/api/']) {
      const response = await fetch(`${server.baseUrl}${target}`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(response.headers.get('strict-transport-security'), target).toBe('max-age=31536000');
    }
  });

  it('is not sent when the proxy saw plain http, whatever the client prepended', async () => {
    for (const proto of ['http', 'https, http']) {
      const response = await fetch(`${server.baseUrl}/config.json`, { headers: { 'x-forwarded-proto': proto } });
      expect(response.headers.get('strict-transport-security'), proto).toBeNull();
    }
    expect((await fetch(`${server.baseUrl}/config.json`)).headers.get('strict-transport-security')).toBeNull();
  });
});

/** A GET from this machine with the Host header a DNS-rebinding page's browser would send. */
function getWithHost(port: number, target: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path: target, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

describe('the dev outbox and a DNS-rebinding page', () => {
  let server: TestServer;
  let open: TestServer;
  beforeAll(async () => {
    [server, open] = await Promise.all([startTestServer(), startTestServer({ env: { OUTBOX_PUBLIC: 'true' } })]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), open?.close()]);
  });

  it('refuses a loopback client whose page named another host', async () => {
    for (const host of [`evil.example:${server.port}`, 'evil.example', `127.0.0.1.nip.io:${server.port}`, `localhost.evil.example:${server.port}`]) {
      const json = await getWithHost(server.port, '/idp/outbox.json', host);
      expect(json.status, host).toBe(403);
      expect(JSON.parse(json.body)).toEqual({ error: 'forbidden', error_description: expect.stringContaining('OUTBOX_PUBLIC=true') as unknown });
      const page = await getWithHost(server.port, '/idp/outbox', host);
      expect(page.status, host).toBe(403);
      expect(page.body).toContain('Outbox not available');
      expect(page.body).not.toContain('verify-email');
    }
  });

  it('answers a loopback client at a loopback name', async () => {
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, `[::1]:${server.port}`, 'LOCALHOST']) {
      expect((await getWithHost(server.port, '/idp/outbox.json', host)).status, host).toBe(200);
    }
  });

  it('answers any Host with OUTBOX_PUBLIC=true', async () => {
    expect((await getWithHost(open.port, '/idp/outbox.json', `evil.example:${open.port}`)).status).toBe(200);
  });
});
