import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { pathTo } from '../../src/domain/routes';
import type { Config } from '../config';

/**
 * The HTTP hardening of every answer Fastify gives: the SPA's index and assets and /config.json get
 * the page's headers, the API (JSON and errors alike) its own stricter set. The embedded identity
 * provider under /idp never reaches Fastify (server/app.ts hands it the raw request) and sets its
 * own, stricter page headers (server/identity/html.ts). Choices and their reasons:
 * docs/decisions.md, "HTTP hardening".
 */

/**
 * An http(s) URL's origin as a CSP source, or undefined. WHATWG URLs allow ';' and ',' in host
 * names, which would end a directive or a policy, so the origin must match this shape exactly.
 */
const CSP_ORIGIN = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

export function cspOrigin(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let origin: string;
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    origin = url.origin;
  } catch {
    return undefined;
  }
  return CSP_ORIGIN.test(origin) ? origin : undefined;
}

const sources = (...values: (string | undefined)[]): string[] => [...new Set(values.filter((v): v is string => v !== undefined))];

/**
 * The Content-Security-Policy directives. Scripts come only from this origin: no inline script,
 * no eval. Styles allow 'unsafe-inline' because Fluent UI (griffel) and mermaid write <style>
 * elements and style attributes at run time, and mermaid has no nonce hook.
 */
export function cspDirectives(config: Config): Record<string, string[]> {
  const { env, auth } = config;
  const publicOrigin = cspOrigin(config.publicUrl);
  // Auth0 mode: the SPA calls AUTH_DOMAIN's token endpoint (and its silent-auth iframe, if ever used)
  const authOrigin = auth.embedded ? undefined : cspOrigin(auth.domain);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    // logos are data: URLs, downloads and the logo cropper blob: URLs; image and carousel datasets
    // show any http(s) image (src/domain/visualisation/links.ts accepts both schemes)
    'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
    'font-src': ["'self'", 'data:'],
    // the API at PUBLIC_URL, the identity provider, error reports and the data-source pickers,
    // which the browser calls with the source's access token
    'connect-src': sources(
      "'self'",
      publicOrigin,
      authOrigin,
      cspOrigin(env.ERROR_REPORTING_URL),
      cspOrigin(env.PICKER_DRIVE_FILES_URL),
      cspOrigin(env.PICKER_ANALYTICS_PROFILES_URL),
      cspOrigin(env.PICKER_ADS_CUSTOMERS_URL),
    ),
    // the service worker; mermaid and Handsontable start no worker
    'worker-src': ["'self'"],
    'frame-src': authOrigin ? [authOrigin] : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'manifest-src': ["'self'"],
  };
}

/**
 * Powerful features nothing in the app uses, switched off for the page and anything it embeds.
 * Only features browsers know: an unknown one (`bluetooth`) is a console warning on every page.
 */
const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'hid',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

const OAUTH_POPUP_PATH = pathTo('oauth');

/** One year, this host only: the app may share a parent domain with sites it does not own. */
const HSTS = 'max-age=31536000';

interface RequestTransport {
  /** the socket is TLS (a server started with a certificate) */
  encrypted: boolean;
  /** the X-Forwarded-Proto header(s), as Node gives them */
  forwardedProto: string | string[] | undefined;
}

/**
 * Whether the browser reached us over TLS. Behind `trustedProxies` reverse proxies, the scheme the
 * client used is the entry the outermost trusted proxy wrote: the n-th from the right of
 * X-Forwarded-Proto, or its leftmost when there are fewer (a proxy that overwrites the header).
 * Without TRUST_PROXY the header is whatever the client wrote and counts for nothing.
 */
export function cameOverTls(request: RequestTransport, trustedProxies: number): boolean {
  if (request.encrypted) return true;
  if (trustedProxies <= 0) return false;
  const chain = (Array.isArray(request.forwardedProto) ? request.forwardedProto.join(',') : (request.forwardedProto ?? ''))
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '');
  if (chain.length === 0) return false;
  return chain[Math.max(chain.length - trustedProxies, 0)] === 'https';
}

/**
 * The headers helmet would set, computed once. They depend on the configuration only, so running
 * helmet's middleware per request (parsing the CSP each time, as @fastify/helmet does) was a sixth
 * of the server's CPU on a feed read; one object assigned per answer costs next to nothing.
 */
function staticSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const collector = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  // helmet reports a bad option by throwing when it is built; its middleware then only sets headers
  helmet(options)({} as IncomingMessage, collector as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * What an API answer carries instead of the page's headers. It is JSON, CSV or text, never a
 * document: nothing in it may load, run or be framed (OWASP's REST Security Cheat Sheet), so its
 * policy is stricter than the page's and the document-only headers (COOP, Permissions-Policy,
 * Origin-Agent-Cluster, the DNS prefetch and download switches) are left out. Fewer bytes on every
 * read, too: the page's set is about a kilobyte.
 */
const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
};

const isApiPath = (pathname: string): boolean => pathname === '/api' || pathname.startsWith('/api/');

/**
 * The app's scripts and stylesheets (the build's /assets/*.js and *.css; the service worker lives
 * at the root and keeps the page's set, its CSP governs it). They are never documents either: a
 * script's or a stylesheet's CSP, COOP or Permissions-Policy governs nothing, so they carry the
 * API's set without its document-only part (below). The page's kilobyte on each of the hundred
 * files a member's first page loads was a quarter of its bytes on the wire (issue 39).
 */
const isCodeAsset = (pathname: string): boolean => pathname.startsWith('/assets/') && /\.(?:js|css)$/.test(pathname);

/**
 * The API's set less what only a document obeys: a CSP and X-Frame-Options govern what a page
 * loads and who frames it, and a script or stylesheet opened on its own, with its own type and
 * nosniff, shows as plain text that loads and runs nothing. What still applies stays: nosniff, the resource policy (who may embed it) and
 * the referrer policy, which a stylesheet's url() fetches and a module's imports follow. About 100
 * bytes less on each of the ~50 files of a member's first page (issue 39).
 */
const { 'content-security-policy': _csp, 'x-frame-options': _xfo, ...CODE_ASSET_HEADERS } = API_SECURITY_HEADERS;

/** Registers the headers on every route of `app`; call before any route is registered. */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headers = staticSecurityHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    // 'same-origin-allow-popups': a page that opens the app loses its handle on it, while the
    // app's own OAuth connect popup (src/machines/oauthConnect) stays readable by its opener
    // (the popup's own page is the exception below)
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // set per request below: only an answer that travelled over TLS may carry it
    strictTransportSecurity: false,
  });
  headers['permissions-policy'] = PERMISSIONS_POLICY;
  const trustedProxies = config.env.TRUST_PROXY;
  app.addHook('onRequest', (request, reply, done) => {
    const pathname = request.url.split('?')[0] ?? '';
    reply.headers(isApiPath(pathname) ? API_SECURITY_HEADERS : isCodeAsset(pathname) ? CODE_ASSET_HEADERS : headers);
    // The OAuth-connect popup's page goes to the provider and back while its opener reads it: with
    // a COOP of its own, leaving for the provider would move it to another browsing context group
    // and the opener would see it closed. Opened from an allow-popups page, unsafe-none keeps it.
    if (pathname === OAUTH_POPUP_PATH) reply.header('cross-origin-opener-policy', 'unsafe-none');
    const encrypted = 'encrypted' in request.raw.socket && request.raw.socket.encrypted === true;
    if (cameOverTls({ encrypted, forwardedProto: request.headers['x-forwarded-proto'] }, trustedProxies)) {
      reply.header('strict-transport-security', HSTS);
    }
    done();
  });
}
